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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((2, 3), dtype="float32"), p2: R.Tensor((3, 2), dtype="float32"), p3: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((3, 3), dtype="float32"):
        cls = Module
        v1: R.Tensor((3, 2), dtype="float32") = R.negative(p2)
        h2: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v1, R.device(device_type=1, index=0), "global")
        v3: R.Tensor((3, 2), dtype="float32") = R.abs(p3)
        h4: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v3, R.device(device_type=2, index=1), "global")
        t5: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((3, 2), dtype="float32")) = p1, v1
        v6: R.Tensor((3, 2), dtype="float32") = t5[1]
        h7: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v6, R.device(device_type=2, index=0), "global")
        v8: R.Tensor((6, 2), dtype="float32") = R.concat((v1, p3), axis=0)
        v9: R.Tensor((3, 2), dtype="float32") = R.subtract(h2, h4)
        v10: R.Tensor((3, 2), dtype="float32") = R.subtract(p3, v1)
        h11: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v10, R.device(device_type=2, index=0), "global")
        v12: R.Tensor((3, 2), dtype="float32") = R.negative(h2)
        h13: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v12, R.device(device_type=2, index=0), "global")
        g14: R.Tensor((3, 2), dtype="float32") = cls.helper(h13)
        v15: R.Tensor((3, 2), dtype="float32") = R.multiply(v9, h2)
        h16: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(g14, R.device(device_type=2, index=0), "global")
        v17: R.Tensor((3, 3), dtype="float32") = R.matmul(v3, p1, out_dtype=None)
        return v17

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b