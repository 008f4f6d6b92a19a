// The pooling unit-output miscompile as check --bundle reduced it (docs/bundles/fold_unit_extent_dims/
// pooling_max_wrong_values): another known cause than the fill-sum, numeric/wrong-value/pooling_nhwc_max.
module {
  func.func @main(%arg0: tensor<?x3x3x3xf16>, %arg1: tensor<2x2xf16>) -> tensor<?x1x1x3xf16> {
    %cst = arith.constant 0xFC00 : f16
    %cst1 = arith.constant 0 : index
    %dim = tensor.dim %arg0, %cst1 : tensor<?x3x3x3xf16>
    %empty = tensor.empty(%dim) : tensor<?x1x1x3xf16>
    %fill = linalg.fill ins(%cst : f16) outs(%empty : tensor<?x1x1x3xf16>) -> tensor<?x1x1x3xf16>
    %pooled = linalg.pooling_nhwc_max ins(%arg0, %arg1 : tensor<?x3x3x3xf16>, tensor<2x2xf16>) outs(%fill : tensor<?x1x1x3xf16>) -> tensor<?x1x1x3xf16>
    return %pooled : tensor<?x1x1x3xf16>
  }
}
