// Issue 30, cause (3): a strided depthwise conv with a unit output width and a dynamic batch. linalg's verifier
// skips its shape check on the dynamic dim, so fold-unit-extent-dims' invalid generic fails later, in tiling
// ("slice along dimension runs out of bounds"). Its twin with a static batch (conv_unit_output_static_batch.mlir)
// is the known fold-unit-extent-dims error, word for word.
func.func @main(%p: tensor<?x4x1x1xf32>, %w: tensor<3x1x1xf32>) -> tensor<?x1x1x1xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %p, %c0 : tensor<?x4x1x1xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x1x1x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x1x1x1xf32>) -> tensor<?x1x1x1xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<?x4x1x1xf32>, tensor<3x1x1xf32>) outs(%f : tensor<?x1x1x1xf32>) -> tensor<?x1x1x1xf32>
  return %r : tensor<?x1x1x1xf32>
}
