// Recorded from iree-opt 3.13.0 --pass-pipeline='builtin.module(hal.executable(hal.executable.variant(builtin.module(func.func(iree-llvmcpu-lower-executable-target)))))' on nchw_conv.lower_executable_target.before.mlir: holds the memref.alloca
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "znver3", cpu_features = "+adx,+aes,+avx,+avx2,+bmi,+bmi2,+clflushopt,+clwb,+clzero,+crc32,+cx16,+cx8,+f16c,+fma,+fsgsbase,+fxsr,+invpcid,+lzcnt,+mmx,+movbe,+mwaitx,+pclmul,+pku,+popcnt,+prfchw,+rdpid,+rdpru,+rdrnd,+rdseed,+sahf,+sha,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+sse4a,+ssse3,+vaes,+vpclmulqdq,+wbnoinvd,+x87,+xsave,+xsavec,+xsaveopt,+xsaves", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 32 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<()[s0, s1] -> (s0 + s1)>
#map1 = affine_map<(d0, d1)[s0] -> (d0 * 36 + d1 + s0)>
#map2 = affine_map<(d0, d1)[s0] -> (d0 * 12 + d1 * 6 + s0)>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#translation = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<ConvTileAndDecomposeExpert>>
#device_target_local = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #device_target_local
  hal.executable private @main_dispatch_0 {
    hal.executable.variant public @embedded_elf_x86_64 target(#executable_target_embedded_elf_x86_64) {
      hal.executable.export public @main_dispatch_0_conv_3x4x4x4x2x2x3_f16xf16xf32 ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @main_dispatch_0_conv_3x4x4x4x2x2x3_f16xf16xf32() attributes {translation_info = #translation} {
          %0 = ub.poison : vector<2x2xf16>
          %1 = ub.poison : vector<4xf16>
          %cst = arith.constant dense<0.000000e+00> : vector<2xf16>
          %cst_0 = arith.constant dense<0.000000e+00> : vector<4xf32>
          %c0 = arith.constant 0 : index
          %c2 = arith.constant 2 : index
          %c3 = arith.constant 3 : index
          %c1 = arith.constant 1 : index
          %c4 = arith.constant 4 : index
          %cst_1 = arith.constant dense<0.000000e+00> : vector<2x4xf32>
          %alloca = memref.alloca() alignment = 64 : memref<1x2x1x4xf32>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3x2x6x6xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align = memref.assume_alignment %2, 64 : memref<3x2x6x6xf16, #hal.descriptor_type<storage_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x2x2x3xf16, #hal.descriptor_type<storage_buffer>>
          %assume_align_2 = memref.assume_alignment %3, 64 : memref<4x2x2x3xf16, #hal.descriptor_type<storage_buffer>>
          %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<3x4x4x4xf32, #hal.descriptor_type<storage_buffer>>
          %assume_align_3 = memref.assume_alignment %4, 64 : memref<3x4x4x4xf32, #hal.descriptor_type<storage_buffer>>
          %subview = memref.subview %alloca[0, 0, 0, 0] [1, 2, 1, 4] [1, 1, 1, 1] : memref<1x2x1x4xf32> to memref<2x4xf32>
          vector.store %cst_0, %subview[%c0, %c0] : memref<2x4xf32>, vector<4xf32>
          vector.store %cst_0, %subview[%c1, %c0] : memref<2x4xf32>, vector<4xf32>
          %subview_4 = memref.subview %alloca[0, 0, 0, 0] [1, 2, 1, 4] [1, 1, 1, 1] : memref<1x2x1x4xf32> to memref<1x2x4xf32, strided<[8, 4, 1]>>
          %subview_5 = memref.subview %subview_4[0, 0, 0] [1, 2, 4] [1, 1, 1] : memref<1x2x4xf32, strided<[8, 4, 1]>> to memref<2x4xf32>
          %5 = vector.load %subview_5[%c0, %c0] : memref<2x4xf32>, vector<4xf32>
          %6 = vector.load %subview_5[%c1, %c0] : memref<2x4xf32>, vector<4xf32>
          %7:4 = vector.to_elements %5 : vector<4xf32>
          %8:4 = vector.to_elements %6 : vector<4xf32>
          %9 = vector.from_elements %7#0, %7#1, %7#2, %7#3, %8#0, %8#1, %8#2, %8#3 : vector<2x4xf32>
          scf.forall (%arg0, %arg1) = (0, 0) to (3, 4) step (1, 2) {
            %subview_6 = memref.subview %assume_align_3[%arg0, %arg1, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : memref<3x4x4x4xf32, #hal.descriptor_type<storage_buffer>> to memref<1x2x4x4xf32, strided<[64, 16, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
            scf.for %arg2 = %c0 to %c4 step %c1 {
              %10 = scf.for %arg3 = %c0 to %c2 step %c1 iter_args(%arg4 = %9) -> (vector<2x4xf32>) {
                %21 = affine.apply #map()[%arg3, %arg2]
                %22 = scf.for %arg5 = %c0 to %c3 step %c1 iter_args(%arg6 = %arg4) -> (vector<2x4xf32>) {
                  %subview_9 = memref.subview %assume_align_2[%arg1, 0, %arg3, %arg5] [2, 2, 1, 1] [1, 1, 1, 1] : memref<4x2x2x3xf16, #hal.descriptor_type<storage_buffer>> to memref<2x2x1x1xf16, strided<[12, 6, 3, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
                  %subview_10 = memref.subview %subview_9[0, 0, 0, 0] [2, 2, 1, 1] [1, 1, 1, 1] : memref<2x2x1x1xf16, strided<[12, 6, 3, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<2x2x1xf16, strided<[12, 6, 3], offset: ?>, #hal.descriptor_type<storage_buffer>>
                  %subview_11 = memref.subview %assume_align[%arg0, 0, %21, %arg5] [1, 2, 1, 4] [1, 1, 1, 1] : memref<3x2x6x6xf16, #hal.descriptor_type<storage_buffer>> to memref<1x2x1x4xf16, strided<[72, 36, 6, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
                  %subview_12 = memref.subview %subview_11[0, 0, 0, 0] [1, 2, 1, 4] [1, 1, 1, 1] : memref<1x2x1x4xf16, strided<[72, 36, 6, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<1x2x4xf16, strided<[72, 36, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
                  %subview_13 = memref.subview %subview_12[0, 0, 0] [1, 2, 4] [1, 1, 1] : memref<1x2x4xf16, strided<[72, 36, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<2x4xf16, #map1, #hal.descriptor_type<storage_buffer>>
                  %23 = vector.load %subview_13[%c0, %c0] : memref<2x4xf16, #map1, #hal.descriptor_type<storage_buffer>>, vector<4xf16>
                  %24 = vector.load %subview_13[%c1, %c0] : memref<2x4xf16, #map1, #hal.descriptor_type<storage_buffer>>, vector<4xf16>
                  %25:4 = vector.to_elements %23 : vector<4xf16>
                  %26:4 = vector.to_elements %24 : vector<4xf16>
                  %27 = vector.from_elements %25#0, %25#1, %25#2, %25#3, %26#0, %26#1, %26#2, %26#3 : vector<2x4xf16>
                  %subview_14 = memref.subview %subview_10[0, 0, 0] [2, 2, 1] [1, 1, 1] : memref<2x2x1xf16, strided<[12, 6, 3], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<2x2xf16, #map2, #hal.descriptor_type<storage_buffer>>
                  %28 = scf.for %arg7 = %c0 to %c2 step %c1 iter_args(%arg8 = %cst) -> (vector<2xf16>) {
                    %59 = memref.load %subview_14[%c0, %arg7] : memref<2x2xf16, #map2, #hal.descriptor_type<storage_buffer>>
                    %60 = vector.insert %59, %arg8 [%arg7] : f16 into vector<2xf16>
                    scf.yield %60 : vector<2xf16>
                  }
                  %29 = scf.for %arg7 = %c0 to %c2 step %c1 iter_args(%arg8 = %cst) -> (vector<2xf16>) {
                    %59 = memref.load %subview_14[%c1, %arg7] : memref<2x2xf16, #map2, #hal.descriptor_type<storage_buffer>>
                    %60 = vector.insert %59, %arg8 [%arg7] : f16 into vector<2xf16>
                    scf.yield %60 : vector<2xf16>
                  }
                  %30:2 = vector.to_elements %28 : vector<2xf16>
                  %31:2 = vector.to_elements %29 : vector<2xf16>
                  %32 = vector.from_elements %30#0, %30#1, %31#0, %31#1 : vector<4xf16>
                  %33 = vector.shuffle %32, %1 [0, 2, 1, 3] : vector<4xf16>, vector<4xf16>
                  %34 = vector.extract_strided_slice %33 offsets = [0], sizes = [2], strides = [1] : vector<4xf16> to vector<2xf16>
                  %35 = vector.insert %34, %0 [0] : vector<2xf16> into vector<2x2xf16>
                  %36 = vector.extract_strided_slice %33 offsets = [2], sizes = [2], strides = [1] : vector<4xf16> to vector<2xf16>
                  %37 = vector.insert %36, %35 [1] : vector<2xf16> into vector<2x2xf16>
                  %38 = arith.extf %27 : vector<2x4xf16> to vector<2x4xf32>
                  %39 = arith.extf %37 : vector<2x2xf16> to vector<2x2xf32>
                  %40 = vector.extract %38[0] : vector<4xf32> from vector<2x4xf32>
                  %41 = vector.extract %39[0, 0] : f32 from vector<2x2xf32>
                  %42 = vector.broadcast %41 : f32 to vector<4xf32>
                  %43 = vector.extract %arg6[0] : vector<4xf32> from vector<2x4xf32>
                  %44 = vector.fma %42, %40, %43 : vector<4xf32>
                  %45 = vector.extract %39[0, 1] : f32 from vector<2x2xf32>
                  %46 = vector.broadcast %45 : f32 to vector<4xf32>
                  %47 = vector.extract %arg6[1] : vector<4xf32> from vector<2x4xf32>
                  %48 = vector.fma %46, %40, %47 : vector<4xf32>
                  %49 = vector.extract %38[1] : vector<4xf32> from vector<2x4xf32>
                  %50 = vector.extract %39[1, 0] : f32 from vector<2x2xf32>
                  %51 = vector.broadcast %50 : f32 to vector<4xf32>
                  %52 = vector.fma %51, %49, %44 : vector<4xf32>
                  %53 = vector.extract %39[1, 1] : f32 from vector<2x2xf32>
                  %54 = vector.broadcast %53 : f32 to vector<4xf32>
                  %55 = vector.fma %54, %49, %48 : vector<4xf32>
                  %56:4 = vector.to_elements %52 : vector<4xf32>
                  %57:4 = vector.to_elements %55 : vector<4xf32>
                  %58 = vector.from_elements %56#0, %56#1, %56#2, %56#3, %57#0, %57#1, %57#2, %57#3 : vector<2x4xf32>
                  scf.yield %58 : vector<2x4xf32>
                }
                scf.yield %22 : vector<2x4xf32>
              }
              %subview_7 = memref.subview %subview_4[0, 0, 0] [1, 2, 4] [1, 1, 1] : memref<1x2x4xf32, strided<[8, 4, 1]>> to memref<2x4xf32>
              %11 = vector.extract %10[0] : vector<4xf32> from vector<2x4xf32>
              vector.store %11, %subview_7[%c0, %c0] : memref<2x4xf32>, vector<4xf32>
              %12 = vector.extract %10[1] : vector<4xf32> from vector<2x4xf32>
              vector.store %12, %subview_7[%c1, %c0] : memref<2x4xf32>, vector<4xf32>
              %subview_8 = memref.subview %alloca[0, 0, 0, 0] [1, 2, 1, 4] [1, 1, 1, 1] : memref<1x2x1x4xf32> to memref<2x4xf32>
              %13 = vector.load %subview_8[%c0, %c0] : memref<2x4xf32>, vector<4xf32>
              %14 = vector.load %subview_8[%c1, %c0] : memref<2x4xf32>, vector<4xf32>
              %15:4 = vector.to_elements %13 : vector<4xf32>
              %16:4 = vector.to_elements %14 : vector<4xf32>
              %17 = vector.from_elements %15#0, %15#1, %15#2, %15#3, %16#0, %16#1, %16#2, %16#3 : vector<2x4xf32>
              %18 = arith.addf %17, %cst_1 : vector<2x4xf32>
              %19 = vector.extract %18[0] : vector<4xf32> from vector<2x4xf32>
              vector.store %19, %subview_6[%c0, %c0, %arg2, %c0] : memref<1x2x4x4xf32, strided<[64, 16, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<4xf32>
              %20 = vector.extract %18[1] : vector<4xf32> from vector<2x4xf32>
              vector.store %20, %subview_6[%c0, %c1, %arg2, %c0] : memref<1x2x4x4xf32, strided<[64, 16, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<4xf32>
            }
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          return
        }
        iree_codegen.dispatch_config @main_dispatch_0_conv_3x4x4x4x2x2x3_f16xf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<4x2x2x3xf16>, %input1: tensor<3x4x4x4xf32>, %input2: tensor<3x2x6x6xf16>) -> (%output0: tensor<3x4x4x4xf32>)"}} {
    %c0 = arith.constant 0 : index
    %c768 = arith.constant 768 : index
    %c432 = arith.constant 432 : index
    %c96 = arith.constant 96 : index
    %c6 = arith.constant 6 : index
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %element_type_f16 = hal.element_type<f16> : i32
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c4, %c2, %c2, %c3]) type(%element_type_f16) encoding(%dense_row_major)
    %0 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<4x2x2x3xf16> in !stream.resource<external>{%c96}
    hal.buffer_view.assert<%arg2 : !hal.buffer_view> message("input2") shape([%c3, %c2, %c6, %c6]) type(%element_type_f16) encoding(%dense_row_major)
    %1 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg2 : !hal.buffer_view -> tensor<3x2x6x6xf16> in !stream.resource<external>{%c432}
    %result, %result_timepoint = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<external>{%c768} => !stream.timepoint
    %2 = stream.cmd.execute on(#hal.device.affinity<@__device_0>) await(%result_timepoint) => with(%1 as %arg3: !stream.resource<external>{%c432}, %0 as %arg4: !stream.resource<external>{%c96}, %result as %arg5: !stream.resource<external>{%c768}) {
      stream.cmd.dispatch @main_dispatch_0::@embedded_elf_x86_64::@main_dispatch_0_conv_3x4x4x4x2x2x3_f16xf16xf32 {
        ro %arg3[%c0 for %c432] : !stream.resource<external>{%c432},
        ro %arg4[%c0 for %c96] : !stream.resource<external>{%c96},
        wo %arg5[%c0 for %c768] : !stream.resource<external>{%c768}
      }
    } => !stream.timepoint
    %3 = stream.timepoint.await %2 => %result : !stream.resource<external>{%c768}
    %4 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %3 : tensor<3x4x4x4xf32> in !stream.resource<external>{%c768} -> !hal.buffer_view
    util.return %4 : !hal.buffer_view
  }
}

