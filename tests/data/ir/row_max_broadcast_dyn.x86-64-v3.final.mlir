func.func @main_dispatch_0_elementwise_broadcast_DxD_i32() {
  %c-32 = arith.constant -32 : index
  %c32 = arith.constant 32 : index
  %0 = ub.poison : vector<8xi32>
  %1 = ub.poison : vector<2xi32>
  %c2147483647 = arith.constant 2147483647 : index
  %cst = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi32>
  %c-2147483648_i32 = arith.constant -2147483648 : i32
  %c0 = arith.constant 0 : index
  %c32_i64 = arith.constant 32 : i64
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %alloca = memref.alloca() alignment = 64 : memref<8xi32>
  %2 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
  %3 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
  %4 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(2) : i32
  %5 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(3) : i32
  %6 = arith.extui %2 : i32 to i64
  %7 = arith.extui %3 : i32 to i64
  %8 = arith.shli %7, %c32_i64 : i64
  %9 = arith.ori %6, %8 : i64
  %10 = arith.index_castui %9 : i64 to index
  %11 = arith.extui %4 : i32 to i64
  %12 = arith.extui %5 : i32 to i64
  %13 = arith.shli %12, %c32_i64 : i64
  %14 = arith.ori %11, %13 : i64
  %15 = arith.index_castui %14 : i64 to index
  %16 = hal.interface.binding.subspan layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x2xi32>{%15}
  %assume_align = memref.assume_alignment %16, 64 : memref<?x2xi32>
  %17 = hal.interface.binding.subspan layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<?x?xi32>{%10, %15}
  %assume_align_0 = memref.assume_alignment %17, 64 : memref<?x?xi32>
  %workgroup_id_x = hal.interface.workgroup.id[0] : index
  %18 = arith.muli %workgroup_id_x, %c32 overflow<nsw> : index
  %19 = arith.muli %workgroup_id_x, %c-32 overflow<nsw> : index
  %20 = arith.addi %19, %15 : index
  %21 = arith.minsi %20, %c32 : index
  cf.br ^bb1(%c0 : index)
^bb1(%22: index):  // 2 preds: ^bb0, ^bb7
  %23 = arith.cmpi slt, %22, %21 : index
  cf.cond_br %23, ^bb2, ^bb8
^bb2:  // pred: ^bb1
  %24 = arith.subi %21, %22 : index
  %25 = arith.minsi %24, %c8 : index
  %26 = arith.minsi %25, %c2147483647 : index
  %27 = arith.index_cast %26 : index to i32
  %28 = vector.broadcast %27 : i32 to vector<8xi32>
  %29 = arith.cmpi sgt, %28, %cst : vector<8xi32>
  %30 = arith.addi %22, %18 : index
  %31 = vector.create_mask %25, %c2 : vector<8x2xi1>
  %32 = vector.extract %31[0] : vector<2xi1> from vector<8x2xi1>
  %33 = vector.maskedload %assume_align[%30, %c0], %32, %1 : memref<?x2xi32>, vector<2xi1>, vector<2xi32> into vector<2xi32>
  %34 = vector.extract %31[1] : vector<2xi1> from vector<8x2xi1>
  %35 = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%30]
  %36 = vector.maskedload %assume_align[%35, %c0], %34, %1 : memref<?x2xi32>, vector<2xi1>, vector<2xi32> into vector<2xi32>
  %37 = vector.extract %31[2] : vector<2xi1> from vector<8x2xi1>
  %38 = affine.apply affine_map<()[s0] -> (s0 + 2)>()[%30]
  %39 = vector.maskedload %assume_align[%38, %c0], %37, %1 : memref<?x2xi32>, vector<2xi1>, vector<2xi32> into vector<2xi32>
  %40 = vector.extract %31[3] : vector<2xi1> from vector<8x2xi1>
  %41 = affine.apply affine_map<()[s0] -> (s0 + 3)>()[%30]
  %42 = vector.maskedload %assume_align[%41, %c0], %40, %1 : memref<?x2xi32>, vector<2xi1>, vector<2xi32> into vector<2xi32>
  %43 = vector.extract %31[4] : vector<2xi1> from vector<8x2xi1>
  %44 = affine.apply affine_map<()[s0] -> (s0 + 4)>()[%30]
  %45 = vector.maskedload %assume_align[%44, %c0], %43, %1 : memref<?x2xi32>, vector<2xi1>, vector<2xi32> into vector<2xi32>
  %46 = vector.extract %31[5] : vector<2xi1> from vector<8x2xi1>
  %47 = affine.apply affine_map<()[s0] -> (s0 + 5)>()[%30]
  %48 = vector.maskedload %assume_align[%47, %c0], %46, %1 : memref<?x2xi32>, vector<2xi1>, vector<2xi32> into vector<2xi32>
  %49 = vector.extract %31[6] : vector<2xi1> from vector<8x2xi1>
  %50 = affine.apply affine_map<()[s0] -> (s0 + 6)>()[%30]
  %51 = vector.maskedload %assume_align[%50, %c0], %49, %1 : memref<?x2xi32>, vector<2xi1>, vector<2xi32> into vector<2xi32>
  %52 = vector.extract %31[7] : vector<2xi1> from vector<8x2xi1>
  %53 = affine.apply affine_map<()[s0] -> (s0 + 7)>()[%30]
  %54 = vector.maskedload %assume_align[%53, %c0], %52, %1 : memref<?x2xi32>, vector<2xi1>, vector<2xi32> into vector<2xi32>
  %55 = vector.mask %32 { vector.reduction <maxsi>, %33, %c-2147483648_i32 : vector<2xi32> into i32 } : vector<2xi1> -> i32
  %56 = vector.mask %34 { vector.reduction <maxsi>, %36, %c-2147483648_i32 : vector<2xi32> into i32 } : vector<2xi1> -> i32
  %57 = vector.mask %37 { vector.reduction <maxsi>, %39, %c-2147483648_i32 : vector<2xi32> into i32 } : vector<2xi1> -> i32
  %58 = vector.mask %40 { vector.reduction <maxsi>, %42, %c-2147483648_i32 : vector<2xi32> into i32 } : vector<2xi1> -> i32
  %59 = vector.mask %43 { vector.reduction <maxsi>, %45, %c-2147483648_i32 : vector<2xi32> into i32 } : vector<2xi1> -> i32
  %60 = vector.mask %46 { vector.reduction <maxsi>, %48, %c-2147483648_i32 : vector<2xi32> into i32 } : vector<2xi1> -> i32
  %61 = vector.mask %49 { vector.reduction <maxsi>, %51, %c-2147483648_i32 : vector<2xi32> into i32 } : vector<2xi1> -> i32
  %62 = vector.mask %52 { vector.reduction <maxsi>, %54, %c-2147483648_i32 : vector<2xi32> into i32 } : vector<2xi1> -> i32
  %63 = vector.from_elements %55, %56, %57, %58, %59, %60, %61, %62 : vector<8xi32>
  vector.maskedstore %alloca[%c0], %29, %63 : memref<8xi32>, vector<8xi1>, vector<8xi32>
  cf.br ^bb3(%c0 : index)
^bb3(%64: index):  // 2 preds: ^bb2, ^bb6
  %65 = arith.cmpi slt, %64, %10 : index
  cf.cond_br %65, ^bb4, ^bb7
^bb4:  // pred: ^bb3
  %66 = arith.cmpi sgt, %25, %c0 : index
  cf.cond_br %66, ^bb5, ^bb6
^bb5:  // pred: ^bb4
  %67 = vector.maskedload %alloca[%c0], %29, %0 : memref<8xi32>, vector<8xi1>, vector<8xi32> into vector<8xi32>
  %68 = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%18, %22]
  vector.maskedstore %assume_align_0[%64, %68], %29, %67 : memref<?x?xi32>, vector<8xi1>, vector<8xi32>
  cf.br ^bb6
^bb6:  // 2 preds: ^bb4, ^bb5
  %69 = arith.addi %64, %c1 : index
  cf.br ^bb3(%69 : index)
^bb7:  // pred: ^bb3
  %70 = arith.addi %22, %c8 : index
  cf.br ^bb1(%70 : index)
^bb8:  // pred: ^bb1
  return
}
