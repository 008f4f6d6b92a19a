// Issue 30, the known twin of cause (3): the same conv with a static batch of 2: the known fold-unit-extent-dims
// error ("inferred input/output operand #1 has shape's dimension #0 to be 4, but found 3").
func.func @main(%p: tensor<2x4x1x1xf32>, %w: tensor<3x1x1xf32>) -> tensor<2x1x1x1xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x1x1x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x1x1x1xf32>) -> tensor<2x1x1x1xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<2x4x1x1xf32>, tensor<3x1x1xf32>) outs(%f : tensor<2x1x1x1xf32>) -> tensor<2x1x1x1xf32>
  return %r : tensor<2x1x1x1xf32>
}
