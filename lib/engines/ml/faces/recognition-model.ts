import fs from "node:fs";
import path from "node:path";
import { humanPaths } from "./human-model";

/**
 * dlib's face recognition ResNet (29 conv layers, 128-d output, trained by Davis
 * King; the model is public domain) as converted to TensorFlow.js by face-api.js
 * and shipped in `@vladmandic/face-api` 1.7 (`model/face_recognition_model*`,
 * weights quantised to uint8).
 *
 * Why not face-api's own code: its node bundles `require("@tensorflow/tfjs")`
 * (the union package, not installed) and would bring a second tfjs-core into the
 * worker, with its own backend registry and its own copy of the wasm binary;
 * two tfjs copies in one thread fight over the global engine. So only the weights
 * are read, decoded with the tfjs that Human already runs in this thread
 * (`human.tf.io.decodeWeights`), and the forward pass below is face-api's
 * (src/faceRecognitionNet: convDown, max pool, residual blocks, mean, fc) written
 * against that same tfjs: one tfjs, one wasm backend, one set of kernels.
 *
 * Files read (by path, from the project's node_modules; listed in engine-files.ts):
 * node_modules/@vladmandic/face-api/model/face_recognition_model-weights_manifest.json
 * node_modules/@vladmandic/face-api/model/face_recognition_model.bin
 */
export const RECOGNITION_INPUT = 150;
/** The net's per-channel mean (RGB), subtracted before dividing by 255, as in face-api. */
const MEAN_RGB = [122.782, 117.001, 104.298] as const;

// The subset of tfjs this file uses (Human's tf, typed loosely: Human's bundle has no usable types here).
type T = { shape: number[]; dispose(): void; data(): Promise<Float32Array> } & Record<string, unknown>;
type Tf = {
  io: { decodeWeights(buf: ArrayBuffer, specs: unknown[]): Record<string, T> };
  tidy<R>(fn: () => R): R;
  tensor4d(values: Float32Array, shape: [number, number, number, number], dtype: "float32"): T;
  conv2d(x: T, f: T, strides: [number, number], pad: "same" | "valid"): T;
  maxPool(x: T, size: number, strides: number, pad: "valid"): T;
  avgPool(x: T, size: number, strides: number, pad: "valid"): T;
  add(a: T, b: T | number): T;
  sub(a: T, b: T): T;
  mul(a: T, b: T | number): T;
  div(a: T, b: number): T;
  relu(x: T): T;
  zeros(shape: number[]): T;
  concat(xs: T[], axis: number): T;
  mean(x: T, axes: number[]): T;
  matMul(a: T, b: T): T;
  tensor1d(values: number[]): T;
};

export type RecognitionNet = {
  /** Embeds a batch of aligned 150 × 150 RGB chips (bytes 0-255, row-major); one raw 128-d vector each. */
  embed(chips: Uint8Array[]): Promise<Float32Array[]>;
};

export function recognitionModelFiles(): { manifest: string; weights: string } {
  // Resolved from the project root as Human is (human-model.ts); not named `require`, so no bundler reads it as one.
  const fromRoot = humanPaths().require;
  const dir = path.join(path.dirname(fromRoot.resolve("@vladmandic/face-api/package.json")), "model");
  return { manifest: path.join(dir, "face_recognition_model-weights_manifest.json"), weights: path.join(dir, "face_recognition_model.bin") };
}

export function loadRecognitionNet(tfAny: unknown): RecognitionNet {
  const tf = tfAny as Tf;
  const files = recognitionModelFiles();
  const manifest = JSON.parse(fs.readFileSync(/* turbopackIgnore: true */ files.manifest, "utf8")) as { weights: unknown[] }[];
  const bin = fs.readFileSync(/* turbopackIgnore: true */ files.weights);
  const w = tf.io.decodeWeights(bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength) as ArrayBuffer, manifest.flatMap((g) => g.weights));
  const get = (name: string): T => {
    const t = w[name];
    if (!t) throw new Error(`face recognition weights: ${name} missing from ${files.manifest}`);
    return t;
  };
  const mean = tf.tensor1d([...MEAN_RGB]);

  const convLayer = (x: T, prefix: string, strides: [number, number], relu: boolean, pad: "same" | "valid" = "same"): T => {
    let out = tf.conv2d(x, get(`${prefix}/conv/filters`), strides, pad);
    out = tf.add(out, get(`${prefix}/conv/bias`));
    out = tf.add(tf.mul(out, get(`${prefix}/scale/weights`)), get(`${prefix}/scale/biases`));
    return relu ? tf.relu(out) : out;
  };
  const residual = (x: T, p: string): T => tf.relu(tf.add(convLayer(convLayer(x, `${p}/conv1`, [1, 1], true), `${p}/conv2`, [1, 1], false), x));
  const residualDown = (x: T, p: string): T => {
    let out = convLayer(convLayer(x, `${p}/conv1`, [2, 2], true, "valid"), `${p}/conv2`, [1, 1], false);
    let pooled = tf.avgPool(x, 2, 2, "valid");
    if (pooled.shape[1] !== out.shape[1] || pooled.shape[2] !== out.shape[2]) {
      out = tf.concat([out, tf.zeros([out.shape[0]!, 1, out.shape[2]!, out.shape[3]!])], 1);
      out = tf.concat([out, tf.zeros([out.shape[0]!, out.shape[1]!, 1, out.shape[3]!])], 2);
    }
    if (pooled.shape[3] !== out.shape[3]) pooled = tf.concat([pooled, tf.zeros(pooled.shape)], 3);
    return tf.relu(tf.add(pooled, out));
  };

  return {
    async embed(chips) {
      if (chips.length === 0) return [];
      const n = chips.length;
      const size = RECOGNITION_INPUT * RECOGNITION_INPUT * 3;
      const input = new Float32Array(n * size);
      chips.forEach((c, i) => {
        if (c.length !== size) throw new Error(`face chip ${i} has ${c.length} values, expected ${size}`);
        input.set(c, i * size);
      });
      const result = tf.tidy(() => {
        const x = tf.div(tf.sub(tf.tensor4d(input, [n, RECOGNITION_INPUT, RECOGNITION_INPUT, 3], "float32"), mean), 255);
        let out = convLayer(x, "conv32_down", [2, 2], true, "valid");
        out = tf.maxPool(out, 3, 2, "valid");
        for (const p of ["conv32_1", "conv32_2", "conv32_3"]) out = residual(out, p);
        out = residualDown(out, "conv64_down");
        for (const p of ["conv64_1", "conv64_2", "conv64_3"]) out = residual(out, p);
        out = residualDown(out, "conv128_down");
        for (const p of ["conv128_1", "conv128_2"]) out = residual(out, p);
        out = residualDown(out, "conv256_down");
        for (const p of ["conv256_1", "conv256_2"]) out = residual(out, p);
        out = residualDown(out, "conv256_down_out");
        return tf.matMul(tf.mean(out, [1, 2]), get("fc"));
      });
      try {
        const flat = await result.data();
        return Array.from({ length: n }, (_, i) => flat.slice(i * 128, (i + 1) * 128));
      } finally {
        result.dispose();
      }
    },
  };
}
