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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), p1: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), p2: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((3, 3), dtype="float32"):
        cls = Module
        v1: R.Tensor((3, 3), dtype="float32") = R.matmul(p2, p0, out_dtype=None)
        h2: R.Tensor((3, 3), dtype="float32") = R.hint_on_device(v1, R.device(device_type=2, index=0), "global")
        v3: R.Tensor((3, 3), dtype="float32") = R.maximum(v1, h2)
        t4: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), R.Tensor((3, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global")) = p0, v3, p1
        v5: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = t4[2]
        v6: R.Tensor((3, 3), dtype="float32") = R.matmul(p2, v5, out_dtype=None)
        h7: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(p1, R.device(device_type=2, index=0), "global")
        t8: R.Tuple(R.Tensor((3, 2), dtype="float32"), R.Tensor((3, 3), dtype="float32")) = p2, v3
        v9: R.Tensor((3, 3), dtype="float32") = t8[1]
        h10: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v5, R.device(device_type=1, index=0), "global")
        g11: R.Tensor((3, 3), dtype="float32") = cls.helper(v9)
        h12: R.Tensor((3, 3), dtype="float32") = R.hint_on_device(g11, R.device(device_type=2, index=1), "global")
        v13: R.Tensor((4, 3), dtype="float32") = R.concat((p0, p0), axis=0)
        v14: R.Tensor((3, 3), dtype="float32") = R.nn.relu(v9)
        return v14

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b