import type { Matte } from "./matte-ops";

/**
 * Shapes drawn on a W x H frame for the person rule's tests without a model (person-matte.test.ts,
 * person-tiles.test.ts): "ISNet" and "the person model" are planes the test places.
 */
export function drawnMattes(W: number, H: number) {
  const plane = (f: (x: number, y: number) => number) => {
    const d = new Float32Array(W * H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) d[y * W + x] = f(x, y);
    return d;
  };
  const inRect = (x: number, y: number, x0: number, y0: number, x1: number, y1: number) => x >= x0 && x < x1 && y >= y0 && y < y1;
  const matte = (f: (x: number, y: number) => number | boolean): Matte => ({ data: plane((x, y) => Number(f(x, y))), width: W, height: H });
  const at = (m: Matte, x: number, y: number) => m.data[y * W + x]!;
  return { plane, inRect, matte, at };
}
