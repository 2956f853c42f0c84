#!/usr/bin/env python3
"""gen_model.py - a real-sized model through TVM's ONNX frontend, to run.

usage: /path/to/venv/bin/python tests/relax-gen/gen_model.py OUT_DIR

Builds a transformer encoder block with onnx.helper (batch 1, 8 tokens,
width 32, 4 heads, a feed-forward of 64 with GELU written as ONNX's Erf
form, two residuals with layer norm), imports it with
tvm.relax.frontend.onnx.from_onnx(keep_params_in_input=True) and
relax.frontend.detach_params (the weights become parameters), hints every
matmul's result to cuda as gen.py does, and writes OUT_DIR/NAME.py, its
RealizeVDevice output NAME.expect.py, and NAME.run.json: seeded inputs
(weights included) and the outputs ONNX's own reference evaluator
(onnx.reference, NumPy) computes, since TVM cannot run the cuda part on a
machine without a GPU. tests/check-relax and tests/check-relax-run read
them; CI never runs this (it needs the wheel).
"""
import json
import os
import sys

import numpy as np
import onnx
import tvm
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from tvm import relax

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import CUDA, LLVM, hint_onnx, write_case  # noqa: E402

S, D, H, F = 8, 32, 4, 64


def const(name, value, shape=None):
    arr = np.array(value, dtype=np.int64 if isinstance(value, list) else np.float32)
    return helper.make_node("Constant", [], [name], value=helper.make_tensor(
        name + "_v", TensorProto.INT64 if arr.dtype == np.int64 else TensorProto.FLOAT,
        list(arr.shape), arr.ravel().tolist()))


def transformer():
    n = helper.make_node
    nodes = [
        const("heads_shape", [1, S, H, D // H]), const("model_shape", [1, S, D]),
        const("scale", 1.0 / np.sqrt(D // H)), const("half", 0.5), const("one", 1.0),
        const("sqrt2", float(np.sqrt(2.0))),
        n("MatMul", ["x", "wq"], ["q"]), n("MatMul", ["x", "wk"], ["k"]),
        n("MatMul", ["x", "wv"], ["v"]),
        n("Reshape", ["q", "heads_shape"], ["q4"]), n("Transpose", ["q4"], ["qh"], perm=[0, 2, 1, 3]),
        n("Reshape", ["k", "heads_shape"], ["k4"]), n("Transpose", ["k4"], ["kh"], perm=[0, 2, 3, 1]),
        n("Reshape", ["v", "heads_shape"], ["v4"]), n("Transpose", ["v4"], ["vh"], perm=[0, 2, 1, 3]),
        n("MatMul", ["qh", "kh"], ["s"]), n("Mul", ["s", "scale"], ["ss"]),
        n("Softmax", ["ss"], ["p"], axis=-1), n("MatMul", ["p", "vh"], ["oh"]),
        n("Transpose", ["oh"], ["ot"], perm=[0, 2, 1, 3]), n("Reshape", ["ot", "model_shape"], ["o"]),
        n("MatMul", ["o", "wo"], ["a0"]), n("Add", ["a0", "bo"], ["a"]),
        n("Add", ["a", "x"], ["r1"]),
        n("LayerNormalization", ["r1", "g1", "be1"], ["n1"], axis=-1),
        n("MatMul", ["n1", "w1"], ["f0"]), n("Add", ["f0", "b1"], ["f"]),
        n("Div", ["f", "sqrt2"], ["fd"]), n("Erf", ["fd"], ["fe"]), n("Add", ["fe", "one"], ["fp"]),
        n("Mul", ["f", "fp"], ["fm"]), n("Mul", ["fm", "half"], ["gl"]),
        n("MatMul", ["gl", "w2"], ["h0"]), n("Add", ["h0", "b2"], ["h"]),
        n("Add", ["h", "n1"], ["r2"]),
        n("LayerNormalization", ["r2", "g2", "be2"], ["y"], axis=-1),
    ]
    weights = [("wq", [D, D]), ("wk", [D, D]), ("wv", [D, D]), ("wo", [D, D]), ("bo", [D]),
               ("g1", [D]), ("be1", [D]), ("w1", [D, F]), ("b1", [F]), ("w2", [F, D]),
               ("b2", [D]), ("g2", [D]), ("be2", [D])]
    rng = np.random.default_rng(2027)
    values = {name: (rng.uniform(-1, 1, shape) / np.sqrt(shape[0])).astype("float32")
              for name, shape in weights}
    inits = [helper.make_tensor(name, TensorProto.FLOAT, list(v.shape), v.ravel().tolist())
             for name, v in values.items()]
    graph = helper.make_graph(
        nodes, "transformer_block",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, S, D])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, S, D])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), values


def rounded(a):
    return json.loads(json.dumps(a.tolist()))


def main(argv):
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    name = "onnx_transformer"
    model, values = transformer()
    onnx.checker.check_model(model)
    from tvm.relax.frontend.onnx import from_onnx
    mod = from_onnx(model, keep_params_in_input=True)
    mod, _ = relax.frontend.detach_params(mod)
    mod = hint_onnx(mod, False)
    mod = relax.transform.Normalize()(mod)
    vdevice = getattr(tvm.ir, "VDevice", None) or relax.VDevice
    mod.update_global_info("vdevice", [
        vdevice(tvm.target.Target(eval(LLVM)), 0, "global"),
        vdevice(tvm.target.Target(eval(CUDA)), 0, "global")])
    print(name, write_case(out, name, mod))
    seed = 31
    x = np.random.default_rng(seed).uniform(-1, 1, (1, S, D)).astype("float32")
    feeds = dict(values, x=x)
    (y,) = ReferenceEvaluator(model).run(None, {"x": x})
    params = [p.name for p in mod["main"].params]
    run = {
        "tvm": tvm.__version__, "function": "main",
        "compile": "outputs by onnx.reference.ReferenceEvaluator (NumPy) from the ONNX model",
        "vm_devices": ["cpu:0", "cuda:0"], "seed": seed,
        "inputs": [{"name": p, "shape": list(feeds[p].shape), "dtype": "float32",
                    "data": rounded(feeds[p])} for p in params],
        "outputs": [{"shape": list(y.shape), "dtype": "float32", "data": rounded(y)}],
    }
    with open(os.path.join(out, name + ".run.json"), "w") as f:
        json.dump(run, f)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv)
