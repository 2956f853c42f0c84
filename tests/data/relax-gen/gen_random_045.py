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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((3, 2), dtype="float32"), p2: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"):
        with R.dataflow():
            v1: R.Tensor((3, 3), dtype="float32") = R.matmul(p2, p0, out_dtype=None)
            v2: R.Tensor((3, 2), dtype="float32") = R.multiply(p1, p1)
            v3: R.Tensor((3, 2), dtype="float32") = R.add(p2, p1)
            h4: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v3, R.device(device_type=2, index=0), "global")
            v5: R.Tensor((3, 2), dtype="float32") = R.subtract(p2, p2)
            v6: R.Tensor((3, 2), dtype="float32") = R.maximum(v2, v3)
            h7: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v6, R.device(device_type=1, index=0), "global")
            v8: R.Tensor((6, 2), dtype="float32") = R.concat((v2, p1), axis=0)
            v9: R.Tensor((3, 2), dtype="float32") = R.multiply(v2, v2)
            h10: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v9, R.device(device_type=2, index=0), "global")
            v11: R.Tensor((3, 2), dtype="float32") = R.negative(v6)
            t12: R.Tuple(R.Tensor((3, 2), dtype="float32"), R.Tensor((6, 2), dtype="float32"), R.Tensor((3, 2), dtype="float32")) = p2, v8, h7
            v13: R.Tensor((6, 2), dtype="float32") = t12[1]
            h14: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v3, R.device(device_type=2, index=0), "global")
            R.output(h14)
        return h14

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b