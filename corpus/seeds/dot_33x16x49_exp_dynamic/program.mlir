module {
func.func @main(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c1 = arith.constant 0 : index
  %dim_M = tensor.dim %arg0, %c1 : tensor<?x?xf32>
  %c2 = arith.constant 1 : index
  %dim_K = tensor.dim %arg0, %c2 : tensor<?x?xf32>
  %c3 = arith.constant 1 : index
  %dim_N = tensor.dim %arg1, %c3 : tensor<?x?xf32>
  %e4 = tensor.empty(%dim_M, %dim_N) : tensor<?x?xf32>
  %c5 = arith.constant 0.000000e+00 : f32
  %n0 = linalg.fill ins(%c5 : f32) outs(%e4 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %n1 = linalg.matmul ins(%arg0, %arg1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%n0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n1 : tensor<?x?xf32>) outs(%e4 : tensor<?x?xf32>) {
  ^bb0(%b6: f32, %b7: f32):
    %v8 = math.exp %b6 : f32
    linalg.yield %v8 : f32
  } -> tensor<?x?xf32>
  return %n2 : tensor<?x?xf32>
}
}
