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
        t1: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = p0, p0
        v2: R.Tensor((2, 3), dtype="float32") = t1[0]
        v3: R.Tensor((2, 3), dtype="float32") = R.negative(p1)
        h4: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v3, R.device(device_type=2, index=1), "global")
        v5: R.Tensor((2, 3), dtype="float32") = R.tanh(v3)
        v6: R.Tensor((2, 3), dtype="float32") = R.subtract(p0, v2)
        v7: R.Tensor((2, 3), dtype="float32") = R.maximum(p0, v5)
        k8: R.Tensor((2, 3), dtype="float32") = R.match_cast(v2, R.Tensor((2, 3), dtype="float32"))
        h9: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(k8, R.device(device_type=2, index=0), "global")
        v10: R.Tensor((2, 3), dtype="float32") = R.multiply(p0, v6)
        h11: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v10, R.device(device_type=2, index=0), "global")
        v12: R.Tensor((2, 3), dtype="float32") = R.abs(p0)
        h13: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v12, R.device(device_type=2, index=1), "global")
        k14: R.Tensor((2, 3), dtype="float32") = R.match_cast(h4, R.Tensor((2, 3), dtype="float32"))
        h15: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(p0, R.device(device_type=1, index=0), "global")
        v16: R.Tensor((2, 3), dtype="float32") = R.add(p1, h15)
        v17: R.Tensor((2, 3), dtype="float32") = R.subtract(v3, v6)
        return v17

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b