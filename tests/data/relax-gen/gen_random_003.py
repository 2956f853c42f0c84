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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((2, 3), dtype="float32"), p2: R.Tensor((2, 3), dtype="float32"), p3: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            h1: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(p3, R.device(device_type=1, index=0), "global")
            v2: R.Tensor((2, 3), dtype="float32") = R.subtract(p1, p2)
            h3: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v2, R.device(device_type=2, index=0), "global")
            v4: R.Tensor((2, 3), dtype="float32") = R.maximum(p2, p2)
            h5: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(h1, R.device(device_type=2, index=0), "global")
            v6: R.Tensor((2, 3), dtype="float32") = R.multiply(h3, p0)
            t7: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = p1, v2
            v8: R.Tensor((2, 3), dtype="float32") = t7[1]
            k9: R.Tensor((2, 3), dtype="float32") = R.match_cast(h1, R.Tensor((2, 3), dtype="float32"))
            h10: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(k9, R.device(device_type=1, index=0), "global")
            v11: R.Tensor((2, 3), dtype="float32") = R.exp(p1)
            h12: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v11, R.device(device_type=2, index=0), "global")
            v13: R.Tensor((2, 3), dtype="float32") = R.negative(h3)
            h14: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v13, R.device(device_type=1, index=0), "global")
            v15: R.Tensor((4, 3), dtype="float32") = R.concat((p1, h1), axis=0)
            h16: R.Tensor((4, 3), dtype="float32") = R.hint_on_device(v15, R.device(device_type=1, index=0), "global")
            c17: R.Tensor((2, 3), dtype="float32") = R.to_vdevice(h3, dst_vdevice="llvm:0:global")
            c18: R.Tensor((2, 3), dtype="float32") = R.to_vdevice(v2, dst_vdevice="cuda:0:global")
            R.output(c18)
        return c18

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b