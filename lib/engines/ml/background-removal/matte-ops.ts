/**
 * Clean-up operations on a matte: a Float32Array of width * height values in 0..1
 * (1 = subject). They run at the working resolution (at most 1024 px on the long
 * side), before the matte is upsampled to the photo's size. All in place unless noted.
 */
export type Matte = { data: Float32Array; width: number; height: number };

/** Luma (BT.601 weights, 0..255) of the pixel whose red byte is at `i` in interleaved RGB or RGBA. */
export const luminance = (pixels: Uint8Array, i: number) => (pixels[i]! * 77 + pixels[i + 1]! * 150 + pixels[i + 2]! * 29) >> 8;

/**
 * A plane of `n` pixels, 1 where `on(i)`: a plain loop, because `Uint8Array.from` with a mapping function goes through the
 * iterator protocol (~60 ms a 1024 × 768 plane on these machines, against ~5 ms), and the rule builds such planes on every photo.
 */
export function maskWhere(n: number, on: (i: number) => boolean): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (on(i)) out[i] = 1;
  return out;
}

/** Stretches lo..hi to 0..1: clears faint haze below lo, makes near-certain pixels solid. */
export function applyLevels(m: Matte, lo: number, hi: number): void {
  const d = m.data;
  const scale = 1 / (hi - lo);
  for (let i = 0; i < d.length; i++) d[i] = Math.min(1, Math.max(0, (d[i]! - lo) * scale));
}

/** Hard cut at 50 %. */
export function binarize(m: Matte, threshold = 0.5): void {
  const d = m.data;
  for (let i = 0; i < d.length; i++) d[i] = d[i]! >= threshold ? 1 : 0;
}

type Components = { labels: Int32Array; sizes: number[]; touchesBorder: boolean[] };

/**
 * Labels connected regions where inside(i) holds (labels 1..n, 0 = outside).
 * Foreground uses 8-neighbours and background 4-neighbours, the usual pairing
 * that keeps a diagonal one-pixel gap from both joining and splitting regions.
 */
export function components(width: number, height: number, inside: (i: number) => boolean, eight: boolean): Components {
  const n = width * height;
  const labels = new Int32Array(n);
  const sizes: number[] = [0];
  const touchesBorder: boolean[] = [false];
  const stack = new Int32Array(n);
  for (let start = 0; start < n; start++) {
    if (labels[start] !== 0 || !inside(start)) continue;
    const label = sizes.length;
    let size = 0;
    let border = false;
    let top = 0;
    stack[top++] = start;
    labels[start] = label;
    while (top > 0) {
      const i = stack[--top]!;
      size++;
      const x = i % width;
      const y = (i - x) / width;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) border = true;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          if ((dx === 0 && dy === 0) || (!eight && dx !== 0 && dy !== 0)) continue;
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const j = ny * width + nx;
          if (labels[j] === 0 && inside(j)) {
            labels[j] = label;
            stack[top++] = j;
          }
        }
      }
    }
    sizes.push(size);
    touchesBorder.push(border);
  }
  return { labels, sizes, touchesBorder };
}

/**
 * Removes specks: regions (counted with their soft fringe, matte > 0.1) smaller
 * than `fraction` of the largest region. Returns how many were removed.
 */
export function removeSmallIslands(m: Matte, fraction: number): number {
  const d = m.data;
  const { labels, sizes } = components(m.width, m.height, (i) => d[i]! > 0.1, true);
  const largest = Math.max(0, ...sizes);
  const drop = sizes.map((s, label) => label > 0 && s < largest * fraction);
  for (let i = 0; i < d.length; i++) if (drop[labels[i]!]) d[i] = 0;
  return drop.filter(Boolean).length;
}

/**
 * Fills enclosed holes (background regions that do not reach the image border)
 * that are either small (pin-holes from reflections, at most `maxFraction` of the
 * subject's area) or where the model was unsure (mean matte at least
 * `minConfidence`). A confident, large hole, like the gap of a mug's handle, stays.
 * Returns how many holes were filled.
 */
