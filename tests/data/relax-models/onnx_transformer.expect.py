# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}, 0, "global"), I.vdevice({"arch": "sm_80", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}, 0, "global")]})
    @R.function
    def main(x: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global"), wq: R.Tensor((32, 32), dtype="float32", vdevice="cuda:0:global"), wk: R.Tensor((32, 32), dtype="float32", vdevice="cuda:0:global"), wv: R.Tensor((32, 32), dtype="float32", vdevice="cuda:0:global"), wo: R.Tensor((32, 32), dtype="float32", vdevice="cuda:0:global"), bo: R.Tensor((32,), dtype="float32", vdevice="cuda:0:global"), g1: R.Tensor((32,), dtype="float32", vdevice="cuda:0:global"), be1: R.Tensor((32,), dtype="float32", vdevice="cuda:0:global"), w1: R.Tensor((32, 64), dtype="float32", vdevice="cuda:0:global"), b1: R.Tensor((64,), dtype="float32", vdevice="cuda:0:global"), w2: R.Tensor((64, 32), dtype="float32", vdevice="cuda:0:global"), b2: R.Tensor((32,), dtype="float32", vdevice="cuda:0:global"), g2: R.Tensor((32,), dtype="float32", vdevice="cuda:0:global"), be2: R.Tensor((32,), dtype="float32", vdevice="cuda:0:global")) -> R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = R.matmul(x, wq, out_dtype=None)
            lv_1: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = lv
            lv1: R.Tensor((1, 8, 4, 8), dtype="float32", vdevice="cuda:0:global") = R.reshape(lv_1, R.shape([1, 8, 4, 8]))
            lv1_1: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = R.matmul(x, wk, out_dtype=None)
            lv2: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = lv1_1
            lv3: R.Tensor((1, 8, 4, 8), dtype="float32", vdevice="cuda:0:global") = R.reshape(lv2, R.shape([1, 8, 4, 8]))
            lv2_1: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = R.matmul(x, wv, out_dtype=None)
            lv4: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = lv2_1
            lv5: R.Tensor((1, 8, 4, 8), dtype="float32", vdevice="cuda:0:global") = R.reshape(lv4, R.shape([1, 8, 4, 8]))
            lv6: R.Tensor((1, 4, 8, 8), dtype="float32", vdevice="cuda:0:global") = R.permute_dims(lv1, axes=[0, 2, 1, 3])
            lv7: R.Tensor((1, 4, 8, 8), dtype="float32", vdevice="cuda:0:global") = R.permute_dims(lv3, axes=[0, 2, 3, 1])
            lv3_1: R.Tensor((1, 4, 8, 8), dtype="float32", vdevice="cuda:0:global") = R.matmul(lv6, lv7, out_dtype=None)
            lv8: R.Tensor((1, 4, 8, 8), dtype="float32", vdevice="cuda:0:global") = lv3_1
            lv9: R.Tensor((1, 4, 8, 8), dtype="float32", vdevice="cuda:0:global") = R.multiply(lv8, R.const(0.35355338454246521, "float32"))
            lv10: R.Tensor((1, 4, 8, 8), dtype="float32", vdevice="cuda:0:global") = R.nn.softmax(lv9, axis=-1)
            lv11: R.Tensor((1, 4, 8, 8), dtype="float32", vdevice="cuda:0:global") = R.permute_dims(lv5, axes=[0, 2, 1, 3])
            lv4_1: R.Tensor((1, 4, 8, 8), dtype="float32", vdevice="cuda:0:global") = R.matmul(lv10, lv11, out_dtype=None)
            lv12: R.Tensor((1, 4, 8, 8), dtype="float32", vdevice="cuda:0:global") = lv4_1
            lv13: R.Tensor((1, 8, 4, 8), dtype="float32", vdevice="cuda:0:global") = R.permute_dims(lv12, axes=[0, 2, 1, 3])
            lv14: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = R.reshape(lv13, R.shape([1, 8, 32]))
            lv5_1: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = R.matmul(lv14, wo, out_dtype=None)
            lv15: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = lv5_1
            lv16: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = R.add(lv15, bo)
            lv17: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = R.add(lv16, x)
            lv18: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = R.nn.layer_norm(lv17, g1, be1, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            lv6_1: R.Tensor((1, 8, 64), dtype="float32", vdevice="cuda:0:global") = R.matmul(lv18, w1, out_dtype=None)
            lv19: R.Tensor((1, 8, 64), dtype="float32", vdevice="cuda:0:global") = lv6_1
            lv20: R.Tensor((1, 8, 64), dtype="float32", vdevice="cuda:0:global") = R.add(lv19, b1)
            lv21: R.Tensor((1, 8, 64), dtype="float32", vdevice="cuda:0:global") = R.divide(lv20, R.const(1.4142135381698608, "float32"))
            lv22: R.Tensor((1, 8, 64), dtype="float32", vdevice="cuda:0:global") = R.erf(lv21)
            lv23: R.Tensor((1, 8, 64), dtype="float32", vdevice="cuda:0:global") = R.add(lv22, R.const(1.0, "float32"))
            lv24: R.Tensor((1, 8, 64), dtype="float32", vdevice="cuda:0:global") = R.multiply(lv20, lv23)
            lv25: R.Tensor((1, 8, 64), dtype="float32", vdevice="cuda:0:global") = R.multiply(lv24, R.const(0.5, "float32"))
            lv7_1: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = R.matmul(lv25, w2, out_dtype=None)
            lv26: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = lv7_1
            lv27: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = R.add(lv26, b2)
            lv28: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = R.add(lv27, lv18)
            lv29: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = R.nn.layer_norm(lv28, g2, be2, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            gv: R.Tensor((1, 8, 32), dtype="float32", vdevice="cuda:0:global") = lv29
            R.output(gv)
        return gv