# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def copy(A: T.Buffer((2, 3), "int32"), B: T.Buffer((2, 3), "int32"), out1: T.Buffer((2, 3), "int32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            with T.sblock("T_zeros"):
                ax0, ax1 = T.axis.remap("SS", [i0, i1])
                T.reads(B[ax0, ax1])
                T.writes(A[ax0, ax1], out1[ax0, ax1])
                A[ax0, ax1] = B[ax0, ax1]
                out1[ax0, ax1] = B[ax0, ax1]

    @R.function
    def main(x: R.Tensor((2, 3), dtype="int32"), y: R.Tensor((2, 3), dtype="int32")) -> R.Tuple(R.Tensor((2, 3), dtype="int32"), R.Tensor((2, 3), dtype="int32"), R.Tensor((2, 3), dtype="int32")):
        cls = Module
        res: R.Tuple(R.Tensor((2, 3), dtype="int32"), R.Tensor((2, 3), dtype="int32")) = R.call_tir_inplace(cls.copy, (x, y), out_ty=[R.Tensor((2, 3), dtype="int32"), R.Tensor((2, 3), dtype="int32")], inplace_indices=[0, -1])
        return res