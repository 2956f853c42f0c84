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
    def foo(p0: R.Tensor((2, 3), dtype="float32"), p1: R.Tensor((2, 3), dtype="float32"), p2: R.Tensor((3, 2), dtype="float32")) -> R.Tensor((6, 2), dtype="float32", vdevice="llvm:1:global"):
        v1: R.Tensor((2, 3), dtype="float32") = R.nn.relu(p0)
        k2: R.Tensor((2, 3), dtype="float32") = R.match_cast(p1, R.Tensor((2, 3), dtype="float32"))
        h3: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(k2, R.device(device_type=1, index=0), "global")
        v4: R.Tensor((2, 3), dtype="float32") = R.tanh(v1)
        v5: R.Tensor((2, 3), dtype="float32") = R.nn.relu(k2)
        h6: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(p1, R.device(device_type=1, index=0), "global")
        v7: R.Tensor((2, 3), dtype="float32") = R.negative(v1)
        v8: R.Tensor((2, 3), dtype="float32") = R.multiply(p1, k2)
        v9: R.Tensor((2, 2), dtype="float32") = R.matmul(h6, p2, out_dtype=None)
        h10: R.Tensor((2, 2), dtype="float32") = R.hint_on_device(v9, R.device(device_type=1, index=1), "global")
        v11: R.Tensor((2, 3), dtype="float32") = R.maximum(v7, v5)
        h12: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v11, R.device(device_type=1, index=0), "global")
        v13: R.Tensor((3, 2), dtype="float32") = R.add(p2, p2)
        h14: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(p2, R.device(device_type=1, index=1), "global")
        v15: R.Tensor((6, 2), dtype="float32") = R.concat((h14, p2), axis=0)
        h16: R.Tensor((6, 2), dtype="float32") = R.hint_on_device(v15, R.device(device_type=1, index=1), "global")
        t17: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = v8, p0
        v18: R.Tensor((2, 3), dtype="float32") = t17[0]
        v19: R.Tensor((6, 2), dtype="float32") = R.negative(h16)
        return v19

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b