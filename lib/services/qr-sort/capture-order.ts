/** A frame as the ordering sees it. */
export type Timed = { filename: string; capturedAt: Date | null };

const byName = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/**
 * Capture order: by EXIF capture time (several cameras merge by their clocks),
 * then by file name (numbers compared as numbers: IMG_9 before IMG_10). A frame
 * without a capture time takes the time of the frame before it in file-name
 * order (cameras number their files in shooting order), so it stays beside its
 * neighbours; a frame with no timed frame before it goes first. When no frame
 * has a time, the order is the file-name order. Returns indexes into `frames`.
 */
export function captureOrder(frames: Timed[]): number[] {
  const named = frames.map((_, i) => i).sort((a, b) => byName.compare(frames[a]!.filename, frames[b]!.filename) || a - b);
  const effective = new Map<number, number>();
  let last = Number.NEGATIVE_INFINITY;
  for (const i of named) {
    const t = frames[i]!.capturedAt?.getTime();
    if (t !== undefined) last = t;
    effective.set(i, t ?? last);
  }
  const rank = new Map(named.map((i, r) => [i, r]));
  return named.slice().sort((a, b) => effective.get(a)! - effective.get(b)! || rank.get(a)! - rank.get(b)!);
}