export function fillHoles(m: Matte, maxFraction: number, minConfidence: number): number {
  const d = m.data;
  let subject = 0;
  for (let i = 0; i < d.length; i++) if (d[i]! >= 0.5) subject++;
  const { labels, sizes, touchesBorder } = components(m.width, m.height, (i) => d[i]! < 0.5, false);
  const sums = new Float64Array(sizes.length);
  for (let i = 0; i < d.length; i++) sums[labels[i]!]! += d[i]!;
  const fill = sizes.map(
    (s, label) => label > 0 && !touchesBorder[label] && (s <= subject * maxFraction || sums[label]! / s >= minConfidence),
  );
  for (let i = 0; i < d.length; i++) if (fill[labels[i]!]) d[i] = 1;
  return fill.filter(Boolean).length;
}

/**
 * Distance (in pixels, chamfer 3-4 approximation of Euclidean) from each subject
 * pixel (matte >= 0.5) to the nearest non-subject pixel or image border; 0 outside.
 */
export function insideDistance(m: Matte): Float32Array {
  const { width: w, height: h, data: d } = m;
  const big = 1e9;
  const dist = new Float32Array(w * h);
  for (let i = 0; i < dist.length; i++) dist[i] = d[i]! >= 0.5 ? big : 0;
  return chamfer34(dist, w, h, 0);
}

/**
 * Two passes of the 3-4 chamfer transform over `dist` (0 where the distance is
 * measured from, a large number elsewhere), in place, answered in pixels.
 * `border` is what lies outside the image: 0 makes the border a boundary, a large
 * number makes it none.
 */
export function chamfer34(dist: Float32Array, w: number, h: number, border: number): Float32Array {
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= w || y >= h ? border : dist[y * w + x]!);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (dist[i] === 0) continue;
      dist[i] = Math.min(dist[i]!, at(x - 1, y) + 3, at(x, y - 1) + 3, at(x - 1, y - 1) + 4, at(x + 1, y - 1) + 4);
    }
  }
  for (let y = h - 1; y >= 0; y--) {
    for (let x = w - 1; x >= 0; x--) {
      const i = y * w + x;
      if (dist[i] === 0) continue;
      dist[i] = Math.min(dist[i]!, at(x + 1, y) + 3, at(x, y + 1) + 3, at(x + 1, y + 1) + 4, at(x - 1, y + 1) + 4);
    }
  }
  for (let i = 0; i < dist.length; i++) dist[i] = dist[i]! / 3;
  return dist;
}

/** Makes the subject's interior (farther than `radius` px from its outline) fully opaque. */
export function solidifyInterior(m: Matte, radius: number): void {
  const dist = insideDistance(m);
  const d = m.data;
  for (let i = 0; i < d.length; i++) if (dist[i]! > radius) d[i] = 1;
}

/** Bounding box of matte >= threshold, or null when there is no subject. */
export function subjectBox(m: Matte, threshold = 0.5): { left: number; top: number; width: number; height: number } | null {
  let minX = m.width, minY = m.height, maxX = -1, maxY = -1;
  for (let y = 0; y < m.height; y++) {
    const row = y * m.width;
    for (let x = 0; x < m.width; x++) {
      if (m.data[row + x]! >= threshold) {
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  return maxX < 0 ? null : { left: minX, top: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

/** Bilinear resize of a float plane (pixel centres aligned), used for the matte and filter coefficients. */
export function resizeBilinear(src: Float32Array, sw: number, sh: number, dw: number, dh: number): Float32Array {
  if (sw === dw && sh === dh) return new Float32Array(src);
  const out = new Float32Array(dw * dh);
  const sx = sw / dw;
  const sy = sh / dh;
  for (let y = 0; y < dh; y++) {
    const fy = Math.min(sh - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(sh - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < dw; x++) {
      const fx = Math.min(sw - 1, Math.max(0, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(sw - 1, x0 + 1);
      const wx = fx - x0;
      const top = src[y0 * sw + x0]! * (1 - wx) + src[y0 * sw + x1]! * wx;
      const bottom = src[y1 * sw + x0]! * (1 - wx) + src[y1 * sw + x1]! * wx;
      out[y * dw + x] = top * (1 - wy) + bottom * wy;
    }
  }
  return out;
}
