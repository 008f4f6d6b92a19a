// iree-org/iree#15661 "Numerical issue with chatglm2.vmfb model"
// The issue's reduced dispatch (hanhanW's comment, also #15936's repro): 10000^x in f16, then 1/that.
// Its cf.assert (a "tensor with zero element" guard the reference cannot run) is dropped; the input is the
// issue's own 32 values 0, 1/32, ..., 31/32. Before the workaround (#15927, f16 powf computed in f32), the f16
// polynomial approximation of powf gives -NaN at x = 0 and INF elsewhere (so 1/powf is NaN and 0).
#map = affine_map<(d0) -> (d0)>
func.func @main(%0: tensor<32xf16>) -> tensor<32xf16> {
  %cst = arith.constant 1.000000e+04 : f16
  %cst_1 = arith.constant 1.000000e+00 : f16
  %1 = tensor.empty() : tensor<32xf16>
  %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%0 : tensor<32xf16>) outs(%1 : tensor<32xf16>) {
  ^bb0(%in: f16, %out: f16):
    %3 = math.powf %cst, %in : f16
    %5 = arith.divf %cst_1, %3 : f16
    linalg.yield %5 : f16
  } -> tensor<32xf16>
  return %2 : tensor<32xf16>
}
