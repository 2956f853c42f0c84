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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((6, 2), dtype="float32"):
        cls = Module
        v1: R.Tensor((2, 2), dtype="float32") = R.matmul(p0, p1, out_dtype=None)
        v2: R.Tensor((2, 2), dtype="float32") = R.subtract(v1, v1)
        v3: R.Tensor((2, 2), dtype="float32") = R.negative(v2)
        v4: R.Tensor((6, 2), dtype="float32") = R.concat((p1, p1), axis=0)
        v5: R.Tensor((2, 2), dtype="float32") = R.matmul(v3, v1, out_dtype=None)
        v6: R.Tensor((2, 2), dtype="float32") = R.maximum(v2, v2)
        s7 = R.call_tir(cls.copy_2x2, (v5,), out_ty=R.Tensor((2, 2), dtype="float32"))
        v8: R.Tensor((2, 2), dtype="float32") = R.multiply(v6, v2)
        h9: R.Tensor((6, 2), dtype="float32") = R.hint_on_device(v4, R.device(device_type=1, index=0), "global")
        return h9

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b