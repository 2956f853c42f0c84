# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 0, "global"), I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 1, "global")]})
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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), p1: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((6, 2), dtype="float32", vdevice="llvm:1:global"):
        cls = Module
        v1: R.Tensor((6, 2), dtype="float32") = R.concat((p1, p1), axis=0)
        h2: R.Tensor((6, 2), dtype="float32") = R.hint_on_device(v1, R.device(device_type=1, index=0), "global")
        g3: R.Tensor((2, 3), dtype="float32") = cls.helper(p0)
        v4: R.Tensor((2, 2), dtype="float32") = R.matmul(p0, p1, out_dtype=None)
        t5: R.Tuple(R.Tensor((3, 2), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((6, 2), dtype="float32")) = p1, g3, v1
        v6: R.Tensor((3, 2), dtype="float32") = t5[0]
        v7: R.Tensor((2, 3), dtype="float32") = R.maximum(g3, g3)
        v8: R.Tensor((6, 2), dtype="float32") = R.multiply(h2, h2)
        h9: R.Tensor((6, 2), dtype="float32") = R.hint_on_device(h2, R.device(device_type=1, index=1), "global")
        v10: R.Tensor((2, 2), dtype="float32") = R.add(v4, v4)
        h11: R.Tensor((2, 2), dtype="float32") = R.hint_on_device(v10, R.device(device_type=1, index=1), "global")
        v12: R.Tensor((6, 2), dtype="float32") = R.add(v1, v1)
        h13: R.Tensor((6, 2), dtype="float32") = R.hint_on_device(v12, R.device(device_type=1, index=0), "global")
        c14: R.Tensor((6, 2), dtype="float32") = R.to_vdevice(v12, dst_vdevice="llvm:0:global")
        v15: R.Tensor((6, 2), dtype="float32") = R.multiply(c14, h9)
        t16: R.Tuple(R.Tensor((6, 2), dtype="float32"), R.Tensor((2, 2), dtype="float32")) = v12, v4
        v17: R.Tensor((6, 2), dtype="float32") = t16[0]
        h18: R.Tensor((6, 2), dtype="float32") = R.hint_on_device(v17, R.device(device_type=1, index=1), "global")
        v19: R.Tensor((2, 3), dtype="float32") = R.add(p0, g3)
        h20: R.Tensor((6, 2), dtype="float32") = R.hint_on_device(h2, R.device(device_type=1, index=0), "global")
        return h20

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b