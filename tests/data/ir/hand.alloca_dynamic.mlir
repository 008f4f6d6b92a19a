// Handwritten: a dynamically sized alloca (memref.alloca(%n)).
func.func @alloca_dynamic(%n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloca(%n) : memref<?xf32>
  memref.store %v, %a[%c0] : memref<?xf32>
  return
}
