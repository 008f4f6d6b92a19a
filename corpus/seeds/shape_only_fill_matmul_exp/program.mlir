module {
func.func @main(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c1 = arith.constant 0 : index
  %dim_M = tensor.dim %arg0, %c1 : tensor<?x?xf32>
  %c2 = arith.constant 1 : index
  %dim_N = tensor.dim %arg1, %c2 : tensor<?x?xf32>
  %c3 = arith.constant 0.000000e+00 : f32
  %n0 = linalg.fill ins(%c3 : f32) outs(%arg1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %n1 = linalg.matmul ins(%arg0, %arg1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%n0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n1 : tensor<?x?xf32>) outs(%n1 : tensor<?x?xf32>) {
  ^bb0(%b4: f32, %b5: f32):
    %v6 = math.exp %b4 : f32
    linalg.yield %v6 : f32
  } -> tensor<?x?xf32>
  return %n2 : tensor<?x?xf32>
}
}
