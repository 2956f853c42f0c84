# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def copy(A: T.Buffer((2, 3), "float32"), B: T.Buffer((2, 3), "float32")):
        # with T.sblock("root"):
        for i0, i1 in T.grid(2, 3):
            with T.sblock("block"):
                vi0, vi1 = T.axis.remap("SS", [i0, i1])
                T.reads(A[vi0, vi1])
                T.writes(B[vi0, vi1])
                B[vi0, vi1] = A[vi0, vi1]

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        storage: R.Any = R.memory.alloc_storage(R.shape([24]), 0, R.str("global"), R.dtype("float32"))
        y: R.Tensor((2, 3), dtype="float32") = R.memory.alloc_tensor(storage, 0, R.shape([2, 3]), R.dtype("float32"), 0)
        cls.copy(x, y)
        return y