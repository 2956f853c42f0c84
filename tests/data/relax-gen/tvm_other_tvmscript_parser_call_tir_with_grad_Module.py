# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def identity_tir(A: T.Buffer((54, 96), "float32"), B: T.Buffer((54, 96), "float32")):
        # with T.sblock("root"):
        for i, j in T.grid(54, 96):
            with T.sblock("compute"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj])
                T.writes(B[vi, vj])
                B[vi, vj] = A[vi, vj]

    @R.function
    def main(v0: R.Tensor((54, 96), dtype="float32")) -> R.Tensor((54, 96), dtype="float32"):
        cls = Module
        out: R.Tensor((54, 96), dtype="float32") = R.call_tir_with_grad(cls.identity_tir, (v0,), out_ty=R.Tensor((54, 96), dtype="float32"), te_grad_name="identity_k_grad", te_grad_kwargs={"k": 1.0})
        return out