import sharp from "sharp";
import { RECOGNITION_INPUT } from "./recognition-model";
import type { Point } from "./types";

/** MediaPipe face mesh indices used for alignment: eye corners (as in landmarks.ts), mouth corners and the nose tip. */
const MESH = { leftEye: [33, 133], rightEye: [362, 263], mouth: [61, 291], noseTip: 1 } as const;

/**
 * Where the eyes and the mouth sit in the recognition net's 150 × 150 chip:
 * dlib's face chip template (get_face_chip_details, size 150, padding 0.25),
 * which the net was trained on. From dlib's mean face shape (dlib/image_transforms/
 * interpolation.h): eye centres are the means of points 36-41 and 42-47
 * ((0.2255, 0.2160) and (0.7548, 0.2160)), the mouth the middle of 48 and 54
 * ((0.4901, 0.7802)); a point t of the template lands at (t + 0.25) × 150 / 1.5.
 */
export const CHIP_TEMPLATE = {
  leftEye: { x: 47.55, y: 46.6 },
  rightEye: { x: 100.48, y: 46.6 },
  mouth: { x: 74.01, y: 103.02 },
} as const;

export type AlignPoints = { leftEye: Point; rightEye: Point; mouth: Point };

/** The alignment points of a mesh (in its own pixels), multiplied by `scale`. */
export function alignPointsFromMesh(mesh: [number, number, number?][], scale: number): AlignPoints {
  const mid = (i: number, j: number): Point => ({ x: ((mesh[i]![0] + mesh[j]![0]) / 2) * scale, y: ((mesh[i]![1] + mesh[j]![1]) / 2) * scale });
  return { leftEye: mid(...MESH.leftEye), rightEye: mid(...MESH.rightEye), mouth: mid(...MESH.mouth) };
}

/**
 * The five points the recognition net's template names (reid-model.ts: left eye, right eye,
 * nose tip, left and right mouth corner, "left" on the image's left), from the mesh, in its
 * pixels multiplied by `scale`.
 */
export function fivePointsFromMesh(mesh: [number, number, number?][], scale: number): Point[] {
  const at = (i: number): Point => ({ x: mesh[i]![0] * scale, y: mesh[i]![1] * scale });
  const mid = (i: number, j: number): Point => ({ x: ((mesh[i]![0] + mesh[j]![0]) / 2) * scale, y: ((mesh[i]![1] + mesh[j]![1]) / 2) * scale });
  return [mid(...MESH.leftEye), mid(...MESH.rightEye), at(MESH.noseTip), at(MESH.mouth[0]), at(MESH.mouth[1])];
}

/** A similarity transform (rotation, uniform scale, shift): u = a·x − b·y + tx, v = b·x + a·y + ty. */
export type Similarity = { a: number; b: number; tx: number; ty: number };

/** Least-squares similarity mapping `from` onto `to` (Umeyama, no reflection). */
export function fitSimilarity(from: Point[], to: Point[]): Similarity {
  const n = from.length;
  const fx = from.reduce((s, p) => s + p.x, 0) / n, fy = from.reduce((s, p) => s + p.y, 0) / n;
  const gx = to.reduce((s, p) => s + p.x, 0) / n, gy = to.reduce((s, p) => s + p.y, 0) / n;
  let num1 = 0, num2 = 0, den = 0;
  for (let i = 0; i < n; i++) {
    const px = from[i]!.x - fx, py = from[i]!.y - fy, qx = to[i]!.x - gx, qy = to[i]!.y - gy;
    num1 += px * qx + py * qy;
    num2 += px * qy - py * qx;
    den += px * px + py * py;
  }
  const a = den > 0 ? num1 / den : 1;
  const b = den > 0 ? num2 / den : 0;
  return { a, b, tx: gx - (a * fx - b * fy), ty: gy - (b * fx + a * fy) };
}

export function invert(m: Similarity): (u: number, v: number) => Point {
  const s2 = m.a * m.a + m.b * m.b;
  return (u, v) => {
    const x = u - m.tx, y = v - m.ty;
    return { x: (m.a * x + m.b * y) / s2, y: (-m.b * x + m.a * y) / s2 };
  };
}

/** The transform from image pixels to the chip for one face: eyes and mouth onto the template (upright by roll, standard scale). */
export function chipTransform(p: AlignPoints): Similarity {
  return fitSimilarity([p.leftEye, p.rightEye, p.mouth], [CHIP_TEMPLATE.leftEye, CHIP_TEMPLATE.rightEye, CHIP_TEMPLATE.mouth]);
}

export type RawImage = { data: Buffer; width: number; height: number };

/**
 * Cuts the aligned `size` × `size` (dlib's 150 by default) RGB chip out of an upright raw RGB image. A face
 * larger than the chip is first shrunk with sharp (Lanczos, so no aliasing) to
 * about the chip's scale; the rotation is then sampled bilinearly. Outside the
 * image is black, as in dlib's chips.
 */
export async function extractChip(img: RawImage, m: Similarity, size = RECOGNITION_INPUT): Promise<Uint8Array> {
  const N = size;
  const toSrc = invert(m);
  const corners = [toSrc(0, 0), toSrc(N, 0), toSrc(0, N), toSrc(N, N)];
  const left = Math.max(0, Math.floor(Math.min(...corners.map((c) => c.x))) - 2);
  const top = Math.max(0, Math.floor(Math.min(...corners.map((c) => c.y))) - 2);
  const right = Math.min(img.width, Math.ceil(Math.max(...corners.map((c) => c.x))) + 2);
  const bottom = Math.min(img.height, Math.ceil(Math.max(...corners.map((c) => c.y))) + 2);
  const chip = new Uint8Array(N * N * 3);
  const w = right - left, h = bottom - top;
  if (w < 2 || h < 2) return chip;

  const scale = Math.hypot(m.a, m.b); // chip pixels per image pixel
  let src: Buffer, sw: number, sh: number;
  if (scale < 0.8) {
    sw = Math.max(2, Math.round(w * scale));
    sh = Math.max(2, Math.round(h * scale));
    src = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
      .extract({ left, top, width: w, height: h })
      .resize(sw, sh, { fit: "fill", kernel: "lanczos3" })
      .raw()
      .toBuffer();
  } else {
    sw = w;
    sh = h;
    src = Buffer.alloc(w * h * 3);
    for (let y = 0; y < h; y++) img.data.copy(src, y * w * 3, ((top + y) * img.width + left) * 3, ((top + y) * img.width + left + w) * 3);
  }
  const rx = sw / w, ry = sh / h;
  for (let v = 0; v < N; v++) {
    for (let u = 0; u < N; u++) {
      const p = toSrc(u + 0.5, v + 0.5);
      const cx = (p.x - left) * rx - 0.5, cy = (p.y - top) * ry - 0.5;
      const x0 = Math.floor(cx), y0 = Math.floor(cy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= sw || y0 + 1 >= sh) continue;
      const fx = cx - x0, fy = cy - y0;
      const i00 = (y0 * sw + x0) * 3, i01 = i00 + 3, i10 = i00 + sw * 3, i11 = i10 + 3;
      const o = (v * N + u) * 3;
      for (let c = 0; c < 3; c++) {
        const top_ = src[i00 + c]! * (1 - fx) + src[i01 + c]! * fx;
        const bot = src[i10 + c]! * (1 - fx) + src[i11 + c]! * fx;
        chip[o + c] = Math.round(top_ * (1 - fy) + bot * fy);
      }
    }
  }
  return chip;
}
