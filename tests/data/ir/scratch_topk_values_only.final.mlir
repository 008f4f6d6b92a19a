func.func @main_dispatch_0_topk_15x17x17xf32_dispatch_tensor_store() {
  %c7 = arith.constant 7 : index
  %c17 = arith.constant 17 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0xFF800000 : f32
  %c0_i32 = arith.constant 0 : i32
  %alloca = memref.alloca() alignment = 64 : memref<1x17x7xi32>
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<15x17x17xf32>
  %assume_align = memref.assume_alignment %0, 64 : memref<15x17x17xf32>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<15x17x7xf32>
  %assume_align_0 = memref.assume_alignment %1, 64 : memref<15x17x7xf32>
  %workgroup_id_x = hal.interface.workgroup.id[0] : index
  cf.br ^bb1(%c0 : index)
^bb1(%2: index):  // 2 preds: ^bb0, ^bb4
  %3 = arith.cmpi slt, %2, %c17 : index
  cf.cond_br %3, ^bb2(%c0 : index), ^bb5(%c0 : index)
^bb2(%4: index):  // 2 preds: ^bb1, ^bb3
  %5 = arith.cmpi slt, %4, %c7 : index
  cf.cond_br %5, ^bb3, ^bb4
^bb3:  // pred: ^bb2
  memref.store %cst, %assume_align_0[%workgroup_id_x, %2, %4] : memref<15x17x7xf32>
  %6 = arith.addi %4, %c1 : index
  cf.br ^bb2(%6 : index)
^bb4:  // pred: ^bb2
  %7 = arith.addi %2, %c1 : index
  cf.br ^bb1(%7 : index)
^bb5(%8: index):  // 2 preds: ^bb1, ^bb8
  %9 = arith.cmpi slt, %8, %c17 : index
  cf.cond_br %9, ^bb6(%c0 : index), ^bb9(%c0 : index)
^bb6(%10: index):  // 2 preds: ^bb5, ^bb7
  %11 = arith.cmpi slt, %10, %c7 : index
  cf.cond_br %11, ^bb7, ^bb8
^bb7:  // pred: ^bb6
  memref.store %c0_i32, %alloca[%c0, %8, %10] : memref<1x17x7xi32>
  %12 = arith.addi %10, %c1 : index
  cf.br ^bb6(%12 : index)
^bb8:  // pred: ^bb6
  %13 = arith.addi %8, %c1 : index
  cf.br ^bb5(%13 : index)
^bb9(%14: index):  // 2 preds: ^bb5, ^bb15
  %15 = arith.cmpi slt, %14, %c17 : index
  cf.cond_br %15, ^bb10(%c0 : index), ^bb16
^bb10(%16: index):  // 2 preds: ^bb9, ^bb14
  %17 = arith.cmpi slt, %16, %c17 : index
  cf.cond_br %17, ^bb11, ^bb15
^bb11:  // pred: ^bb10
  %18 = memref.load %assume_align[%workgroup_id_x, %14, %16] : memref<15x17x17xf32>
  %19 = arith.index_cast %16 : index to i32
  cf.br ^bb12(%c0, %18, %19 : index, f32, i32)
^bb12(%20: index, %21: f32, %22: i32):  // 2 preds: ^bb11, ^bb13
  %23 = arith.cmpi slt, %20, %c7 : index
  cf.cond_br %23, ^bb13, ^bb14
^bb13:  // pred: ^bb12
  %24 = memref.load %assume_align_0[%workgroup_id_x, %14, %20] : memref<15x17x7xf32>
  %25 = memref.load %alloca[%c0, %14, %20] : memref<1x17x7xi32>
  %26 = arith.cmpf ogt, %21, %24 : f32
  %27 = arith.cmpf ogt, %24, %21 : f32
  %28 = arith.cmpi eq, %26, %27 : i1
  %29 = arith.cmpi slt, %22, %25 : i32
  %30 = arith.andi %28, %29 : i1
  %31 = arith.ori %26, %30 : i1
  %32 = arith.select %26, %21, %24 : f32
  %33 = arith.select %31, %22, %25 : i32
  memref.store %32, %assume_align_0[%workgroup_id_x, %14, %20] : memref<15x17x7xf32>
  memref.store %33, %alloca[%c0, %14, %20] : memref<1x17x7xi32>
  %34 = arith.select %26, %24, %21 : f32
  %35 = arith.select %31, %25, %22 : i32
  %36 = arith.addi %20, %c1 : index
  cf.br ^bb12(%36, %34, %35 : index, f32, i32)
^bb14:  // pred: ^bb12
  %37 = arith.addi %16, %c1 : index
  cf.br ^bb10(%37 : index)
^bb15:  // pred: ^bb10
  %38 = arith.addi %14, %c1 : index
  cf.br ^bb9(%38 : index)
^bb16:  // pred: ^bb9
  return
}
