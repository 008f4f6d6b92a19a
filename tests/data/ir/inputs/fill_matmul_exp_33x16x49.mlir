func.func @fill_matmul_exp(%a: tensor<33x16xf32>, %b: tensor<16x49xf32>) -> tensor<33x49xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x49xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<33x49xf32>) -> tensor<33x49xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<33x16xf32>, tensor<16x49xf32>) outs(%f : tensor<33x49xf32>) -> tensor<33x49xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<33x49xf32>) outs(%e : tensor<33x49xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<33x49xf32>
  return %r : tensor<33x49xf32>
}
