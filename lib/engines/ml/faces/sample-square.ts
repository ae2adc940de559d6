import type { UprightImage } from "./decode-upright";

/**
 * A square (detection pixels) as an n × n RGB model input, grey (128) where it lies outside
 * the photo: each input pixel the sum of 2 × 2 points of its cell times `scale` (1/4 for
 * 0-255, 1/1020 for 0-1), the positions worked out once per row and column. The crown's and
 * the jaw net's squares: three sharp pipelines (cut, extend, resize) cost ~15 ms a photo;
 * this costs 2-4 ms.
 */
export function sampleSquare(img: Pick<UprightImage, "rgb" | "rgbWidth" | "rgbHeight">, left: number, top: number, side: number, n: number, scale: number): Float32Array {
  const cell = side / n;
  const { rgb, rgbWidth: w, rgbHeight: h } = img;
  // Per input column/row, the two source columns/rows sampled (-1: outside the photo).
  const at = (origin: number, size: number) => {
    const out = new Int32Array(2 * n);
    for (let u = 0; u < n; u++) {
      for (let t = 0; t < 2; t++) {
        const q = Math.floor(origin + (u + (t + 0.5) / 2) * cell);
        out[2 * u + t] = q >= 0 && q < size ? q : -1;
      }
    }
    return out;
  };
  const xs = at(left, w);
  const ys = at(top, h);
  const out = new Float32Array(n * n * 3);
  let o = 0;
  for (let v = 0; v < n; v++) {
    for (let u = 0; u < n; u++) {
      let r = 0, g = 0, b = 0;
      for (let j = 0; j < 2; j++) {
        const y = ys[2 * v + j]!;
        for (let i = 0; i < 2; i++) {
          const x = xs[2 * u + i]!;
          if (x < 0 || y < 0) {
            r += 128; g += 128; b += 128;
            continue;
          }
          const q = (y * w + x) * 3;
          r += rgb[q]!; g += rgb[q + 1]!; b += rgb[q + 2]!;
        }
      }
      out[o++] = r * scale; out[o++] = g * scale; out[o++] = b * scale;
    }
  }
  return out;
}
