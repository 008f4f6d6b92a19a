module {
func.func @main(%arg0: tensor<?x6xi32>) -> (tensor<?x6xi32>, tensor<?x6xi32>) {
  %c1 = arith.constant 0 : index
  %dim_B = tensor.dim %arg0, %c1 : tensor<?x6xi32>
  %e2 = tensor.empty() : tensor<6xi32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e2 : tensor<6xi32>) {
  ^bb0(%b3: i32):
    %v4 = linalg.index 0 : index
    %v5 = arith.index_cast %v4 : index to i32
    linalg.yield %v5 : i32
  } -> tensor<6xi32>
  %e6 = tensor.empty(%dim_B) : tensor<?x6xi32>
  %n1 = linalg.broadcast ins(%n0 : tensor<6xi32>) outs(%e6 : tensor<?x6xi32>) dimensions = [0]
  %e7 = tensor.empty(%dim_B) : tensor<?x6xi32>
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n1, %arg0 : tensor<?x6xi32>, tensor<?x6xi32>) outs(%e7 : tensor<?x6xi32>) {
  ^bb0(%b8: i32, %b9: i32, %b10: i32):
    %v11 = arith.addi %b8, %b9 : i32
    linalg.yield %v11 : i32
  } -> tensor<?x6xi32>
  %e12 = tensor.empty(%dim_B) : tensor<?x6xi32>
  %n3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n1, %arg0 : tensor<?x6xi32>, tensor<?x6xi32>) outs(%e12 : tensor<?x6xi32>) {
  ^bb0(%b13: i32, %b14: i32, %b15: i32):
    %v16 = arith.maxsi %b13, %b14 : i32
    linalg.yield %v16 : i32
  } -> tensor<?x6xi32>
  return %n2, %n3 : tensor<?x6xi32>, tensor<?x6xi32>
}
}
