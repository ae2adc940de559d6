import { components, type Matte } from "./matte-ops";
import type { DoubtReason, PersonReport } from "./person-matte";

/** A region of the cut-out worth a person's look, in the photo's own pixels. */
export type DoubtfulRegion = {
  reason: DoubtReason | "uncertain";
  left: number;
  top: number;
  width: number;
  height: number;
  /** Its share of the frame (0..1). */
  area: number;
};

/**
 * The engine's own doubt about one cut-out (the job's `quality`): how many people it kept
 * (null when the person rule did not run: a product, a logo, or an `auto` photo that is not
 * a portrait) and the regions where its two models disagree, or where its matte is neither
 * subject nor background over a large area. A studio reviews the cut-outs that have any.
 */
export type CutoutQuality = { peopleKept: number | null; doubtfulRegions: DoubtfulRegion[] };

/** A translucent area (alpha between these) this large a share of the frame is doubtful: a glass, a veil, or the model unsure. */
const UNCERTAIN = { low: 0.25, high: 0.75, minArea: 0.01 };
/** At most this many regions are reported, the largest first. */
const MAX_REGIONS = 8;

export function cutoutQuality(matte: Matte, person: PersonReport | null, scale: number, photo: { width: number; height: number }): CutoutQuality {
  const { width: w, height: h, data: d } = matte;
  const regions: DoubtfulRegion[] = [];
  const toPhoto = (reason: DoubtfulRegion["reason"], box: { left: number; top: number; width: number; height: number }, area: number): DoubtfulRegion => {
    const left = Math.min(photo.width - 1, Math.floor(box.left / scale));
    const top = Math.min(photo.height - 1, Math.floor(box.top / scale));
    return {
      reason,
      left,
      top,
      width: Math.max(1, Math.min(photo.width - left, Math.ceil(box.width / scale))),
      height: Math.max(1, Math.min(photo.height - top, Math.ceil(box.height / scale))),
      area: Math.round(area * 10_000) / 10_000,
    };
  };
  for (const r of person?.doubtful ?? []) regions.push(toPhoto(r.reason, r.box, r.area));

  const unsure = components(w, h, (i) => d[i]! > UNCERTAIN.low && d[i]! < UNCERTAIN.high, true);
  for (let l = 1; l < unsure.sizes.length; l++) {
    const area = unsure.sizes[l]! / (w * h);
    if (area < UNCERTAIN.minArea) continue;
    let x0 = w, y0 = h, x1 = -1, y1 = -1;
    for (let i = 0; i < d.length; i++) {
      if (unsure.labels[i] !== l) continue;
      const x = i % w, y = (i - x) / w;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    regions.push(toPhoto("uncertain", { left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 }, area));
  }
  regions.sort((a, b) => b.area - a.area);
  return { peopleKept: person ? person.people : null, doubtfulRegions: regions.slice(0, MAX_REGIONS) };
}
