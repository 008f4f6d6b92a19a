func.func @gather(%src: tensor<31x35xi32>, %idx: tensor<13x1xi32>) -> tensor<13x35xi32> {
  %e = tensor.empty() : tensor<13x35xi32>
  %r = iree_linalg_ext.gather dimension_map = [0] ins(%src, %idx : tensor<31x35xi32>, tensor<13x1xi32>) outs(%e : tensor<13x35xi32>) -> tensor<13x35xi32>
  return %r : tensor<13x35xi32>
}
