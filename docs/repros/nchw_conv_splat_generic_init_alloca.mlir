// An NCHW convolution whose init is a splat written as a linalg.generic: ConvTileAndDecomposeExpert leaves stack
// allocas that survive LLVM (IREE 3.13, znver3 and generic). With linalg.fill as the init there are none. (At smaller
// sizes, 3x2x6x6 by 4x2x2x3, LLVM promotes the one buffer to registers on an AVX2 host: no stack buffer is left.)
func.func @main(%input: tensor<3x8x6x6xf32>, %filter: tensor<16x8x2x3xf32>) -> tensor<3x16x5x4xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty() : tensor<3x16x5x4xf32>
  %splat = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                           iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%empty : tensor<3x16x5x4xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  } -> tensor<3x16x5x4xf32>
  %conv = linalg.conv_2d_nchw_fchw ins(%input, %filter : tensor<3x8x6x6xf32>, tensor<16x8x2x3xf32>)
      outs(%splat : tensor<3x16x5x4xf32>) -> tensor<3x16x5x4xf32>
  return %conv : tensor<3x16x5x4xf32>
}
