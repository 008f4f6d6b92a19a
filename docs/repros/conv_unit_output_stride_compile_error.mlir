func.func @main(%p: tensor<1x4x1x1xf32>, %w: tensor<3x1x1xf32>) -> tensor<1x1x1x1xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%p, %w : tensor<1x4x1x1xf32>, tensor<3x1x1xf32>) outs(%f : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  return %r : tensor<1x1x1x1xf32>
}
