// Handwritten: a static 16xf32 alloca inside an scf.for body (one stack slot per iteration).
func.func @alloca_in_loop(%n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.alloca() : memref<16xf32>
    memref.store %v, %a[%c0] : memref<16xf32>
  }
  return
}
