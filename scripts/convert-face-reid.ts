/**
 * Converts Intel Open Model Zoo's `face-reidentification-retail-0095` (OpenVINO IR, FP16) to
 * the ONNX file the face worker runs on onnxruntime-node. Run once, by hand; its output is
 * committed (lib/engines/ml/faces/models/, with the licence, NOTICE and provenance beside it).
 *
 *   npx tsx scripts/convert-face-reid.ts <model.xml> <model.bin> [out.onnx]
 *
 * The IR's XML lists every layer (type, attributes, ports) and the edges between ports; the
 * BIN holds the FP16 constants at the offsets the XML names. This model uses only a few
 * opset1 operations, each with a direct ONNX counterpart (opset 13):
 * Parameter/Result → graph input/output, Const → an initializer (kept FP16 as shipped),
 * Convert → Cast, Convolution/GroupConvolution → Conv (a group convolution's 5-d weights
 * [G, O/G, I/G, kh, kw] reshaped to [O, I/G, kh, kw]), AvgPool → AveragePool, Add → Add,
 * Multiply → Mul, Sigmoid, PReLU. Any other layer type stops the script: the conversion is
 * exact or it does not happen. The batch dimension is left free so a chip and its mirror
 * image run in one call. The IR already holds its preprocessing (the IR's conversion folded
 * a ×1/255 scale and the RGB→BGR swap into the first layers), so the ONNX takes what the IR
 * takes: N×3×128×128, BGR, 0-255.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { XMLParser } from "fast-xml-parser";
import { onnx } from "onnx-proto";

// The bytes the model's README and the issue name (the IR as published, FP16).
const EXPECTED_SHA256 = {
  xml: "ce53d2c9c08c0bd1c1660fb8a5b6d0e3e4ec19eb92f1036d2d83a85e83082dce",
  bin: "241229ca3d206321868d46ce74a3c0b06c49cea58db7dc70b2e842ff287545d1",
};

type Port = { id: string; dim?: string | string[] };
type Layer = {
  id: string;
  name: string;
  type: string;
  data?: Partial<Record<string, string>>;
  input?: { port: Port | Port[] };
  output?: { port: Port | Port[] };
};
type Edge = { "from-layer": string; "from-port": string; "to-layer": string; "to-port": string };

const list = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);
const ints = (s: string | undefined) => (s ?? "").split(",").map((v) => Number(v.trim()));
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

function dims(port: Port): number[] {
  return list(port.dim).map(Number);
}

function attrInts(name: string, values: number[]) {
  return onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: values });
}
function attrInt(name: string, value: number) {
  return onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i: value });
}

export function convertIr(xml: string, bin: Buffer): Uint8Array {
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml);
  const layers: Layer[] = list(parsed.net.layers.layer);
  const edges: Edge[] = list(parsed.net.edges.edge);
  const byId = new Map(layers.map((l) => [l.id, l]));
  const tensor = (layer: string, port: string) => `t${layer}_${port}`;

  // The tensor feeding each (layer, input port).
  const feeds = new Map<string, string>();
  for (const e of edges) feeds.set(`${e["to-layer"]}:${e["to-port"]}`, tensor(e["from-layer"], e["from-port"]));
  const inputsOf = (l: Layer): string[] =>
    list(l.input?.port)
      .sort((a, b) => Number(a.id) - Number(b.id))
      .map((p) => {
        const t = feeds.get(`${l.id}:${p.id}`);
        if (!t) throw new Error(`layer ${l.id} (${l.name}) port ${p.id} has no edge`);
        return t;
      });
  const outputOf = (l: Layer) => {
    const ports = list(l.output?.port);
    if (ports.length !== 1) throw new Error(`layer ${l.id} (${l.type}) has ${ports.length} outputs`);
    return tensor(l.id, ports[0]!.id);
  };

  // Topological order from the edges (the IR's ids are usually in order already; do not rely on it).
  const indegree = new Map(layers.map((l) => [l.id, 0]));
  const next = new Map<string, string[]>();
  for (const e of edges) {
    indegree.set(e["to-layer"], (indegree.get(e["to-layer"]) ?? 0) + 1);
    next.set(e["from-layer"], [...(next.get(e["from-layer"]) ?? []), e["to-layer"]]);
  }
  const queue = layers.filter((l) => indegree.get(l.id) === 0).map((l) => l.id);
  const order: Layer[] = [];
  while (queue.length) {
    const id = queue.shift() as string;
    order.push(byId.get(id) as Layer);
    for (const to of next.get(id) ?? []) {
      indegree.set(to, (indegree.get(to) as number) - 1);
      if (indegree.get(to) === 0) queue.push(to);
    }
  }
  if (order.length !== layers.length) throw new Error("the IR graph has a cycle");

  const nodes: onnx.INodeProto[] = [];
  const initializers: onnx.ITensorProto[] = [];
  const inputs: onnx.IValueInfoProto[] = [];
  const outputs: onnx.IValueInfoProto[] = [];
  const floatInfo = (name: string, shape: (number | string)[]) =>
    onnx.ValueInfoProto.create({
      name,
      type: {
        tensorType: {
          elemType: onnx.TensorProto.DataType.FLOAT,
          shape: { dim: shape.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d })) },
        },
      },
    });
  // A group convolution's weights arrive as a Convert of a Const; remember each tensor's shape
  // so the weights can be reshaped by an initializer of the target shape.
  const shapes = new Map<string, number[]>();
  const node = (l: Layer, opType: string, input: string[], attribute: onnx.IAttributeProto[] = []) =>
    nodes.push(onnx.NodeProto.create({ name: l.name, opType, input, output: [outputOf(l)], attribute }));

  for (const l of order) {
    const d: Partial<Record<string, string>> = l.data ?? {};
    switch (l.type) {
      case "Parameter": {
        if (d.element_type !== "f32") throw new Error(`input type ${d.element_type}`);
        const shape: (number | string)[] = ints(d.shape);
        shape[0] = "N";
        inputs.push(floatInfo("input", shape));
        nodes.push(onnx.NodeProto.create({ name: "input_identity", opType: "Identity", input: ["input"], output: [outputOf(l)] }));
        break;
      }
      case "Const": {
        if (d.element_type !== "f16") throw new Error(`constant type ${d.element_type} in ${l.name}`);
        const offset = Number(d.offset);
        const size = Number(d.size);
        const shape = (d.shape ?? "").trim() === "" ? [] : ints(d.shape);
        if (shape.reduce((a, b) => a * b, 1) * 2 !== size) throw new Error(`size of ${l.name}`);
        const name = outputOf(l);
        shapes.set(name, shape);
        initializers.push(
          onnx.TensorProto.create({
            name,
            dims: shape,
            dataType: onnx.TensorProto.DataType.FLOAT16,
            rawData: bin.subarray(offset, offset + size),
          }),
        );
        break;
      }
      case "Convert":
        if (d.destination_type !== "f32") throw new Error(`convert to ${d.destination_type}`);
        shapes.set(outputOf(l), shapes.get(inputsOf(l)[0]!) ?? []);
        node(l, "Cast", inputsOf(l), [attrInt("to", onnx.TensorProto.DataType.FLOAT)]);
        break;
      case "Convolution":
      case "GroupConvolution": {
        if (d.auto_pad !== "explicit") throw new Error(`auto_pad ${d.auto_pad} in ${l.name}`);
        const [x, weights] = inputsOf(l) as [string, string];
        let w = weights;
        let group = 1;
        if (l.type === "GroupConvolution") {
          const [g, o, i, kh, kw] = shapes.get(w) ?? [];
          if (g === undefined || o === undefined || i === undefined || kh === undefined || kw === undefined) throw new Error(`group weights of ${l.name}`);
          group = g;
          const target = `${w}_shape`;
          initializers.push(
            onnx.TensorProto.create({
              name: target,
              dims: [4],
              dataType: onnx.TensorProto.DataType.INT64,
              int64Data: [g * o, i, kh, kw],
            }),
          );
          nodes.push(onnx.NodeProto.create({ name: `${l.name}_weights`, opType: "Reshape", input: [w, target], output: [`${w}_4d`] }));
          w = `${w}_4d`;
        }
        const weightPort = list(l.input?.port).sort((a, b) => Number(a.id) - Number(b.id))[1];
        const kernel = dims(weightPort!).slice(-2);
        node(l, "Conv", [x, w], [
          attrInts("strides", ints(d.strides)),
          attrInts("dilations", ints(d.dilations)),
          attrInts("pads", [...ints(d.pads_begin), ...ints(d.pads_end)]),
          attrInts("kernel_shape", kernel),
          attrInt("group", group),
        ]);
        break;
      }
      case "AvgPool":
        if (d.auto_pad !== "explicit") throw new Error(`auto_pad ${d.auto_pad} in ${l.name}`);
        node(l, "AveragePool", inputsOf(l), [
          attrInts("kernel_shape", ints(d.kernel)),
          attrInts("strides", ints(d.strides)),
          attrInts("pads", [...ints(d.pads_begin), ...ints(d.pads_end)]),
          attrInt("count_include_pad", d["exclude-pad"] === "true" ? 0 : 1),
          attrInt("ceil_mode", d.rounding_type === "ceil" ? 1 : 0),
        ]);
        break;
      case "Add":
      case "Multiply":
        if (d.auto_broadcast !== "numpy") throw new Error(`broadcast ${d.auto_broadcast} in ${l.name}`);
        node(l, l.type === "Add" ? "Add" : "Mul", inputsOf(l));
        break;
      case "Sigmoid":
        node(l, "Sigmoid", inputsOf(l));
        break;
      case "PReLU":
        node(l, "PRelu", inputsOf(l));
        break;
      case "Result": {
        const [x] = inputsOf(l) as [string];
        const shape: (number | string)[] = dims(list(l.input?.port)[0]!);
        shape[0] = "N";
        nodes.push(onnx.NodeProto.create({ name: "output_identity", opType: "Identity", input: [x], output: ["embedding"] }));
        outputs.push(floatInfo("embedding", shape));
        break;
      }
      default:
        throw new Error(`layer type ${l.type} (${l.name}) has no conversion here`);
    }
  }

  const model = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: "", version: 13 }],
    producerName: "print-studio scripts/convert-face-reid.ts",
    docString:
      "Intel Open Model Zoo face-reidentification-retail-0095 (Apache-2.0), converted from its OpenVINO IR FP16. " +
      "Input N x 3 x 128 x 128, BGR, 0-255, aligned to the model's 5-point template; output N x 256 x 1 x 1.",
    graph: { name: "face-reidentification-retail-0095", node: nodes, initializer: initializers, input: inputs, output: outputs },
  });
  return onnx.ModelProto.encode(model).finish();
}

if (process.argv[1]?.endsWith("convert-face-reid.ts")) {
  const [xmlPath, binPath, out = "lib/engines/ml/faces/models/face-reidentification-retail-0095.onnx"] = process.argv.slice(2);
  if (!xmlPath || !binPath) {
    console.error("usage: npx tsx scripts/convert-face-reid.ts <model.xml> <model.bin> [out.onnx]");
    process.exit(2);
  }
  const xml = readFileSync(xmlPath);
  const bin = readFileSync(binPath);
  for (const [what, bytes] of [["xml", xml], ["bin", bin]] as const) {
    if (sha256(bytes) !== EXPECTED_SHA256[what]) throw new Error(`${what} sha256 ${sha256(bytes)} is not the published one`);
  }
  const onnxBytes = convertIr(xml.toString("utf8"), bin);
  writeFileSync(out, onnxBytes);
  console.log(`${out}: ${onnxBytes.length} bytes, sha256 ${sha256(Buffer.from(onnxBytes))}`);
}
