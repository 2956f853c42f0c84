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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"), p2: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((3, 2), dtype="float32"):
        with R.dataflow():
            v1: R.Tensor((4, 3), dtype="float32") = R.concat((p0, p0), axis=0)
            v2: R.Tensor((3, 2), dtype="float32") = R.exp(p2)
            c3: R.Tensor((3, 2), dtype="float32") = R.to_vdevice(p1, dst_vdevice="cuda:0:global")
            v4: R.Tensor((6, 2), dtype="float32") = R.concat((p1, p1), axis=0)
            v5: R.Tensor((3, 2), dtype="float32") = R.exp(p2)
            v6: R.Tensor((2, 3), dtype="float32") = R.abs(p0)
            v7: R.Tensor((8, 3), dtype="float32") = R.concat((v1, v1), axis=0)
            v8: R.Tensor((3, 2), dtype="float32") = R.abs(p1)
            R.output(v8)
        return v8

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b