# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_attrs({"attr": 10})
    I.module_global_infos({"vdevice": [I.vdevice({"arch": "sm_50", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}, 0, "global"), I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 0, "global")]})
    @R.function
    def foo(x: R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global"), y: R.Tensor((3, 4), dtype="float32", vdevice="llvm:0:global"), z: R.Tensor((4, 5), dtype="float32", vdevice="cuda:0:global")) -> R.Tensor((2, 5), dtype="float32", vdevice="cuda:0:global"):
        with R.dataflow():
            lv0: R.Tensor((2, 4), dtype="float32", vdevice="llvm:0:global") = R.matmul(x, y, out_dtype=None)
            lv1: R.Tensor((2, 4), dtype="float32", vdevice="cuda:0:global") = R.to_vdevice(lv0, dst_vdevice="cuda:0:global")
            gv: R.Tensor((2, 5), dtype="float32", vdevice="cuda:0:global") = R.matmul(lv1, z, out_dtype=None)
            R.output(gv)
        return gv