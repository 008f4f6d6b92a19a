#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>
module {
  func.func @main_dispatch_0_reduction_2_i32() attributes {translation_info = #translation} {
    %cst = arith.constant dense<2> : vector<i32>
    %c0 = arith.constant 0 : index
    %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<i32, #hal.descriptor_type<storage_buffer>>
    %1 = tensor.empty() : tensor<i32>
    %2 = vector.transfer_write %cst, %1[] : vector<i32>, tensor<i32>
    iree_codegen.store_to_buffer %2, %0 : tensor<i32> into memref<i32, #hal.descriptor_type<storage_buffer>>
    return
  }
}


