func.func @main_dispatch_1_sort_3xf16_dispatch_tensor_store() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<Default>>} {
  %c0 = arith.constant 0 : index
  %alloca = memref.alloca() alignment = 64 : memref<3xi32, #hal.descriptor_type<storage_buffer>>
  %alloca_0 = memref.alloca() alignment = 64 : memref<3xf16, #hal.descriptor_type<storage_buffer>>
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<22xf16, #hal.descriptor_type<storage_buffer>>
  %assume_align = memref.assume_alignment %0, 64 : memref<22xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3xi32, #hal.descriptor_type<storage_buffer>>
  %assume_align_1 = memref.assume_alignment %1, 64 : memref<3xi32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<3xf16, #hal.descriptor_type<storage_buffer>>
  %assume_align_2 = memref.assume_alignment %2, 64 : memref<3xf16, #hal.descriptor_type<storage_buffer>>
  %subview = memref.subview %assume_align[19] [3] [1] : memref<22xf16, #hal.descriptor_type<storage_buffer>> to memref<3xf16, strided<[1], offset: 19>, #hal.descriptor_type<storage_buffer>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%subview : memref<3xf16, strided<[1], offset: 19>, #hal.descriptor_type<storage_buffer>>) outs(%alloca_0 : memref<3xf16, #hal.descriptor_type<storage_buffer>>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%assume_align_1 : memref<3xi32, #hal.descriptor_type<storage_buffer>>) outs(%alloca : memref<3xi32, #hal.descriptor_type<storage_buffer>>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  }
  iree_linalg_ext.sort {lowering_config = #iree_cpu.lowering_config<distribution = [0]>} dimension(0) outs(%alloca_0, %alloca : memref<3xf16, #hal.descriptor_type<storage_buffer>>, memref<3xi32, #hal.descriptor_type<storage_buffer>>) {
  ^bb0(%arg0: f16, %arg1: f16, %arg2: i32, %arg3: i32):
    %3 = arith.cmpf oeq, %arg0, %arg1 : f16
    %4 = arith.cmpi slt, %arg2, %arg3 : i32
    %5 = arith.andi %3, %4 : i1
    %6 = arith.cmpf olt, %arg0, %arg1 : f16
    %7 = arith.ori %6, %5 : i1
    iree_linalg_ext.yield %7 : i1
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%alloca_0 : memref<3xf16, #hal.descriptor_type<storage_buffer>>) outs(%assume_align_2 : memref<3xf16, #hal.descriptor_type<storage_buffer>>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  }
  return
}
