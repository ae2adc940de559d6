/**
 * Counting the people a cut-out kept. The person rule finds them as regions of the person
 * model's 256 px mask, where people who touch (an arm round a shoulder, a child on a lap)
 * are one region; faces tell them apart. The face detector runs in its own worker
 * (lib/engines/ml/faces), beside the cut-out, and its faces are counted here on the kept
 * people's regions, which the cut-out's worker sends back as a coarse map.
 */

/** The people regions a cut-out kept, coarse: `labels` holds k (1..regions) on the k-th region, 0 elsewhere. */
export type PeopleMap = { width: number; height: number; regions: number; labels: Uint8Array };

/** The map's long side: enough to put a face's centre on the right person, small to send between threads. */
const MAP_SIDE = 160;

/**
 * The kept regions of `labels` (a component labelling at the working size) as a PeopleMap,
 * sampled down to MAP_SIDE on the long side (nearest: a label is never blended).
 */
export function peopleMapOf(labels: Int32Array, kept: number[], w: number, h: number): PeopleMap {
  const step = Math.max(1, Math.max(w, h) / MAP_SIDE);
  const mw = Math.max(1, Math.round(w / step)), mh = Math.max(1, Math.round(h / step));
  const index = new Map(kept.slice(0, 255).map((l, k) => [l, k + 1]));
  const out = new Uint8Array(mw * mh);
  for (let y = 0; y < mh; y++) {
    const sy = Math.min(h - 1, Math.floor((y + 0.5) * step));
    for (let x = 0; x < mw; x++) {
      const sx = Math.min(w - 1, Math.floor((x + 0.5) * step));
      out[y * mw + x] = index.get(labels[sy * w + sx]!) ?? 0;
    }
  }
  return { width: mw, height: mh, regions: index.size, labels: out };
}

/** A face's box in the photo's upright pixels. */
export type FaceBox = { x: number; y: number; w: number; h: number };

/**
 * People kept: each kept region counts as many people as faces lie on it, at least one (a
 * person seen from behind has no face to find). A face lies on a region when the region
 * covers its box's centre or, failing that, most of the box's middle third (a face the
 * coarse map shaved at the edge). Faces on no kept region (the person behind, removed; a
 * face on a poster) are not counted.
 */
export function countPeople(map: PeopleMap, faces: FaceBox[], photo: { width: number; height: number }): number {
  const perRegion = new Int32Array(map.regions + 1);
  const sx = map.width / photo.width, sy = map.height / photo.height;
  const at = (x: number, y: number) => map.labels[Math.min(map.height - 1, Math.max(0, Math.floor(y * sy))) * map.width + Math.min(map.width - 1, Math.max(0, Math.floor(x * sx)))]!;
  for (const f of faces) {
    let region = at(f.x + f.w / 2, f.y + f.h / 2);
    if (!region) {
      // The middle third of the box, on a 5 x 5 grid: the region most of it lies on.
      const votes = new Int32Array(map.regions + 1);
      for (let j = 0; j < 5; j++) for (let i = 0; i < 5; i++) votes[at(f.x + (f.w * (1 + i / 4)) / 3, f.y + (f.h * (1 + j / 4)) / 3)]! += 1;
      for (let l = 1; l <= map.regions; l++) if (votes[l]! > 12 && votes[l]! > votes[region]!) region = l;
    }
    if (region) perRegion[region]! += 1;
  }
  let people = 0;
  for (let l = 1; l <= map.regions; l++) people += Math.max(1, perRegion[l]!);
  return people;
}

/** A summit of a region's top edge stands this share of the region's height above the dips beside it (a head over the shoulders). */
const SUMMIT_RISE = 0.04;
/** A region this many times wider than high could be two people whose heads make one summit. */
const WIDE = 2;

/**
 * Whether some kept region could be more than one person, so that its faces are worth
 * looking for: its top edge (the highest pixel of each column) has two or more summits
 * (two heads side by side; also a person's raised hands, which only costs the look), or
 * it is much wider than high. A lone person's top edge rises once, to the head, so for
 * the usual portrait the face detector is not run and the count is one a region.
 */
export function mayHoldSeveral(map: PeopleMap): boolean {
  for (let region = 1; region <= map.regions; region++) {
    const top: number[] = [];
    let bottom = -1, first = -1, last = -1;
    for (let x = 0; x < map.width; x++) {
      let t = -1;
      for (let y = 0; y < map.height; y++) {
        if (map.labels[y * map.width + x] !== region) continue;
        if (t < 0) t = y;
        bottom = Math.max(bottom, y);
      }
      if (t < 0) continue;
      top.push(t);
      if (first < 0) first = x;
      last = x;
    }
    if (!top.length) continue;
    const height = bottom - Math.min(...top) + 1;
    if (top.length >= WIDE * height) return true;
    // Beyond a side of the region inside the frame, its outline goes down: a drop. A side cut by the frame is not one.
    const edge = [...(first > 0 ? [bottom] : []), ...top, ...(last < map.width - 1 ? [bottom] : [])];
    if (summits(edge, Math.max(2, SUMMIT_RISE * height)) >= 2) return true;
  }
  return false;
}

/**
 * Summits of a top edge (y grows downward): local highs from which the edge drops by at
 * least `rise` on both sides before it climbs higher; the array's ends are not drops.
 */
function summits(top: number[], rise: number): number {
  let count = 0;
  for (let i = 0; i < top.length; i++) {
    if ((i > 0 && top[i - 1]! < top[i]!) || (i + 1 < top.length && top[i + 1]! <= top[i]!)) continue; // not a local high (a plateau counts at its right end)
    const drop = (step: number) => {
      let low = top[i]!;
      for (let j = i + step; j >= 0 && j < top.length && top[j]! >= top[i]!; j += step) {
        low = Math.max(low, top[j]!);
        if (low - top[i]! >= rise) break;
      }
      return low - top[i]!;
    };
    if (drop(-1) >= rise && drop(1) >= rise) count++;
  }
  return count;
}
