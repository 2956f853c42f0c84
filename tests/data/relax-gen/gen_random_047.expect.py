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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), p1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global")) -> R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"):
        cls = Module
        v1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.subtract(p1, p1)
        h2: R.Tensor((3, 2), dtype="float32", vdevice="cuda:1:global") = R.to_vdevice(v1, dst_vdevice="cuda:1:global")
        v3: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.maximum(v1, p1)
        v4: R.Tensor((3, 2), dtype="float32", vdevice="cuda:1:global") = R.negative(h2)
        h5: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = p0
        v6: R.Tensor((3, 3), dtype="float32", vdevice="llvm:0:global") = R.matmul(p1, p0, out_dtype=None)
        h7: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = h5
        v8: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.sigmoid(p1)
        v9: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.subtract(v1, v1)
        c10: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.to_vdevice(h7, dst_vdevice="cuda:0:global")
        h11: R.Tensor((2, 3), dtype="float32", vdevice="cuda:1:global") = R.to_vdevice(c10, dst_vdevice="cuda:1:global")
        v12: R.Tensor((2, 3), dtype="float32") = R.matmul(c10, v6, out_dtype=None)
        h13: R.Tensor((3, 2), dtype="float32", vdevice="cuda:1:global") = R.to_vdevice(v8, dst_vdevice="cuda:1:global")
        v14: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.abs(p1)
        h15: R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global") = R.to_vdevice(v14, dst_vdevice="cuda:0:global")
        s16 = R.call_tir(cls.copy_2x3, (h7,), out_ty=R.Tensor((2, 3), dtype="float32"))
        v17: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.subtract(v9, p1)
        h18: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = v17
        return h18

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b