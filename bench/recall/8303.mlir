// iree-org/iree#8303, matmul_bias_add as posted (modern syntax): the fill writes into %arg3 and the
// bias-add generic's outs is %arg3 too; the bias is read through a broadcasting indexing map.
func.func @matmul_bias_add(%arg0: tensor<27x43xf32>, %arg1: tensor<43x37xf32>, %arg2: tensor<37xf32>, %arg3: tensor<27x37xf32>) -> tensor<27x37xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = linalg.fill ins(%cst : f32) outs(%arg3 : tensor<27x37xf32>) -> tensor<27x37xf32>
  %1 = linalg.matmul ins(%arg0, %arg1 : tensor<27x43xf32>, tensor<43x37xf32>) outs(%0 : tensor<27x37xf32>) -> tensor<27x37xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%1, %arg2 : tensor<27x37xf32>, tensor<37xf32>) outs(%arg3 : tensor<27x37xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %3 = arith.addf %in, %bias : f32
    linalg.yield %3 : f32
  } -> tensor<27x37xf32>
  return %2 : tensor<27x37xf32>
}
