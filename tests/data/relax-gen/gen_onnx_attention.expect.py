# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 0, "global"), I.vdevice({"arch": "sm_80", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}, 0, "global")]})
    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32", vdevice="cuda:0:global"), wq: R.Tensor((8, 8), dtype="float32", vdevice="cuda:0:global"), wk: R.Tensor((8, 8), dtype="float32", vdevice="cuda:0:global"), wv: R.Tensor((8, 8), dtype="float32", vdevice="cuda:0:global"), g: R.Tensor((8,), dtype="float32", vdevice="cuda:0:global"), b: R.Tensor((8,), dtype="float32", vdevice="cuda:0:global")) -> R.Tensor((4, 8), dtype="float32", vdevice="cuda:0:global"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((4, 8), dtype="float32", vdevice="cuda:0:global") = R.matmul(x, wk, out_dtype=None)
            lv_1: R.Tensor((4, 8), dtype="float32", vdevice="cuda:0:global") = lv
            lv1: R.Tensor((4, 8), dtype="float32", vdevice="cuda:0:global") = R.matmul(x, wq, out_dtype=None)
            lv1_1: R.Tensor((4, 8), dtype="float32", vdevice="cuda:0:global") = lv1
            lv2: R.Tensor((8, 4), dtype="float32", vdevice="cuda:0:global") = R.permute_dims(lv_1, axes=[1, 0])
            lv2_1: R.Tensor((4, 4), dtype="float32", vdevice="cuda:0:global") = R.matmul(lv1_1, lv2, out_dtype=None)
            lv3: R.Tensor((4, 4), dtype="float32", vdevice="cuda:0:global") = lv2_1
            lv4: R.Tensor((4, 4), dtype="float32", vdevice="cuda:0:global") = R.nn.softmax(lv3, axis=-1)
            lv3_1: R.Tensor((4, 8), dtype="float32", vdevice="cuda:0:global") = R.matmul(x, wv, out_dtype=None)
            lv5: R.Tensor((4, 8), dtype="float32", vdevice="cuda:0:global") = lv3_1
            lv4_1: R.Tensor((4, 8), dtype="float32", vdevice="cuda:0:global") = R.matmul(lv4, lv5, out_dtype=None)
            lv6: R.Tensor((4, 8), dtype="float32", vdevice="cuda:0:global") = lv4_1
            lv7: R.Tensor((4, 8), dtype="float32", vdevice="cuda:0:global") = R.add(lv6, x)
            lv8: R.Tensor((4, 8), dtype="float32", vdevice="cuda:0:global") = R.nn.layer_norm(lv7, g, b, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            gv: R.Tensor((4, 8), dtype="float32", vdevice="cuda:0:global") = lv8
            R.output(gv)
        return gv