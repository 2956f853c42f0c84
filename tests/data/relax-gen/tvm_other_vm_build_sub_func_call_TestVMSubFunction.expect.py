# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def tir_matmul(A: T.Buffer(("m", "n"), "float32"), B: T.Buffer((n, "k"), "float32"), C: T.Buffer((m, k), "float32")):
        m, n = T.int32(), T.int32()
        k = T.int32()
        # with T.sblock("root"):
        for i, j, k_1 in T.grid(m, k, n):
            with T.sblock("matmul"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k_1])
                T.reads(A[vi, vk], B[vk, vj])
                T.writes(C[vi, vj])
                with T.init():
                    C[vi, vj] = T.float32(0.0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]

    @R.function
    def relax_matmul_packed(x: R.Tensor((32, 32), dtype="float32"), w: R.Tensor((32, 32), dtype="float32")) -> R.Tensor(dtype="float32", ndim=2):
        gv0: R.Tensor(dtype="float32", ndim=2) = R.call_pure_packed("test.vm.mul", x, w, ty_args=(R.Tensor(dtype="float32", ndim=2),))
        return gv0

    @R.function
    def relax_matmul_tir(x: R.Tensor((32, 32), dtype="float32"), w: R.Tensor((32, 32), dtype="float32")) -> R.Tensor((32, 32), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv0 = R.call_tir(cls.tir_matmul, (x, w), out_ty=R.Tensor((32, 32), dtype="float32"))
            R.output(gv0)
        return gv0

    @R.function
    def main(x: R.Tensor((32, 32), dtype="float32"), w: R.Tensor((32, 32), dtype="float32")) -> R.Tensor(dtype="float32", ndim=2):
        cls = Module
        gv0: R.Tensor((32, 32), dtype="float32") = cls.relax_matmul_tir(x, w)
        gv1: R.Tensor(dtype="float32", ndim=2) = cls.relax_matmul_packed(gv0, gv0)
        return gv1