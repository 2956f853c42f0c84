# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 0, "global"), I.vdevice({"arch": "sm_80", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}, 0, "global")]})
    @T.prim_func
    def copy_2x2(A: T.Buffer((2, 2), "float32"), B: T.Buffer((2, 2), "float32")):
        for i, j in T.grid(2, 2):
            B[i, j] = A[i, j]

    @T.prim_func
    def copy_2x3(A: T.Buffer((2, 3), "float32"), B: T.Buffer((2, 3), "float32")):
        for i, j in T.grid(2, 3):
            B[i, j] = A[i, j]

    @T.prim_func
    def copy_3x2(A: T.Buffer((3, 2), "float32"), B: T.Buffer((3, 2), "float32")):
        for i, j in T.grid(3, 2):
            B[i, j] = A[i, j]

    @T.prim_func
    def copy_3x3(A: T.Buffer((3, 3), "float32"), B: T.Buffer((3, 3), "float32")):
        for i, j in T.grid(3, 3):
            B[i, j] = A[i, j]

    @R.function
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), p1: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), p2: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Module
        with R.dataflow():
            v1: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.subtract(p1, p0)
            h2: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v1, dst_vdevice="llvm:0:global")
            v3: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.sigmoid(p1)
            h4: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = h2
            s5 = R.call_tir(cls.copy_2x3, (h4,), out_ty=R.Tensor((2, 3), dtype="float32"))
            t6: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global")) = p0, h4, p1
            v7: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = t6[0]
            h8: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = v1
            v9: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.sigmoid(h8)
            v10: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.nn.relu(h8)
            v11: R.Tensor((4, 3), dtype="float32", vdevice="cuda:0:global") = R.concat((p0, h8), axis=0)
            h12: R.Tensor((4, 3), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v11, dst_vdevice="llvm:0:global")
            v13: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.sigmoid(v10)
            h14: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = p0
            s15 = R.call_tir(cls.copy_2x3, (v7,), out_ty=R.Tensor((2, 3), dtype="float32"))
            R.output(s15)
        return s15

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b