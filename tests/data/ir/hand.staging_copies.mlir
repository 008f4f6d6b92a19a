// Handwritten: what makes a copy a defect. %in and %out are bindings, the caller's buffers. A row
// moved from %in to %out is a gather's own job; the same row staged through an alloca (both
// copies, one through reshaped views of it) or a heap alloc is not.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @staging(%row: index, %i: index) {
  %in = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>) binding(0) : memref<31x35xi32>
  %b1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>) binding(1) : memref<13x35xi32>
  %out = memref.assume_alignment %b1, 64 : memref<13x35xi32>
  %src = memref.subview %in[%row, 0] [1, 35] [1, 1] : memref<31x35xi32> to memref<1x35xi32, strided<[35, 1], offset: ?>>
  %dst = memref.subview %out[%i, 0] [1, 35] [1, 1] : memref<13x35xi32> to memref<1x35xi32, strided<[35, 1], offset: ?>>
  %cast = memref.cast %dst : memref<1x35xi32, strided<[35, 1], offset: ?>> to memref<1x35xi32, strided<[35, 1], offset: ?>>
  // between bindings (through views and a cast)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%src : memref<1x35xi32, strided<[35, 1], offset: ?>>) outs(%cast : memref<1x35xi32, strided<[35, 1], offset: ?>>) {
  ^bb0(%a: i32, %b: i32):
    linalg.yield %a : i32
  }
  // staged through an alloca: into it, and out of a reshaped view of it
  %stage = memref.alloca() : memref<1x35xi32>
  memref.copy %src, %stage : memref<1x35xi32, strided<[35, 1], offset: ?>> to memref<1x35xi32>
  %flat = memref.collapse_shape %stage [[0, 1]] : memref<1x35xi32> into memref<35xi32>
  %back = memref.expand_shape %flat [[0, 1]] output_shape [1, 35] : memref<35xi32> into memref<1x35xi32>
  linalg.copy ins(%back : memref<1x35xi32>) outs(%dst : memref<1x35xi32, strided<[35, 1], offset: ?>>)
  // staged through a heap alloc
  %heap = memref.alloc() : memref<1x35xi32>
  memref.copy %heap, %dst : memref<1x35xi32> to memref<1x35xi32, strided<[35, 1], offset: ?>>
  return
}
