import type { IcpType } from "@/lib/foundation/db/schema/studio-values";

/**
 * The Face Crop presets (`icp_type`): the geometry every photo of a batch is cut
 * to, so head size and eye line match across a whole picture day. This table is
 * the only place the values live; docs/api.md shows the same table.
 *
 * Where the values come from:
 * - ISO/IEC 19794-5 / ICAO 9303 (passport and ID photos): chin-to-crown 70-80 % of
 *   the height, eyes 30-50 % from the top, head roll under about 8°. That is the
 *   tight end (an ID card); no preset here is cropped that tight, because school and
 *   corporate portraits show the shoulders.
 * - Yearbook practice (PSPA, the Professional School Photographers Association,
 *   asks for 640 × 800 px, 4:5 portrait, head sizes consistent across the book);
 *   lab "auto-crop" defaults for 4:5 yearbook and 8 × 10 package prints put the head
 *   at about half the frame and the eyes a little above 40 % from the top.
 * - Sports memory-mates and trading cards (2:3, 4 × 6) show the jersey: a smaller head.
 * - Childcare: 4:5 like school, slightly less tight (children's heads move, and
 *   parents buy the shoulders and the outfit), and more roll straightened (children tilt).
 * The exact numbers are our choice inside those ranges.
 */
export { ICP_TYPES, type IcpType } from "@/lib/foundation/db/schema/studio-values";

export type CropPreset = {
  /** Output aspect, width:height. */
  aspect: { w: number; h: number };
  /** Chin-to-crown height as a share of the frame height. */
  headShare: number;
  /** Eye line's distance from the top, as a share of the frame height. */
  eyeLine: number;
  /** Where the face's centre (between eye line and chin) sits across the frame, 0.5 = centred. */
  centreX: number;
  /** Roll (head tilt) straightened up to this many degrees; beyond, only this much. */
  maxRollDeg: number;
  /**
   * Near an edge: "shift_then_pad" moves the window inside the photo by at most
   * `tolerance` (the head stays on the preset), then extends the canvas with the
   * photo's blurred edge pixels for what is still outside. Never zooms in (that
   * cut heads). Every result reports what was done.
   */
  edge: "shift_then_pad";
  /** Print size the preset is sold at, in inches, for `enhance` (needs 300 px per inch). */
  printInches: { w: number; h: number };
  /** How far a crop may land from the geometry and still count as on-preset (share of frame height). */
  tolerance: number;
};

export const PRESETS: Record<IcpType, CropPreset> = {
  school: { aspect: { w: 4, h: 5 }, headShare: 0.5, eyeLine: 0.42, centreX: 0.5, maxRollDeg: 10, edge: "shift_then_pad", printInches: { w: 4, h: 5 }, tolerance: 0.04 },
  corporate: { aspect: { w: 4, h: 5 }, headShare: 0.45, eyeLine: 0.38, centreX: 0.5, maxRollDeg: 10, edge: "shift_then_pad", printInches: { w: 4, h: 5 }, tolerance: 0.04 },
  sports: { aspect: { w: 2, h: 3 }, headShare: 0.3, eyeLine: 0.26, centreX: 0.5, maxRollDeg: 8, edge: "shift_then_pad", printInches: { w: 4, h: 6 }, tolerance: 0.04 },
  childcare: { aspect: { w: 4, h: 5 }, headShare: 0.46, eyeLine: 0.42, centreX: 0.5, maxRollDeg: 15, edge: "shift_then_pad", printInches: { w: 4, h: 5 }, tolerance: 0.04 },
};

export const PRINT_PPI = 300;

/** Pixels the preset's print size needs at 300 ppi. */
export function printPixels(p: CropPreset): { w: number; h: number } {
  return { w: p.printInches.w * PRINT_PPI, h: p.printInches.h * PRINT_PPI };
}
