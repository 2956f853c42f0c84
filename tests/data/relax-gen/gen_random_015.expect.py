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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), p1: R.Tensor((2, 3), dtype="float32"), p2: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global")) -> R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"):
        cls = Module
        with R.dataflow():
            s1 = R.call_tir(cls.copy_2x3, (p0,), out_ty=R.Tensor((2, 3), dtype="float32"))
            h2: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.to_vdevice(s1, dst_vdevice="cuda:0:global")
            s3 = R.call_tir(cls.copy_2x3, (p2,), out_ty=R.Tensor((2, 3), dtype="float32"))
            h4: R.Tensor((2, 3), dtype="float32", vdevice="cuda:1:global") = R.to_vdevice(s3, dst_vdevice="cuda:1:global")
            v5: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.maximum(s1, p0)
            v6: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.abs(p2)
            R.output(v6)
        return v6

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b