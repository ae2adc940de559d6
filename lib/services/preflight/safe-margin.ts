/**
 * Text and artwork should stay this far inside the trim: a guillotine or die
 * cut may land up to about 1.5 mm off, and readers' eyes need a margin. 3 mm
 * (1/8 in) is the common print-shop rule; the report states it in every
 * message, and the viewer draws it as the safe-area line.
 */
export const SAFE_MARGIN_MM = 3;
export const SAFE_MARGIN_PT = (SAFE_MARGIN_MM * 72) / 25.4;
