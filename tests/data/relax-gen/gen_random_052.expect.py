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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), p1: R.Tensor((3, 2), dtype="float32"), p2: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), p3: R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global")) -> R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"):
        v1: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.sigmoid(p2)
        v2: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.multiply(p2, p2)
        h3: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = p0
        v4: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.add(v2, h3)
        v5: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.abs(p2)
        v6: R.Tensor((4, 3), dtype="float32", vdevice="cuda:0:global") = R.concat((v2, v1), axis=0)
        h7: R.Tensor((4, 3), dtype="float32", vdevice="cuda:0:global") = v6
        v8: R.Tensor((4, 3), dtype="float32", vdevice="cuda:0:global") = R.negative(h7)
        v9: R.Tensor((4, 3), dtype="float32", vdevice="cuda:0:global") = R.negative(v8)
        v10: R.Tensor((4, 3), dtype="float32", vdevice="cuda:0:global") = R.subtract(v8, v8)
        v11: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.subtract(v2, v2)
        return v11

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b