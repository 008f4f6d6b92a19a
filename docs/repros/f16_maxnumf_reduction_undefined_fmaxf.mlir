// An f16 max reduction (one arith.maxnumf): llvm-cpu links a libm fmaxf call it never defines.
// Reduced by hand from linalg.softmax on tensor<2xf16> (the softmax's first step is this reduction).
func.func @main(%arg0: tensor<2xf16>) -> tensor<f16> {
  %lowest = arith.constant 0xFC00 : f16
  %empty = tensor.empty() : tensor<f16>
  %init = linalg.fill ins(%lowest : f16) outs(%empty : tensor<f16>) -> tensor<f16>
  %max = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%arg0 : tensor<2xf16>) outs(%init : tensor<f16>) {
  ^bb0(%in: f16, %out: f16):
    %m = arith.maxnumf %in, %out : f16
    linalg.yield %m : f16
  } -> tensor<f16>
  return %max : tensor<f16>
}
