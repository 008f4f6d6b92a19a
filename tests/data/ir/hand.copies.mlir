// Handwritten: copies between distinct buffers (memref.copy, linalg.copy, a copy-like
// linalg.generic) next to self-copies that must not count (same value, through a cast, through
// a loop-carried value, identical subviews, a full-view subview). Also a heap memref.alloc.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @copies(%src: memref<8x16xf32>, %dst: memref<8x16xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %heap = memref.alloc() : memref<8x16xf32>
  memref.copy %src, %heap : memref<8x16xf32> to memref<8x16xf32>
  linalg.copy ins(%heap : memref<8x16xf32>) outs(%dst : memref<8x16xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%src : memref<8x16xf32>) outs(%dst : memref<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  // --- self-copies below: none may count
  memref.copy %dst, %dst : memref<8x16xf32> to memref<8x16xf32>
  %cast = memref.cast %dst : memref<8x16xf32> to memref<?x?xf32>
  %cast2 = memref.cast %cast : memref<?x?xf32> to memref<8x16xf32>
  linalg.copy ins(%cast2 : memref<8x16xf32>) outs(%dst : memref<8x16xf32>)
  %sv1 = memref.subview %dst[%c1, 0] [%m, %n] [1, 1] : memref<8x16xf32> to memref<?x?xf32, strided<[16, 1], offset: ?>>
  %sv2 = memref.subview %dst[%c1, 0] [%m, %n] [1, 1] : memref<8x16xf32> to memref<?x?xf32, strided<[16, 1], offset: ?>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%sv1 : memref<?x?xf32, strided<[16, 1], offset: ?>>) outs(%sv2 : memref<?x?xf32, strided<[16, 1], offset: ?>>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %loop = scf.for %i = %c0 to %m step %c1 iter_args(%carried = %sv1) -> (memref<?x?xf32, strided<[16, 1], offset: ?>>) {
    scf.yield %carried : memref<?x?xf32, strided<[16, 1], offset: ?>>
  }
  linalg.copy ins(%loop : memref<?x?xf32, strided<[16, 1], offset: ?>>) outs(%sv2 : memref<?x?xf32, strided<[16, 1], offset: ?>>)
  %full = memref.subview %dst[0, 0] [8, 16] [1, 1] : memref<8x16xf32> to memref<8x16xf32, strided<[16, 1]>>
  memref.copy %dst, %full : memref<8x16xf32> to memref<8x16xf32, strided<[16, 1]>>
  // --- a subview at different offsets is a different buffer region: counts
  %sv3 = memref.subview %dst[%c0, 0] [%m, %n] [1, 1] : memref<8x16xf32> to memref<?x?xf32, strided<[16, 1], offset: ?>>
  memref.copy %sv1, %sv3 : memref<?x?xf32, strided<[16, 1], offset: ?>> to memref<?x?xf32, strided<[16, 1], offset: ?>>
  return
}
