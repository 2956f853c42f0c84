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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="cuda:1:global"), p1: R.Tensor((2, 3), dtype="float32", vdevice="cuda:1:global"), p2: R.Tensor((3, 2), dtype="float32", vdevice="cuda:1:global"), p3: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((2, 3), dtype="float32", vdevice="cuda:1:global"):
        cls = Module
        v1: R.Tensor((2, 3), dtype="float32", vdevice="cuda:1:global") = R.subtract(p1, p0)
        v2: R.Tensor((3, 2), dtype="float32", vdevice="cuda:1:global") = R.abs(p2)
        h3: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global") = R.to_vdevice(v2, dst_vdevice="llvm:0:global")
        s4 = R.call_tir(cls.copy_3x2, (p3,), out_ty=R.Tensor((3, 2), dtype="float32"))
        t5: R.Tuple(R.Tensor((3, 2), dtype="float32", vdevice="cuda:1:global"), R.Tensor((2, 3), dtype="float32", vdevice="cuda:1:global"), R.Tensor((2, 3), dtype="float32", vdevice="cuda:1:global")) = p2, p0, p1
        v6: R.Tensor((3, 2), dtype="float32", vdevice="cuda:1:global") = t5[0]
        v7: R.Tensor((3, 2), dtype="float32") = R.nn.relu(s4)
        t8: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="cuda:1:global"), R.Tensor((2, 3), dtype="float32", vdevice="cuda:1:global"), R.Tensor((3, 2), dtype="float32", vdevice="cuda:1:global")) = v1, p0, p2
        v9: R.Tensor((3, 2), dtype="float32", vdevice="cuda:1:global") = t8[2]
        v10: R.Tensor((2, 2), dtype="float32", vdevice="cuda:1:global") = R.matmul(v1, v2, out_dtype=None)
        v11: R.Tensor((2, 3), dtype="float32", vdevice="cuda:1:global") = R.add(v1, p0)
        k12: R.Tensor((2, 3), dtype="float32") = R.match_cast(p1, R.Tensor((2, 3), dtype="float32"))
        v13: R.Tensor((2, 3), dtype="float32", vdevice="cuda:1:global") = R.add(p1, p0)
        return v13

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b