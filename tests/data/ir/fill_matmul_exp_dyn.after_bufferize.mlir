// Recorded from iree-compile 3.13.0, --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host (znver5): ?x? fill->matmul->exp, IR right after IREEComprehensiveBufferizePass (5 copy-like generics, all self-copies)
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
  %35 = hal.interface.binding.subspan layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>{%31, %33}
  %36 = hal.interface.binding.subspan layout(<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>{%32, %33}
  scf.forall (%arg0, %arg1) = (0, 0) to (%32, %33) step (64, 64) {
    %37 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 64)>(%arg0)[%32]
    %38 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 64)>(%arg1)[%33]
    %subview = memref.subview %36[%arg0, %arg1] [%37, %38] [1, 1] : memref<?x?xf32, #hal.descriptor_type<storage_buffer>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    %39 = scf.for %arg2 = %c0 to %37 step %c8 iter_args(%arg3 = %subview) -> (memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) {
      %40 = scf.for %arg4 = %c0 to %38 step %c16 iter_args(%arg5 = %arg3) -> (memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) {
        %41 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 8)>(%arg2)[%37]
        %42 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 16)>(%arg4)[%38]
        %subview_1 = memref.subview %arg5[%arg2, %arg4] [%41, %42] [1, 1] : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
        %subview_2 = memref.subview %alloca[0, 0] [%41, %42] [1, 1] : memref<8x16xf32> to memref<?x?xf32, strided<[16, 1]>>
        %cast = memref.cast %subview_2 : memref<?x?xf32, strided<[16, 1]>> to memref<?x?xf32>
        %43 = vector.create_mask %41, %42 : vector<8x16xi1>
        vector.transfer_write %cst, %subview_2[%c0, %c0], %43 {in_bounds = [true, true]} : vector<8x16xf32>, memref<?x?xf32, strided<[16, 1]>>
        %subview_3 = memref.subview %cast[0, 0] [%41, %42] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
        %44 = scf.for %arg6 = %c0 to %30 step %c16 iter_args(%arg7 = %subview_3) -> (memref<?x?xf32, strided<[?, 1]>>) {
          %46 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 16)>(%arg6)[%30]
          %47 = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%arg2, %arg0]
          %subview_6 = memref.subview %34[%47, %arg6] [%41, %46] [1, 1] : memref<?x?xf32, #hal.descriptor_type<storage_buffer>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
          %48 = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%arg4, %arg1]
          %subview_7 = memref.subview %35[%arg6, %48] [%46, %42] [1, 1] : memref<?x?xf32, #hal.descriptor_type<storage_buffer>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
          %49 = vector.create_mask %41, %46 : vector<8x16xi1>
          %50 = vector.transfer_read %subview_6[%c0, %c0], %0, %49 {in_bounds = [true, true]} : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<8x16xf32>
          %51 = vector.create_mask %46, %42 : vector<16x16xi1>
          %52 = vector.transfer_read %subview_7[%c0, %c0], %0, %51 {in_bounds = [true, true]} : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<16x16xf32>
          %53 = vector.transfer_read %arg7[%c0, %c0], %0, %43 {in_bounds = [true, true]} : memref<?x?xf32, strided<[?, 1]>>, vector<8x16xf32>
          %54 = vector.create_mask %41, %42, %46 : vector<8x16x16xi1>
          %55 = vector.mask %54 { vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %50, %52, %53 : vector<8x16xf32>, vector<16x16xf32> into vector<8x16xf32> } : vector<8x16x16xi1> -> vector<8x16xf32>
          vector.transfer_write %55, %arg7[%c0, %c0], %43 {in_bounds = [true, true]} : vector<8x16xf32>, memref<?x?xf32, strided<[?, 1]>>
          scf.yield %arg7 : memref<?x?xf32, strided<[?, 1]>>
        }
        %subview_4 = memref.subview %cast[0, 0] [%41, %42] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%44 : memref<?x?xf32, strided<[?, 1]>>) outs(%subview_4 : memref<?x?xf32, strided<[?, 1]>>) {
        ^bb0(%in: f32, %out: f32):
          linalg.yield %in : f32
        }
        %45 = scf.for %arg6 = %c0 to %41 step %c8 iter_args(%arg7 = %subview_1) -> (memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) {
          %46 = scf.for %arg8 = %c0 to %42 step %c16 iter_args(%arg9 = %arg7) -> (memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) {
            %47 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 8)>(%arg6)[%41]
            %48 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 16)>(%arg8)[%42]
            %subview_6 = memref.subview %arg9[%arg6, %arg8] [%47, %48] [1, 1] : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
            %subview_7 = memref.subview %cast[%arg6, %arg8] [%47, %48] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
            %49 = vector.create_mask %47, %48 : vector<8x16xi1>
            %50 = vector.transfer_read %subview_7[%c0, %c0], %0, %49 {in_bounds = [true, true]} : memref<?x?xf32, strided<[?, 1], offset: ?>>, vector<8x16xf32>
            %51 = math.exp %50 : vector<8x16xf32>
            vector.transfer_write %51, %subview_6[%c0, %c0], %49 {in_bounds = [true, true]} : vector<8x16xf32>, memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
            %subview_8 = memref.subview %arg9[%arg6, %arg8] [%47, %48] [1, 1] : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
            linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%subview_6 : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) outs(%subview_8 : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) {
            ^bb0(%in: f32, %out: f32):
              linalg.yield %in : f32
            }
            scf.yield %arg9 : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
          }
          scf.yield %46 : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
        }
        %subview_5 = memref.subview %arg5[%arg2, %arg4] [%41, %42] [1, 1] : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%45 : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) outs(%subview_5 : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) {
        ^bb0(%in: f32, %out: f32):
          linalg.yield %in : f32
        }
        scf.yield %arg5 : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      }
      scf.yield %40 : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    }
    %subview_0 = memref.subview %36[%arg0, %arg1] [%37, %38] [1, 1] : memref<?x?xf32, #hal.descriptor_type<storage_buffer>> to memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%39 : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) outs(%subview_0 : memref<?x?xf32, strided<[?, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
  } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%36 : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>) outs(%36 : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

