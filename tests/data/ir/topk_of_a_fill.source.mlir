hal.executable public @main_dispatch_0 {
  hal.executable.variant public @embedded_elf_x86_64 target(<"llvm-cpu", "embedded-elf-x86_64", {cpu = "x86-64-v2", cpu_features = "+cmov,+crc32,+cx16,+cx8,+fxsr,+mmx,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>) {
    hal.executable.export public @main_dispatch_0_topk_6xDx6xf16_dispatch_tensor_store ordinal(0) layout(#hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
      hal.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_topk_6xDx6xf16_dispatch_tensor_store() {
        %c32_i64 = arith.constant 32 : i64
        %cst = arith.constant 0xFC00 : f16
        %cst_0 = arith.constant 2.000000e+00 : f16
        %c0 = arith.constant 0 : index
        %c0_i32 = arith.constant 0 : i32
        %0 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
        %1 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
        %2 = arith.extui %0 : i32 to i64
        %3 = arith.extui %1 : i32 to i64
        %4 = arith.shli %3, %c32_i64 : i64
        %5 = arith.ori %2, %4 : i64
        %6 = arith.index_castui %5 : i64 to index
        %7 = util.assume.int %6<umin = 0, umax = 9007199254740991> : index
        %8 = iree_tensor_ext.dispatch.workload.ordinal %7, 0 : index
        %9 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<6x?x6xf16>>{%8}
        %10 = tensor.empty(%8) : tensor<6x?x6xi32>
        %11 = tensor.empty(%8) : tensor<6x?x6xf16>
        %12 = linalg.fill ins(%cst : f16) outs(%11 : tensor<6x?x6xf16>) -> tensor<6x?x6xf16>
        %13 = linalg.fill ins(%cst_0 : f16) outs(%11 : tensor<6x?x6xf16>) -> tensor<6x?x6xf16>
        %14 = linalg.fill ins(%c0_i32 : i32) outs(%10 : tensor<6x?x6xi32>) -> tensor<6x?x6xi32>
        %15:2 = iree_linalg_ext.topk dimension(2) ins(%13 : tensor<6x?x6xf16>) outs(%12, %14 : tensor<6x?x6xf16>, tensor<6x?x6xi32>) {
        ^bb0(%arg0: f16, %arg1: f16):
          %16 = arith.cmpf ogt, %arg0, %arg1 : f16
          iree_linalg_ext.yield %16 : i1
        } -> tensor<6x?x6xf16>, tensor<6x?x6xi32>
        iree_tensor_ext.dispatch.tensor.store %15#0, %9, offsets = [0, 0, 0], sizes = [6, %8, 6], strides = [1, 1, 1] : tensor<6x?x6xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<6x?x6xf16>>{%8}
        return
      }
    }
  }
}
