/**
 * How close counts as meeting a requirement. A measured value carries the noise of
 * its sources (a placement matrix written to five decimals, a canvas size typed in
 * inches): a file that meets the requirement on paper must not fail by a rounding
 * error, and a failing value is shown rounded the way the check decided.
 */

/** An image within half a percent of the required resolution meets it (299.99 ppi meets 300). */
export const RESOLUTION_TOLERANCE = 0.005;

export function meetsResolution(ppi: number, requiredPpi: number): boolean {
  return ppi >= requiredPpi * (1 - RESOLUTION_TOLERANCE);
}

/** A failing resolution for people: rounded, and never shown as the required value it missed. */
export function shownPpi(ppi: number, requiredPpi: number): number {
  return Math.min(Math.round(ppi), Math.ceil(requiredPpi) - 1);
}
