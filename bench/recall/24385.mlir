// iree-org/iree#24385 "Crash in DispatchWorkgroupsOp::getResultAccess when all results are tied to the same
// input operand". Not the issue's own program: ireefuzz's repro docs/repros/conv_pad_as_input_and_outs_crash.mlir,
// which corpus/upstream_issues.json matches to this issue by diagnostic and program (a padded tensor that is
// both an input and the destination of one conv, so every dispatch result is tied to one operand).
func.func @main(%arg0: tensor<3x1x4x16xi32>, %arg1: tensor<1x1x16x16xi32>) -> tensor<3x1x5x16xi32> {
  %c = arith.constant 0 : i32
  %p = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %c : i32
  } : tensor<3x1x4x16xi32> to tensor<3x1x5x16xi32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[3, 1]> : tensor<2xi64>} ins(%p, %arg1 : tensor<3x1x5x16xi32>, tensor<1x1x16x16xi32>) outs(%p : tensor<3x1x5x16xi32>) -> tensor<3x1x5x16xi32>
  return %r : tensor<3x1x5x16xi32>
}
