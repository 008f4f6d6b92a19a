func.func @main(%q: tensor<?x8x4xf32>, %k: tensor<?x8x4xf32>, %v: tensor<?x8x4xf32>) -> tensor<?x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : index
  %b = tensor.dim %q, %c0 : tensor<?x8x4xf32>
  %e = tensor.empty(%b) : tensor<?x8x8xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<?x8x8xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c = arith.cmpi ule, %j, %i : index
    %s = arith.select %c, %zero, %ninf : f32
    linalg.yield %s : f32
  } -> tensor<?x8x8xf32>
  %scale = arith.constant 0.5 : f32
  %o = tensor.empty(%b) : tensor<?x8x4xf32>
  %r = iree_linalg_ext.attention <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]}> ins(%q, %k, %v, %scale, %mask : tensor<?x8x4xf32>, tensor<?x8x4xf32>, tensor<?x8x4xf32>, f32, tensor<?x8x8xf32>) outs(%o : tensor<?x8x4xf32>) {
  ^bb0(%score: f32):
    iree_linalg_ext.yield %score : f32
  } -> tensor<?x8x4xf32>
  return %r : tensor<?x8x4xf32>
}
