# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def equal(rxplaceholder: T.Buffer((T.int64(3), T.int64(3)), "bool"), T_equal: T.Buffer((T.int64(3), T.int64(3)), "bool")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        for ax0, ax1 in T.grid(T.int64(3), T.int64(3)):
            with T.sblock("T_equal"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(rxplaceholder[v_ax0, v_ax1])
                T.writes(T_equal[v_ax0, v_ax1])
                T_equal[v_ax0, v_ax1] = rxplaceholder[v_ax0, v_ax1] == T.bool(True)

    @R.function
    def main(x: R.Tensor((3, 3), dtype="bool")) -> R.Tensor((3, 3), dtype="bool"):
        cls = Module
        gv = R.call_tir(cls.equal, (x,), out_ty=R.Tensor((3, 3), dtype="bool"))
        return gv