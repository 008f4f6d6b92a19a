func.func @argsort(%a: tensor<?x6xf32>) -> (tensor<?x6xf32>, tensor<?x6xi32>) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x6xf32>
  %e = tensor.empty(%d) : tensor<?x6xi32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x6xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 1 : index
    %ic = arith.index_cast %i : index to i32
    linalg.yield %ic : i32
  } -> tensor<?x6xi32>
  %r:2 = iree_linalg_ext.sort dimension(1) outs(%a, %iota : tensor<?x6xf32>, tensor<?x6xi32>) {
  ^bb0(%x: f32, %y: f32, %i: i32, %j: i32):
    %cmp = arith.cmpf olt, %x, %y : f32
    iree_linalg_ext.yield %cmp : i1
  } -> tensor<?x6xf32>, tensor<?x6xi32>
  return %r#0, %r#1 : tensor<?x6xf32>, tensor<?x6xi32>
}
