"""ISNet at any input size, for the input-size speed step of bench/bg-model-bench.ts.

The ONNX export of ISNet (the engine's `medium` weights) records every upsampling target as a
constant traced at 1024 x 1024 (39 Resize nodes whose sizes are Concat(batch+channels, [h, w])
with h, w in 32..1024). This rewrites each [h, w] as the input's own height and width divided
by 1024 / h (exact for inputs that are multiples of 32: the network halves its features
five times, with ceil-mode pooling), frees the input and output sizes, and drops the traced
intermediate shapes. Nothing else changes: the same weights, the same operations.

  python3 scripts/isnet-any-size.py .data/models/isnet-medium.onnx .data/models/isnet-medium-any-size.onnx

Needs the `onnx` Python package (run with onnx 1.23.1); deterministic for a given version.
The bench writes the input file (the package's chunks joined) and skips the step, saying so,
when the output file is missing.
"""
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

source, target = sys.argv[1], sys.argv[2]
model = onnx.load(source)
graph = model.graph
producer = {out: node for node in graph.node for out in node.output}
image = graph.input[0].name

shared = [
    helper.make_node("Shape", [image], ["anysize/shape"]),
    helper.make_node("Constant", [], ["anysize/starts"], value=numpy_helper.from_array(np.array([2], dtype=np.int64))),
    helper.make_node("Constant", [], ["anysize/ends"], value=numpy_helper.from_array(np.array([4], dtype=np.int64))),
    helper.make_node("Slice", ["anysize/shape", "anysize/starts", "anysize/ends"], ["anysize/hw"]),
]
divided = {}
rewritten = 0
for node in graph.node:
    if node.op_type != "Resize" or len(node.input) < 4 or not node.input[3]:
        continue
    concat = producer[node.input[3]]
    constant = producer[concat.input[1]]
    hw = numpy_helper.to_array(constant.attribute[0].t)
    factor = 1024 // int(hw[0])
    assert hw[0] == hw[1] and factor * int(hw[0]) == 1024, hw
    if factor not in divided:
        name = f"anysize/hw_div{factor}"
        shared.append(helper.make_node("Constant", [], [f"{name}/by"], value=numpy_helper.from_array(np.array([factor, factor], dtype=np.int64))))
        shared.append(helper.make_node("Div", ["anysize/hw", f"{name}/by"], [name]))
        divided[factor] = name
    concat.input[1] = divided[factor]
    rewritten += 1

# The traced [h, w] constants are now unused: dropped (onnxruntime would warn about each).
used = {name for node in graph.node for name in node.input}
for node in [n for n in graph.node if n.op_type == "Constant" and n.output[0] not in used]:
    graph.node.remove(node)
for node in reversed(shared):
    graph.node.insert(0, node)
for value in list(graph.input) + list(graph.output):
    dims = value.type.tensor_type.shape.dim
    if len(dims) == 4:
        dims[2].dim_param = "height"
        dims[3].dim_param = "width"
del graph.value_info[:]
onnx.save(model, target)
print(f"rewrote {rewritten} Resize targets; wrote {target}")
