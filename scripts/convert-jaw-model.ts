/**
 * Writes face-api's `faceLandmark68Net` (@vladmandic/face-api 1.7, MIT: its
 * `model/face_landmark_68_model` manifest and uint8-quantised weights) as the ONNX file the
 * face worker runs on onnxruntime-node (lib/engines/ml/faces/jaw-model.ts). Run once, by hand;
 * its output is committed (lib/engines/ml/faces/models/face-landmark-68.onnx, provenance in
 * models/PROVENANCE-face-landmark-68.md).
 *
 *   npx tsx scripts/convert-jaw-model.ts [out.onnx]
 *
 * Why ONNX (issue 37): the same net written on Human's tfjs wasm took ~16 ms a pass in the
 * worker; onnxruntime's native kernels take a fraction of that, and the face worker already
 * holds onnxruntime for the recognition net.
 *
 * The graph is face-api's FaceLandmark68Net layer for layer (four denseBlock4s, each
 * convolution adding onto the sum of the ones before it; average pool 7/2; fully connected),
 * with its preprocessing in front: input N × 112 × 112 × 3 RGB 0-255 (NHWC, as sampleSquare
 * makes it), minus face-api's mean RGB, divided by 256, to NCHW. TensorFlow's "same" padding
 * is ONNX's SAME_UPPER (the odd pixel at the end). The weights stay uint8 as shipped, each
 * tensor dequantised in the graph (q × scale + min, what tfjs's decodeWeights computes), which
 * onnxruntime folds once when the session is made. Output N × 136: x, y of the 68 points in
 * 0-1 of the square.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { onnx } from "onnx-proto";

/** face-api's mean RGB, subtracted before its division by 256 (FaceLandmark68NetBase). */
const MEAN_RGB = [122.782, 117.001, 104.298];
const INPUT = 112;

type Spec = { name: string; shape: number[]; dtype: string; quantization?: { dtype: string; scale: number; min: number } };

const attrInts = (name: string, ints: number[]) => onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INTS, ints });
const attrInt = (name: string, i: number) => onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i });
const attrString = (name: string, s: string) => onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.STRING, s: new TextEncoder().encode(s) });

/** TensorFlow's [kh, kw, in, out] (conv, pointwise) or [kh, kw, in, 1] (depthwise: to [in, 1, kh, kw]) as ONNX's [out, in, kh, kw]. */
function toOnnxLayout(q: Uint8Array, shape: number[], depthwise: boolean): { data: Uint8Array; dims: number[] } {
  const [kh, kw, cin, cout] = shape as [number, number, number, number];
  const out = new Uint8Array(q.length);
  const dims = depthwise ? [cin, 1, kh, kw] : [cout, cin, kh, kw];
  for (let y = 0; y < kh; y++)
    for (let x = 0; x < kw; x++)
      for (let i = 0; i < cin; i++)
        for (let o = 0; o < cout; o++) {
          const from = ((y * kw + x) * cin + i) * cout + o;
          const to = depthwise ? (i * kh + y) * kw + x : ((o * cin + i) * kh + y) * kw + x;
          out[to] = q[from]!;
        }
  return { data: out, dims };
}

