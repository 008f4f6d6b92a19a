// -----// IR Dump Before ConvertToStreamPass: iree-stream-conversion //----- //
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "x86-64-v2", cpu_features = "+cmov,+crc32,+cx16,+cx8,+fxsr,+mmx,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<(d0) -> (d0)>
#device_target_local = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #device_target_local
  flow.executable private @main_dispatch_0 {
    flow.executable.export public @main_dispatch_0_transpose_D_i32 workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_transpose_D_i32(%arg0: index, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xi32>>) {
        %c0_i32 = arith.constant 0 : i32
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg0, 0 : index
        %1 = flow.dispatch.tie_shape %arg1 : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xi32>>{%0}
        %2 = tensor.empty(%0) : tensor<?xi32>
        %3 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%2 : tensor<?xi32>) {
        ^bb0(%out: i32):
          linalg.yield %c0_i32 : i32
        } -> tensor<?xi32>
        iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [0], sizes = [%0], strides = [1] : tensor<?xi32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xi32>>{%0}
        return
      }
    }
  }
  flow.executable private @main_dispatch_1 {
    flow.executable.export public @main_dispatch_1_elementwise_D_f32 workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_1_elementwise_D_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: index, %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
        %cst = arith.constant 1.702000e+00 : f32
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
        %1 = flow.dispatch.tie_shape %arg0 : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0}
        %2 = flow.dispatch.tie_shape %arg2 : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [%0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0} -> tensor<?xf32>
        %4 = tensor.empty(%0) : tensor<?xf32>
        %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%3 : tensor<?xf32>) outs(%4 : tensor<?xf32>) {
        ^bb0(%in: f32, %out: f32):
          %6 = arith.mulf %in, %cst : f32
          linalg.yield %6 : f32
        } -> tensor<?xf32>
        iree_tensor_ext.dispatch.tensor.store %5, %2, offsets = [0], sizes = [%0], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view) -> (!hal.buffer_view, !hal.buffer_view) attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<1x?x1xf32>) -> (%output0: tensor<1x?xi32>, %output1: tensor<1x?x1xf32>)"}} {
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
    %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<1x?x1xf32>{%0}
    %2 = flow.tensor.reshape %1 : tensor<1x?x1xf32>{%0} -> tensor<?xf32>{%0}
    %3 = flow.dispatch @main_dispatch_0::@main_dispatch_0_transpose_D_i32[%0](%0) : (index) -> tensor<?xi32>{%0}
    %4 = flow.tensor.reshape %3 : tensor<?xi32>{%0} -> tensor<1x?xi32>{%0}
    %5 = flow.dispatch @main_dispatch_1::@main_dispatch_1_elementwise_D_f32[%0](%2, %0) : (tensor<?xf32>{%0}, index) -> tensor<?xf32>{%0}
    %6 = flow.tensor.reshape %5 : tensor<?xf32>{%0} -> tensor<1x?x1xf32>{%0}
    %7 = hal.tensor.export %4 "output0" : tensor<1x?xi32>{%0} -> !hal.buffer_view
    %8 = hal.tensor.export %6 "output1" : tensor<1x?x1xf32>{%0} -> !hal.buffer_view
    util.return %7, %8 : !hal.buffer_view, !hal.buffer_view
  }
}


