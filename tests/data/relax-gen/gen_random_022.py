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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), p2: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            v1: R.Tensor((2, 3), dtype="float32") = R.maximum(p0, p0)
            k2: R.Tensor((2, 3), dtype="float32") = R.match_cast(p0, R.Tensor((2, 3), dtype="float32"))
            h3: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(p1, R.device(device_type=1, index=0), "global")
            t4: R.Tuple(R.Tensor((3, 2), dtype="float32"), R.Tensor((3, 2), dtype="float32")) = p2, p2
            v5: R.Tensor((3, 2), dtype="float32") = t4[1]
            h6: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v5, R.device(device_type=1, index=0), "global")
            t7: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((3, 2), dtype="float32")) = p0, v1, v5
            v8: R.Tensor((2, 3), dtype="float32") = t7[1]
            h9: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(h3, R.device(device_type=1, index=0), "global")
            R.output(h9)
        return h9

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b