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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), p1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"), p2: R.Tensor((2, 3), dtype="float32"), p3: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global")) -> R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"):
        v1: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.nn.relu(p3)
        v2: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.negative(p1)
        h3: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = v2
        v4: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.maximum(v2, h3)
        v5: R.Tensor((2, 2), dtype="float32", vdevice="llvm:0:global") = R.matmul(p0, v2, out_dtype=None)
        h6: R.Tensor((2, 2), dtype="float32", vdevice="cuda:0:global") = R.to_vdevice(v5, dst_vdevice="cuda:0:global")
        k7: R.Tensor((2, 3), dtype="float32") = R.match_cast(v1, R.Tensor((2, 3), dtype="float32"))
        t8: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global")) = p3, v4
        v9: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = t8[1]
        h10: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = v9
        v11: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.exp(h3)
        return v11

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b