module {
func.func @main(%arg0: tensor<?x?xi32>, %arg1: tensor<3xi32>, %arg2: tensor<3xi32>) -> tensor<3x?xi32> {
  %c1 = arith.constant 0 : index
  %dim_M = tensor.dim %arg0, %c1 : tensor<?x?xi32>
  %c2 = arith.constant 1 : index
  %dim_N = tensor.dim %arg0, %c2 : tensor<?x?xi32>
  %e3 = tensor.empty(%dim_N) : tensor<3x?xi32>
  %x4 = tensor.expand_shape %arg1 [[0, 1]] output_shape [3, 1] : tensor<3xi32> into tensor<3x1xi32>
  %n0 = iree_linalg_ext.gather dimension_map = [0] ins(%arg0, %x4 : tensor<?x?xi32>, tensor<3x1xi32>) outs(%e3 : tensor<3x?xi32>) -> tensor<3x?xi32>
  %e5 = tensor.empty(%dim_N) : tensor<3x?xi32>
  %x6 = tensor.expand_shape %arg2 [[0, 1]] output_shape [3, 1] : tensor<3xi32> into tensor<3x1xi32>
  %n1 = iree_linalg_ext.gather dimension_map = [0] ins(%n0, %x6 : tensor<3x?xi32>, tensor<3x1xi32>) outs(%e5 : tensor<3x?xi32>) -> tensor<3x?xi32>
  %e7 = tensor.empty(%dim_N) : tensor<3x?xi32>
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n1, %n1 : tensor<3x?xi32>, tensor<3x?xi32>) outs(%e7 : tensor<3x?xi32>) {
  ^bb0(%b8: i32, %b9: i32, %b10: i32):
    %v11 = arith.addi %b8, %b9 : i32
    linalg.yield %v11 : i32
  } -> tensor<3x?xi32>
  return %n2 : tensor<3x?xi32>
}
}
