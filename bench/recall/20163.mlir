// iree-org/iree#20163 "Bug in f32->f16 truncation on CPU: 0.49990 is truncated to 0.25."
// The issue's minimal testcase, with the util.unfoldable_constant input made an argument and the
// check.expect_almost_eq_const dropped (the numeric oracle compares against the float64 reference).
// Compile for the generic CPU (no F16C): --iree-llvmcpu-target-cpu=generic.
func.func @test_trunc_f32_f16(%input_x: tensor<1xf32>) -> tensor<1xf16> {
  %result_empty = tensor.empty() : tensor<1xf16>
  %result = linalg.generic {indexing_maps = [
      affine_map<(d0) -> (d0)>,
      affine_map<(d0) -> (d0)>
    ], iterator_types = ["parallel"]}
    ins(%input_x : tensor<1xf32>) outs(%result_empty : tensor<1xf16>) {
  ^bb0(%x: f32, %out: f16):
    %r = arith.truncf %x : f32 to f16
    linalg.yield %r : f16
  } -> tensor<1xf16>
  return %result : tensor<1xf16>
}
