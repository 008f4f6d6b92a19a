module {
func.func @main(%arg0: tensor<?x2xi32>, %arg1: tensor<?xf32>) -> (tensor<?x2xi32>, tensor<?x?xi32>) {
  %c1 = arith.constant 0 : index
  %dim_M = tensor.dim %arg0, %c1 : tensor<?x2xi32>
  %c2 = arith.constant 0 : index
  %dim_N = tensor.dim %arg1, %c2 : tensor<?xf32>
  %e3 = tensor.empty(%dim_M) : tensor<?x2xi32>
  %e4 = tensor.empty() : tensor<2xi32>
  %c5 = arith.constant 0 : i32
  %f6 = linalg.fill ins(%c5 : i32) outs(%e4 : tensor<2xi32>) -> tensor<2xi32>
  %n0, %other9 = iree_linalg_ext.scan dimension(0) inclusive(true) ins(%arg0 : tensor<?x2xi32>) outs(%e3, %f6 : tensor<?x2xi32>, tensor<2xi32>) {
  ^bb0(%x7: i32, %y8: i32):
    %v10 = arith.addi %x7, %y8 : i32
    iree_linalg_ext.yield %v10 : i32
  } -> tensor<?x2xi32>, tensor<2xi32>
  %e11 = tensor.empty(%dim_M) : tensor<?xi32>
  %c12 = arith.constant -2147483648 : i32
  %f13 = linalg.fill ins(%c12 : i32) outs(%e11 : tensor<?xi32>) -> tensor<?xi32>
  %n1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<?x2xi32>) outs(%f13 : tensor<?xi32>) {
  ^bb0(%b14: i32, %b15: i32):
    %v16 = arith.maxsi %b15, %b14 : i32
    linalg.yield %v16 : i32
  } -> tensor<?xi32>
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg0 : tensor<?x2xi32>, tensor<?x2xi32>) outs(%e3 : tensor<?x2xi32>) {
  ^bb0(%b17: i32, %b18: i32, %b19: i32):
    %v20 = arith.ori %b17, %b18 : i32
    linalg.yield %v20 : i32
  } -> tensor<?x2xi32>
  %e21 = tensor.empty(%dim_N, %dim_M) : tensor<?x?xi32>
  %n3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n1 : tensor<?xi32>) outs(%e21 : tensor<?x?xi32>) {
  ^bb0(%b22: i32, %b23: i32):
    linalg.yield %b22 : i32
  } -> tensor<?x?xi32>
  return %n2, %n3 : tensor<?x2xi32>, tensor<?x?xi32>
}
}
