module {
func.func @main(%arg0: tensor<1x16xi32>) -> tensor<3xi32> {
  %e1 = tensor.empty() : tensor<3xi32>
  %n0 = linalg.unpack %arg0 inner_dims_pos = [0] inner_tiles = [16] into %e1 : tensor<1x16xi32> -> tensor<3xi32>
  return %n0 : tensor<3xi32>
}
}
