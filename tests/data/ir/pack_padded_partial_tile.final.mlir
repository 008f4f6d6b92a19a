func.func @main_dispatch_0_pack_f16() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %cst = arith.constant -1.500000e+00 : f16
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1xf16>
  %assume_align = memref.assume_alignment %0, 64 : memref<1xf16>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<1x3xf16>
  %assume_align_0 = memref.assume_alignment %1, 64 : memref<1x3xf16>
  %alloca = memref.alloca() alignment = 32 : memref<3xf16>
  cf.br ^bb1(%c0 : index)
^bb1(%2: index):  // 2 preds: ^bb0, ^bb2
  %3 = arith.cmpi slt, %2, %c3 : index
  cf.cond_br %3, ^bb2, ^bb3
^bb2:  // pred: ^bb1
  memref.store %cst, %alloca[%2] : memref<3xf16>
  %4 = arith.addi %2, %c1 : index
  cf.br ^bb1(%4 : index)
^bb3:  // pred: ^bb1
  %5 = memref.load %assume_align[%c0] : memref<1xf16>
  memref.store %5, %alloca[%c0] : memref<3xf16>
  %6 = vector.load %alloca[%c0] : memref<3xf16>, vector<3xf16>
  vector.store %6, %assume_align_0[%c0, %c0] : memref<1x3xf16>, vector<3xf16>
  return
}
