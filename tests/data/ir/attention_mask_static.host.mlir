// -----// IR Dump Before ConvertToStreamPass: iree-stream-conversion //----- //
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>
#map2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>
#map3 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>
#map4 = affine_map<(d0, d1, d2, d3, d4) -> ()>
#map5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>
#map6 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
#device_target_local = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #device_target_local
  util.global private @__hoisted_tensor_128xf32 {stream.affinity.default = #hal.device.affinity<@__device_0>} : tensor<128xf32>
  flow.executable private @_initializer_0_dispatch_0 {
    flow.executable.export public @_initializer_0_dispatch_0_elementwise_broadcast_128_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @_initializer_0_dispatch_0_elementwise_broadcast_128_f32(%arg0: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<128xf32>>) {
        %c8 = arith.constant 8 : index
        %cst = arith.constant 0xFF800000 : f32
        %cst_0 = arith.constant 0.000000e+00 : f32
        %0 = tensor.empty() : tensor<128xf32>
        %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<128xf32>) {
        ^bb0(%out: f32):
          %2 = linalg.index 0 : index
          %3 = arith.remsi %2, %c8 : index
          %4 = arith.divsi %2, %c8 : index
          %5 = arith.remsi %4, %c8 : index
          %6 = arith.cmpi ule, %3, %5 : index
          %7 = arith.select %6, %cst_0, %cst : f32
          linalg.yield %7 : f32
        } -> tensor<128xf32>
        iree_tensor_ext.dispatch.tensor.store %1, %arg0, offsets = [0], sizes = [128], strides = [1] : tensor<128xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<128xf32>>
        return
      }
    }
  }
  util.initializer attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
    %0 = flow.dispatch @_initializer_0_dispatch_0::@_initializer_0_dispatch_0_elementwise_broadcast_128_f32() : () -> tensor<128xf32>
    util.global.store %0, @__hoisted_tensor_128xf32 : tensor<128xf32>
    util.return
  }
  flow.executable private @main_dispatch_0 {
    flow.executable.export public @main_dispatch_0_attention_2x8x4x4x8 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_attention_2x8x4x4x8(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x8x4xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x8x4xf32>>, %arg2: !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x8x4xf32>>, %arg3: !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x8x8xf32>>, %arg4: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x8x4xf32>>) {
        %cst = arith.constant 5.000000e-01 : f32
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [2, 8, 4], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x8x4xf32>> -> tensor<2x8x4xf32>
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0, 0], sizes = [2, 8, 4], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x8x4xf32>> -> tensor<2x8x4xf32>
        %2 = iree_tensor_ext.dispatch.tensor.load %arg2, offsets = [0, 0, 0], sizes = [2, 8, 4], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x8x4xf32>> -> tensor<2x8x4xf32>
        %3 = iree_tensor_ext.dispatch.tensor.load %arg3, offsets = [0, 0, 0], sizes = [2, 8, 8], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x8x8xf32>> -> tensor<2x8x8xf32>
        %4 = tensor.empty() : tensor<2x8x4xf32>
        %5 = iree_linalg_ext.attention <indexing_maps = [#map1, #map2, #map3, #map4, #map5, #map6]> ins(%0, %1, %2, %cst, %3 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, f32, tensor<2x8x8xf32>) outs(%4 : tensor<2x8x4xf32>) {
        ^bb0(%arg5: f32):
          iree_linalg_ext.yield %arg5 : f32
        } -> tensor<2x8x4xf32>
        iree_tensor_ext.dispatch.tensor.store %5, %arg4, offsets = [0, 0, 0], sizes = [2, 8, 4], strides = [1, 1, 1] : tensor<2x8x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x8x4xf32>>
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<2x8x4xf32>, %input1: tensor<2x8x4xf32>, %input2: tensor<2x8x4xf32>) -> (%output0: tensor<2x8x4xf32>)"}} {
    %__hoisted_tensor_128xf32 = util.global.load immutable @__hoisted_tensor_128xf32 : tensor<128xf32>
    %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<2x8x4xf32>
    %1 = hal.tensor.import %arg1 "input1" : !hal.buffer_view -> tensor<2x8x4xf32>
    %2 = hal.tensor.import %arg2 "input2" : !hal.buffer_view -> tensor<2x8x4xf32>
    %3 = flow.tensor.reshape %__hoisted_tensor_128xf32 : tensor<128xf32> -> tensor<2x8x8xf32>
    %4 = flow.dispatch @main_dispatch_0::@main_dispatch_0_attention_2x8x4x4x8(%0, %1, %2, %3) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x8xf32>) -> tensor<2x8x4xf32>
    %5 = hal.tensor.export %4 "output0" : tensor<2x8x4xf32> -> !hal.buffer_view
    util.return %5 : !hal.buffer_view
  }
}


