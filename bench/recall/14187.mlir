// iree-org/iree#14187 "iree_linalg_ext.softmax on tensor<?xf16> causes linker error: undefined symbol:
// `fmaxf`": the issue's op on f16, in today's spelling (linalg.softmax; static 7 as
// corpus/upstream_issues.json records it still failing on 3.13).
func.func @main(%arg0: tensor<7xf16>) -> tensor<7xf16> {
  %e = tensor.empty() : tensor<7xf16>
  %s = linalg.softmax dimension(0) ins(%arg0 : tensor<7xf16>) outs(%e : tensor<7xf16>) -> tensor<7xf16>
  return %s : tensor<7xf16>
}
