func.func @main(%arg0: tensor<4xf16>) -> tensor<4xf16> {
  %zero = arith.constant 0.000000e+00 : f16
  %eps = arith.constant 1.000000e-05 : f16
  %e = tensor.empty() : tensor<4xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0 : tensor<4xf16>) outs(%e : tensor<4xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.mulf %x, %zero : f16
    %s = arith.addf %y, %eps : f16
    %q = math.rsqrt %s : f16
    %v = arith.mulf %y, %q : f16
    linalg.yield %v : f16
  } -> tensor<4xf16>
  return %r : tensor<4xf16>
}
