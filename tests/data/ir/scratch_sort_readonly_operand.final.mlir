func.func @main_dispatch_3_sort_31x1xf32_dispatch_tensor_store() {
  %c30 = arith.constant 30 : index
  %c1 = arith.constant 1 : index
  %c31 = arith.constant 31 : index
  %c0 = arith.constant 0 : index
  %alloca = memref.alloca() alignment = 64 : memref<31x1xi32>
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags(Indirect) : memref<31x1xf32>
  %assume_align = memref.assume_alignment %0, 64 : memref<31x1xf32>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<31x1xi32>
  %assume_align_0 = memref.assume_alignment %1, 64 : memref<31x1xi32>
  cf.br ^bb1(%c0 : index)
^bb1(%2: index):  // 2 preds: ^bb0, ^bb2
  %3 = arith.cmpi slt, %2, %c31 : index
  cf.cond_br %3, ^bb2, ^bb3(%c0 : index)
^bb2:  // pred: ^bb1
  %4 = memref.load %assume_align_0[%2, %c0] : memref<31x1xi32>
  memref.store %4, %alloca[%2, %c0] : memref<31x1xi32>
  %5 = arith.addi %2, %c1 : index
  cf.br ^bb1(%5 : index)
^bb3(%6: index):  // 2 preds: ^bb1, ^bb6
  %7 = arith.cmpi slt, %6, %c31 : index
  cf.cond_br %7, ^bb4(%c0 : index), ^bb7
^bb4(%8: index):  // 2 preds: ^bb3, ^bb5
  %9 = arith.cmpi slt, %8, %c30 : index
  cf.cond_br %9, ^bb5, ^bb6
^bb5:  // pred: ^bb4
  %10 = arith.addi %8, %c1 : index
  %11 = memref.load %assume_align[%8, %c0] : memref<31x1xf32>
  %12 = memref.load %assume_align[%10, %c0] : memref<31x1xf32>
  %13 = memref.load %alloca[%8, %c0] : memref<31x1xi32>
  %14 = memref.load %alloca[%10, %c0] : memref<31x1xi32>
  %15 = arith.cmpf oeq, %11, %12 : f32
  %16 = arith.cmpi slt, %13, %14 : i32
  %17 = arith.andi %15, %16 : i1
  %18 = arith.cmpf olt, %11, %12 : f32
  %19 = arith.ori %18, %17 : i1
  %20 = arith.select %19, %11, %12 : f32
  %21 = arith.select %19, %12, %11 : f32
  memref.store %20, %assume_align[%8, %c0] : memref<31x1xf32>
  memref.store %21, %assume_align[%10, %c0] : memref<31x1xf32>
  %22 = arith.select %19, %13, %14 : i32
  %23 = arith.select %19, %14, %13 : i32
  memref.store %22, %alloca[%8, %c0] : memref<31x1xi32>
  memref.store %23, %alloca[%10, %c0] : memref<31x1xi32>
  cf.br ^bb4(%10 : index)
^bb6:  // pred: ^bb4
  %24 = arith.addi %6, %c1 : index
  cf.br ^bb3(%24 : index)
^bb7:  // pred: ^bb3
  return
}
