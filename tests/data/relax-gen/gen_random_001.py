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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), p2: R.Tensor((2, 3), dtype="float32"), p3: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Module
        g1: R.Tensor((3, 2), dtype="float32") = cls.helper(p3)
        t2: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), R.Tensor((3, 2), dtype="float32"), R.Tensor((3, 2), dtype="float32")) = p1, g1, p3
        v3: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = t2[0]
        v4: R.Tensor((3, 2), dtype="float32") = R.sigmoid(p3)
        v5: R.Tensor((2, 3), dtype="float32") = R.negative(p2)
        v6: R.Tensor((3, 3), dtype="float32") = R.matmul(v4, p0, out_dtype=None)
        h7: R.Tensor((3, 3), dtype="float32") = R.hint_on_device(v6, R.device(device_type=2, index=0), "global")
        v8: R.Tensor((3, 2), dtype="float32") = R.add(p3, v4)
        h9: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v8, R.device(device_type=2, index=0), "global")
        t10: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((3, 2), dtype="float32")) = p2, v5, p3
        v11: R.Tensor((2, 3), dtype="float32") = t10[0]
        return v11

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b