// Issue 30, cause (4): a 1-D dynamic linalg.softmax whose outs is a function argument. IREE 3.13 copies the
// read-only argument into a dynamically sized stack buffer: "stack-allocation-over-limit". Its 2-D twin
// (softmax_2d_dynamic_outs_argument.mlir) fails with the known write-affecting error on the same copy.
func.func @main(%x: tensor<?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.softmax dimension(0) ins(%x : tensor<?xf32>) outs(%out : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
