// Handwritten: an alloca in a block on a cf.br cycle (the shape loops take before iree-convert-to-llvm).
func.func @alloca_in_cfg_loop(%n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^loop(%c0 : index)
^loop(%i: index):
  %a = memref.alloca() : memref<4xf32>
  memref.store %v, %a[%c0] : memref<4xf32>
  %next = arith.addi %i, %c1 : index
  %more = arith.cmpi slt, %next, %n : index
  cf.cond_br %more, ^loop(%next : index), ^done
^done:
  return
}
