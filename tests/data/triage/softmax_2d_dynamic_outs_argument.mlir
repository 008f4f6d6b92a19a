// Issue 30, the known twin of cause (4): the same softmax in 2-D (a leading dim of 3) fails with the known
// "write affecting operations on global resources are restricted to workgroup distributed contexts" error.
func.func @main(%x: tensor<3x?xf32>, %out: tensor<3x?xf32>) -> tensor<3x?xf32> {
  %r = linalg.softmax dimension(1) ins(%x : tensor<3x?xf32>) outs(%out : tensor<3x?xf32>) -> tensor<3x?xf32>
  return %r : tensor<3x?xf32>
}
