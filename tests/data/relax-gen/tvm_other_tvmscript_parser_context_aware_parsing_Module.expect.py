# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def add(X: T.Buffer((T.int64(2), T.int64(4)), "float32"), Y: T.Buffer((), "float32"), Z: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        alloc: R.Tensor((2, 4), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 4]), R.dtype("float32"), 0, R.str("global"))
        cls.add(x, R.const(1.0, "float32"), alloc)
        return alloc