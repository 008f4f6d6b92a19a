// Issue 30, cause (2), as the campaign found it (case 1): the same conv with the splat generic written into a
// function argument. The copies are the same stack-to-stack copies (with tensor.empty instead of the argument they
// stay): "outs-is-argument" is false; the trigger is the splat generic. Known twin: conv_splat_generic_alloca_known.mlir.
module {
func.func @main(%arg0: tensor<3x8x6x6xf32>, %arg1: tensor<16x8x2x3xf32>, %arg2: tensor<3x16x5x4xf32>) -> tensor<3x16x5x4xf16> {
  %c1 = arith.constant 0.000000e+00 : f32
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%arg2 : tensor<3x16x5x4xf32>) {
  ^bb0(%b2: f32):
    linalg.yield %c1 : f32
  } -> tensor<3x16x5x4xf32>
  %n1 = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<3x8x6x6xf32>, tensor<16x8x2x3xf32>) outs(%n0 : tensor<3x16x5x4xf32>) -> tensor<3x16x5x4xf32>
  %e3 = tensor.empty() : tensor<3x16x5x4xf16>
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n1 : tensor<3x16x5x4xf32>) outs(%e3 : tensor<3x16x5x4xf16>) {
  ^bb0(%b4: f32, %b5: f16):
    %v6 = arith.truncf %b4 : f32 to f16
    linalg.yield %v6 : f16
  } -> tensor<3x16x5x4xf16>
  return %n2 : tensor<3x16x5x4xf16>
}
}
