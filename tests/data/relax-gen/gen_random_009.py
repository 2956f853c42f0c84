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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((2, 3), dtype="float32"), p2: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((3, 2), dtype="float32"):
        v1: R.Tensor((3, 2), dtype="float32") = R.negative(p2)
        h2: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(p2, R.device(device_type=2, index=0), "global")
        t3: R.Tuple(R.Tensor((3, 2), dtype="float32"), R.Tensor((3, 2), dtype="float32"), R.Tensor((3, 2), dtype="float32")) = h2, p2, p2
        v4: R.Tensor((3, 2), dtype="float32") = t3[1]
        v5: R.Tensor((3, 2), dtype="float32") = R.maximum(p2, h2)
        h6: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(h2, R.device(device_type=2, index=1), "global")
        v7: R.Tensor((2, 3), dtype="float32") = R.multiply(p0, p1)
        h8: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v1, R.device(device_type=1, index=0), "global")
        k9: R.Tensor((2, 3), dtype="float32") = R.match_cast(v7, R.Tensor((2, 3), dtype="float32"))
        h10: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(k9, R.device(device_type=2, index=0), "global")
        t11: R.Tuple(R.Tensor((3, 2), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = v5, h10
        v12: R.Tensor((3, 2), dtype="float32") = t11[0]
        v13: R.Tensor((6, 2), dtype="float32") = R.concat((v5, p2), axis=0)
        h14: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(h6, R.device(device_type=1, index=0), "global")
        c15: R.Tensor((3, 2), dtype="float32") = R.to_vdevice(h6, dst_vdevice="cuda:0:global")
        h16: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(c15, R.device(device_type=2, index=0), "global")
        v17: R.Tensor((3, 2), dtype="float32") = R.multiply(v12, v4)
        v18: R.Tensor((3, 2), dtype="float32") = R.subtract(h14, v5)
        h19: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(c15, R.device(device_type=2, index=3), "global")
        v20: R.Tensor((3, 2), dtype="float32") = R.subtract(v4, p2)
        v21: R.Tensor((3, 2), dtype="float32") = R.abs(v18)
        return v21

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b