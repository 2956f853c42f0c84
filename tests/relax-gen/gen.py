#!/usr/bin/env python3
"""gen.py - make Relax VDevice cases with TVM itself (apache-tvm 0.27.0.post1).

usage: /path/to/venv/bin/python tests/relax-gen/gen.py OUT_DIR [COUNT] [SEED]
       /path/to/venv/bin/python tests/relax-gen/gen.py --tvm-tests OUT_DIR TEST.py...

Writes, for each case NAME, OUT_DIR/NAME.py (the module as mod.script()
prints it) and either OUT_DIR/NAME.expect.py (what TVM prints after
relax.transform.RealizeVDevice()) or OUT_DIR/NAME.error (`<exception
class>: <message>` on one line), the layout of tests/data/relax, which
tests/check-relax reads. The folder is rewritten the same way every time
(seeded). Cases:

  gen_random_NNN  random modules: 4 to 12 ops among unary and binary
                  elementwise ops, matmul, concat, tuples and projections,
                  with R.hint_on_device after random bindings, sometimes
                  vdevice-annotated parameters, R.to_vdevice, a declared
                  return vdevice, a dataflow block, an if, a call of a
                  second function, a call_tir; errors come for free
  gen_onnx_*      small ONNX graphs (a conv net with batch norm, an
                  attention block with layer norm) imported with
                  tvm.relax.frontend.onnx.from_onnx(keep_params_in_input=
                  True), every conv and matmul output hinted to cuda

With --tvm-tests, every @I.ir_module class of TVM's own test files (e.g.
tests/python/relax/test_transform_realize_vdevice.py, test_vm_multi_device.py
and test_transform_update_vdevice.py of apache/tvm) is a case
tvm_FILE_FUNCTION_CLASS, its bare target strings spelled out as the corpus
does ("llvm" with the x86_64-unknown-linux-gnu triple, "cuda" sm_50).

CI never runs this (it needs the 100 MB wheel); the generated text is
committed in tests/data/relax-gen.
"""
import os
import random
import re
import sys

import numpy as np
import tvm
from tvm import relax

LLVM = '{"kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu"}'
CUDA = '{"kind": "cuda", "arch": "sm_80"}'
DEVICE_SETS = [
    [(LLVM, 0, 1, 0), (CUDA, 0, 2, 0)],
    [(LLVM, 0, 1, 0), (LLVM, 1, 1, 1)],
    [(LLVM, 0, 1, 0), (CUDA, 0, 2, 0), (CUDA, 1, 2, 1)],
]
UNARY = ["exp", "negative", "abs", "tanh", "sigmoid", "nn.relu"]
BINARY = ["add", "subtract", "multiply", "maximum"]
SHAPES = [(2, 3), (3, 2), (2, 2), (3, 3)]


def ttype(shape, vdev=None):
    s = "(%s)" % ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "")
    return 'R.Tensor(%s, "float32"%s)' % (s, ', "%s"' % vdev if vdev else "")


def vdev_name(devs, i):
    kind = "llvm" if "llvm" in devs[i][0] else "cuda"
    k = sum(1 for d in devs[:i] if ("llvm" in d[0]) == (kind == "llvm"))
    return "%s:%d" % (kind, k)


