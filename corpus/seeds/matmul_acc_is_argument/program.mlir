module {
func.func @main(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>, %arg2: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c1 = arith.constant 0 : index
  %dim_M = tensor.dim %arg0, %c1 : tensor<?x?xf32>
  %c2 = arith.constant 1 : index
  %dim_K = tensor.dim %arg0, %c2 : tensor<?x?xf32>
  %c3 = arith.constant 1 : index
  %dim_N = tensor.dim %arg1, %c3 : tensor<?x?xf32>
  %n0 = linalg.matmul ins(%arg0, %arg1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%arg2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %n0 : tensor<?x?xf32>
}
}
