// The known fill-sum miscompile as the campaign filed it (corpus/regressions/reduce_sum_of_fill):
// numeric/wrong-value/fill>reduce_sum.
module {
func.func @main() -> tensor<i32> {
  %e1 = tensor.empty() : tensor<2xi32>
  %c2 = arith.constant 2 : i32
  %n0 = linalg.fill ins(%c2 : i32) outs(%e1 : tensor<2xi32>) -> tensor<2xi32>
  %e3 = tensor.empty() : tensor<i32>
  %c4 = arith.constant 0 : i32
  %f5 = linalg.fill ins(%c4 : i32) outs(%e3 : tensor<i32>) -> tensor<i32>
  %n1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%n0 : tensor<2xi32>) outs(%f5 : tensor<i32>) {
  ^bb0(%b6: i32, %b7: i32):
    %v8 = arith.addi %b7, %b6 : i32
    linalg.yield %v8 : i32
  } -> tensor<i32>
  return %n1 : tensor<i32>
}
}
