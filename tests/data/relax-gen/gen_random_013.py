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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            v1: R.Tensor((4, 3), dtype="float32") = R.concat((p0, p0), axis=0)
            v2: R.Tensor((2, 3), dtype="float32") = R.multiply(p0, p1)
            h3: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v2, R.device(device_type=2, index=0), "global")
            k4: R.Tensor((2, 3), dtype="float32") = R.match_cast(v2, R.Tensor((2, 3), dtype="float32"))
            v5: R.Tensor((2, 3), dtype="float32") = R.subtract(p0, p0)
            h6: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v5, R.device(device_type=1, index=0), "global")
            v7: R.Tensor((2, 3), dtype="float32") = R.maximum(v5, p0)
            v8: R.Tensor((2, 3), dtype="float32") = R.subtract(h6, k4)
            h9: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v8, R.device(device_type=1, index=0), "global")
            v10: R.Tensor((2, 3), dtype="float32") = R.subtract(v2, h9)
            v11: R.Tensor((2, 3), dtype="float32") = R.multiply(h6, h3)
            v12: R.Tensor((4, 3), dtype="float32") = R.concat((v7, v10), axis=0)
            k13: R.Tensor((2, 3), dtype="float32") = R.match_cast(h9, R.Tensor((2, 3), dtype="float32"))
            v14: R.Tensor((2, 3), dtype="float32") = R.subtract(v5, p1)
            v15: R.Tensor((2, 3), dtype="float32") = R.subtract(v8, v2)
            h16: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(k13, R.device(device_type=1, index=0), "global")
            R.output(h16)
        return h16

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b