module {
func.func @main(%arg0: tensor<32x48xf32>, %arg1: tensor<32x48xf32>) -> tensor<32x48xf32> {
  %e1 = tensor.empty() : tensor<32x48xf32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<32x48xf32>, tensor<32x48xf32>) outs(%e1 : tensor<32x48xf32>) {
  ^bb0(%b2: f32, %b3: f32, %b4: f32):
    %v5 = arith.addf %b2, %b3 : f32
    linalg.yield %v5 : f32
  } -> tensor<32x48xf32>
  return %n0 : tensor<32x48xf32>
}
}
