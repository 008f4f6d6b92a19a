hal.executable public @_initializer_0_dispatch_0 {
  hal.executable.variant public @embedded_elf_x86_64 target(<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>) {
    hal.executable.export public @_initializer_0_dispatch_0_elementwise_broadcast_128_f32 ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>], flags = None>) count(%arg0: !hal.device) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      hal.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @_initializer_0_dispatch_0_elementwise_broadcast_128_f32() {
        %c8 = arith.constant 8 : index
        %cst = arith.constant 0xFF800000 : f32
        %cst_0 = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer>], flags = None>) binding(0) alignment(64) offset(%c0) flags("None") : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<128xf32>>
        %1 = tensor.empty() : tensor<128xf32>
        %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%1 : tensor<128xf32>) {
        ^bb0(%out: f32):
          %3 = linalg.index 0 : index
          %4 = arith.remsi %3, %c8 : index
          %5 = arith.divsi %3, %c8 : index
          %6 = arith.remsi %5, %c8 : index
          %7 = arith.cmpi ule, %4, %6 : index
          %8 = arith.select %7, %cst_0, %cst : f32
          linalg.yield %8 : f32
        } -> tensor<128xf32>
        iree_tensor_ext.dispatch.tensor.store %2, %0, offsets = [0], sizes = [128], strides = [1] : tensor<128xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<128xf32>>
        return
      }
    }
  }
}
