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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), p1: R.Tensor((3, 2), dtype="float32"), p2: R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global"), p3: R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global")) -> R.Tensor((3, 2), dtype="float32"):
        t1: R.Tuple(R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global"), R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global")) = p3, p3
        v2: R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global") = t1[1]
        h3: R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global") = v2
        v4: R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global") = R.sigmoid(p3)
        v5: R.Tensor((3, 3), dtype="float32", vdevice="cuda:0:global") = R.matmul(v2, p0, out_dtype=None)
        h6: R.Tensor((3, 3), dtype="float32", vdevice="cuda:1:global") = R.to_vdevice(v5, dst_vdevice="cuda:1:global")
        c7: R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global") = R.to_vdevice(p3, dst_vdevice="cuda:0:global")
        v8: R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global") = R.add(c7, p3)
        t9: R.Tuple(R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global"), R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global"), R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global")) = v4, v2, v4
        v10: R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global") = t9[1]
        v11: R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global") = R.add(p3, h3)
        v12: R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global") = R.negative(v11)
        v13: R.Tensor((3, 3), dtype="float32", vdevice="cuda:0:global") = R.matmul(v2, p0, out_dtype=None)
        t14: R.Tuple(R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global"), R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global"), R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global")) = v10, p2, p0
        v15: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global") = t14[2]
        t16: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global")) = p0, v2
        v17: R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global") = t16[1]
        v18: R.Tensor((3, 2), dtype="float32") = R.tanh(p1)
        return v18

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b