func.func @main_dispatch_1_sort_3xf16_dispatch_tensor_store() {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c0 = arith.constant 0 : index
  %alloca = memref.alloca() alignment = 64 : memref<3xi32>
  %alloca_0 = memref.alloca() alignment = 64 : memref<3xf16>
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<22xf16>
  %assume_align = memref.assume_alignment %0, 64 : memref<22xf16>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3xi32>
  %assume_align_1 = memref.assume_alignment %1, 64 : memref<3xi32>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<3xf16>
  %assume_align_2 = memref.assume_alignment %2, 64 : memref<3xf16>
  cf.br ^bb1(%c0 : index)
^bb1(%3: index):  // 2 preds: ^bb0, ^bb2
  %4 = arith.cmpi slt, %3, %c3 : index
  cf.cond_br %4, ^bb2, ^bb3(%c0 : index)
^bb2:  // pred: ^bb1
  %5 = affine.apply affine_map<()[s0] -> (s0 + 19)>()[%3]
  %6 = memref.load %assume_align[%5] : memref<22xf16>
  memref.store %6, %alloca_0[%3] : memref<3xf16>
  %7 = arith.addi %3, %c1 : index
  cf.br ^bb1(%7 : index)
^bb3(%8: index):  // 2 preds: ^bb1, ^bb4
  %9 = arith.cmpi slt, %8, %c3 : index
  cf.cond_br %9, ^bb4, ^bb5(%c0 : index)
^bb4:  // pred: ^bb3
  %10 = memref.load %assume_align_1[%8] : memref<3xi32>
  memref.store %10, %alloca[%8] : memref<3xi32>
  %11 = arith.addi %8, %c1 : index
  cf.br ^bb3(%11 : index)
^bb5(%12: index):  // 2 preds: ^bb3, ^bb8
  %13 = arith.cmpi slt, %12, %c3 : index
  cf.cond_br %13, ^bb6(%c0 : index), ^bb9(%c0 : index)
^bb6(%14: index):  // 2 preds: ^bb5, ^bb7
  %15 = arith.cmpi slt, %14, %c2 : index
  cf.cond_br %15, ^bb7, ^bb8
^bb7:  // pred: ^bb6
  %16 = arith.addi %14, %c1 : index
  %17 = memref.load %alloca_0[%14] : memref<3xf16>
  %18 = memref.load %alloca_0[%16] : memref<3xf16>
  %19 = memref.load %alloca[%14] : memref<3xi32>
  %20 = memref.load %alloca[%16] : memref<3xi32>
  %21 = arith.cmpf oeq, %17, %18 : f16
  %22 = arith.cmpi slt, %19, %20 : i32
  %23 = arith.andi %21, %22 : i1
  %24 = arith.cmpf olt, %17, %18 : f16
  %25 = arith.ori %24, %23 : i1
  %26 = arith.select %25, %17, %18 : f16
  %27 = arith.select %25, %18, %17 : f16
  memref.store %26, %alloca_0[%14] : memref<3xf16>
  memref.store %27, %alloca_0[%16] : memref<3xf16>
  %28 = arith.select %25, %19, %20 : i32
  %29 = arith.select %25, %20, %19 : i32
  memref.store %28, %alloca[%14] : memref<3xi32>
  memref.store %29, %alloca[%16] : memref<3xi32>
  cf.br ^bb6(%16 : index)
^bb8:  // pred: ^bb6
  %30 = arith.addi %12, %c1 : index
  cf.br ^bb5(%30 : index)
^bb9(%31: index):  // 2 preds: ^bb5, ^bb10
  %32 = arith.cmpi slt, %31, %c3 : index
  cf.cond_br %32, ^bb10, ^bb11
^bb10:  // pred: ^bb9
  %33 = memref.load %alloca_0[%31] : memref<3xf16>
  memref.store %33, %assume_align_2[%31] : memref<3xf16>
  %34 = arith.addi %31, %c1 : index
  cf.br ^bb9(%34 : index)
^bb11:  // pred: ^bb9
  return
}
