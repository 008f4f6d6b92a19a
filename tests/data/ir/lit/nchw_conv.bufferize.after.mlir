// Recorded from iree-opt 3.13.0 --pass-pipeline='builtin.module(hal.executable(hal.executable.variant(builtin.module(func.func(iree-codegen-iree-comprehensive-bufferize)))))' on nchw_conv.bufferize.before.mlir: a memref.alloc, no memref.alloca (the textual pass has the default allocation function)
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "znver3", cpu_features = "+adx,+aes,+avx,+avx2,+bmi,+bmi2,+clflushopt,+clwb,+clzero,+crc32,+cx16,+cx8,+f16c,+fma,+fsgsbase,+fxsr,+invpcid,+lzcnt,+mmx,+movbe,+mwaitx,+pclmul,+pku,+popcnt,+prfchw,+rdpid,+rdpru,+rdrnd,+rdseed,+sahf,+sha,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+sse4a,+ssse3,+vaes,+vpclmulqdq,+wbnoinvd,+x87,+xsave,+xsavec,+xsaveopt,+xsaves", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 32 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<()[s0, s1] -> (s0 + s1)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d0)>
#map2 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d1, d0)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
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
          %cst = arith.constant dense<0.000000e+00> : vector<2x4xf32>
          %cst_0 = arith.constant dense<0.000000e+00> : vector<2x1x4xf32>
          %cst_1 = arith.constant 0.000000e+00 : f16
          %0 = ub.poison : f32
          %c4 = arith.constant 4 : index
          %c1 = arith.constant 1 : index
          %c3 = arith.constant 3 : index
          %c2 = arith.constant 2 : index
          %cst_2 = arith.constant 0.000000e+00 : f32
          %c0 = arith.constant 0 : index
          %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3x2x6x6xf16, #hal.descriptor_type<storage_buffer>>
          %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x2x2x3xf16, #hal.descriptor_type<storage_buffer>>
          %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<3x4x4x4xf32, #hal.descriptor_type<storage_buffer>>
          %alloc = memref.alloc() : memref<1x2x1x4xf32>
          vector.transfer_write %cst_0, %alloc[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<2x1x4xf32>, memref<1x2x1x4xf32>
          %subview = memref.subview %alloc[0, 0, 0, 0] [1, 2, 1, 4] [1, 1, 1, 1] : memref<1x2x1x4xf32> to memref<1x2x4xf32, strided<[8, 4, 1]>>
          %4 = vector.transfer_read %subview[%c0, %c0, %c0], %cst_2 {in_bounds = [true, true]} : memref<1x2x4xf32, strided<[8, 4, 1]>>, vector<2x4xf32>
          scf.forall (%arg0, %arg1) = (0, 0) to (3, 4) step (1, 2) {
            %subview_3 = memref.subview %3[%arg0, %arg1, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : memref<3x4x4x4xf32, #hal.descriptor_type<storage_buffer>> to memref<1x2x4x4xf32, strided<[64, 16, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
            %5 = scf.for %arg2 = %c0 to %c4 step %c1 iter_args(%arg3 = %subview_3) -> (memref<1x2x4x4xf32, strided<[64, 16, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) {
              %6 = scf.for %arg4 = %c0 to %c2 step %c1 iter_args(%arg5 = %4) -> (vector<2x4xf32>) {
                %11 = affine.apply #map()[%arg4, %arg2]
                %12 = scf.for %arg6 = %c0 to %c3 step %c1 iter_args(%arg7 = %arg5) -> (vector<2x4xf32>) {
                  %subview_6 = memref.subview %2[%arg1, 0, %arg4, %arg6] [2, 2, 1, 1] [1, 1, 1, 1] : memref<4x2x2x3xf16, #hal.descriptor_type<storage_buffer>> to memref<2x2x1x1xf16, strided<[12, 6, 3, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
                  %subview_7 = memref.subview %subview_6[0, 0, 0, 0] [2, 2, 1, 1] [1, 1, 1, 1] : memref<2x2x1x1xf16, strided<[12, 6, 3, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<2x2x1xf16, strided<[12, 6, 3], offset: ?>, #hal.descriptor_type<storage_buffer>>
                  %subview_8 = memref.subview %1[%arg0, 0, %11, %arg6] [1, 2, 1, 4] [1, 1, 1, 1] : memref<3x2x6x6xf16, #hal.descriptor_type<storage_buffer>> to memref<1x2x1x4xf16, strided<[72, 36, 6, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
                  %subview_9 = memref.subview %subview_8[0, 0, 0, 0] [1, 2, 1, 4] [1, 1, 1, 1] : memref<1x2x1x4xf16, strided<[72, 36, 6, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<1x2x4xf16, strided<[72, 36, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
                  %13 = vector.transfer_read %subview_9[%c0, %c0, %c0], %cst_1 {in_bounds = [true, true]} : memref<1x2x4xf16, strided<[72, 36, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<2x4xf16>
                  %14 = vector.transfer_read %subview_7[%c0, %c0, %c0], %cst_1 {in_bounds = [true, true, true]} : memref<2x2x1xf16, strided<[12, 6, 3], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<2x2x1xf16>
                  %15 = vector.shape_cast %14 : vector<2x2x1xf16> to vector<2x2xf16>
                  %16 = vector.transpose %15, [1, 0] : vector<2x2xf16> to vector<2x2xf16>
                  %17 = arith.extf %13 : vector<2x4xf16> to vector<2x4xf32>
                  %18 = arith.extf %16 : vector<2x2xf16> to vector<2x2xf32>
                  %19 = vector.contract {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %17, %18, %arg7 : vector<2x4xf32>, vector<2x2xf32> into vector<2x4xf32>
                  scf.yield %19 : vector<2x4xf32>
                }
                scf.yield %12 : vector<2x4xf32>
              }
              vector.transfer_write %6, %subview[%c0, %c0, %c0] {in_bounds = [true, true]} : vector<2x4xf32>, memref<1x2x4xf32, strided<[8, 4, 1]>>
              %subview_5 = memref.subview %alloc[0, 0, 0, 0] [1, 2, 1, 4] [1, 1, 1, 1] : memref<1x2x1x4xf32> to memref<1x2x4xf32, strided<[8, 4, 1]>>
              linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%subview : memref<1x2x4xf32, strided<[8, 4, 1]>>) outs(%subview_5 : memref<1x2x4xf32, strided<[8, 4, 1]>>) {
              ^bb0(%in: f32, %out: f32):
                linalg.yield %in : f32
              }
              %7 = vector.transfer_read %alloc[%c0, %c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x2x1x4xf32>, vector<2x1x4xf32>
              %8 = vector.shape_cast %7 : vector<2x1x4xf32> to vector<2x4xf32>
              %9 = arith.addf %8, %cst : vector<2x4xf32>
              %10 = vector.shape_cast %9 : vector<2x4xf32> to vector<2x1x4xf32>
              vector.transfer_write %10, %arg3[%c0, %c0, %arg2, %c0] {in_bounds = [true, true, true]} : vector<2x1x4xf32>, memref<1x2x4x4xf32, strided<[64, 16, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
              scf.yield %arg3 : memref<1x2x4x4xf32, strided<[64, 16, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
            }
            %subview_4 = memref.subview %3[%arg0, %arg1, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : memref<3x4x4x4xf32, #hal.descriptor_type<storage_buffer>> to memref<1x2x4x4xf32, strided<[64, 16, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
            linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5 : memref<1x2x4x4xf32, strided<[64, 16, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) outs(%subview_4 : memref<1x2x4x4xf32, strided<[64, 16, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) {
            ^bb0(%in: f32, %out: f32):
              linalg.yield %in : f32
            }
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : memref<3x4x4x4xf32, #hal.descriptor_type<storage_buffer>>) outs(%3 : memref<3x4x4x4xf32, #hal.descriptor_type<storage_buffer>>) {
          ^bb0(%in: f32, %out: f32):
            linalg.yield %in : f32
          }
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

