// Recorded from iree-compile 3.13.0, --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host (emeraldrapids): 31x35xi32 iree_linalg_ext.gather of 13 rows, IR before the first iree-codegen-cleanup-buffer-alloc-view
func.func @gather_dispatch_0_gather_31x35xi32_dispatch_tensor_store() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<LinalgExtTileAndVectorize>>} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<31x35xi32, #hal.descriptor_type<storage_buffer>>
  %assume_align = memref.assume_alignment %0, 64 : memref<31x35xi32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<13x1xi32, #hal.descriptor_type<storage_buffer>>
  %assume_align_0 = memref.assume_alignment %1, 64 : memref<13x1xi32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<13x35xi32, #hal.descriptor_type<storage_buffer>>
  %assume_align_1 = memref.assume_alignment %2, 64 : memref<13x35xi32, #hal.descriptor_type<storage_buffer>>
  scf.forall (%arg0) in (13) {
    %subview = memref.subview %assume_align_0[%arg0, 0] [1, 1] [1, 1] : memref<13x1xi32, #hal.descriptor_type<storage_buffer>> to memref<1x1xi32, strided<[1, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    %3 = memref.load %subview[%c0, %c0] : memref<1x1xi32, strided<[1, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    %4 = arith.index_cast %3 : i32 to index
    %subview_2 = memref.subview %assume_align[%4, 0] [1, 35] [1, 1] : memref<31x35xi32, #hal.descriptor_type<storage_buffer>> to memref<1x35xi32, strided<[35, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    %subview_3 = memref.subview %assume_align_1[%arg0, 0] [1, 35] [1, 1] : memref<13x35xi32, #hal.descriptor_type<storage_buffer>> to memref<1x35xi32, strided<[35, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%subview_2 : memref<1x35xi32, strided<[35, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) outs(%subview_3 : memref<1x35xi32, strided<[35, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) {
    ^bb0(%in: i32, %out: i32):
      linalg.yield %in : i32
    }
  } {mapping = [#iree_codegen.workgroup_mapping<x>]}
  return
}
