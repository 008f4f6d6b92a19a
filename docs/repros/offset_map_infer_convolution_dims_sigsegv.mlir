// A two-input elementwise linalg.generic whose first input is read at an offset of a dim other than the first
// ((d0, 1 - d1) here; (d0, d1 + 1) too): iree-compile dies of SIGSEGV in iree-flow-annotate-dispatches, in MLIR's
// linalg::inferConvolutionDims (getConstantsFromExprList reads a null AffineExpr). Found by round 41's host campaign
// (a reverse then a multiply, which dispatch creation fuses into this one generic); checked by hand with stock tools.
func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %e = tensor.empty() : tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 1 - d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %x : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
