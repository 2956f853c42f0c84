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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((2, 3), dtype="float32"), p2: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((4, 3), dtype="float32"):
        with R.dataflow():
            v1: R.Tensor((2, 3), dtype="float32") = R.exp(p1)
            h2: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v1, R.device(device_type=1, index=0), "global")
            v3: R.Tensor((2, 3), dtype="float32") = R.nn.relu(v1)
            v4: R.Tensor((4, 3), dtype="float32") = R.concat((v3, h2), axis=0)
            v5: R.Tensor((2, 3), dtype="float32") = R.maximum(p0, v3)
            h6: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v5, R.device(device_type=2, index=1), "global")
            v7: R.Tensor((4, 3), dtype="float32") = R.exp(v4)
            t8: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((4, 3), dtype="float32"), R.Tensor((4, 3), dtype="float32")) = v5, v4, v4
            v9: R.Tensor((4, 3), dtype="float32") = t8[2]
            h10: R.Tensor((4, 3), dtype="float32") = R.hint_on_device(v9, R.device(device_type=2, index=1), "global")
            v11: R.Tensor((4, 3), dtype="float32") = R.subtract(h10, v4)
            h12: R.Tensor((4, 3), dtype="float32") = R.hint_on_device(v11, R.device(device_type=2, index=0), "global")
            t13: R.Tuple(R.Tensor((4, 3), dtype="float32"), R.Tensor((4, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = v11, v4, v3
            v14: R.Tensor((4, 3), dtype="float32") = t13[1]
            R.output(v14)
        return v14

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b