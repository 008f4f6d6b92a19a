func.func @main_dispatch_0_topk_6xDx6xf16_dispatch_tensor_store() {
  %c-1 = arith.constant -1 : index
  %c-64 = arith.constant -64 : index
  %c6 = arith.constant 6 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %cst = arith.constant 2.000000e+00 : f16
  %cst_0 = arith.constant 0xFC00 : f16
  %c32_i64 = arith.constant 32 : i64
  %alloca = memref.alloca() alignment = 64 : memref<1x64x6xi32>
  %alloca_1 = memref.alloca() alignment = 64 : memref<1x64x6xf16>
  %0 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
  %1 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
  %2 = arith.extui %0 : i32 to i64
  %3 = arith.extui %1 : i32 to i64
  %4 = arith.shli %3, %c32_i64 : i64
  %5 = arith.ori %2, %4 : i64
  %6 = arith.index_castui %5 : i64 to index
  %7 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags(Indirect) : memref<6x?x6xf16>{%6}
  %assume_align = memref.assume_alignment %7, 64 : memref<6x?x6xf16>
  %8 = arith.cmpi sle, %6, %c0 : index
  %9 = arith.subi %c0, %6 : index
  %10 = arith.subi %6, %c1 : index
  %11 = arith.select %8, %9, %10 : index
  %12 = arith.divsi %11, %c64 : index
  %13 = arith.subi %c0, %12 : index
  %14 = arith.addi %12, %c1 : index
  %15 = arith.select %8, %13, %14 : index
  %workgroup_id_x = hal.interface.workgroup.id[0] : index
  %16 = arith.divsi %workgroup_id_x, %15 : index
  %17 = arith.muli %16, %15 : index
  %18 = arith.cmpi ne, %workgroup_id_x, %17 : index
  %19 = arith.cmpi slt, %workgroup_id_x, %c0 : index
  %20 = arith.cmpi slt, %15, %c0 : index
  %21 = arith.cmpi ne, %19, %20 : i1
  %22 = arith.andi %18, %21 : i1
  %23 = arith.addi %16, %c-1 : index
  %24 = arith.select %22, %23, %16 : index
  %25 = arith.remsi %workgroup_id_x, %15 : index
  %26 = arith.cmpi slt, %25, %c0 : index
  %27 = arith.addi %25, %15 overflow<nsw> : index
  %28 = arith.select %26, %27, %25 : index
  %29 = arith.muli %28, %c64 overflow<nsw> : index
  %30 = arith.muli %28, %c-64 overflow<nsw> : index
  %31 = arith.addi %30, %6 : index
  %32 = arith.minsi %31, %c64 : index
  cf.br ^bb1(%c0 : index)
^bb1(%33: index):  // 2 preds: ^bb0, ^bb4
  %34 = arith.cmpi slt, %33, %32 : index
  cf.cond_br %34, ^bb2(%c0 : index), ^bb5(%c0 : index)
^bb2(%35: index):  // 2 preds: ^bb1, ^bb3
  %36 = arith.cmpi slt, %35, %c6 : index
  cf.cond_br %36, ^bb3, ^bb4
^bb3:  // pred: ^bb2
  memref.store %cst, %alloca_1[%c0, %33, %35] : memref<1x64x6xf16>
  %37 = arith.addi %35, %c1 : index
  cf.br ^bb2(%37 : index)
^bb4:  // pred: ^bb2
  %38 = arith.addi %33, %c1 : index
  cf.br ^bb1(%38 : index)
^bb5(%39: index):  // 2 preds: ^bb1, ^bb8
  %40 = arith.cmpi slt, %39, %32 : index
  cf.cond_br %40, ^bb6(%c0 : index), ^bb9(%c0 : index)
^bb6(%41: index):  // 2 preds: ^bb5, ^bb7
  %42 = arith.cmpi slt, %41, %c6 : index
  cf.cond_br %42, ^bb7, ^bb8
^bb7:  // pred: ^bb6
  %43 = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%29, %39]
  memref.store %cst_0, %assume_align[%24, %43, %41] : memref<6x?x6xf16>
  %44 = arith.addi %41, %c1 : index
  cf.br ^bb6(%44 : index)
