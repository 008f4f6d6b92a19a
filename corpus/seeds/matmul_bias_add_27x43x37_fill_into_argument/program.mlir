module {
func.func @main(%arg0: tensor<27x43xf32>, %arg1: tensor<43x37xf32>, %arg2: tensor<37xf32>, %arg3: tensor<27x37xf32>) -> tensor<27x37xf32> {
  %c1 = arith.constant 0.000000e+00 : f32
  %n0 = linalg.fill ins(%c1 : f32) outs(%arg3 : tensor<27x37xf32>) -> tensor<27x37xf32>
  %n1 = linalg.matmul ins(%arg0, %arg1 : tensor<27x43xf32>, tensor<43x37xf32>) outs(%n0 : tensor<27x37xf32>) -> tensor<27x37xf32>
  %e2 = tensor.empty() : tensor<27x37xf32>
  %n2 = linalg.broadcast ins(%arg2 : tensor<37xf32>) outs(%e2 : tensor<27x37xf32>) dimensions = [0]
  %n3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n1, %n2 : tensor<27x37xf32>, tensor<27x37xf32>) outs(%arg3 : tensor<27x37xf32>) {
  ^bb0(%b3: f32, %b4: f32, %b5: f32):
    %v6 = arith.addf %b3, %b4 : f32
    linalg.yield %v6 : f32
  } -> tensor<27x37xf32>
  return %n3 : tensor<27x37xf32>
}
}
