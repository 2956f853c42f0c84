# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"device": "adreno", "image_base_address_alignment": 64, "keys": ["adreno", "opencl", "gpu"], "kind": "opencl", "max_function_args": 128, "max_num_threads": 256, "max_shared_memory_per_block": 16384, "max_threads_per_block": 256, "tag": "", "texture_depth_limit": 2048, "texture_spatial_limit": 16384, "thread_warp_size": 1}, 0, "global.texture-weight"), I.vdevice({"device": "adreno", "image_base_address_alignment": 64, "keys": ["adreno", "opencl", "gpu"], "kind": "opencl", "max_function_args": 128, "max_num_threads": 256, "max_shared_memory_per_block": 16384, "max_threads_per_block": 256, "tag": "", "texture_depth_limit": 2048, "texture_spatial_limit": 16384, "thread_warp_size": 1}, 0, "global")]})
    @T.prim_func(private=True, s_tir=True)
    def conv2d_NCHWc_OIHWo_opencl(lv: T.Buffer((T.int64(2), T.int64(4), T.int64(28), T.int64(28), T.int64(4)), "float32"), lv1: T.Buffer((T.int64(1), T.int64(16), T.int64(3), T.int64(3), T.int64(4)), "float32"), conv2d_NCHWc_OIHWo: T.Buffer((T.int64(2), T.int64(1), T.int64(26), T.int64(26), T.int64(4)), "float32")):
        conv2d_NCHWc_OIHWo[0, 0, 0, 0, 0] = T.float32(0.0)

    @T.prim_func(private=True, s_tir=True)
    def fused_relu_concatenate_split(gv: T.Buffer((T.int64(2), T.int64(1), T.int64(26), T.int64(26), T.int64(4)), "float32"), T_split_sections_intermediate: T.Buffer((T.int64(2), T.int64(1), T.int64(26), T.int64(26), T.int64(4)), "float32"), T_split_sections_intermediate_1: T.Buffer((T.int64(2), T.int64(1), T.int64(26), T.int64(26), T.int64(4)), "float32")):
        T_split_sections_intermediate[0, 0, 0, 0, 0] = T.float32(0.0)
        T_split_sections_intermediate_1[0, 0, 0, 0, 0] = T.float32(0.0)

    @T.prim_func(private=True, s_tir=True)
    def te_layout_transform(x: T.Buffer((T.int64(2), T.int64(16), T.int64(28), T.int64(28)), "float32"), te_layout_transform: T.Buffer((T.int64(2), T.int64(4), T.int64(28), T.int64(28), T.int64(4)), "float32")):
        te_layout_transform[0, 0, 0, 0, 0] = T.float32(0.0)

    @T.prim_func(private=True, s_tir=True)
    def te_layout_transform1(w: T.Buffer((T.int64(4), T.int64(16), T.int64(3), T.int64(3)), "float32"), te_layout_transform: T.Buffer((T.int64(1), T.int64(16), T.int64(3), T.int64(3), T.int64(4)), "float32")):
        te_layout_transform[0, 0, 0, 0, 0] = T.float32(0.0)

    @T.prim_func(private=True, s_tir=True)
    def te_layout_transform2(lv3: T.Buffer((T.int64(2), T.int64(1), T.int64(26), T.int64(26), T.int64(4)), "float32"), te_layout_transform: T.Buffer((T.int64(2), T.int64(4), T.int64(26), T.int64(26)), "float32")):
        te_layout_transform[0, 0, 0, 0] = T.float32(0.0)

    @R.function
    def main(x: R.Tensor((2, 16, 28, 28), dtype="float32", vdevice="opencl:1:global"), w: R.Tensor((4, 16, 3, 3), dtype="float32", vdevice="opencl:1:global")) -> R.Tuple(R.Tensor((2, 4, 26, 26), dtype="float32", vdevice="opencl:1:global"), R.Tensor((2, 4, 26, 26), dtype="float32", vdevice="opencl:1:global")):
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.te_layout_transform, (x,), out_ty=R.Tensor((2, 4, 28, 28, 4), dtype="float32", vdevice="opencl:0:global.texture-weight"))
            lv1 = R.call_tir(cls.te_layout_transform1, (w,), out_ty=R.Tensor((1, 16, 3, 3, 4), dtype="float32", vdevice="opencl:0:global.texture-weight"))
            gv = R.call_tir(cls.conv2d_NCHWc_OIHWo_opencl, (lv, lv1), out_ty=R.Tensor((2, 1, 26, 26, 4), dtype="float32", vdevice="opencl:0:global.texture-weight"))
            lv_1 = R.call_tir(cls.fused_relu_concatenate_split, (gv,), out_ty=[R.Tensor((2, 1, 26, 26, 4), dtype="float32", vdevice="opencl:1:global"), R.Tensor((2, 1, 26, 26, 4), dtype="float32", vdevice="opencl:1:global")])
            lv3: R.Tensor((2, 1, 26, 26, 4), dtype="float32", vdevice="opencl:1:global") = lv_1[0]
            lv4 = R.call_tir(cls.te_layout_transform2, (lv3,), out_ty=R.Tensor((2, 4, 26, 26), dtype="float32", vdevice="opencl:1:global"))
            lv5: R.Tensor((2, 1, 26, 26, 4), dtype="float32", vdevice="opencl:1:global") = lv_1[1]
            lv6 = R.call_tir(cls.te_layout_transform2, (lv5,), out_ty=R.Tensor((2, 4, 26, 26), dtype="float32", vdevice="opencl:1:global"))
            gv4: R.Tuple(R.Tensor((2, 4, 26, 26), dtype="float32", vdevice="opencl:1:global"), R.Tensor((2, 4, 26, 26), dtype="float32", vdevice="opencl:1:global")) = lv4, lv6
            R.output(gv4)
        return gv4