// An NCHW f16 -> f32 convolution whose init is a splat written as a linalg.generic: ConvTileAndDecomposeExpert
// leaves a memref<1x2x1x4xf32> stack alloca (IREE 3.13, znver4). With linalg.fill as the init there is none.
func.func @main(%filter: tensor<4x2x2x3xf16>, %input: tensor<3x2x6x6xf16>) -> tensor<3x4x4x4xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty() : tensor<3x4x4x4xf32>
  %splat = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%empty : tensor<3x4x4x4xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  } -> tensor<3x4x4x4xf32>
  %conv = linalg.conv_2d_nchw_fchw ins(%input, %filter : tensor<3x2x6x6xf16>, tensor<4x2x2x3xf16>)
      outs(%splat : tensor<3x4x4x4xf32>) -> tensor<3x4x4x4xf32>
  return %conv : tensor<3x4x4x4xf32>
}