^bb8:  // pred: ^bb6
  %45 = arith.addi %39, %c1 : index
  cf.br ^bb5(%45 : index)
^bb9(%46: index):  // 2 preds: ^bb5, ^bb15
  %47 = arith.cmpi slt, %46, %32 : index
  cf.cond_br %47, ^bb10, ^bb16(%c0 : index)
^bb10:  // pred: ^bb9
  %48 = arith.subi %32, %46 : index
  %49 = arith.minsi %48, %c64 : index
  cf.br ^bb11(%c0 : index)
^bb11(%50: index):  // 2 preds: ^bb10, ^bb14
  %51 = arith.cmpi slt, %50, %49 : index
  cf.cond_br %51, ^bb12(%c0 : index), ^bb15
^bb12(%52: index):  // 2 preds: ^bb11, ^bb13
  %53 = arith.cmpi slt, %52, %c6 : index
  cf.cond_br %53, ^bb13, ^bb14
^bb13:  // pred: ^bb12
  %54 = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%46, %50]
  memref.store %c0_i32, %alloca[%c0, %54, %52] : memref<1x64x6xi32>
  %55 = arith.addi %52, %c1 : index
  cf.br ^bb12(%55 : index)
^bb14:  // pred: ^bb12
  %56 = arith.addi %50, %c1 : index
  cf.br ^bb11(%56 : index)
^bb15:  // pred: ^bb11
  %57 = arith.addi %46, %c64 : index
  cf.br ^bb9(%57 : index)
^bb16(%58: index):  // 2 preds: ^bb9, ^bb22
  %59 = arith.cmpi slt, %58, %32 : index
  cf.cond_br %59, ^bb17(%c0 : index), ^bb23
^bb17(%60: index):  // 2 preds: ^bb16, ^bb21
  %61 = arith.cmpi slt, %60, %c6 : index
  cf.cond_br %61, ^bb18, ^bb22
^bb18:  // pred: ^bb17
  %62 = memref.load %alloca_1[%c0, %58, %60] : memref<1x64x6xf16>
  %63 = arith.index_cast %60 : index to i32
  cf.br ^bb19(%c0, %62, %63 : index, f16, i32)
^bb19(%64: index, %65: f16, %66: i32):  // 2 preds: ^bb18, ^bb20
  %67 = arith.cmpi slt, %64, %c6 : index
  cf.cond_br %67, ^bb20, ^bb21
^bb20:  // pred: ^bb19
  %68 = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%29, %58]
  %69 = memref.load %assume_align[%24, %68, %64] : memref<6x?x6xf16>
  %70 = memref.load %alloca[%c0, %58, %64] : memref<1x64x6xi32>
  %71 = arith.cmpf ogt, %65, %69 : f16
  %72 = arith.cmpf ogt, %69, %65 : f16
  %73 = arith.cmpi eq, %71, %72 : i1
  %74 = arith.cmpi slt, %66, %70 : i32
  %75 = arith.andi %73, %74 : i1
  %76 = arith.ori %71, %75 : i1
  %77 = arith.select %71, %65, %69 : f16
  %78 = arith.select %76, %66, %70 : i32
  memref.store %77, %assume_align[%24, %68, %64] : memref<6x?x6xf16>
  memref.store %78, %alloca[%c0, %58, %64] : memref<1x64x6xi32>
  %79 = arith.select %71, %69, %65 : f16
  %80 = arith.select %76, %70, %66 : i32
  %81 = arith.addi %64, %c1 : index
  cf.br ^bb19(%81, %79, %80 : index, f16, i32)
^bb21:  // pred: ^bb19
  %82 = arith.addi %60, %c1 : index
  cf.br ^bb17(%82 : index)
^bb22:  // pred: ^bb17
  %83 = arith.addi %58, %c1 : index
  cf.br ^bb16(%83 : index)
^bb23:  // pred: ^bb16
  return
}
