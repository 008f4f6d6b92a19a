func.func @main_dispatch_0_elementwise_833_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {enable_loop_peeling}>} {
  %cst = arith.constant dense<-6.400000e+01> : vector<16xf32>
  %cst_0 = arith.constant dense<1> : vector<16xindex>
  %cst_1 = arith.constant dense<17> : vector<16xindex>
  %cst_2 = arith.constant dense<7> : vector<16xindex>
  %0 = ub.poison : f32
  %c832 = arith.constant 832 : index
  %c16 = arith.constant 16 : index
  %c0 = arith.constant 0 : index
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<833xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align = memref.assume_alignment %1, 64 : memref<833xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<833xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align_3 = memref.assume_alignment %2, 64 : memref<833xf32, #hal.descriptor_type<storage_buffer>>
  scf.forall (%arg0) = (0) to (833) step (833) {
    %3 = vector.step : vector<16xindex>
    scf.for %arg1 = %c0 to %c832 step %c16 {
      %4 = vector.transfer_read %assume_align[%arg1], %0 {in_bounds = [true]} : memref<833xf32, #hal.descriptor_type<storage_buffer>>, vector<16xf32>
      %5 = vector.broadcast %arg1 : index to vector<16xindex>
      %6 = arith.addi %5, %3 : vector<16xindex>
      %7 = arith.remsi %6, %cst_2 : vector<16xindex>
      %8 = arith.divsi %6, %cst_2 : vector<16xindex>
      %9 = arith.remsi %8, %cst_1 : vector<16xindex>
      %10 = arith.addi %9, %cst_0 : vector<16xindex>
      %11 = arith.cmpi sle, %7, %10 : vector<16xindex>
      %12 = arith.select %11, %4, %cst : vector<16xi1>, vector<16xf32>
      vector.transfer_write %12, %assume_align_3[%arg1] {in_bounds = [true]} : vector<16xf32>, memref<833xf32, #hal.descriptor_type<storage_buffer>>
    }
    %subview = memref.subview %assume_align[832] [1] [1] : memref<833xf32, #hal.descriptor_type<storage_buffer>> to memref<1xf32, strided<[1], offset: 832>, #hal.descriptor_type<storage_buffer>>
    %subview_4 = memref.subview %assume_align_3[832] [1] [1] : memref<833xf32, #hal.descriptor_type<storage_buffer>> to memref<1xf32, strided<[1], offset: 832>, #hal.descriptor_type<storage_buffer>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%subview : memref<1xf32, strided<[1], offset: 832>, #hal.descriptor_type<storage_buffer>>) outs(%subview_4 : memref<1xf32, strided<[1], offset: 832>, #hal.descriptor_type<storage_buffer>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
  } {mapping = [#iree_codegen.workgroup_mapping<x>]}
  return
}
