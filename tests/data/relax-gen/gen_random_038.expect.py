# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 0, "global"), I.vdevice({"arch": "sm_80", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}, 0, "global"), I.vdevice({"arch": "sm_80", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}, 1, "global")]})
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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), p1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Module
        with R.dataflow():
            t1: R.Tuple(R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"), R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global")) = p1, p1, p0
            v2: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = t1[2]
            v3: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.nn.relu(p0)
            v4: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.subtract(p0, v3)
            v5: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.exp(v3)
            h6: R.Tensor((2, 3), dtype="float32", vdevice="cuda:1:global") = R.to_vdevice(v5, dst_vdevice="cuda:1:global")
            c7: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v3, dst_vdevice="llvm:0:global")
            h8: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = p0
            t9: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="cuda:1:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global")) = h6, v5, h8
            v10: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = t9[2]
            h11: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = v10
            v12: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.subtract(h8, p0)
            v13: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.sigmoid(p1)
            g14: R.Tensor(dtype="float32", ndim=2) = cls.helper(v13)
            c15: R.Tensor(dtype="float32", ndim=2, vdevice="cuda:1:global") = R.to_vdevice(g14, dst_vdevice="cuda:1:global")
            h16: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.to_vdevice(h11, dst_vdevice="cuda:0:global")
            s17 = R.call_tir(cls.copy_2x3, (v12,), out_ty=R.Tensor((2, 3), dtype="float32"))
            g18: R.Tensor(dtype="float32", ndim=2) = cls.helper(v4)
            R.output(g18)
        return g18

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b