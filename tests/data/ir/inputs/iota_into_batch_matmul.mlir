module {
func.func @main(%arg0: tensor<2x1x1xf16>, %arg1: tensor<2x?x1xf16>) -> tensor<2x?x1xf16> {
  %c1 = arith.constant 1 : index
  %dim_M = tensor.dim %arg1, %c1 : tensor<2x?x1xf16>
  %e2 = tensor.empty(%dim_M) : tensor<2x?x1xf16>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e2 : tensor<2x?x1xf16>) {
  ^bb0(%b3: f16):
    %v4 = linalg.index 0 : index
    %v5 = arith.index_cast %v4 : index to i32
    %v6 = arith.sitofp %v5 : i32 to f16
    linalg.yield %v6 : f16
  } -> tensor<2x?x1xf16>
  %n1 = linalg.batch_matmul ins(%n0, %arg0 : tensor<2x?x1xf16>, tensor<2x1x1xf16>) outs(%arg1 : tensor<2x?x1xf16>) -> tensor<2x?x1xf16>
  return %n1 : tensor<2x?x1xf16>
}
}
