func.func @iota_two_consumers(%a: tensor<?x6xi32>, %b: tensor<?x6xi32>) -> (tensor<?x6xi32>, tensor<?x6xi32>) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x6xi32>
  %e1 = tensor.empty() : tensor<6xi32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e1 : tensor<6xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %ic = arith.index_cast %i : index to i32
    linalg.yield %ic : i32
  } -> tensor<6xi32>
  %e2 = tensor.empty(%d) : tensor<?x6xi32>
  %bc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%iota : tensor<6xi32>) outs(%e2 : tensor<?x6xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  } -> tensor<?x6xi32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bc, %a : tensor<?x6xi32>, tensor<?x6xi32>) outs(%e2 : tensor<?x6xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %s = arith.addi %x, %y : i32
    linalg.yield %s : i32
  } -> tensor<?x6xi32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bc, %b : tensor<?x6xi32>, tensor<?x6xi32>) outs(%e2 : tensor<?x6xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %s = arith.muli %x, %y : i32
    linalg.yield %s : i32
  } -> tensor<?x6xi32>
  return %r1, %r2 : tensor<?x6xi32>, tensor<?x6xi32>
}
