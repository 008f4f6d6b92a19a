// Recorded from iree-compile 3.13.0, --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host (znver5): 32x48 add, IR right after IREEComprehensiveBufferizePass (one full-view self-copy)
func.func @add_dispatch_0_elementwise_1536_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>} {
  %0 = ub.poison : f32
  %c16 = arith.constant 16 : index
  %c1536 = arith.constant 1536 : index
  %c0 = arith.constant 0 : index
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1536xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1536xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<1536xf32, #hal.descriptor_type<storage_buffer>>
  scf.forall (%arg0) = (0) to (1536) step (1536) {
    %4 = scf.for %arg1 = %c0 to %c1536 step %c16 iter_args(%arg2 = %3) -> (memref<1536xf32, #hal.descriptor_type<storage_buffer>>) {
      %5 = vector.transfer_read %1[%arg1], %0 {in_bounds = [true]} : memref<1536xf32, #hal.descriptor_type<storage_buffer>>, vector<16xf32>
      %6 = vector.transfer_read %2[%arg1], %0 {in_bounds = [true]} : memref<1536xf32, #hal.descriptor_type<storage_buffer>>, vector<16xf32>
      %7 = arith.addf %5, %6 : vector<16xf32>
      vector.transfer_write %7, %arg2[%arg1] {in_bounds = [true]} : vector<16xf32>, memref<1536xf32, #hal.descriptor_type<storage_buffer>>
      scf.yield %arg2 : memref<1536xf32, #hal.descriptor_type<storage_buffer>>
    }
    %subview = memref.subview %3[0] [1536] [1] : memref<1536xf32, #hal.descriptor_type<storage_buffer>> to memref<1536xf32, strided<[1]>, #hal.descriptor_type<storage_buffer>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%4 : memref<1536xf32, #hal.descriptor_type<storage_buffer>>) outs(%subview : memref<1536xf32, strided<[1]>, #hal.descriptor_type<storage_buffer>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
  } {mapping = [#iree_codegen.workgroup_mapping<x>]}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%3 : memref<1536xf32, #hal.descriptor_type<storage_buffer>>) outs(%3 : memref<1536xf32, #hal.descriptor_type<storage_buffer>>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

