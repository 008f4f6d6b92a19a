module {
func.func @main(%arg0: tensor<1x4xf32>) -> tensor<1xf32> {
  %e1 = tensor.empty() : tensor<1xf32>
  %n0 = linalg.unpack %arg0 inner_dims_pos = [0] inner_tiles = [4] into %e1 : tensor<1x4xf32> -> tensor<1xf32>
  return %n0 : tensor<1xf32>
}
}
