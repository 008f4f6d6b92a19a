// iree-org/iree#16168 "Exported I/O buffer views improperly alias with tied ops.": a function argument used
// as a DPS destination (the matmul accumulates into %arg2); IREE ties the result to the caller's buffer and
// writes it in place. ireefuzz's corpus seed corpus/seeds/matmul_acc_is_argument/program.mlir.
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
