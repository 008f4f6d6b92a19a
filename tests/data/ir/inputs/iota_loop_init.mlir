func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<3xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    linalg.yield %f : f32
  } -> tensor<3xf32>
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r:2 = scf.while (%x = %iota, %k = %zero) : (tensor<3xf32>, i32) -> (tensor<3xf32>, i32) {
    %go = arith.cmpi slt, %k, %one : i32
    scf.condition(%go) %x, %k : tensor<3xf32>, i32
  } do {
  ^bb0(%x: tensor<3xf32>, %k: i32):
    %nx = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %a : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
    ^bb0(%p: f32, %q: f32, %o: f32):
      %s = arith.addf %p, %q : f32
      linalg.yield %s : f32
    } -> tensor<3xf32>
    %nk = arith.addi %k, %one : i32
    scf.yield %nx, %nk : tensor<3xf32>, i32
  }
  %e2 = tensor.empty() : tensor<3xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r#0, %a : tensor<3xf32>, tensor<3xf32>) outs(%e2 : tensor<3xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.mulf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %out : tensor<3xf32>
}
