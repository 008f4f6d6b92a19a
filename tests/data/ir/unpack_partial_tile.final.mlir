func.func @main_dispatch_0_unpack_f32() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1x4xf32>
  %assume_align = memref.assume_alignment %0, 64 : memref<1x4xf32>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<1xf32>
  %assume_align_0 = memref.assume_alignment %1, 64 : memref<1xf32>
  %alloca = memref.alloca() alignment = 32 : memref<4xf32>
  %2 = vector.load %assume_align[%c0, %c0] : memref<1x4xf32>, vector<4xf32>
  vector.store %2, %alloca[%c0] : memref<4xf32>, vector<4xf32>
  %3 = memref.load %alloca[%c0] : memref<4xf32>
  memref.store %3, %assume_align_0[%c0] : memref<1xf32>
  return
}
