// ISNet at any input size (onnx-proto, a devDependency; it replaced a Python script whose `onnx` package
// does not install here). The ONNX export records every upsampling target as traced at 1024 x 1024: each
// Resize's traced [h, w] target
// (Concat(batch+channels, [h, w]), h, w in 32..1024) becomes the input's own height and width divided by
// 1024 / h; the input and output sizes are freed; traced intermediate shapes dropped. Same weights, same ops.
//
//   npx tsx scripts/isnet-any-size.ts [.data/models/isnet-medium-any-size.onnx]
//
// Reads the engine's `medium` weights from the package (readIsnetWeights). Read
// by bench/bg-model-bench.ts's and bench/bg-quality-bench.ts's input-size steps (BG_ISNET_ANY_SIZE); used in crop13 for ISNet's
// look at the head's top (measured, removed: bench/README.md, commit 8072e72).
import fs from "node:fs";
import path from "node:path";
import { onnx } from "onnx-proto";
import { readIsnetWeights } from "@/lib/engines/ml/background-removal/isnet-model";

export function isnetAnySize(bytes: Uint8Array): Uint8Array {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph!;
  const nodes = graph.node!;
  const producer = new Map<string, onnx.INodeProto>();
  for (const n of nodes) for (const o of n.output ?? []) producer.set(o, n);
  const image = graph.input![0]!.name!;
  const i64 = (values: number[]) => onnx.TensorProto.create({ dims: [values.length], dataType: onnx.TensorProto.DataType.INT64, int64Data: values });
  const constant = (out: string, values: number[]) => onnx.NodeProto.create({ opType: "Constant", input: [], output: [out], attribute: [onnx.AttributeProto.create({ name: "value", type: onnx.AttributeProto.AttributeType.TENSOR, t: i64(values) })] });
  const shared: onnx.INodeProto[] = [
    onnx.NodeProto.create({ opType: "Shape", input: [image], output: ["anysize/shape"] }),
    constant("anysize/starts", [2]),
    constant("anysize/ends", [4]),
    onnx.NodeProto.create({ opType: "Slice", input: ["anysize/shape", "anysize/starts", "anysize/ends"], output: ["anysize/hw"] }),
  ];
  const divided = new Map<number, string>();
  let rewritten = 0;
  const readInts = (t: onnx.ITensorProto): number[] => {
    if (t.int64Data && t.int64Data.length) return t.int64Data.map((v) => Number(v));
    const raw = t.rawData!;
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    return Array.from({ length: raw.byteLength / 8 }, (_, k) => Number(view.getBigInt64(k * 8, true)));
  };
  for (const n of nodes) {
    if (n.opType !== "Resize" || (n.input ?? []).length < 4 || !n.input![3]) continue;
    const concat = producer.get(n.input![3])!;
    const c = producer.get(concat.input![1]!)!;
    const hw = readInts(c.attribute![0]!.t!);
    const factor = 1024 / hw[0]!;
    if (hw[0] !== hw[1] || !Number.isInteger(factor)) throw new Error(`unexpected Resize target ${hw}`);
    if (!divided.has(factor)) {
      const name = `anysize/hw_div${factor}`;
      shared.push(constant(`${name}/by`, [factor, factor]));
      shared.push(onnx.NodeProto.create({ opType: "Div", input: ["anysize/hw", `${name}/by`], output: [name] }));
      divided.set(factor, name);
    }
    concat.input![1] = divided.get(factor)!;
    rewritten++;
  }
  const used = new Set(nodes.flatMap((n) => n.input ?? []));
  graph.node = [...shared, ...nodes.filter((n) => !(n.opType === "Constant" && !used.has(n.output![0]!)))];
  for (const v of [...graph.input!, ...graph.output!]) {
    const dims = v.type?.tensorType?.shape?.dim;
    if (dims && dims.length === 4) {
      dims[2] = { dimParam: "height" };
      dims[3] = { dimParam: "width" };
    }
  }
  graph.valueInfo = [];
  if (!rewritten) throw new Error("no Resize target rewritten");
  return onnx.ModelProto.encode(model).finish();
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  const target = process.argv[2] ?? ".data/models/isnet-medium-any-size.onnx";
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const out = isnetAnySize(readIsnetWeights("medium"));
  fs.writeFileSync(target, out);
  console.log(`wrote ${target} (${(out.length / 1e6).toFixed(1)} MB)`);
}
