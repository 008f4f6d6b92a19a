// Recorded from iree-compile 3.13.0, --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host (znver5): 33x16x49 fill->matmul->exp, IR before iree-convert-to-llvm
module {
  func.func @fill_matmul_exp_dispatch_0_matmul_33x49x16_f32() {
    %cst = arith.constant dense<127> : vector<3x7xi32>
    %cst_0 = arith.constant dense<23> : vector<3x7xi32>
    %cst_1 = arith.constant dense<1.270000e+02> : vector<3x7xf32>
    %cst_2 = arith.constant dense<-1.270000e+02> : vector<3x7xf32>
    %cst_3 = arith.constant dense<8.880000e+01> : vector<3x7xf32>
    %cst_4 = arith.constant dense<-8.780000e+01> : vector<3x7xf32>
    %cst_5 = arith.constant dense<0.166666657> : vector<3x7xf32>
    %cst_6 = arith.constant dense<0.0416657962> : vector<3x7xf32>
    %cst_7 = arith.constant dense<0.00833345205> : vector<3x7xf32>
    %cst_8 = arith.constant dense<0.00139819994> : vector<3x7xf32>
    %cst_9 = arith.constant dense<1.98756912E-4> : vector<3x7xf32>
    %cst_10 = arith.constant dense<2.12194442E-4> : vector<3x7xf32>
    %cst_11 = arith.constant dense<-0.693359375> : vector<3x7xf32>
    %cst_12 = arith.constant dense<1.44269502> : vector<3x7xf32>
    %cst_13 = arith.constant dense<1.000000e+00> : vector<3x7xf32>
    %cst_14 = arith.constant dense<5.000000e-01> : vector<3x7xf32>
    %c-8 = arith.constant -8 : index
    %c33 = arith.constant 33 : index
    %0 = ub.poison : vector<7xf32>
    %c15 = arith.constant 15 : index
    %c14 = arith.constant 14 : index
    %c13 = arith.constant 13 : index
    %c12 = arith.constant 12 : index
    %c11 = arith.constant 11 : index
    %c10 = arith.constant 10 : index
    %c9 = arith.constant 9 : index
    %c8 = arith.constant 8 : index
    %c6 = arith.constant 6 : index
    %c5 = arith.constant 5 : index
    %c4 = arith.constant 4 : index
    %1 = ub.poison : vector<16xf32>
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %cst_15 = arith.constant dense<0.000000e+00> : vector<7xf32>
    %c0 = arith.constant 0 : index
    %c49 = arith.constant 49 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %c16 = arith.constant 16 : index
    %alloca = memref.alloca() alignment = 64 : memref<3x7xf32>
    %alloca_16 = memref.alloca() alignment = 64 : memref<3x7xf32>
    %alloca_17 = memref.alloca() alignment = 64 : memref<3x7xf32>
    %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<33x16xf32>
    %assume_align = memref.assume_alignment %2, 64 : memref<33x16xf32>
    %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x49xf32>
    %assume_align_18 = memref.assume_alignment %3, 64 : memref<16x49xf32>
    %4 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<33x49xf32>
    %assume_align_19 = memref.assume_alignment %4, 64 : memref<33x49xf32>
    %workgroup_id_x = hal.interface.workgroup.id[0] : index
    %5 = arith.muli %workgroup_id_x, %c8 overflow<nsw> : index
    %6 = arith.muli %workgroup_id_x, %c-8 overflow<nsw> : index
    %7 = arith.addi %6, %c33 : index
    %8 = arith.minsi %7, %c8 : index
    cf.br ^bb1(%c0 : index)
  ^bb1(%9: index):  // 2 preds: ^bb0, ^bb21
    %10 = arith.cmpi slt, %9, %8 : index
    cf.cond_br %10, ^bb2, ^bb22
  ^bb2:  // pred: ^bb1
    %11 = arith.subi %8, %9 : index
    %12 = arith.minsi %11, %c3 : index
    %13 = vector.create_mask %12, %c7 : vector<3x7xi1>
    %14 = vector.extract %13[0] : vector<7xi1> from vector<3x7xi1>
    vector.maskedstore %alloca_17[%c0, %c0], %14, %cst_15 : memref<3x7xf32>, vector<7xi1>, vector<7xf32>
    %15 = vector.extract %13[1] : vector<7xi1> from vector<3x7xi1>
    vector.maskedstore %alloca_17[%c1, %c0], %15, %cst_15 : memref<3x7xf32>, vector<7xi1>, vector<7xf32>
    %16 = vector.extract %13[2] : vector<7xi1> from vector<3x7xi1>
    vector.maskedstore %alloca_17[%c2, %c0], %16, %cst_15 : memref<3x7xf32>, vector<7xi1>, vector<7xf32>
    %17 = arith.addi %9, %5 : index
    %18 = vector.create_mask %12, %c16 : vector<3x16xi1>
    %19 = vector.extract %18[0] : vector<16xi1> from vector<3x16xi1>
    %20 = vector.maskedload %assume_align[%17, %c0], %19, %1 : memref<33x16xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
    %21 = vector.extract %18[1] : vector<16xi1> from vector<3x16xi1>
    %22 = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%17]
    %23 = vector.maskedload %assume_align[%22, %c0], %21, %1 : memref<33x16xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
    %24 = vector.extract %18[2] : vector<16xi1> from vector<3x16xi1>
    %25 = affine.apply affine_map<()[s0] -> (s0 + 2)>()[%17]
    %26 = vector.maskedload %assume_align[%25, %c0], %24, %1 : memref<33x16xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
    cf.br ^bb3(%c0 : index)
  ^bb3(%27: index):  // 2 preds: ^bb2, ^bb20
    %28 = arith.cmpi slt, %27, %c49 : index
    cf.cond_br %28, ^bb4, ^bb21
  ^bb4:  // pred: ^bb3
    %29 = vector.load %assume_align_18[%c0, %27] : memref<16x49xf32>, vector<7xf32>
    %30 = vector.load %assume_align_18[%c1, %27] : memref<16x49xf32>, vector<7xf32>
    %31 = vector.load %assume_align_18[%c2, %27] : memref<16x49xf32>, vector<7xf32>
    %32 = vector.load %assume_align_18[%c3, %27] : memref<16x49xf32>, vector<7xf32>
    %33 = vector.load %assume_align_18[%c4, %27] : memref<16x49xf32>, vector<7xf32>
    %34 = vector.load %assume_align_18[%c5, %27] : memref<16x49xf32>, vector<7xf32>
    %35 = vector.load %assume_align_18[%c6, %27] : memref<16x49xf32>, vector<7xf32>
    %36 = vector.load %assume_align_18[%c7, %27] : memref<16x49xf32>, vector<7xf32>
    %37 = vector.load %assume_align_18[%c8, %27] : memref<16x49xf32>, vector<7xf32>
    %38 = vector.load %assume_align_18[%c9, %27] : memref<16x49xf32>, vector<7xf32>
    %39 = vector.load %assume_align_18[%c10, %27] : memref<16x49xf32>, vector<7xf32>
    %40 = vector.load %assume_align_18[%c11, %27] : memref<16x49xf32>, vector<7xf32>
    %41 = vector.load %assume_align_18[%c12, %27] : memref<16x49xf32>, vector<7xf32>
    %42 = vector.load %assume_align_18[%c13, %27] : memref<16x49xf32>, vector<7xf32>
    %43 = vector.load %assume_align_18[%c14, %27] : memref<16x49xf32>, vector<7xf32>
    %44 = vector.load %assume_align_18[%c15, %27] : memref<16x49xf32>, vector<7xf32>
    %45 = vector.create_mask %c16, %12, %c7 : vector<16x3x7xi1>
    %46 = vector.extract %20[0] : f32 from vector<16xf32>
    %47 = vector.broadcast %46 : f32 to vector<7xf32>
    %48 = vector.extract %45[0, 0] : vector<7xi1> from vector<16x3x7xi1>
    %49 = vector.fma %47, %29, %cst_15 : vector<7xf32>
    %50 = arith.select %48, %49, %cst_15 : vector<7xi1>, vector<7xf32>
    %51 = vector.extract %23[0] : f32 from vector<16xf32>
    %52 = vector.broadcast %51 : f32 to vector<7xf32>
    %53 = vector.extract %45[0, 1] : vector<7xi1> from vector<16x3x7xi1>
    %54 = vector.fma %52, %29, %cst_15 : vector<7xf32>
    %55 = arith.select %53, %54, %cst_15 : vector<7xi1>, vector<7xf32>
    %56 = vector.extract %26[0] : f32 from vector<16xf32>
    %57 = vector.broadcast %56 : f32 to vector<7xf32>
    %58 = vector.extract %45[0, 2] : vector<7xi1> from vector<16x3x7xi1>
    %59 = vector.fma %57, %29, %cst_15 : vector<7xf32>
    %60 = arith.select %58, %59, %cst_15 : vector<7xi1>, vector<7xf32>
    %61 = vector.extract %20[1] : f32 from vector<16xf32>
    %62 = vector.broadcast %61 : f32 to vector<7xf32>
    %63 = vector.extract %45[1, 0] : vector<7xi1> from vector<16x3x7xi1>
    %64 = vector.fma %62, %30, %50 : vector<7xf32>
    %65 = arith.select %63, %64, %50 : vector<7xi1>, vector<7xf32>
    %66 = vector.extract %23[1] : f32 from vector<16xf32>
    %67 = vector.broadcast %66 : f32 to vector<7xf32>
    %68 = vector.extract %45[1, 1] : vector<7xi1> from vector<16x3x7xi1>
    %69 = vector.fma %67, %30, %55 : vector<7xf32>
    %70 = arith.select %68, %69, %55 : vector<7xi1>, vector<7xf32>
    %71 = vector.extract %26[1] : f32 from vector<16xf32>
    %72 = vector.broadcast %71 : f32 to vector<7xf32>
    %73 = vector.extract %45[1, 2] : vector<7xi1> from vector<16x3x7xi1>
    %74 = vector.fma %72, %30, %60 : vector<7xf32>
    %75 = arith.select %73, %74, %60 : vector<7xi1>, vector<7xf32>
    %76 = vector.extract %20[2] : f32 from vector<16xf32>
    %77 = vector.broadcast %76 : f32 to vector<7xf32>
    %78 = vector.extract %45[2, 0] : vector<7xi1> from vector<16x3x7xi1>
    %79 = vector.fma %77, %31, %65 : vector<7xf32>
    %80 = arith.select %78, %79, %65 : vector<7xi1>, vector<7xf32>
    %81 = vector.extract %23[2] : f32 from vector<16xf32>
    %82 = vector.broadcast %81 : f32 to vector<7xf32>
    %83 = vector.extract %45[2, 1] : vector<7xi1> from vector<16x3x7xi1>
    %84 = vector.fma %82, %31, %70 : vector<7xf32>
    %85 = arith.select %83, %84, %70 : vector<7xi1>, vector<7xf32>
    %86 = vector.extract %26[2] : f32 from vector<16xf32>
    %87 = vector.broadcast %86 : f32 to vector<7xf32>
    %88 = vector.extract %45[2, 2] : vector<7xi1> from vector<16x3x7xi1>
    %89 = vector.fma %87, %31, %75 : vector<7xf32>
    %90 = arith.select %88, %89, %75 : vector<7xi1>, vector<7xf32>
    %91 = vector.extract %20[3] : f32 from vector<16xf32>
    %92 = vector.broadcast %91 : f32 to vector<7xf32>
    %93 = vector.extract %45[3, 0] : vector<7xi1> from vector<16x3x7xi1>
    %94 = vector.fma %92, %32, %80 : vector<7xf32>
    %95 = arith.select %93, %94, %80 : vector<7xi1>, vector<7xf32>
    %96 = vector.extract %23[3] : f32 from vector<16xf32>
    %97 = vector.broadcast %96 : f32 to vector<7xf32>
    %98 = vector.extract %45[3, 1] : vector<7xi1> from vector<16x3x7xi1>
    %99 = vector.fma %97, %32, %85 : vector<7xf32>
    %100 = arith.select %98, %99, %85 : vector<7xi1>, vector<7xf32>
    %101 = vector.extract %26[3] : f32 from vector<16xf32>
    %102 = vector.broadcast %101 : f32 to vector<7xf32>
    %103 = vector.extract %45[3, 2] : vector<7xi1> from vector<16x3x7xi1>
    %104 = vector.fma %102, %32, %90 : vector<7xf32>
    %105 = arith.select %103, %104, %90 : vector<7xi1>, vector<7xf32>
    %106 = vector.extract %20[4] : f32 from vector<16xf32>
    %107 = vector.broadcast %106 : f32 to vector<7xf32>
    %108 = vector.extract %45[4, 0] : vector<7xi1> from vector<16x3x7xi1>
    %109 = vector.fma %107, %33, %95 : vector<7xf32>
    %110 = arith.select %108, %109, %95 : vector<7xi1>, vector<7xf32>
    %111 = vector.extract %23[4] : f32 from vector<16xf32>
    %112 = vector.broadcast %111 : f32 to vector<7xf32>
    %113 = vector.extract %45[4, 1] : vector<7xi1> from vector<16x3x7xi1>
    %114 = vector.fma %112, %33, %100 : vector<7xf32>
    %115 = arith.select %113, %114, %100 : vector<7xi1>, vector<7xf32>
    %116 = vector.extract %26[4] : f32 from vector<16xf32>
    %117 = vector.broadcast %116 : f32 to vector<7xf32>
    %118 = vector.extract %45[4, 2] : vector<7xi1> from vector<16x3x7xi1>
    %119 = vector.fma %117, %33, %105 : vector<7xf32>
    %120 = arith.select %118, %119, %105 : vector<7xi1>, vector<7xf32>
    %121 = vector.extract %20[5] : f32 from vector<16xf32>
    %122 = vector.broadcast %121 : f32 to vector<7xf32>
    %123 = vector.extract %45[5, 0] : vector<7xi1> from vector<16x3x7xi1>
    %124 = vector.fma %122, %34, %110 : vector<7xf32>
    %125 = arith.select %123, %124, %110 : vector<7xi1>, vector<7xf32>
    %126 = vector.extract %23[5] : f32 from vector<16xf32>
    %127 = vector.broadcast %126 : f32 to vector<7xf32>
    %128 = vector.extract %45[5, 1] : vector<7xi1> from vector<16x3x7xi1>
    %129 = vector.fma %127, %34, %115 : vector<7xf32>
    %130 = arith.select %128, %129, %115 : vector<7xi1>, vector<7xf32>
    %131 = vector.extract %26[5] : f32 from vector<16xf32>
    %132 = vector.broadcast %131 : f32 to vector<7xf32>
    %133 = vector.extract %45[5, 2] : vector<7xi1> from vector<16x3x7xi1>
    %134 = vector.fma %132, %34, %120 : vector<7xf32>
    %135 = arith.select %133, %134, %120 : vector<7xi1>, vector<7xf32>
    %136 = vector.extract %20[6] : f32 from vector<16xf32>
    %137 = vector.broadcast %136 : f32 to vector<7xf32>
    %138 = vector.extract %45[6, 0] : vector<7xi1> from vector<16x3x7xi1>
    %139 = vector.fma %137, %35, %125 : vector<7xf32>
    %140 = arith.select %138, %139, %125 : vector<7xi1>, vector<7xf32>
    %141 = vector.extract %23[6] : f32 from vector<16xf32>
    %142 = vector.broadcast %141 : f32 to vector<7xf32>
    %143 = vector.extract %45[6, 1] : vector<7xi1> from vector<16x3x7xi1>
    %144 = vector.fma %142, %35, %130 : vector<7xf32>
    %145 = arith.select %143, %144, %130 : vector<7xi1>, vector<7xf32>
    %146 = vector.extract %26[6] : f32 from vector<16xf32>
    %147 = vector.broadcast %146 : f32 to vector<7xf32>
    %148 = vector.extract %45[6, 2] : vector<7xi1> from vector<16x3x7xi1>
    %149 = vector.fma %147, %35, %135 : vector<7xf32>
    %150 = arith.select %148, %149, %135 : vector<7xi1>, vector<7xf32>
    %151 = vector.extract %20[7] : f32 from vector<16xf32>
    %152 = vector.broadcast %151 : f32 to vector<7xf32>
    %153 = vector.extract %45[7, 0] : vector<7xi1> from vector<16x3x7xi1>
    %154 = vector.fma %152, %36, %140 : vector<7xf32>
    %155 = arith.select %153, %154, %140 : vector<7xi1>, vector<7xf32>
    %156 = vector.extract %23[7] : f32 from vector<16xf32>
    %157 = vector.broadcast %156 : f32 to vector<7xf32>
    %158 = vector.extract %45[7, 1] : vector<7xi1> from vector<16x3x7xi1>
    %159 = vector.fma %157, %36, %145 : vector<7xf32>
    %160 = arith.select %158, %159, %145 : vector<7xi1>, vector<7xf32>
    %161 = vector.extract %26[7] : f32 from vector<16xf32>
    %162 = vector.broadcast %161 : f32 to vector<7xf32>
    %163 = vector.extract %45[7, 2] : vector<7xi1> from vector<16x3x7xi1>
    %164 = vector.fma %162, %36, %150 : vector<7xf32>
    %165 = arith.select %163, %164, %150 : vector<7xi1>, vector<7xf32>
    %166 = vector.extract %20[8] : f32 from vector<16xf32>
    %167 = vector.broadcast %166 : f32 to vector<7xf32>
    %168 = vector.extract %45[8, 0] : vector<7xi1> from vector<16x3x7xi1>
    %169 = vector.fma %167, %37, %155 : vector<7xf32>
    %170 = arith.select %168, %169, %155 : vector<7xi1>, vector<7xf32>
    %171 = vector.extract %23[8] : f32 from vector<16xf32>
    %172 = vector.broadcast %171 : f32 to vector<7xf32>
    %173 = vector.extract %45[8, 1] : vector<7xi1> from vector<16x3x7xi1>
    %174 = vector.fma %172, %37, %160 : vector<7xf32>
    %175 = arith.select %173, %174, %160 : vector<7xi1>, vector<7xf32>
    %176 = vector.extract %26[8] : f32 from vector<16xf32>
    %177 = vector.broadcast %176 : f32 to vector<7xf32>
    %178 = vector.extract %45[8, 2] : vector<7xi1> from vector<16x3x7xi1>
    %179 = vector.fma %177, %37, %165 : vector<7xf32>
    %180 = arith.select %178, %179, %165 : vector<7xi1>, vector<7xf32>
    %181 = vector.extract %20[9] : f32 from vector<16xf32>
    %182 = vector.broadcast %181 : f32 to vector<7xf32>
    %183 = vector.extract %45[9, 0] : vector<7xi1> from vector<16x3x7xi1>
    %184 = vector.fma %182, %38, %170 : vector<7xf32>
    %185 = arith.select %183, %184, %170 : vector<7xi1>, vector<7xf32>
    %186 = vector.extract %23[9] : f32 from vector<16xf32>
    %187 = vector.broadcast %186 : f32 to vector<7xf32>
    %188 = vector.extract %45[9, 1] : vector<7xi1> from vector<16x3x7xi1>
    %189 = vector.fma %187, %38, %175 : vector<7xf32>
    %190 = arith.select %188, %189, %175 : vector<7xi1>, vector<7xf32>
    %191 = vector.extract %26[9] : f32 from vector<16xf32>
    %192 = vector.broadcast %191 : f32 to vector<7xf32>
    %193 = vector.extract %45[9, 2] : vector<7xi1> from vector<16x3x7xi1>
    %194 = vector.fma %192, %38, %180 : vector<7xf32>
    %195 = arith.select %193, %194, %180 : vector<7xi1>, vector<7xf32>
    %196 = vector.extract %20[10] : f32 from vector<16xf32>
    %197 = vector.broadcast %196 : f32 to vector<7xf32>
    %198 = vector.extract %45[10, 0] : vector<7xi1> from vector<16x3x7xi1>
    %199 = vector.fma %197, %39, %185 : vector<7xf32>
    %200 = arith.select %198, %199, %185 : vector<7xi1>, vector<7xf32>
    %201 = vector.extract %23[10] : f32 from vector<16xf32>
    %202 = vector.broadcast %201 : f32 to vector<7xf32>
    %203 = vector.extract %45[10, 1] : vector<7xi1> from vector<16x3x7xi1>
    %204 = vector.fma %202, %39, %190 : vector<7xf32>
    %205 = arith.select %203, %204, %190 : vector<7xi1>, vector<7xf32>
    %206 = vector.extract %26[10] : f32 from vector<16xf32>
    %207 = vector.broadcast %206 : f32 to vector<7xf32>
    %208 = vector.extract %45[10, 2] : vector<7xi1> from vector<16x3x7xi1>
    %209 = vector.fma %207, %39, %195 : vector<7xf32>
    %210 = arith.select %208, %209, %195 : vector<7xi1>, vector<7xf32>
    %211 = vector.extract %20[11] : f32 from vector<16xf32>
    %212 = vector.broadcast %211 : f32 to vector<7xf32>
    %213 = vector.extract %45[11, 0] : vector<7xi1> from vector<16x3x7xi1>
    %214 = vector.fma %212, %40, %200 : vector<7xf32>
    %215 = arith.select %213, %214, %200 : vector<7xi1>, vector<7xf32>
    %216 = vector.extract %23[11] : f32 from vector<16xf32>
    %217 = vector.broadcast %216 : f32 to vector<7xf32>
    %218 = vector.extract %45[11, 1] : vector<7xi1> from vector<16x3x7xi1>
    %219 = vector.fma %217, %40, %205 : vector<7xf32>
    %220 = arith.select %218, %219, %205 : vector<7xi1>, vector<7xf32>
    %221 = vector.extract %26[11] : f32 from vector<16xf32>
    %222 = vector.broadcast %221 : f32 to vector<7xf32>
    %223 = vector.extract %45[11, 2] : vector<7xi1> from vector<16x3x7xi1>
    %224 = vector.fma %222, %40, %210 : vector<7xf32>
    %225 = arith.select %223, %224, %210 : vector<7xi1>, vector<7xf32>
    %226 = vector.extract %20[12] : f32 from vector<16xf32>
    %227 = vector.broadcast %226 : f32 to vector<7xf32>
    %228 = vector.extract %45[12, 0] : vector<7xi1> from vector<16x3x7xi1>
    %229 = vector.fma %227, %41, %215 : vector<7xf32>
    %230 = arith.select %228, %229, %215 : vector<7xi1>, vector<7xf32>
    %231 = vector.extract %23[12] : f32 from vector<16xf32>
    %232 = vector.broadcast %231 : f32 to vector<7xf32>
    %233 = vector.extract %45[12, 1] : vector<7xi1> from vector<16x3x7xi1>
    %234 = vector.fma %232, %41, %220 : vector<7xf32>
    %235 = arith.select %233, %234, %220 : vector<7xi1>, vector<7xf32>
    %236 = vector.extract %26[12] : f32 from vector<16xf32>
    %237 = vector.broadcast %236 : f32 to vector<7xf32>
    %238 = vector.extract %45[12, 2] : vector<7xi1> from vector<16x3x7xi1>
    %239 = vector.fma %237, %41, %225 : vector<7xf32>
    %240 = arith.select %238, %239, %225 : vector<7xi1>, vector<7xf32>
    %241 = vector.extract %20[13] : f32 from vector<16xf32>
    %242 = vector.broadcast %241 : f32 to vector<7xf32>
    %243 = vector.extract %45[13, 0] : vector<7xi1> from vector<16x3x7xi1>
    %244 = vector.fma %242, %42, %230 : vector<7xf32>
    %245 = arith.select %243, %244, %230 : vector<7xi1>, vector<7xf32>
    %246 = vector.extract %23[13] : f32 from vector<16xf32>
    %247 = vector.broadcast %246 : f32 to vector<7xf32>
    %248 = vector.extract %45[13, 1] : vector<7xi1> from vector<16x3x7xi1>
    %249 = vector.fma %247, %42, %235 : vector<7xf32>
    %250 = arith.select %248, %249, %235 : vector<7xi1>, vector<7xf32>
    %251 = vector.extract %26[13] : f32 from vector<16xf32>
    %252 = vector.broadcast %251 : f32 to vector<7xf32>
    %253 = vector.extract %45[13, 2] : vector<7xi1> from vector<16x3x7xi1>
    %254 = vector.fma %252, %42, %240 : vector<7xf32>
    %255 = arith.select %253, %254, %240 : vector<7xi1>, vector<7xf32>
    %256 = vector.extract %20[14] : f32 from vector<16xf32>
    %257 = vector.broadcast %256 : f32 to vector<7xf32>
    %258 = vector.extract %45[14, 0] : vector<7xi1> from vector<16x3x7xi1>
    %259 = vector.fma %257, %43, %245 : vector<7xf32>
    %260 = arith.select %258, %259, %245 : vector<7xi1>, vector<7xf32>
    %261 = vector.extract %23[14] : f32 from vector<16xf32>
    %262 = vector.broadcast %261 : f32 to vector<7xf32>
    %263 = vector.extract %45[14, 1] : vector<7xi1> from vector<16x3x7xi1>
    %264 = vector.fma %262, %43, %250 : vector<7xf32>
    %265 = arith.select %263, %264, %250 : vector<7xi1>, vector<7xf32>
    %266 = vector.extract %26[14] : f32 from vector<16xf32>
    %267 = vector.broadcast %266 : f32 to vector<7xf32>
    %268 = vector.extract %45[14, 2] : vector<7xi1> from vector<16x3x7xi1>
    %269 = vector.fma %267, %43, %255 : vector<7xf32>
    %270 = arith.select %268, %269, %255 : vector<7xi1>, vector<7xf32>
    %271 = vector.extract %20[15] : f32 from vector<16xf32>
    %272 = vector.broadcast %271 : f32 to vector<7xf32>
    %273 = vector.extract %45[15, 0] : vector<7xi1> from vector<16x3x7xi1>
    %274 = vector.fma %272, %44, %260 : vector<7xf32>
    %275 = arith.select %273, %274, %260 : vector<7xi1>, vector<7xf32>
    %276 = vector.extract %23[15] : f32 from vector<16xf32>
    %277 = vector.broadcast %276 : f32 to vector<7xf32>
    %278 = vector.extract %45[15, 1] : vector<7xi1> from vector<16x3x7xi1>
    %279 = vector.fma %277, %44, %265 : vector<7xf32>
    %280 = arith.select %278, %279, %265 : vector<7xi1>, vector<7xf32>
    %281 = vector.extract %26[15] : f32 from vector<16xf32>
    %282 = vector.broadcast %281 : f32 to vector<7xf32>
    %283 = vector.extract %45[15, 2] : vector<7xi1> from vector<16x3x7xi1>
    %284 = vector.fma %282, %44, %270 : vector<7xf32>
    %285 = arith.select %283, %284, %270 : vector<7xi1>, vector<7xf32>
    cf.br ^bb5(%c0 : index)
  ^bb5(%286: index):  // 2 preds: ^bb4, ^bb8
    %287 = arith.cmpi slt, %286, %12 : index
    cf.cond_br %287, ^bb6(%c0 : index), ^bb9
  ^bb6(%288: index):  // 2 preds: ^bb5, ^bb7
    %289 = arith.cmpi slt, %288, %c7 : index
    cf.cond_br %289, ^bb7, ^bb8
  ^bb7:  // pred: ^bb6
    %290 = memref.load %alloca_17[%286, %288] : memref<3x7xf32>
    memref.store %290, %alloca_16[%286, %288] : memref<3x7xf32>
    %291 = arith.addi %288, %c1 : index
    cf.br ^bb6(%291 : index)
  ^bb8:  // pred: ^bb6
    %292 = arith.addi %286, %c1 : index
    cf.br ^bb5(%292 : index)
  ^bb9:  // pred: ^bb5
    vector.maskedstore %alloca_16[%c0, %c0], %14, %275 : memref<3x7xf32>, vector<7xi1>, vector<7xf32>
    vector.maskedstore %alloca_16[%c1, %c0], %15, %280 : memref<3x7xf32>, vector<7xi1>, vector<7xf32>
    vector.maskedstore %alloca_16[%c2, %c0], %16, %285 : memref<3x7xf32>, vector<7xi1>, vector<7xf32>
    cf.br ^bb10(%c0 : index)
  ^bb10(%293: index):  // 2 preds: ^bb9, ^bb13
    %294 = arith.cmpi slt, %293, %12 : index
    cf.cond_br %294, ^bb11(%c0 : index), ^bb14(%c0 : index)
  ^bb11(%295: index):  // 2 preds: ^bb10, ^bb12
    %296 = arith.cmpi slt, %295, %c7 : index
    cf.cond_br %296, ^bb12, ^bb13
  ^bb12:  // pred: ^bb11
    %297 = memref.load %alloca_17[%293, %295] : memref<3x7xf32>
    memref.store %297, %alloca[%293, %295] : memref<3x7xf32>
    %298 = arith.addi %295, %c1 : index
    cf.br ^bb11(%298 : index)
  ^bb13:  // pred: ^bb11
    %299 = arith.addi %293, %c1 : index
    cf.br ^bb10(%299 : index)
  ^bb14(%300: index):  // 2 preds: ^bb10, ^bb17
    %301 = arith.cmpi slt, %300, %12 : index
    cf.cond_br %301, ^bb15(%c0 : index), ^bb18
  ^bb15(%302: index):  // 2 preds: ^bb14, ^bb16
    %303 = arith.cmpi slt, %302, %c7 : index
    cf.cond_br %303, ^bb16, ^bb17
  ^bb16:  // pred: ^bb15
    %304 = memref.load %alloca_16[%300, %302] : memref<3x7xf32>
    memref.store %304, %alloca[%300, %302] : memref<3x7xf32>
    %305 = arith.addi %302, %c1 : index
    cf.br ^bb15(%305 : index)
  ^bb17:  // pred: ^bb15
    %306 = arith.addi %300, %c1 : index
    cf.br ^bb14(%306 : index)
  ^bb18:  // pred: ^bb14
    %307 = arith.cmpi sgt, %12, %c0 : index
    cf.cond_br %307, ^bb19, ^bb20
  ^bb19:  // pred: ^bb18
    %308 = vector.maskedload %alloca[%c0, %c0], %14, %0 : memref<3x7xf32>, vector<7xi1>, vector<7xf32> into vector<7xf32>
    %309 = vector.maskedload %alloca[%c1, %c0], %15, %0 : memref<3x7xf32>, vector<7xi1>, vector<7xf32> into vector<7xf32>
    %310 = vector.maskedload %alloca[%c2, %c0], %16, %0 : memref<3x7xf32>, vector<7xi1>, vector<7xf32> into vector<7xf32>
    %311:7 = vector.to_elements %308 : vector<7xf32>
    %312:7 = vector.to_elements %309 : vector<7xf32>
    %313:7 = vector.to_elements %310 : vector<7xf32>
    %314 = vector.from_elements %311#0, %311#1, %311#2, %311#3, %311#4, %311#5, %311#6, %312#0, %312#1, %312#2, %312#3, %312#4, %312#5, %312#6, %313#0, %313#1, %313#2, %313#3, %313#4, %313#5, %313#6 : vector<3x7xf32>
    %315 = arith.cmpf uge, %314, %cst_4 : vector<3x7xf32>
    %316 = arith.select %315, %314, %cst_4 : vector<3x7xi1>, vector<3x7xf32>
    %317 = arith.cmpf ule, %316, %cst_3 : vector<3x7xf32>
    %318 = arith.select %317, %316, %cst_3 : vector<3x7xi1>, vector<3x7xf32>
    %319 = math.fma %318, %cst_12, %cst_14 : vector<3x7xf32>
    %320 = math.floor %319 : vector<3x7xf32>
    %321 = arith.cmpf uge, %320, %cst_2 : vector<3x7xf32>
    %322 = arith.select %321, %320, %cst_2 : vector<3x7xi1>, vector<3x7xf32>
    %323 = arith.cmpf ule, %322, %cst_1 : vector<3x7xf32>
    %324 = arith.select %323, %322, %cst_1 : vector<3x7xi1>, vector<3x7xf32>
    %325 = math.fma %cst_11, %324, %318 : vector<3x7xf32>
    %326 = math.fma %cst_10, %324, %325 : vector<3x7xf32>
    %327 = math.fma %326, %cst_9, %cst_8 : vector<3x7xf32>
    %328 = math.fma %327, %326, %cst_7 : vector<3x7xf32>
    %329 = math.fma %328, %326, %cst_6 : vector<3x7xf32>
    %330 = math.fma %329, %326, %cst_5 : vector<3x7xf32>
    %331 = math.fma %330, %326, %cst_14 : vector<3x7xf32>
    %332 = arith.mulf %326, %326 : vector<3x7xf32>
    %333 = math.fma %331, %332, %326 : vector<3x7xf32>
    %334 = arith.addf %333, %cst_13 : vector<3x7xf32>
    %335 = arith.fptosi %324 : vector<3x7xf32> to vector<3x7xi32>
    %336 = arith.addi %335, %cst : vector<3x7xi32>
    %337 = arith.shli %336, %cst_0 : vector<3x7xi32>
    %338 = arith.bitcast %337 : vector<3x7xi32> to vector<3x7xf32>
    %339 = arith.mulf %334, %338 : vector<3x7xf32>
    %340 = vector.extract %339[0] : vector<7xf32> from vector<3x7xf32>
    %341 = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%5, %9]
    vector.maskedstore %assume_align_19[%341, %27], %14, %340 : memref<33x49xf32>, vector<7xi1>, vector<7xf32>
    %342 = vector.extract %339[1] : vector<7xf32> from vector<3x7xf32>
    %343 = affine.apply affine_map<()[s0, s1] -> (s0 + s1 + 1)>()[%5, %9]
    vector.maskedstore %assume_align_19[%343, %27], %15, %342 : memref<33x49xf32>, vector<7xi1>, vector<7xf32>
    %344 = vector.extract %339[2] : vector<7xf32> from vector<3x7xf32>
    %345 = affine.apply affine_map<()[s0, s1] -> (s0 + s1 + 2)>()[%5, %9]
    vector.maskedstore %assume_align_19[%345, %27], %16, %344 : memref<33x49xf32>, vector<7xi1>, vector<7xf32>
    cf.br ^bb20
  ^bb20:  // 2 preds: ^bb18, ^bb19
    %346 = arith.addi %27, %c7 : index
    cf.br ^bb3(%346 : index)
  ^bb21:  // pred: ^bb3
    %347 = arith.addi %9, %c3 : index
    cf.br ^bb1(%347 : index)
  ^bb22:  // pred: ^bb1
    return
  }
  iree_codegen.dispatch_config @fill_matmul_exp_dispatch_0_matmul_33x49x16_f32 workgroup_size = [1, 1, 1] {
  ^bb0(%arg0: !hal.device):
    %c5 = arith.constant 5 : index
    %c1 = arith.constant 1 : index
    %c1_0 = arith.constant 1 : index
    iree_codegen.yield %c5, %c1, %c1_0 : index, index, index
  }
}

