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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), p1: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Module
        with R.dataflow():
            v1: R.Tensor((2, 3), dtype="float32") = R.nn.relu(p0)
            h2: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(p0, R.device(device_type=2, index=0), "global")
            v3: R.Tensor((2, 3), dtype="float32") = R.add(p1, v1)
            h4: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v3, R.device(device_type=1, index=0), "global")
            v5: R.Tensor((2, 3), dtype="float32") = R.nn.relu(p0)
            h6: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v5, R.device(device_type=2, index=0), "global")
            v7: R.Tensor((2, 3), dtype="float32") = R.subtract(v1, h6)
            g8: R.Tensor((2, 3), dtype="float32") = cls.helper(p1)
            v9: R.Tensor((2, 3), dtype="float32") = R.subtract(g8, h2)
            v10: R.Tensor((2, 3), dtype="float32") = R.nn.relu(g8)
            h11: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v5, R.device(device_type=1, index=0), "global")
            s12 = R.call_tir(cls.copy_2x3, (h6,), out_ty=R.Tensor((2, 3), dtype="float32"))
            v13: R.Tensor((2, 3), dtype="float32") = R.sigmoid(p1)
            v14: R.Tensor((2, 3), dtype="float32") = R.negative(v9)
            h15: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v14, R.device(device_type=2, index=0), "global")
            v16: R.Tensor((2, 3), dtype="float32") = R.multiply(h4, v13)
            R.output(v16)
        return v16

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b