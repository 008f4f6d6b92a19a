module {
func.func @main(%arg0: tensor<3xf16>) -> tensor<3xf16> {
  %e1 = tensor.empty() : tensor<f16>
  %c2 = arith.constant 0.000000e+00 : f16
  %f3 = linalg.fill ins(%c2 : f16) outs(%e1 : tensor<f16>) -> tensor<f16>
  %n0, %other6 = iree_linalg_ext.scan dimension(0) inclusive(true) ins(%arg0 : tensor<3xf16>) outs(%arg0, %f3 : tensor<3xf16>, tensor<f16>) {
  ^bb0(%x4: f16, %y5: f16):
    %v7 = arith.addf %x4, %y5 : f16
    iree_linalg_ext.yield %v7 : f16
  } -> tensor<3xf16>, tensor<f16>
  return %n0 : tensor<3xf16>
}
}
