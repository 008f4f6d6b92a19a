// Recorded from iree-compile 3.13.0, --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host (znver5): ?x? fill->matmul->exp, IR before the first iree-codegen-cleanup-buffer-alloc-view (after bufferization and its canonicalizations; what sut records as bufferized_ir)
// IR Dump After IREECodegenCanonicalizerPass: iree-codegen-canonicalize{test-convergence=false}
func.func @fill_matmul_exp_dispatch_0_matmul_DxDxD_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>} {
  %c0 = arith.constant 0 : index
  %c32_i64 = arith.constant 32 : i64
  %c16 = arith.constant 16 : index
  %c8 = arith.constant 8 : index
  %0 = ub.poison : f32
  %cst = arith.constant dense<0.000000e+00> : vector<8x16xf32>
  %alloca = memref.alloca() alignment = 64 : memref<8x16xf32>
  %1 = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
  %2 = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
  %3 = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(2) : i32
  %4 = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(3) : i32
  %5 = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(4) : i32
  %6 = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(5) : i32
  %7 = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(6) : i32
  %8 = hal.interface.constant.load layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(7) : i32
  %9 = arith.extui %1 : i32 to i64
  %10 = arith.extui %2 : i32 to i64
  %11 = arith.shli %10, %c32_i64 : i64
  %12 = arith.ori %9, %11 : i64
  %13 = arith.index_castui %12 : i64 to index
  %14 = arith.extui %3 : i32 to i64
  %15 = arith.extui %4 : i32 to i64
  %16 = arith.shli %15, %c32_i64 : i64
  %17 = arith.ori %14, %16 : i64
  %18 = arith.index_castui %17 : i64 to index
  %19 = arith.extui %5 : i32 to i64
  %20 = arith.extui %6 : i32 to i64
  %21 = arith.shli %20, %c32_i64 : i64
  %22 = arith.ori %19, %21 : i64
  %23 = arith.index_castui %22 : i64 to index
  %24 = arith.extui %7 : i32 to i64
  %25 = arith.extui %8 : i32 to i64
  %26 = arith.shli %25, %c32_i64 : i64
  %27 = arith.ori %24, %26 : i64
  %28 = arith.index_castui %27 : i64 to index
  %29:4 = util.assume.int 
      %13<umin = 0, umax = 9007199254740991>, 
      %18<umin = 0, umax = 9007199254740991>, 
      %23<umin = 0, umax = 9007199254740991>, 
      %28<umin = 0, umax = 9007199254740991>
    : index, index, index, index
  %30 = iree_tensor_ext.dispatch.workload.ordinal %29#0, 0 : index
  %31 = iree_tensor_ext.dispatch.workload.ordinal %29#1, 1 : index
  %32 = iree_tensor_ext.dispatch.workload.ordinal %29#2, 2 : index
  %33 = iree_tensor_ext.dispatch.workload.ordinal %29#3, 3 : index
  %34 = hal.interface.binding.subspan layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>{%32, %30}
  %assume_align = memref.assume_alignment %34, 64 : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>
  %35 = hal.interface.binding.subspan layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>{%31, %33}
  %assume_align_0 = memref.assume_alignment %35, 64 : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>
  %36 = hal.interface.binding.subspan layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>{%32, %33}
  %assume_align_1 = memref.assume_alignment %36, 64 : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>
  scf.forall (%arg0, %arg1) = (0, 0) to (%32, %33) step (64, 64) {
    %37 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 64)>(%arg0)[%32]
    %38 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 64)>(%arg1)[%33]
    %subview = memref.subview %assume_align_1[%arg0, %arg1] [%37, %38] [1, 1] : memref<?x?xf32, #hal.descriptor_type<storage_buffer>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    scf.for %arg2 = %c0 to %37 step %c8 {
      scf.for %arg3 = %c0 to %38 step %c16 {
        %39 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 8)>(%arg2)[%37]
        %40 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 16)>(%arg3)[%38]
        %subview_2 = memref.subview %subview[%arg2, %arg3] [%39, %40] [1, 1] : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
        %subview_3 = memref.subview %alloca[0, 0] [%39, %40] [1, 1] : memref<8x16xf32> to memref<?x?xf32, strided<[16, 1]>>
        %41 = vector.create_mask %39, %40 : vector<8x16xi1>
        vector.transfer_write %cst, %subview_3[%c0, %c0], %41 {in_bounds = [true, true]} : vector<8x16xf32>, memref<?x?xf32, strided<[16, 1]>>
        scf.for %arg4 = %c0 to %30 step %c16 {
          %42 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 16)>(%arg4)[%30]
          %43 = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%arg2, %arg0]
          %subview_4 = memref.subview %assume_align[%43, %arg4] [%39, %42] [1, 1] : memref<?x?xf32, #hal.descriptor_type<storage_buffer>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
          %44 = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%arg3, %arg1]
          %subview_5 = memref.subview %assume_align_0[%arg4, %44] [%42, %40] [1, 1] : memref<?x?xf32, #hal.descriptor_type<storage_buffer>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
          %45 = vector.create_mask %39, %42 : vector<8x16xi1>
          %46 = vector.transfer_read %subview_4[%c0, %c0], %0, %45 {in_bounds = [true, true]} : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<8x16xf32>
          %47 = vector.create_mask %42, %40 : vector<16x16xi1>
          %48 = vector.transfer_read %subview_5[%c0, %c0], %0, %47 {in_bounds = [true, true]} : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<16x16xf32>
          %49 = vector.transfer_read %subview_3[%c0, %c0], %0, %41 {in_bounds = [true, true]} : memref<?x?xf32, strided<[16, 1]>>, vector<8x16xf32>
          %50 = vector.create_mask %39, %40, %42 : vector<8x16x16xi1>
          %51 = vector.mask %50 { vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %46, %48, %49 : vector<8x16xf32>, vector<16x16xf32> into vector<8x16xf32> } : vector<8x16x16xi1> -> vector<8x16xf32>
          vector.transfer_write %51, %subview_3[%c0, %c0], %41 {in_bounds = [true, true]} : vector<8x16xf32>, memref<?x?xf32, strided<[16, 1]>>
        }
        scf.for %arg4 = %c0 to %39 step %c8 {
          scf.for %arg5 = %c0 to %40 step %c16 {
            %42 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 8)>(%arg4)[%39]
            %43 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 16)>(%arg5)[%40]
            %subview_4 = memref.subview %subview_2[%arg4, %arg5] [%42, %43] [1, 1] : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
            %subview_5 = memref.subview %subview_3[%arg4, %arg5] [%42, %43] [1, 1] : memref<?x?xf32, strided<[16, 1]>> to memref<?x?xf32, strided<[16, 1], offset: ?>>
            %44 = vector.create_mask %42, %43 : vector<8x16xi1>
            %45 = vector.transfer_read %subview_5[%c0, %c0], %0, %44 {in_bounds = [true, true]} : memref<?x?xf32, strided<[16, 1], offset: ?>>, vector<8x16xf32>
            %46 = math.exp %45 : vector<8x16xf32>
            vector.transfer_write %46, %subview_4[%c0, %c0], %44 {in_bounds = [true, true]} : vector<8x16xf32>, memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
          }
        }
      }
    }
  } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
  return
}

