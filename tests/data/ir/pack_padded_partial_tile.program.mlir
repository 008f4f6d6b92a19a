module {
func.func @main(%arg0: tensor<1xf16>) -> tensor<1x3xf16> {
  %e1 = tensor.empty() : tensor<1x3xf16>
  %c2 = arith.constant -1.500000e+00 : f16
  %n0 = linalg.pack %arg0 padding_value(%c2 : f16) inner_dims_pos = [0] inner_tiles = [3] into %e1 : tensor<1xf16> -> tensor<1x3xf16>
  return %n0 : tensor<1x3xf16>
}
}
