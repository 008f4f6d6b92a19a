// Recorded from iree-compile 3.13.0, --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host (znver5): 32x48 add, IR before iree-convert-to-llvm
module {
  func.func @add_dispatch_0_elementwise_1536_f32() {
    %c16 = arith.constant 16 : index
    %c1536 = arith.constant 1536 : index
    %c0 = arith.constant 0 : index
    %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1536xf32>
    %assume_align = memref.assume_alignment %0, 64 : memref<1536xf32>
    %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1536xf32>
    %assume_align_0 = memref.assume_alignment %1, 64 : memref<1536xf32>
    %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<1536xf32>
    %assume_align_1 = memref.assume_alignment %2, 64 : memref<1536xf32>
    cf.br ^bb1(%c0 : index)
  ^bb1(%3: index):  // 2 preds: ^bb0, ^bb2
    %4 = arith.cmpi slt, %3, %c1536 : index
    cf.cond_br %4, ^bb2, ^bb3
  ^bb2:  // pred: ^bb1
    %5 = vector.load %assume_align[%3] : memref<1536xf32>, vector<16xf32>
    %6 = vector.load %assume_align_0[%3] : memref<1536xf32>, vector<16xf32>
    %7 = arith.addf %5, %6 : vector<16xf32>
    vector.store %7, %assume_align_1[%3] : memref<1536xf32>, vector<16xf32>
    %8 = arith.addi %3, %c16 : index
    cf.br ^bb1(%8 : index)
  ^bb3:  // pred: ^bb1
    return
  }
  iree_codegen.dispatch_config @add_dispatch_0_elementwise_1536_f32 workgroup_size = [1, 1, 1] {
  ^bb0(%arg0: !hal.device):
    %c1 = arith.constant 1 : index
    %c1_0 = arith.constant 1 : index
    %c1_1 = arith.constant 1 : index
    iree_codegen.yield %c1, %c1_0, %c1_1 : index, index, index
  }
}