class Gen:
    def __init__(self, rng, devs):
        self.rng, self.devs, self.lines, self.pool, self.n = rng, devs, [], [], 0

    def name(self, p):
        self.n += 1
        return "%s%d" % (p, self.n)

    def pick(self, shape=None):
        cands = [v for v in self.pool if shape is None or v[1] == shape]
        return self.rng.choice(cands) if cands else None

    def emit(self, name, shape, expr, tuple_type=None):
        ann = tuple_type or ttype(shape)
        self.lines.append("%s: %s = %s" % (name, ann, expr))
        if not tuple_type:
            self.pool.append((name, shape))

    def hint(self, v):
        _, _, dtype, did = self.rng.choice(self.devs)
        if self.rng.random() < 0.02:
            did += 2  # a device the list lacks: TVM's hint error
        h = self.name("h")
        self.emit(h, v[1], "R.hint_on_device(%s, R.device(device_type=%d, index=%d), \"global\")"
                  % (v[0], dtype, did))

    def op(self):
        r = self.rng.random()
        a = self.pick()
        if r < 0.25:
            self.emit(self.name("v"), a[1], "R.%s(%s)" % (self.rng.choice(UNARY), a[0]))
        elif r < 0.55:
            b = self.pick(a[1])
            self.emit(self.name("v"), a[1], "R.%s(%s, %s)" % (self.rng.choice(BINARY), a[0], b[0]))
        elif r < 0.65:
            b = [v for v in self.pool if v[1][0] == a[1][1]]
            if b:
                b = self.rng.choice(b)
                self.emit(self.name("v"), (a[1][0], b[1][1]), "R.matmul(%s, %s)" % (a[0], b[0]))
        elif r < 0.72:
            b = self.pick(a[1])
            self.emit(self.name("v"), (2 * a[1][0], a[1][1]), "R.concat((%s, %s), axis=0)" % (a[0], b[0]))
        elif r < 0.82:
            items = [self.pick() for _ in range(self.rng.randint(2, 3))]
            t = self.name("t")
            self.emit(t, None, ", ".join(v[0] for v in items),
                      "R.Tuple(%s)" % ", ".join(ttype(v[1]) for v in items))
            k = self.rng.randrange(len(items))
            self.emit(self.name("v"), items[k][1], "%s[%d]" % (t, k))
        elif r < 0.88:
            i = self.rng.randrange(len(self.devs))
            self.emit(self.name("c"), a[1], 'R.to_vdevice(%s, "%s")' % (a[0], vdev_name(self.devs, i)))
        elif r < 0.92:
            self.emit(self.name("g"), a[1], "cls.helper(%s)" % a[0])
        elif r < 0.96:
            self.emit(self.name("s"), a[1], "R.call_tir(cls.copy_%dx%d, (%s,), out_ty=%s)"
                      % (a[1][0], a[1][1], a[0], ttype(a[1])))
        else:
            self.emit(self.name("k"), a[1], "R.match_cast(%s, %s)" % (a[0], ttype(a[1])))
        if self.rng.random() < 0.45:
            self.hint(self.pool[-1] if self.rng.random() < 0.7 else self.pick())


def prim_funcs():
    out = []
    for a, b in SHAPES:
        out.append('''    @T.prim_func
    def copy_%dx%d(A: T.Buffer((%d, %d), "float32"), B: T.Buffer((%d, %d), "float32")):
        for i, j in T.grid(%d, %d):
            B[i, j] = A[i, j]
''' % (a, b, a, b, a, b, a, b))
    return "".join(out)


def random_source(seed):
    rng = random.Random(seed)
    devs = rng.choice(DEVICE_SETS)
    g = Gen(rng, devs)
    params = []
    for i in range(rng.randint(2, 4)):
        shape = rng.choice(SHAPES[:2]) if i else (2, 3)
        vdev = vdev_name(devs, rng.randrange(len(devs))) if rng.random() < 0.2 else None
        params.append(("p%d" % i, shape, vdev))
        g.pool.append(("p%d" % i, shape))
    for _ in range(rng.randint(4, 12)):
        g.op()
    result = g.pool[-1]
    ret_vdev = vdev_name(devs, rng.randrange(len(devs))) if rng.random() < 0.2 else None
    body = g.lines
    if rng.random() < 0.5:
        body = ["with R.dataflow():"] + ["    " + l for l in body] + ["    R.output(%s)" % result[0]]
    infos = ", ".join("I.vdevice(%s, %d, \"global\")" % (d[0], d[1]) for d in devs)
    src = "@I.ir_module\nclass Module:\n"
    src += '    I.module_global_infos({"vdevice": [%s]})\n' % infos
    src += prim_funcs()
    src += "    @R.function\n    def helper(a: R.Tensor(dtype=\"float32\", ndim=2)) -> R.Tensor(dtype=\"float32\", ndim=2):\n"
    src += "        b = R.exp(a)\n        return b\n"
    src += "    @R.function\n    def foo(%s) -> %s:\n" % (
        ", ".join("%s: %s" % (n, ttype(s, v)) for n, s, v in params), ttype(result[1], ret_vdev))
    src += "        cls = Module\n"
    src += "".join("        %s\n" % l for l in body)
    src += "        return %s\n" % result[0]
    return src


