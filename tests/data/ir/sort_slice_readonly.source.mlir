hal.executable public @main_dispatch_1 {
  hal.executable.variant public @embedded_elf_x86_64 target(<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>) {
    hal.executable.export public @main_dispatch_1_sort_3xf16_dispatch_tensor_store ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      hal.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_1_sort_3xf16_dispatch_tensor_store() {
        %c0 = arith.constant 0 : index
        %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<22xf16>>
        %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3xi32>>
        %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3xf16>>
        %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [3], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3xi32>> -> tensor<3xi32>
        %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [19], sizes = [3], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<22xf16>> -> tensor<3xf16>
        %5:2 = iree_linalg_ext.sort dimension(0) outs(%4, %3 : tensor<3xf16>, tensor<3xi32>) {
        ^bb0(%arg0: f16, %arg1: f16, %arg2: i32, %arg3: i32):
          %6 = arith.cmpf oeq, %arg0, %arg1 : f16
          %7 = arith.cmpi slt, %arg2, %arg3 : i32
          %8 = arith.andi %6, %7 : i1
          %9 = arith.cmpf olt, %arg0, %arg1 : f16
          %10 = arith.ori %9, %8 : i1
          iree_linalg_ext.yield %10 : i1
        } -> tensor<3xf16>, tensor<3xi32>
        iree_tensor_ext.dispatch.tensor.store %5#0, %2, offsets = [0], sizes = [3], strides = [1] : tensor<3xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3xf16>>
        return
      }
    }
  }
}
