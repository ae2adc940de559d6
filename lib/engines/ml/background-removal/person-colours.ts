/**
 * The colour cue shared by the steps that give a fill back to ISNet (person-matte.ts clearGaps and clearGround,
 * person-between.ts clearBetween): coarse colour histograms of the people and of the background near a piece, and
 * per piece how many of its pixels have the background's colours rather than the people's. Moved out of
 * person-matte.ts unchanged so that a helper file can use it without importing person-matte.ts.
 */

/** Histogram bins per colour channel for the gap cue (8: 512 bins, coarse enough for a few thousand pixels). */
const GAP_BINS = 8;
const binOf = (rgb: Uint8Array, i: number) => ((rgb[i * 3]! >> 5) * GAP_BINS + (rgb[i * 3 + 1]! >> 5)) * GAP_BINS + (rgb[i * 3 + 2]! >> 5);

export type Colours = { people: Float64Array; background: Float64Array; peopleCount: number; backgroundCount: number };

/**
 * Colour histograms (GAP_BINS per channel) within `radius` of the pieces `near` measures from: the people's pixels and the
 * background's (clearGaps, clearGround, clearBetween). Null when either side has no pixel there.
 */
export function nearbyColours(rgb: Uint8Array, near: Float32Array, radius: number, people: (i: number) => boolean, background: (i: number) => boolean): Colours | null {
  const c: Colours = { people: new Float64Array(GAP_BINS ** 3), background: new Float64Array(GAP_BINS ** 3), peopleCount: 0, backgroundCount: 0 };
  for (let i = 0; i < near.length; i++) {
    if (near[i]! > radius) continue;
    if (people(i)) {
      c.people[binOf(rgb, i)]! += 1;
      c.peopleCount++;
    } else if (background(i)) {
      c.background[binOf(rgb, i)]! += 1;
      c.backgroundCount++;
    }
  }
  return c.peopleCount && c.backgroundCount ? c : null;
}

/** Per piece, how many of its pixels (those `counted` takes) have a colour whose background share is at least `factor` times its people share. */
export function backgroundLike(pieces: { labels: Int32Array; sizes: number[] }, counted: (i: number, label: number) => boolean, rgb: Uint8Array, c: Colours, factor: number): Float64Array {
  const like = new Float64Array(pieces.sizes.length);
  for (let i = 0; i < pieces.labels.length; i++) {
    const l = pieces.labels[i]!;
    if (!counted(i, l)) continue;
    const b = binOf(rgb, i);
    if (c.background[b]! > 0 && c.background[b]! / c.backgroundCount >= factor * (c.people[b]! / c.peopleCount)) like[l]! += 1;
  }
  return like;
}
