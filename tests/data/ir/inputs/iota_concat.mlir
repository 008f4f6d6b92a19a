func.func @iota_concat(%a: tensor<2x6x1xi32>) -> tensor<2x6x2xi32> {
  %e1 = tensor.empty() : tensor<2x6x1xi32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e1 : tensor<2x6x1xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %ic = arith.index_cast %i : index to i32
    linalg.yield %ic : i32
  } -> tensor<2x6x1xi32>
  %c = tensor.concat dim(2) %iota, %a : (tensor<2x6x1xi32>, tensor<2x6x1xi32>) -> tensor<2x6x2xi32>
  return %c : tensor<2x6x2xi32>
}
