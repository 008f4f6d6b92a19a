func.func @main_dispatch_3_sort_31x1xf32_dispatch_tensor_store() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<Default>>} {
  %c0 = arith.constant 0 : index
  %alloca = memref.alloca() alignment = 64 : memref<31x1xi32, #hal.descriptor_type<storage_buffer>>
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags(Indirect) : memref<31x1xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align = memref.assume_alignment %0, 64 : memref<31x1xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<31x1xi32, #hal.descriptor_type<storage_buffer>>
  %assume_align_0 = memref.assume_alignment %1, 64 : memref<31x1xi32, #hal.descriptor_type<storage_buffer>>
  scf.forall (%arg0) in (1) {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%assume_align_0 : memref<31x1xi32, #hal.descriptor_type<storage_buffer>>) outs(%alloca : memref<31x1xi32, #hal.descriptor_type<storage_buffer>>) {
    ^bb0(%in: i32, %out: i32):
      linalg.yield %in : i32
    }
    iree_linalg_ext.sort {lowering_config = #iree_cpu.lowering_config<distribution = [0, 1], vector_common_parallel = [0, 1]>} dimension(0) outs(%assume_align, %alloca : memref<31x1xf32, #hal.descriptor_type<storage_buffer>>, memref<31x1xi32, #hal.descriptor_type<storage_buffer>>) {
    ^bb0(%arg1: f32, %arg2: f32, %arg3: i32, %arg4: i32):
      %2 = arith.cmpf oeq, %arg1, %arg2 : f32
      %3 = arith.cmpi slt, %arg3, %arg4 : i32
      %4 = arith.andi %2, %3 : i1
      %5 = arith.cmpf olt, %arg1, %arg2 : f32
      %6 = arith.ori %5, %4 : i1
      iree_linalg_ext.yield %6 : i1
    }
  } {mapping = [#iree_codegen.workgroup_mapping<x>]}
  return
}
