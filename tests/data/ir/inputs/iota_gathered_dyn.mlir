module {
func.func @main(%arg0: tensor<1xf32>, %arg1: tensor<?xi32>) -> tensor<?xf16> {
  %c1 = arith.constant 0 : index
  %dim_M = tensor.dim %arg1, %c1 : tensor<?xi32>
  %e2 = tensor.empty(%dim_M) : tensor<?x1xf16>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e2 : tensor<?x1xf16>) {
  ^bb0(%b3: f16):
    %v4 = linalg.index 0 : index
    %v5 = arith.index_cast %v4 : index to i32
    %v6 = arith.sitofp %v5 : i32 to f16
    linalg.yield %v6 : f16
  } -> tensor<?x1xf16>
  %e7 = tensor.empty(%dim_M) : tensor<?xf16>
  %n1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1 : tensor<?xi32>) outs(%e7 : tensor<?xf16>) {
  ^bb0(%b8: i32, %b9: f16):
    %v10 = linalg.index 0 : index
    %v11 = arith.index_cast %b8 : i32 to index
    %v12 = tensor.extract %n0[%v10, %v11] : tensor<?x1xf16>
    linalg.yield %v12 : f16
  } -> tensor<?xf16>
  return %n1 : tensor<?xf16>
}
}
