// Recorded from iree-compile 3.13.0, --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=znver3 --mlir-print-ir-before=iree-codegen-iree-comprehensive-bufferize --mlir-print-ir-module-scope on docs/bundles/nchw_conv_alloca/memory_alloca_contraction_ConvTileAndDecomposeExpert-2366a0db01/program.mlir: the module bufferization received
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "znver3", cpu_features = "+adx,+aes,+avx,+avx2,+bmi,+bmi2,+clflushopt,+clwb,+clzero,+crc32,+cx16,+cx8,+f16c,+fma,+fsgsbase,+fxsr,+invpcid,+lzcnt,+mmx,+movbe,+mwaitx,+pclmul,+pku,+popcnt,+prfchw,+rdpid,+rdpru,+rdrnd,+rdseed,+sahf,+sha,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+sse4a,+ssse3,+vaes,+vpclmulqdq,+wbnoinvd,+x87,+xsave,+xsavec,+xsaveopt,+xsaves", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 32 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<()[s0, s1] -> (s0 + s1)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d0)>
#map2 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d1, d0)>
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
          %4 = iree_codegen.load_from_buffer %1 : memref<3x2x6x6xf16, #hal.descriptor_type<storage_buffer>> -> tensor<3x2x6x6xf16>
          %5 = iree_codegen.load_from_buffer %2 : memref<4x2x2x3xf16, #hal.descriptor_type<storage_buffer>> -> tensor<4x2x2x3xf16>
          %6 = iree_codegen.load_from_buffer %3 : memref<3x4x4x4xf32, #hal.descriptor_type<storage_buffer>> -> tensor<3x4x4x4xf32>
          %7 = bufferization.alloc_tensor() : tensor<1x2x1x4xf32>
          %8 = vector.transfer_write %cst_0, %7[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<2x1x4xf32>, tensor<1x2x1x4xf32>
          %extracted_slice = tensor.extract_slice %8[0, 0, 0, 0] [1, 2, 1, 4] [1, 1, 1, 1] : tensor<1x2x1x4xf32> to tensor<1x2x4xf32>
          %9 = vector.transfer_read %extracted_slice[%c0, %c0, %c0], %cst_2 {in_bounds = [true, true]} : tensor<1x2x4xf32>, vector<2x4xf32>
          %10 = scf.forall (%arg0, %arg1) = (0, 0) to (3, 4) step (1, 2) shared_outs(%arg2 = %6) -> (tensor<3x4x4x4xf32>) {
            %extracted_slice_3 = tensor.extract_slice %arg2[%arg0, %arg1, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<3x4x4x4xf32> to tensor<1x2x4x4xf32>
            %11 = scf.for %arg3 = %c0 to %c4 step %c1 iter_args(%arg4 = %extracted_slice_3) -> (tensor<1x2x4x4xf32>) {
              %12 = scf.for %arg5 = %c0 to %c2 step %c1 iter_args(%arg6 = %9) -> (vector<2x4xf32>) {
                %19 = affine.apply #map()[%arg5, %arg3]
                %20 = scf.for %arg7 = %c0 to %c3 step %c1 iter_args(%arg8 = %arg6) -> (vector<2x4xf32>) {
                  %extracted_slice_4 = tensor.extract_slice %5[%arg1, 0, %arg5, %arg7] [2, 2, 1, 1] [1, 1, 1, 1] : tensor<4x2x2x3xf16> to tensor<2x2x1x1xf16>
                  %extracted_slice_5 = tensor.extract_slice %extracted_slice_4[0, 0, 0, 0] [2, 2, 1, 1] [1, 1, 1, 1] : tensor<2x2x1x1xf16> to tensor<2x2x1xf16>
                  %extracted_slice_6 = tensor.extract_slice %4[%arg0, 0, %19, %arg7] [1, 2, 1, 4] [1, 1, 1, 1] : tensor<3x2x6x6xf16> to tensor<1x2x1x4xf16>
                  %extracted_slice_7 = tensor.extract_slice %extracted_slice_6[0, 0, 0, 0] [1, 2, 1, 4] [1, 1, 1, 1] : tensor<1x2x1x4xf16> to tensor<1x2x4xf16>
                  %21 = vector.transfer_read %extracted_slice_7[%c0, %c0, %c0], %cst_1 {in_bounds = [true, true]} : tensor<1x2x4xf16>, vector<2x4xf16>
                  %22 = vector.transfer_read %extracted_slice_5[%c0, %c0, %c0], %cst_1 {in_bounds = [true, true, true]} : tensor<2x2x1xf16>, vector<2x2x1xf16>
                  %23 = vector.shape_cast %22 : vector<2x2x1xf16> to vector<2x2xf16>
                  %24 = vector.transpose %23, [1, 0] : vector<2x2xf16> to vector<2x2xf16>
                  %25 = arith.extf %21 : vector<2x4xf16> to vector<2x4xf32>
                  %26 = arith.extf %24 : vector<2x2xf16> to vector<2x2xf32>
                  %27 = vector.contract {indexing_maps = [#map1, #map2, #map3], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %25, %26, %arg8 : vector<2x4xf32>, vector<2x2xf32> into vector<2x4xf32>
                  scf.yield %27 : vector<2x4xf32>
                }
                scf.yield %20 : vector<2x4xf32>
              }
              %13 = vector.transfer_write %12, %extracted_slice[%c0, %c0, %c0] {in_bounds = [true, true]} : vector<2x4xf32>, tensor<1x2x4xf32>
              %inserted_slice = tensor.insert_slice %13 into %8[0, 0, 0, 0] [1, 2, 1, 4] [1, 1, 1, 1] : tensor<1x2x4xf32> into tensor<1x2x1x4xf32>
              %14 = vector.transfer_read %inserted_slice[%c0, %c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : tensor<1x2x1x4xf32>, vector<2x1x4xf32>
              %15 = vector.shape_cast %14 : vector<2x1x4xf32> to vector<2x4xf32>
              %16 = arith.addf %15, %cst : vector<2x4xf32>
              %17 = vector.shape_cast %16 : vector<2x4xf32> to vector<2x1x4xf32>
              %18 = vector.transfer_write %17, %arg4[%c0, %c0, %arg3, %c0] {in_bounds = [true, true, true]} : vector<2x1x4xf32>, tensor<1x2x4x4xf32>
              scf.yield %18 : tensor<1x2x4x4xf32>
            }
            scf.forall.in_parallel {
              tensor.parallel_insert_slice %11 into %arg2[%arg0, %arg1, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x4x4xf32> into tensor<3x4x4x4xf32>
            }
          } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
          iree_codegen.store_to_buffer %10, %3 : tensor<3x4x4x4xf32> into memref<3x4x4x4xf32, #hal.descriptor_type<storage_buffer>>
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


