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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), p2: R.Tensor((2, 3), dtype="float32"), p3: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Module
        with R.dataflow():
            v1: R.Tensor((2, 3), dtype="float32") = R.sigmoid(p3)
            g2: R.Tensor((2, 3), dtype="float32") = cls.helper(p0)
            h3: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(g2, R.device(device_type=2, index=0), "global")
            k4: R.Tensor((2, 3), dtype="float32") = R.match_cast(v1, R.Tensor((2, 3), dtype="float32"))
            t5: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = k4, p3
            v6: R.Tensor((2, 3), dtype="float32") = t5[1]
            h7: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v6, R.device(device_type=2, index=0), "global")
            v8: R.Tensor((2, 3), dtype="float32") = R.add(v1, k4)
            v9: R.Tensor((2, 3), dtype="float32") = R.sigmoid(h3)
            h10: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v9, R.device(device_type=1, index=0), "global")
            R.output(h10)
        return h10

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b