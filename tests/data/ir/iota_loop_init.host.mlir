// -----// IR Dump Before ConvertToStreamPass: iree-stream-conversion //----- //
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<(d0) -> (d0)>
#device_target_local = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #device_target_local
  flow.executable private @main_dispatch_0 {
    flow.executable.export public @main_dispatch_0_elementwise_broadcast_3_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_elementwise_broadcast_3_f32(%arg0: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3xf32>>) {
        %0 = tensor.empty() : tensor<3xf32>
        %1 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%0 : tensor<3xf32>) {
        ^bb0(%out: f32):
          %2 = linalg.index 0 : index
          %3 = arith.index_cast %2 : index to i32
          %4 = arith.sitofp %3 : i32 to f32
          linalg.yield %4 : f32
        } -> tensor<3xf32>
        iree_tensor_ext.dispatch.tensor.store %1, %arg0, offsets = [0], sizes = [3], strides = [1] : tensor<3xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3xf32>>
        return
      }
    }
  }
  flow.executable private @main_dispatch_1 {
    flow.executable.export public @main_dispatch_1_elementwise_3_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_1_elementwise_3_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<3xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<3xf32>>, %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3xf32>>) {
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [3], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3xf32>> -> tensor<3xf32>
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0], sizes = [3], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3xf32>> -> tensor<3xf32>
        %2 = tensor.empty() : tensor<3xf32>
        %3 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%0, %1 : tensor<3xf32>, tensor<3xf32>) outs(%2 : tensor<3xf32>) {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %4 = arith.addf %in, %in_0 : f32
          linalg.yield %4 : f32
        } -> tensor<3xf32>
        iree_tensor_ext.dispatch.tensor.store %3, %arg2, offsets = [0], sizes = [3], strides = [1] : tensor<3xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3xf32>>
        return
      }
    }
  }
  flow.executable private @main_dispatch_2 {
    flow.executable.export public @main_dispatch_2_elementwise_3_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_2_elementwise_3_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<3xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<3xf32>>, %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3xf32>>) {
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [3], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3xf32>> -> tensor<3xf32>
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0], sizes = [3], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3xf32>> -> tensor<3xf32>
        %2 = tensor.empty() : tensor<3xf32>
        %3 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%0, %1 : tensor<3xf32>, tensor<3xf32>) outs(%2 : tensor<3xf32>) {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %4 = arith.mulf %in, %in_0 : f32
          linalg.yield %4 : f32
        } -> tensor<3xf32>
        iree_tensor_ext.dispatch.tensor.store %3, %arg2, offsets = [0], sizes = [3], strides = [1] : tensor<3xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3xf32>>
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<3xf32>) -> (%output0: tensor<3xf32>)"}} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<3xf32>
    %1 = flow.dispatch @main_dispatch_0::@main_dispatch_0_elementwise_broadcast_3_f32() : () -> tensor<3xf32>
    %2:2 = scf.while (%arg1 = %1, %arg2 = %c0_i32) : (tensor<3xf32>, i32) -> (tensor<3xf32>, i32) {
      %5 = arith.cmpi slt, %arg2, %c1_i32 : i32
      scf.condition(%5) %arg1, %arg2 : tensor<3xf32>, i32
    } do {
    ^bb0(%arg1: tensor<3xf32>, %arg2: i32):
      %5 = flow.dispatch @main_dispatch_1::@main_dispatch_1_elementwise_3_f32(%arg1, %0) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      %6 = arith.addi %arg2, %c1_i32 : i32
      scf.yield %5, %6 : tensor<3xf32>, i32
    }
    %3 = flow.dispatch @main_dispatch_2::@main_dispatch_2_elementwise_3_f32(%2#0, %0) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %4 = hal.tensor.export %3 "output0" : tensor<3xf32> -> !hal.buffer_view
    util.return %4 : !hal.buffer_view
  }
}


