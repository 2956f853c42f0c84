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
    def foo(p0: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), p1: R.Tensor((3, 2), dtype="float32", vdevice="llvm:0:global"), p2: R.Tensor((2, 3), dtype="float32"), p3: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((3, 2), dtype="float32", vdevice="cuda:0:global"):
        with R.dataflow():
            v1: R.Tensor((2, 3), dtype="float32") = R.nn.relu(p3)
            v2: R.Tensor((2, 3), dtype="float32") = R.multiply(v1, p3)
            h3: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v2, R.device(device_type=2, index=0), "global")
            c4: R.Tensor((2, 3), dtype="float32") = R.to_vdevice(v1, dst_vdevice="cuda:0:global")
            t5: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = v2, v1, v1
            v6: R.Tensor((2, 3), dtype="float32") = t5[2]
            h7: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(v6, R.device(device_type=1, index=0), "global")
            v8: R.Tensor((2, 3), dtype="float32") = R.tanh(h7)
            t9: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = v1, v1
            v10: R.Tensor((2, 3), dtype="float32") = t9[0]
            h11: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(h3, R.device(device_type=1, index=0), "global")
            c12: R.Tensor((3, 2), dtype="float32") = R.to_vdevice(p1, dst_vdevice="llvm:0:global")
            h13: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(c12, R.device(device_type=2, index=2), "global")
            v14: R.Tensor((3, 2), dtype="float32") = R.subtract(p1, c12)
            h15: R.Tensor((3, 2), dtype="float32") = R.hint_on_device(v14, R.device(device_type=2, index=0), "global")
            v16: R.Tensor((3, 2), dtype="float32") = R.maximum(h15, p1)
            R.output(v16)
        return v16

    @R.function
    def helper(a: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        b: R.Tensor(dtype="float32", ndim=2) = R.exp(a)
        return b