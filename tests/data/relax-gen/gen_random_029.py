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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            t1: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = p0, p0, p0
            v2: R.Tensor((2, 3), dtype="float32") = t1[0]
            h3: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(p1, R.device(device_type=2, index=1), "global")
            v4: R.Tensor((2, 3), dtype="float32") = R.abs(p0)
            k5: R.Tensor((2, 3), dtype="float32") = R.match_cast(v2, R.Tensor((2, 3), dtype="float32"))
            h6: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(p0, R.device(device_type=2, index=1), "global")
            v7: R.Tensor((2, 3), dtype="float32") = R.subtract(v4, v2)
            t8: R.Tuple(R.Tensor((3, 2), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((3, 2), dtype="float32")) = p1, v2, p1
            v9: R.Tensor((3, 2), dtype="float32") = t8[0]
            h10: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v9, R.device(device_type=2, index=0), "global")
            v11: R.Tensor((2, 3), dtype="float32") = R.tanh(h6)
            h12: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v11, R.device(device_type=2, index=1), "global")
            v13: R.Tensor((2, 3), dtype="float32") = R.add(v4, v7)
            h14: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v13, R.device(device_type=1, index=0), "global")
            R.output(h14)
        return h14

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b