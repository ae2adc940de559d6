/**
 * Contract 2.1: an AI fix job is priced flat per job, not per fix, debited at
 * creation. A PDF job with any prepress-engine step (fonts, CMYK, 300 ppi,
 * flatten) is the full PDF tier; bleed only is the lower one.
 */
export const FIX_PRICES = { raster: 200, pdf_bleed: 150, pdf_prepress: 300 } as const;
export type FixTier = keyof typeof FIX_PRICES;

/** The ledger's `operation` for these debits and their refunds. */
export const FIX_OPERATION = "ai_fix";
