// Recorded from iree-compile 3.13.0, --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host (znver5): 33x16x49 fill->matmul->exp, IR before the first iree-codegen-cleanup-buffer-alloc-view (after bufferization and its canonicalizations; what sut records as bufferized_ir)
// IR Dump After IREECodegenCanonicalizerPass: iree-codegen-canonicalize{test-convergence=false}
func.func @fill_matmul_exp_dispatch_0_matmul_33x49x16_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>} {
  %c0 = arith.constant 0 : index
  %c49 = arith.constant 49 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %0 = ub.poison : f32
  %cst = arith.constant dense<0.000000e+00> : vector<3x7xf32>
  %c16 = arith.constant 16 : index
  %alloca = memref.alloca() alignment = 64 : memref<3x7xf32>
  %alloca_0 = memref.alloca() alignment = 64 : memref<3x7xf32>
  %alloca_1 = memref.alloca() alignment = 64 : memref<3x7xf32>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<33x16xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align = memref.assume_alignment %1, 64 : memref<33x16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x49xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align_2 = memref.assume_alignment %2, 64 : memref<16x49xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<33x49xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align_3 = memref.assume_alignment %3, 64 : memref<33x49xf32, #hal.descriptor_type<storage_buffer>>
  scf.forall (%arg0) = (0) to (33) step (8) {
    %4 = affine.min affine_map<(d0) -> (-d0 + 33, 8)>(%arg0)
    %subview = memref.subview %assume_align_3[%arg0, 0] [%4, 49] [1, 1] : memref<33x49xf32, #hal.descriptor_type<storage_buffer>> to memref<?x49xf32, strided<[49, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    scf.for %arg1 = %c0 to %4 step %c3 {
      %5 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 3)>(%arg1)[%4]
      %subview_4 = memref.subview %alloca_1[0, 0] [%5, 7] [1, 1] : memref<3x7xf32> to memref<?x7xf32, strided<[7, 1]>>
      %6 = vector.create_mask %5, %c7 : vector<3x7xi1>
      vector.transfer_write %cst, %subview_4[%c0, %c0], %6 {in_bounds = [true, true]} : vector<3x7xf32>, memref<?x7xf32, strided<[7, 1]>>
      %7 = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%arg1, %arg0]
      %subview_5 = memref.subview %assume_align[%7, 0] [%5, 16] [1, 1] : memref<33x16xf32, #hal.descriptor_type<storage_buffer>> to memref<?x16xf32, strided<[16, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %8 = vector.create_mask %5, %c16 : vector<3x16xi1>
      %9 = vector.transfer_read %subview_5[%c0, %c0], %0, %8 {in_bounds = [true, true]} : memref<?x16xf32, strided<[16, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<3x16xf32>
      %10 = vector.create_mask %5, %c7, %c16 : vector<3x7x16xi1>
      scf.for %arg2 = %c0 to %c49 step %c7 {
        %subview_6 = memref.subview %subview[%arg1, %arg2] [%5, 7] [1, 1] : memref<?x49xf32, strided<[49, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<?x7xf32, strided<[49, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
        %11 = vector.transfer_read %assume_align_2[%c0, %arg2], %0 {in_bounds = [true, true]} : memref<16x49xf32, #hal.descriptor_type<storage_buffer>>, vector<16x7xf32>
        %12 = vector.mask %10 { vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %9, %11, %cst : vector<3x16xf32>, vector<16x7xf32> into vector<3x7xf32> } : vector<3x7x16xi1> -> vector<3x7xf32>
        %subview_7 = memref.subview %alloca_0[0, 0] [%5, 7] [1, 1] : memref<3x7xf32> to memref<?x7xf32, strided<[7, 1]>>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%subview_4 : memref<?x7xf32, strided<[7, 1]>>) outs(%subview_7 : memref<?x7xf32, strided<[7, 1]>>) {
        ^bb0(%in: f32, %out: f32):
          linalg.yield %in : f32
        }
        vector.transfer_write %12, %subview_7[%c0, %c0], %6 {in_bounds = [true, true]} : vector<3x7xf32>, memref<?x7xf32, strided<[7, 1]>>
        %subview_8 = memref.subview %alloca[0, 0] [%5, 7] [1, 1] : memref<3x7xf32> to memref<?x7xf32, strided<[7, 1]>>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%subview_4 : memref<?x7xf32, strided<[7, 1]>>) outs(%subview_8 : memref<?x7xf32, strided<[7, 1]>>) {
        ^bb0(%in: f32, %out: f32):
          linalg.yield %in : f32
        }
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%subview_7 : memref<?x7xf32, strided<[7, 1]>>) outs(%subview_8 : memref<?x7xf32, strided<[7, 1]>>) {
        ^bb0(%in: f32, %out: f32):
          linalg.yield %in : f32
        }
        scf.for %arg3 = %c0 to %5 step %c3 {
          %13 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 3)>(%arg3)[%5]
          %subview_9 = memref.subview %subview_6[%arg3, 0] [%13, 7] [1, 1] : memref<?x7xf32, strided<[49, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<?x7xf32, strided<[49, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
          %subview_10 = memref.subview %subview_8[%arg3, 0] [%13, 7] [1, 1] : memref<?x7xf32, strided<[7, 1]>> to memref<?x7xf32, strided<[7, 1], offset: ?>>
          %14 = vector.create_mask %13, %c7 : vector<3x7xi1>
          %15 = vector.transfer_read %subview_10[%c0, %c0], %0, %14 {in_bounds = [true, true]} : memref<?x7xf32, strided<[7, 1], offset: ?>>, vector<3x7xf32>
          %16 = math.exp %15 : vector<3x7xf32>
          vector.transfer_write %16, %subview_9[%c0, %c0], %14 {in_bounds = [true, true]} : vector<3x7xf32>, memref<?x7xf32, strided<[49, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
        }
      }
    }
  } {mapping = [#iree_codegen.workgroup_mapping<x>]}
  return
}

