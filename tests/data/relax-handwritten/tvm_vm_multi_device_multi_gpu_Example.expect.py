# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_attrs({"attr": 10})
    I.module_global_infos({"vdevice": [I.vdevice({"arch": "sm_50", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}, 1, "global"), I.vdevice({"arch": "sm_50", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}, 0, "global"), I.vdevice({"arch": "sm_50", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}, 2, "global")]})
    @R.function
    def foo(a: R.Tensor((2, 3), dtype="float32", vdevice="cuda:0:global"), b: R.Tensor((3, 4), dtype="float32", vdevice="cuda:0:global"), c: R.Tensor((4, 5), dtype="float32", vdevice="cuda:1:global"), d: R.Tensor((5, 6), dtype="float32", vdevice="cuda:2:global")) -> R.Tensor((2, 6), dtype="float32", vdevice="cuda:2:global"):
        with R.dataflow():
            lv0: R.Tensor((2, 4), dtype="float32", vdevice="cuda:0:global") = R.matmul(a, b, out_dtype=None)
            lv1: R.Tensor((2, 4), dtype="float32", vdevice="cuda:1:global") = R.to_vdevice(lv0, dst_vdevice="cuda:1:global")
            lv2: R.Tensor((2, 5), dtype="float32", vdevice="cuda:1:global") = R.matmul(lv1, c, out_dtype=None)
            lv3: R.Tensor((2, 5), dtype="float32", vdevice="cuda:2:global") = R.to_vdevice(lv2, dst_vdevice="cuda:2:global")
            gv: R.Tensor((2, 6), dtype="float32", vdevice="cuda:2:global") = R.matmul(lv3, d, out_dtype=None)
            R.output(gv)
        return gv