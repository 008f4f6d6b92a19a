// -----// IR Dump Before ConvertToStreamPass: iree-stream-conversion //----- //
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<(d0) -> (d0)>
#device_target_local = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #device_target_local
  flow.executable private @argsort_dispatch_0 {
    flow.executable.export public @argsort_dispatch_0_elementwise_broadcast_D_i32 workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @argsort_dispatch_0_elementwise_broadcast_D_i32(%arg0: index, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xi32>>) {
        %c6 = arith.constant 6 : index
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg0, 0 : index
        %1 = flow.dispatch.tie_shape %arg1 : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xi32>>{%0}
        %2 = tensor.empty(%0) : tensor<?xi32>
        %3 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%2 : tensor<?xi32>) {
        ^bb0(%out: i32):
          %4 = linalg.index 0 : index
          %5 = arith.remsi %4, %c6 : index
          %6 = arith.index_cast %5 : index to i32
          linalg.yield %6 : i32
        } -> tensor<?xi32>
        iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [0], sizes = [%0], strides = [1] : tensor<?xi32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xi32>>{%0}
        return
      }
    }
  }
  flow.executable private @argsort_dispatch_1 {
    flow.executable.export public @argsort_dispatch_1_sort_Dx6xf32 workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @argsort_dispatch_1_sort_Dx6xf32(%arg0: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x6xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x6xi32>>, %arg2: index) {
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg2, 0 : index
        %1 = flow.dispatch.tie_shape %arg0 : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x6xf32>>{%0}
        %2 = flow.dispatch.tie_shape %arg1 : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x6xi32>>{%0}
        %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [%0, 6], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x6xf32>>{%0} -> tensor<?x6xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [%0, 6], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x6xi32>>{%0} -> tensor<?x6xi32>
        %5:2 = iree_linalg_ext.sort dimension(1) outs(%3, %4 : tensor<?x6xf32>, tensor<?x6xi32>) {
        ^bb0(%arg3: f32, %arg4: f32, %arg5: i32, %arg6: i32):
          %6 = arith.cmpf olt, %arg3, %arg4 : f32
          iree_linalg_ext.yield %6 : i1
        } -> tensor<?x6xf32>, tensor<?x6xi32>
        iree_tensor_ext.dispatch.tensor.store %5#0, %1, offsets = [0, 0], sizes = [%0, 6], strides = [1, 1] : tensor<?x6xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x6xf32>>{%0}
        iree_tensor_ext.dispatch.tensor.store %5#1, %2, offsets = [0, 0], sizes = [%0, 6], strides = [1, 1] : tensor<?x6xi32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?x6xi32>>{%0}
        return
      }
    }
  }
  util.func public @argsort(%arg0: !hal.buffer_view) -> (!hal.buffer_view, !hal.buffer_view) attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @argsort(%input0: tensor<?x6xf32>) -> (%output0: tensor<?x6xf32>, %output1: tensor<?x6xi32>)"}} {
    %c6 = arith.constant 6 : index
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x6xf32>{%0}
    %2 = arith.muli %0, %c6 overflow<nsw> : index
    %3 = flow.dispatch @argsort_dispatch_0::@argsort_dispatch_0_elementwise_broadcast_D_i32[%2](%2) : (index) -> tensor<?xi32>{%2}
    %4 = flow.tensor.reshape %3 : tensor<?xi32>{%2} -> tensor<?x6xi32>{%0}
    %5:2 = flow.dispatch @argsort_dispatch_1::@argsort_dispatch_1_sort_Dx6xf32[%0](%1, %4, %0) : (tensor<?x6xf32>{%0}, tensor<?x6xi32>{%0}, index) -> (%1{%0}, %4{%0})
    %6 = hal.tensor.export %5#0 "output0" : tensor<?x6xf32>{%0} -> !hal.buffer_view
    %7 = hal.tensor.export %5#1 "output1" : tensor<?x6xi32>{%0} -> !hal.buffer_view
    util.return %6, %7 : !hal.buffer_view, !hal.buffer_view
  }
}


