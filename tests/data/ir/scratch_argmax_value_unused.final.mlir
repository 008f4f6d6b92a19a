func.func @main_dispatch_0_reduction_Dx48_f32xf32xi32() {
  %c-32 = arith.constant -32 : index
  %c32 = arith.constant 32 : index
  %c2147483647 = arith.constant 2147483647 : index
  %cst = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : vector<16xi32>
  %c0 = arith.constant 0 : index
  %c32_i64 = arith.constant 32 : i64
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  %c16 = arith.constant 16 : index
  %cst_0 = arith.constant dense<0xFF800000> : vector<16xf32>
  %cst_1 = arith.constant dense<0> : vector<16xi32>
  %alloca = memref.alloca() alignment = 64 : memref<16xf32>
  %0 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
  %1 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
  %2 = arith.extui %0 : i32 to i64
  %3 = arith.extui %1 : i32 to i64
  %4 = arith.shli %3, %c32_i64 : i64
  %5 = arith.ori %2, %4 : i64
  %6 = arith.index_castui %5 : i64 to index
  %7 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<48x?xf32>{%6}
  %assume_align = memref.assume_alignment %7, 64 : memref<48x?xf32>
  %8 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<?xi32>{%6}
  %assume_align_2 = memref.assume_alignment %8, 64 : memref<?xi32>
  %workgroup_id_x = hal.interface.workgroup.id[0] : index
  %9 = arith.muli %workgroup_id_x, %c32 overflow<nsw> : index
  %10 = arith.muli %workgroup_id_x, %c-32 overflow<nsw> : index
  %11 = arith.addi %10, %6 : index
  %12 = arith.minsi %11, %c32 : index
  cf.br ^bb1(%c0 : index)
^bb1(%13: index):  // 2 preds: ^bb0, ^bb8
  %14 = arith.cmpi slt, %13, %12 : index
  cf.cond_br %14, ^bb2, ^bb9
^bb2:  // pred: ^bb1
  %15 = arith.subi %12, %13 : index
  %16 = arith.minsi %15, %c16 : index
  %17 = arith.minsi %16, %c2147483647 : index
  %18 = arith.index_cast %17 : index to i32
  %19 = vector.broadcast %18 : i32 to vector<16xi32>
  %20 = arith.cmpi sgt, %19, %cst : vector<16xi32>
  vector.maskedstore %alloca[%c0], %20, %cst_0 : memref<16xf32>, vector<16xi1>, vector<16xf32>
  %21 = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%9, %13]
  vector.maskedstore %assume_align_2[%21], %20, %cst_1 : memref<?xi32>, vector<16xi1>, vector<16xi32>
  %22 = arith.addi %13, %9 : index
  cf.br ^bb3(%c0 : index)
^bb3(%23: index):  // 2 preds: ^bb2, ^bb7
  %24 = arith.cmpi slt, %23, %c48 : index
  cf.cond_br %24, ^bb4, ^bb8
^bb4:  // pred: ^bb3
  %25 = arith.index_cast %23 : index to i32
  cf.br ^bb5(%c0 : index)
^bb5(%26: index):  // 2 preds: ^bb4, ^bb6
  %27 = arith.cmpi slt, %26, %16 : index
  cf.cond_br %27, ^bb6, ^bb7
^bb6:  // pred: ^bb5
  %28 = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%22, %26]
  %29 = memref.load %assume_align[%23, %28] : memref<48x?xf32>
  %30 = memref.load %alloca[%26] : memref<16xf32>
  %31 = affine.apply affine_map<()[s0, s1, s2] -> (s0 + s1 + s2)>()[%9, %13, %26]
  %32 = memref.load %assume_align_2[%31] : memref<?xi32>
  %33 = arith.cmpf ogt, %29, %30 : f32
  %34 = arith.select %33, %29, %30 : f32
  %35 = arith.select %33, %25, %32 : i32
  memref.store %34, %alloca[%26] : memref<16xf32>
  memref.store %35, %assume_align_2[%31] : memref<?xi32>
  %36 = arith.addi %26, %c1 : index
  cf.br ^bb5(%36 : index)
^bb7:  // pred: ^bb5
  %37 = arith.addi %23, %c1 : index
  cf.br ^bb3(%37 : index)
^bb8:  // pred: ^bb3
  %38 = arith.addi %13, %c16 : index
  cf.br ^bb1(%38 : index)
^bb9:  // pred: ^bb1
  return
}
