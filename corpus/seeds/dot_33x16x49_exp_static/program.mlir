module {
func.func @main(%arg0: tensor<33x16xf32>, %arg1: tensor<16x49xf32>) -> tensor<33x49xf32> {
  %e1 = tensor.empty() : tensor<33x49xf32>
  %c2 = arith.constant 0.000000e+00 : f32
  %n0 = linalg.fill ins(%c2 : f32) outs(%e1 : tensor<33x49xf32>) -> tensor<33x49xf32>
  %n1 = linalg.matmul ins(%arg0, %arg1 : tensor<33x16xf32>, tensor<16x49xf32>) outs(%n0 : tensor<33x49xf32>) -> tensor<33x49xf32>
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n1 : tensor<33x49xf32>) outs(%e1 : tensor<33x49xf32>) {
  ^bb0(%b3: f32, %b4: f32):
    %v5 = math.exp %b3 : f32
    linalg.yield %v5 : f32
  } -> tensor<33x49xf32>
  return %n2 : tensor<33x49xf32>
}
}
