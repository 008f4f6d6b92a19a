// r[i] = sum_j x[i,j]; o[i,j] = r[i] + r[j]: a reduction's result read twice by its consumer, through (d0) and
// through (d1), in one dispatch. llvm-cpu writes only the diagonal of o: for x = 1..16 as 4x4, r = [10 26 42 58],
// o should be r[i] + r[j]; IREE 3.13.0rc20261016 gives [20 0 0 0][0 52 0 0][0 0 84 0][0 0 0 116], on generic,
// x86-64-v3 and host (znver4) alike. The dispatch's root is the reduction (distribution = [1, 0]); after
// iree-codegen-tile-and-distribute-to-workgroups-using-forall-op the consumer fused into the workgroup loop takes
// its tile from both operands, d0 from the (d0) read and d1 from the (d1) read, and gets the slice
// [%arg0, %arg0] [1, 1]: one element per workgroup. Returning r as well splits the dispatch and the values are
// right. The shape of a pairwise distance (|a|^2 + |b|^2 - 2ab) or a symmetric score matrix. Found by the stop 44
// host campaign (seed 24817, layer_norm > cos > min > reduce_sum, two outputs); minimized by an outsider helper
// with stock tools before reading the tool's report; no upstream report found (#23232 restricts broadcast consumer
// fusion by rank only).
func.func @main(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r, %r : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}