def write_case(out, name, mod):
    text = mod.script()
    again = tvm.script.from_source(text)
    assert again.script() == text, name
    with open(os.path.join(out, name + ".py"), "w") as f:
        f.write(text)
    for ext in (".expect.py", ".error"):
        if os.path.exists(os.path.join(out, name + ext)):
            os.remove(os.path.join(out, name + ext))
    try:
        res = relax.transform.RealizeVDevice()(mod).script()
        with open(os.path.join(out, name + ".expect.py"), "w") as f:
            f.write(res)
        return "placed"
    except Exception as e:  # TVM's error is the expected output
        msg = " ".join(str(e).split("\n")[0:1]) if "Binary" not in str(e) else " ".join(str(e).split())
        with open(os.path.join(out, name + ".error"), "w") as f:
            f.write("%s: %s\n" % (type(e).__name__, msg.strip()))
        return "error"


def onnx_models():
    import onnx
    from onnx import TensorProto, helper

    rng = np.random.default_rng(7)

    def init(name, shape):
        return helper.make_tensor(name, TensorProto.FLOAT, shape, rng.uniform(-1, 1, shape).astype("float32").ravel())

    conv = helper.make_graph(
        [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
         helper.make_node("BatchNormalization", ["c1", "s", "bb", "m", "v"], ["n1"]),
         helper.make_node("Relu", ["n1"], ["r1"]),
         helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"]),
         helper.make_node("Relu", ["c2"], ["y"])],
        "convnet", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 6, 6])],
        [init("w1", [4, 3, 3, 3]), init("b1", [4]), init("s", [4]), init("bb", [4]), init("m", [4]),
         helper.make_tensor("v", TensorProto.FLOAT, [4], [1.0] * 4), init("w2", [4, 4, 3, 3]), init("b2", [4])])
    attn = helper.make_graph(
        [helper.make_node("MatMul", ["x", "wq"], ["q"]),
         helper.make_node("MatMul", ["x", "wk"], ["k"]),
         helper.make_node("MatMul", ["x", "wv"], ["vv"]),
         helper.make_node("Transpose", ["k"], ["kt"], perm=[1, 0]),
         helper.make_node("MatMul", ["q", "kt"], ["s"]),
         helper.make_node("Softmax", ["s"], ["p"], axis=-1),
         helper.make_node("MatMul", ["p", "vv"], ["o"]),
         helper.make_node("Add", ["o", "x"], ["res"]),
         helper.make_node("LayerNormalization", ["res", "g", "b"], ["y"], axis=-1)],
        "attention", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 8])],
        [init("wq", [8, 8]), init("wk", [8, 8]), init("wv", [8, 8]), init("g", [8]), init("b", [8])])
    return [("gen_onnx_convnet", conv), ("gen_onnx_attention", attn)]


def hint_onnx(mod, cpu_io):
    """A hint_on_device to cuda after every matmul and conv2d of main."""
    from tvm.relax import PyExprMutator

    @relax.expr_functor.mutator
    class Hint(PyExprMutator):
        def visit_call_(self, call):
            call = super().visit_call_(call)
            if isinstance(call.op, tvm.ir.Op) and call.op.name in ("relax.matmul", "relax.nn.conv2d"):
                return relax.op.hint_on_device(call, tvm.cuda())
            return call

    main = Hint().visit_expr(mod["main"])
    mod["main"] = main
    return mod


