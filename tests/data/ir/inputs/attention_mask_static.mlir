func.func @main(%q: tensor<2x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ule, %j, %i : index
    %s = arith.select %c, %zero, %ninf : f32
    linalg.yield %s : f32
  } -> tensor<2x8x8xf32>
  %scale = arith.constant 0.5 : f32
  %o = tensor.empty() : tensor<2x8x4xf32>
  %r = iree_linalg_ext.attention <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]}> ins(%q, %k, %v, %scale, %mask : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, f32, tensor<2x8x8xf32>) outs(%o : tensor<2x8x4xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<2x8x4xf32>
  return %r : tensor<2x8x4xf32>
}
