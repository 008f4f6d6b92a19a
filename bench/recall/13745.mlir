// iree-org/iree#13745 "HLO iota should fuse with other ops and not (often) require materialization into
// memory.": an iota (a generic of linalg.index with no inputs) broadcast into two consumers. ireefuzz's corpus
// seed corpus/seeds/iota_broadcast_two_consumers_2x6/program.mlir, written to the issue's pattern.
module {
func.func @main(%arg0: tensor<2x6xi32>) -> (tensor<2x6xi32>, tensor<2x6xi32>) {
  %e1 = tensor.empty() : tensor<6xi32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e1 : tensor<6xi32>) {
  ^bb0(%b2: i32):
    %v3 = linalg.index 0 : index
    %v4 = arith.index_cast %v3 : index to i32
    linalg.yield %v4 : i32
  } -> tensor<6xi32>
  %e5 = tensor.empty() : tensor<2x6xi32>
  %n1 = linalg.broadcast ins(%n0 : tensor<6xi32>) outs(%e5 : tensor<2x6xi32>) dimensions = [0]
  %e6 = tensor.empty() : tensor<2x6xi32>
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n1, %arg0 : tensor<2x6xi32>, tensor<2x6xi32>) outs(%e6 : tensor<2x6xi32>) {
  ^bb0(%b7: i32, %b8: i32, %b9: i32):
    %v10 = arith.addi %b7, %b8 : i32
    linalg.yield %v10 : i32
  } -> tensor<2x6xi32>
  %e11 = tensor.empty() : tensor<2x6xi32>
  %n3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n1, %arg0 : tensor<2x6xi32>, tensor<2x6xi32>) outs(%e11 : tensor<2x6xi32>) {
  ^bb0(%b12: i32, %b13: i32, %b14: i32):
    %v15 = arith.maxsi %b12, %b13 : i32
    linalg.yield %v15 : i32
  } -> tensor<2x6xi32>
  return %n2, %n3 : tensor<2x6xi32>, tensor<2x6xi32>
}
}
