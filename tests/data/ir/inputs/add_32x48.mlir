func.func @add(%a: tensor<32x48xf32>, %b: tensor<32x48xf32>) -> tensor<32x48xf32> {
  %e = tensor.empty() : tensor<32x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<32x48xf32>, tensor<32x48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<32x48xf32>
  return %r : tensor<32x48xf32>
}
