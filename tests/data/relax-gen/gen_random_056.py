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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="cuda:1:global"), p1: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"):
        cls = Module
        with R.dataflow():
            t1: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = p1, p1
            v2: R.Tensor((2, 3), dtype="float32") = t1[0]
            g3: R.Tensor((2, 3), dtype="float32") = cls.helper(p0)
            k4: R.Tensor((2, 3), dtype="float32") = R.match_cast(g3, R.Tensor((2, 3), dtype="float32"))
            h5: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(k4, R.device(device_type=2, index=1), "global")
            v6: R.Tensor((2, 3), dtype="float32") = R.subtract(k4, p0)
            h7: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v6, R.device(device_type=2, index=0), "global")
            t8: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = v2, p1
            v9: R.Tensor((2, 3), dtype="float32") = t8[0]
            t10: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = g3, h7, k4
            v11: R.Tensor((2, 3), dtype="float32") = t10[0]
            v12: R.Tensor((2, 3), dtype="float32") = R.abs(v6)
            h13: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v12, R.device(device_type=1, index=0), "global")
            h14: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(h13, R.device(device_type=2, index=0), "global")
            c15: R.Tensor((2, 3), dtype="float32") = R.to_vdevice(v2, dst_vdevice="llvm:0:global")
            h16: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(c15, R.device(device_type=2, index=0), "global")
            R.output(h16)
        return h16

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b