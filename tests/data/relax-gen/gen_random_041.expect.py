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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), p1: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), p2: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global")) -> R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"):
        cls = Module
        with R.dataflow():
            v1: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.multiply(p1, p2)
            v2: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.maximum(p0, p2)
            h3: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = v2
            v4: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.nn.relu(v2)
            h5: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v4, dst_vdevice="llvm:0:global")
            t6: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global")) = v2, p2, h3
            v7: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = t6[1]
            v8: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.sigmoid(p2)
            h9: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v2, dst_vdevice="llvm:0:global")
            v10: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.multiply(v2, h3)
            h11: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = v10
            v12: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.abs(v7)
            h13: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v12, dst_vdevice="llvm:0:global")
            v14: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.maximum(h3, v4)
            h15: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v14, dst_vdevice="llvm:0:global")
            g16: R.Tensor(dtype="float32", ndim=2) = cls.helper(h3)
            k17: R.Tensor((2, 3), dtype="float32") = R.match_cast(v8, R.Tensor((2, 3), dtype="float32"))
            g18: R.Tensor(dtype="float32", ndim=2) = cls.helper(p2)
            h19: R.Tensor(dtype="float32", ndim=2, vdevice="llvm:0:global") = R.to_vdevice(g18, dst_vdevice="llvm:0:global")
            v20: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = R.maximum(v4, p1)
            R.output(v20)
        return v20

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b