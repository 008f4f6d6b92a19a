module {
func.func @main(%arg0: tensor<27x43xf32>, %arg1: tensor<43x37xf32>, %arg2: tensor<37xf32>) -> tensor<27x37xf32> {
  %e1 = tensor.empty() : tensor<27x37xf32>
  %c2 = arith.constant 0.000000e+00 : f32
  %n0 = linalg.fill ins(%c2 : f32) outs(%e1 : tensor<27x37xf32>) -> tensor<27x37xf32>
  %n1 = linalg.matmul ins(%arg0, %arg1 : tensor<27x43xf32>, tensor<43x37xf32>) outs(%n0 : tensor<27x37xf32>) -> tensor<27x37xf32>
  %e3 = tensor.empty() : tensor<27x37xf32>
  %n2 = linalg.broadcast ins(%arg2 : tensor<37xf32>) outs(%e3 : tensor<27x37xf32>) dimensions = [0]
  %n3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n1, %n2 : tensor<27x37xf32>, tensor<27x37xf32>) outs(%e1 : tensor<27x37xf32>) {
  ^bb0(%b4: f32, %b5: f32, %b6: f32):
    %v7 = arith.addf %b4, %b5 : f32
    linalg.yield %v7 : f32
  } -> tensor<27x37xf32>
  return %n3 : tensor<27x37xf32>
}
}