def onnx_cases(out):
    import onnx
    from onnx import helper
    from tvm.relax.frontend.onnx import from_onnx
    done = []
    for name, graph in onnx_models():
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        mod = from_onnx(model, keep_params_in_input=True)
        mod, _ = relax.frontend.detach_params(mod)
        mod = hint_onnx(mod, False)
        mod = relax.transform.Normalize()(mod)
        vd = [tvm.ir.VDevice(tvm.target.Target(eval(LLVM)), 0, "global"),
              tvm.ir.VDevice(tvm.target.Target(eval(CUDA)), 0, "global")] if hasattr(tvm.ir, "VDevice") else \
             [relax.VDevice(tvm.target.Target(eval(LLVM)), 0, "global"),
              relax.VDevice(tvm.target.Target(eval(CUDA)), 0, "global")]
        mod = mod.with_attr("tmp", 1).without_attr("tmp") if False else mod
        mod.update_global_info("vdevice", vd)
        done.append((name, write_case(out, name, mod)))
    return done


def spell_targets(src):
    src = re.sub(r'I\.vdevice\("llvm"', 'I.vdevice(%s' % LLVM, src)
    src = re.sub(r'I\.vdevice\("cuda"', 'I.vdevice({"kind": "cuda", "arch": "sm_50"}', src)
    return re.sub(r'I\.vdevice\("metal"', 'I.vdevice({"kind": "metal"}', src)


def tvm_test_cases(out, paths):
    """Every @I.ir_module class of TVM's test files, as a case."""
    import ast
    import textwrap
    summary = {}
    for path in paths:
        text = open(path).read()
        stem = os.path.basename(path)[len("test_"):-3] if os.path.basename(path).startswith("test_") \
            else os.path.basename(path)[:-3]
        for func in ast.walk(ast.parse(text)):
            if not isinstance(func, ast.FunctionDef):
                continue
            for node in func.body:
                if not (isinstance(node, ast.ClassDef) and any(
                        "ir_module" in ast.unparse(d) for d in node.decorator_list)):
                    continue
                src = textwrap.dedent(ast.get_source_segment(text, node, padded=True))
                deco = "\n".join("@" + ast.unparse(d) for d in node.decorator_list)
                src = deco + "\n" + src
                name = "tvm_%s_%s_%s" % (stem, func.name[len("test_"):] if func.name.startswith("test_")
                                         else func.name, node.name)
                try:
                    mod = tvm.script.from_source(spell_targets(src))
                except Exception as e:
                    sys.stderr.write("%s does not parse: %s\n" % (name, str(e).splitlines()[0]))
                    continue
                try:
                    kind = write_case(out, name, mod)
                except Exception as e:  # a module TVM cannot print back, or the like
                    sys.stderr.write("%s skipped: %s\n" % (name, str(e).splitlines()[0] if str(e) else e))
                    continue
                summary[kind] = summary.get(kind, 0) + 1
    print("gen.py: %s" % ", ".join("%d %s" % (v, k) for k, v in sorted(summary.items())))


def main(argv):
    if len(argv) > 2 and argv[1] == "--tvm-tests":
        os.makedirs(argv[2], exist_ok=True)
        tvm_test_cases(argv[2], argv[3:])
        return
    out = argv[1]
    count = int(argv[2]) if len(argv) > 2 else 40
    seed = int(argv[3]) if len(argv) > 3 else 2026
    os.makedirs(out, exist_ok=True)
    summary = {}
    for i in range(count):
        name = "gen_random_%03d" % i
        src = random_source(seed * 1000 + i)
        try:
            mod = tvm.script.from_source(src)
        except Exception as e:
            sys.stderr.write("%s does not parse: %s\n%s\n" % (name, str(e).splitlines()[0], src))
            continue
        kind = write_case(out, name, mod)
        summary[kind] = summary.get(kind, 0) + 1
    try:
        for name, kind in onnx_cases(out):
            summary[kind] = summary.get(kind, 0) + 1
    except Exception as e:
        sys.stderr.write("onnx cases skipped: %s\n" % e)
    print("gen.py: %s" % ", ".join("%d %s" % (v, k) for k, v in sorted(summary.items())))


if __name__ == "__main__":
    main(sys.argv)