export function convertJawModel(manifest: { weights: Spec[] }[], bin: Buffer): Uint8Array {
  const specs = manifest.flatMap((m) => m.weights);
  const nodes: onnx.INodeProto[] = [];
  const initializers: onnx.ITensorProto[] = [];
  const floatConst = (name: string, values: number[], dims: number[]) =>
    initializers.push(onnx.TensorProto.create({ name, dims, dataType: onnx.TensorProto.DataType.FLOAT, floatData: values }));
  const node = (opType: string, input: string[], output: string, attribute: onnx.IAttributeProto[] = []) => {
    nodes.push(onnx.NodeProto.create({ name: output, opType, input, output: [output], attribute }));
    return output;
  };

  // Every weight: its uint8 bytes (in ONNX's layout) and q × scale + min in the graph.
  const weights = new Map<string, string>();
  let offset = 0;
  for (const s of specs) {
    const n = s.shape.reduce((a, b) => a * b, 1);
    if (s.dtype !== "float32" || s.quantization?.dtype !== "uint8") throw new Error(`${s.name}: ${s.dtype}/${s.quantization?.dtype} has no conversion here`);
    const q = new Uint8Array(bin.buffer, bin.byteOffset + offset, n);
    offset += n;
    const { data, dims } = s.shape.length === 4 ? toOnnxLayout(q, s.shape, s.name.endsWith("depthwise_filter")) : { data: Uint8Array.from(q), dims: s.shape };
    const raw = `${s.name}/uint8`;
    initializers.push(onnx.TensorProto.create({ name: raw, dims, dataType: onnx.TensorProto.DataType.UINT8, rawData: data }));
    floatConst(`${s.name}/scale`, [s.quantization.scale], []);
    floatConst(`${s.name}/min`, [s.quantization.min], []);
    const asFloat = node("Cast", [raw], `${s.name}/float`, [attrInt("to", onnx.TensorProto.DataType.FLOAT)]);
    weights.set(s.name, node("Add", [node("Mul", [asFloat, `${s.name}/scale`], `${s.name}/scaled`), `${s.name}/min`], s.name));
  }
  if (offset !== bin.length) throw new Error(`the manifest names ${offset} bytes, the weights file has ${bin.length}`);
  const w = (name: string) => {
    const t = weights.get(name);
    if (!t) throw new Error(`face_landmark_68_model: no weight ${name}`);
    return t;
  };

  // Preprocessing: (RGB − mean) / 256, NHWC → NCHW.
  floatConst("mean_rgb", MEAN_RGB, [3]);
  floatConst("inv_256", [1 / 256], []);
  let x = node("Transpose", [node("Mul", [node("Sub", ["input", "mean_rgb"], "centred"), "inv_256"], "normalised")], "nchw", [attrInts("perm", [0, 3, 1, 2])]);

  const same = attrString("auto_pad", "SAME_UPPER");
  const channels = (name: string) => specs.find((s) => s.name === name)!.shape[2]!;
  const separable = (input: string, name: string, stride: number) => {
    const dw = node("Conv", [input, w(`${name}/depthwise_filter`)], `${name}/depthwise`, [same, attrInts("strides", [stride, stride]), attrInt("group", channels(`${name}/depthwise_filter`)), attrInts("kernel_shape", [3, 3])]);
    return node("Conv", [dw, w(`${name}/pointwise_filter`), w(`${name}/bias`)], `${name}/out`, [attrInts("kernel_shape", [1, 1])]);
  };
  const add = (a: string, b: string, name: string) => node("Add", [a, b], name);
  const relu = (a: string, name: string) => node("Relu", [a], name);
  for (const [i, block] of ["dense0", "dense1", "dense2", "dense3"].entries()) {
    const out1 = relu(
      i === 0 ? node("Conv", [x, w(`${block}/conv0/filters`), w(`${block}/conv0/bias`)], `${block}/conv0/out`, [same, attrInts("strides", [2, 2]), attrInts("kernel_shape", [3, 3])]) : separable(x, `${block}/conv0`, 2),
      `${block}/out1`,
    );
    const out2 = separable(out1, `${block}/conv1`, 1);
    const sum12 = add(out1, out2, `${block}/sum12`);
    const out3 = separable(relu(sum12, `${block}/in3`), `${block}/conv2`, 1);
    const sum123 = add(sum12, out3, `${block}/sum123`);
    const out4 = separable(relu(sum123, `${block}/in4`), `${block}/conv3`, 1);
    x = relu(add(sum123, out4, `${block}/sum1234`), `${block}/out`);
  }
  const pooled = node("AveragePool", [x], "pooled", [attrInts("kernel_shape", [7, 7]), attrInts("strides", [2, 2])]);
  node("Gemm", [node("Flatten", [pooled], "flat", [attrInt("axis", 1)]), w("fc/weights"), w("fc/bias")], "points");

  const info = (name: string, shape: (number | string)[]) =>
    onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim: shape.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d })) } } } });
  const model = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: "", version: 13 }],
    producerName: "print-studio scripts/convert-jaw-model.ts",
    docString:
      "face-api (@vladmandic/face-api 1.7, MIT) faceLandmark68Net, weights uint8 as shipped. " +
      "Input N x 112 x 112 x 3, RGB 0-255; output N x 136, the 68 points' x, y in 0-1 of the square.",
    graph: { name: "face-landmark-68", node: nodes, initializer: initializers, input: [info("input", ["N", INPUT, INPUT, 3])], output: [info("points", ["N", 136])] },
  });
  return onnx.ModelProto.encode(model).finish();
}

if (process.argv[1]?.endsWith("convert-jaw-model.ts")) {
  const out = process.argv[2] ?? "lib/engines/ml/faces/models/face-landmark-68.onnx";
  const dir = path.join(path.dirname(require.resolve("@vladmandic/face-api/package.json")), "model");
  const manifestFile = path.join(dir, "face_landmark_68_model-weights_manifest.json");
  const binFile = path.join(dir, "face_landmark_68_model.bin");
  const bin = readFileSync(binFile);
  const bytes = convertJawModel(JSON.parse(readFileSync(manifestFile, "utf8")), bin);
  writeFileSync(out, bytes);
  const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
  console.log(`${binFile}: ${bin.length} bytes, sha256 ${sha(bin)}\n${manifestFile}: sha256 ${sha(readFileSync(manifestFile))}\n${out}: ${bytes.length} bytes, sha256 ${sha(bytes)}`);
}
