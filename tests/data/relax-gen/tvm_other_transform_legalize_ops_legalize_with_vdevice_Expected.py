# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 0, "global")]})
    @T.prim_func(private=True, s_tir=True)
    def add(A: T.Buffer((T.int64(32), T.int64(32)), "float32"), B: T.Buffer((T.int64(32), T.int64(32)), "float32"), C: T.Buffer((T.int64(32), T.int64(32)), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for iters_0, iters_1 in T.grid(T.int64(32), T.int64(32)):
            with T.sblock("T_add"):
                ax0, ax1 = T.axis.remap("SS", [iters_0, iters_1])
                T.reads(A[ax0, ax1], B[ax0, ax1])
                T.writes(C[ax0, ax1])
                C[ax0, ax1] = A[ax0, ax1] + B[ax0, ax1]

    @T.prim_func(private=True, s_tir=True)
    def add_llvm(A: T.Buffer((T.int64(32), T.int64(32)), "float32"), B: T.Buffer((T.int64(32), T.int64(32)), "float32"), C: T.Buffer((T.int64(32), T.int64(32)), "float32")):
        T.func_attr({"target": T.target({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-conda-linux-gnu", "tag": ""}), "tirx.noalias": True})
        # with T.sblock("root"):
        for iters_0, iters_1 in T.grid(T.int64(32), T.int64(32)):
            with T.sblock("T_add"):
                ax0, ax1 = T.axis.remap("SS", [iters_0, iters_1])
                T.reads(A[ax0, ax1], B[ax0, ax1])
                T.writes(C[ax0, ax1])
                C[ax0, ax1] = A[ax0, ax1] + B[ax0, ax1]

    @R.function
    def func_cuda(A: R.Tensor((32, 32), dtype="float32"), B: R.Tensor((32, 32), dtype="float32")) -> R.Tensor((32, 32), dtype="float32"):
        cls = Module
        C = R.call_tir(cls.add, (A, B), out_ty=R.Tensor((32, 32), dtype="float32"))
        return C

    @R.function
    def func_llvm(A: R.Tensor((32, 32), dtype="float32", vdevice="llvm:0:global"), B: R.Tensor((32, 32), dtype="float32", vdevice="llvm:0:global")) -> R.Tensor((32, 32), dtype="float32", vdevice="llvm:0:global"):
        cls = Module
        C = R.call_tir(cls.add_llvm, (A, B), out_ty=R.Tensor((32, 32), dtype="float32", vdevice="llvm:0:global"))
        return C