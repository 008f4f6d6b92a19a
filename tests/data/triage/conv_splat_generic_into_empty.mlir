// Issue 30, cause (1), as the campaign found it (tests/data/findings/issue30-3.13.jsonl case 0): an NCHW conv whose
// init is a splat written as a linalg.generic into tensor.empty. ConvTileAndDecomposeExpert copies tiles into and
// out of the stack buffers the same case reports as the known memory/alloca/contraction@ConvTileAndDecomposeExpert:
// the copies are that alloca's, not a cause of their own. Its known twin: conv_splat_generic_alloca_known.mlir.
module {
func.func @main(%arg0: tensor<3x8x6x6xf32>, %arg1: tensor<16x8x2x3xf32>) -> tensor<3x16x5x4xf16> {
  %e1 = tensor.empty() : tensor<3x16x5x4xf32>
  %c2 = arith.constant 0.000000e+00 : f32
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e1 : tensor<3x16x5x4xf32>) {
  ^bb0(%b3: f32):
    linalg.yield %c2 : f32
  } -> tensor<3x16x5x4xf32>
  %n1 = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<3x8x6x6xf32>, tensor<16x8x2x3xf32>) outs(%n0 : tensor<3x16x5x4xf32>) -> tensor<3x16x5x4xf32>
  %e4 = tensor.empty() : tensor<3x16x5x4xf16>
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n1 : tensor<3x16x5x4xf32>) outs(%e4 : tensor<3x16x5x4xf16>) {
  ^bb0(%b5: f32, %b6: f16):
    %v7 = arith.truncf %b5 : f32 to f16
    linalg.yield %v7 : f16
  } -> tensor<3x16x5x4xf16>
  return %n2 : tensor<3x16x5x4xf16>
}
}
