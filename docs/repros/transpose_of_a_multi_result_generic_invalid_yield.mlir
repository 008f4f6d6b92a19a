// A transpose of the first result of a two-result elementwise linalg.generic whose second result is also returned.
// IREE 3.13's iree-global-opt-propagate-linalg-transpose (its bubbling pattern, FuseTransposeWithProducerLinalgOp)
// rebuilds the producer with one init for two results: "'linalg.yield' op expected number of yield values (2) to
// match the number of inits / results operands of the enclosing LinalgOp (1)". Found by ireefuzz (round H, seed
// 58211, an argmax's values broadcast and transposed); reduced by hand after its outsider triage.
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> (tensor<3x2xf32>, tensor<2x3xi32>) {
  %e = tensor.empty() : tensor<2x3xf32>
  %ei = tensor.empty() : tensor<2x3xi32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<2x3xf32>, tensor<2x3xi32>) outs(%e, %ei : tensor<2x3xf32>, tensor<2x3xi32>) {
  ^bb0(%x: f32, %y: i32, %o: f32, %oi: i32):
    %s = arith.addf %x, %x : f32
    %t = arith.addi %y, %y : i32
    linalg.yield %s, %t : f32, i32
  } -> (tensor<2x3xf32>, tensor<2x3xi32>)
  %et = tensor.empty() : tensor<3x2xf32>
  %tr = linalg.transpose ins(%r#0 : tensor<2x3xf32>) outs(%et : tensor<3x2xf32>) permutation = [1, 0]
  return %tr, %r#1 : tensor<3x2xf32>, tensor<2x3xi32>
}
