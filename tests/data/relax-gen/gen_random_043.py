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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), p1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"), p2: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((3, 2), dtype="float32"):
        cls = Module
        t1: R.Tuple(R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), R.Tensor((3, 2), dtype="float32")) = p0, p2
        v2: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global") = t1[0]
        h3: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(p1, R.device(device_type=1, index=0), "global")
        v4: R.Tensor((3, 2), dtype="float32") = R.tanh(p2)
        h5: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v4, R.device(device_type=1, index=0), "global")
        v6: R.Tensor((2, 2), dtype="float32") = R.matmul(v2, h5, out_dtype=None)
        v7: R.Tensor((4, 3), dtype="float32") = R.concat((p0, v2), axis=0)
        h8: R.Tensor((4, 3), dtype="float32") = R.hint_on_device(v7, R.device(device_type=1, index=0), "global")
        v9: R.Tensor((2, 3), dtype="float32") = R.add(p0, p0)
        t10: R.Tuple(R.Tensor((3, 2), dtype="float32"), R.Tensor((3, 2), dtype="float32")) = p2, h5
        v11: R.Tensor((3, 2), dtype="float32") = t10[0]
        h12: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v11, R.device(device_type=2, index=1), "global")
        v13: R.Tensor((3, 2), dtype="float32") = R.nn.relu(h3)
        h14: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v13, R.device(device_type=2, index=0), "global")
        v15: R.Tensor((4, 3), dtype="float32") = R.concat((v2, p0), axis=0)
        s16 = R.call_tir(cls.copy_2x2, (v6,), out_ty=R.Tensor((2, 2), dtype="float32"))
        v17: R.Tensor((3, 2), dtype="float32") = R.maximum(p1, h14)
        h18: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v17, R.device(device_type=2, index=1), "global")
        return h18

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b