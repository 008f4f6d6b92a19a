// Recorded from iree-compile 3.13.0, --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host (znver5): 32x16x48 fill->matmul->exp, IR before the first iree-codegen-cleanup-buffer-alloc-view (after bufferization and its canonicalizations; what sut records as bufferized_ir)
// IR Dump After IREECodegenCanonicalizerPass: iree-codegen-canonicalize{test-convergence=false}
func.func @fill_matmul_exp_dispatch_0_matmul_32x48x16_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>} {
  %cst = arith.constant dense<0.000000e+00> : vector<8x16xf32>
  %0 = ub.poison : f32
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %c0 = arith.constant 0 : index
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x16xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align = memref.assume_alignment %1, 64 : memref<32x16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x48xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align_0 = memref.assume_alignment %2, 64 : memref<16x48xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<32x48xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align_1 = memref.assume_alignment %3, 64 : memref<32x48xf32, #hal.descriptor_type<storage_buffer>>
  scf.forall (%arg0) = (0) to (32) step (8) {
    %subview = memref.subview %assume_align_1[%arg0, 0] [8, 48] [1, 1] : memref<32x48xf32, #hal.descriptor_type<storage_buffer>> to memref<8x48xf32, strided<[48, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    %4 = vector.transfer_read %assume_align[%arg0, %c0], %0 {in_bounds = [true, true]} : memref<32x16xf32, #hal.descriptor_type<storage_buffer>>, vector<8x16xf32>
    scf.for %arg1 = %c0 to %c48 step %c16 {
      %5 = vector.transfer_read %assume_align_0[%c0, %arg1], %0 {in_bounds = [true, true]} : memref<16x48xf32, #hal.descriptor_type<storage_buffer>>, vector<16x16xf32>
      %6 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %4, %5, %cst : vector<8x16xf32>, vector<16x16xf32> into vector<8x16xf32>
      %7 = math.exp %6 : vector<8x16xf32>
      vector.transfer_write %7, %subview[%c0, %arg1] {in_bounds = [true, true]} : vector<8x16xf32>, memref<8x48xf32, strided<[48, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    }
  } {mapping = [#iree_codegen.workgroup_mapping<x>]}
  return
}

