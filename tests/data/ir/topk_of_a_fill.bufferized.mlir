func.func @main_dispatch_0_topk_6xDx6xf16_dispatch_tensor_store() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<Default>>} {
  %c0_i32 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %cst = arith.constant 2.000000e+00 : f16
  %cst_0 = arith.constant 0xFC00 : f16
  %c32_i64 = arith.constant 32 : i64
  %alloca = memref.alloca() alignment = 64 : memref<1x64x6xi32>
  %alloca_1 = memref.alloca() alignment = 64 : memref<1x64x6xf16>
  %0 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
  %1 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
  %2 = arith.extui %0 : i32 to i64
  %3 = arith.extui %1 : i32 to i64
  %4 = arith.shli %3, %c32_i64 : i64
  %5 = arith.ori %2, %4 : i64
  %6 = arith.index_castui %5 : i64 to index
  %7 = util.assume.int %6<umin = 0, umax = 9007199254740991> : index
  %8 = iree_tensor_ext.dispatch.workload.ordinal %7, 0 : index
  %9 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags(Indirect) : memref<6x?x6xf16, #hal.descriptor_type<storage_buffer>>{%8}
  %assume_align = memref.assume_alignment %9, 64 : memref<6x?x6xf16, #hal.descriptor_type<storage_buffer>>
  scf.forall (%arg0, %arg1) = (0, 0) to (6, %8) step (1, 64) {
    %10 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 64)>(%arg1)[%8]
    %subview = memref.subview %alloca_1[0, 0, 0] [1, %10, 6] [1, 1, 1] : memref<1x64x6xf16> to memref<1x?x6xf16, strided<[384, 6, 1]>>
    %cast = memref.cast %subview : memref<1x?x6xf16, strided<[384, 6, 1]>> to memref<1x?x6xf16>
    linalg.fill {lowering_config = #iree_cpu.lowering_config<vector_common_parallel = [1, 64, 0]>} ins(%cst : f16) outs(%subview : memref<1x?x6xf16, strided<[384, 6, 1]>>)
    %subview_2 = memref.subview %assume_align[%arg0, %arg1, 0] [1, %10, 6] [1, 1, 1] : memref<6x?x6xf16, #hal.descriptor_type<storage_buffer>> to memref<1x?x6xf16, strided<[?, 6, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    linalg.fill {lowering_config = #iree_cpu.lowering_config<vector_common_parallel = [1, 64, 0]>} ins(%cst_0 : f16) outs(%subview_2 : memref<1x?x6xf16, strided<[?, 6, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>)
    %subview_3 = memref.subview %alloca[0, 0, 0] [1, %10, 6] [1, 1, 1] : memref<1x64x6xi32> to memref<1x?x6xi32, strided<[384, 6, 1]>>
    %cast_4 = memref.cast %subview_3 : memref<1x?x6xi32, strided<[384, 6, 1]>> to memref<1x?x6xi32>
    scf.forall (%arg2) = (0) to (%10) step (64) {
      %11 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 64)>(%arg2)[%10]
      %subview_5 = memref.subview %subview_3[0, %arg2, 0] [1, %11, 6] [1, 1, 1] : memref<1x?x6xi32, strided<[384, 6, 1]>> to memref<1x?x6xi32, strided<[384, 6, 1], offset: ?>>
      linalg.fill {lowering_config = #iree_cpu.lowering_config<vector_common_parallel = [1, 64, 0]>} ins(%c0_i32 : i32) outs(%subview_5 : memref<1x?x6xi32, strided<[384, 6, 1], offset: ?>>)
    }
    iree_linalg_ext.topk {lowering_config = #iree_cpu.lowering_config<distribution = [1, 64, 0], vector_common_parallel = [1, 64, 0]>} dimension(2) ins(%cast : memref<1x?x6xf16>) outs(%subview_2, %cast_4 : memref<1x?x6xf16, strided<[?, 6, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, memref<1x?x6xi32>) {
    ^bb0(%arg2: f16, %arg3: f16):
      %11 = arith.cmpf ogt, %arg2, %arg3 : f16
      iree_linalg_ext.yield %11 : i1
    }
  } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
  return
}
