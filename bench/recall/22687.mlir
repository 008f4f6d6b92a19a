// iree-org/iree#22687 "[GlobalOpt] SinkTransposeThroughExtractSlice pattern failed in PropagateLinalgTranspose pass":
// the issue's program (util.func made func.func): a transpose, an expand_shape adding unit dims, and a
// rank-reducing extract_slice; sinking the transpose through the slice computed the wrong rank-reduced permutation.
func.func @rank_reduced_extract_transposed(%arg0: tensor<80x80x1203xf16>) -> tensor<1203x5x80xf16> {
  %0 = tensor.empty() : tensor<1203x80x80xf16>
  %transposed = linalg.transpose ins(%arg0 : tensor<80x80x1203xf16>) outs(%0 : tensor<1203x80x80xf16>) permutation = [2, 0, 1]
  %expanded = tensor.expand_shape %transposed [[0, 1], [2], [3, 4]] output_shape [1, 1203, 80, 80, 1] : tensor<1203x80x80xf16> into tensor<1x1203x80x80x1xf16>
  %extracted_slice = tensor.extract_slice %expanded[0, 0, 0, 0, 0] [1, 1203, 5, 80, 1] [1, 1, 1, 1, 1] : tensor<1x1203x80x80x1xf16> to tensor<1203x5x80xf16>
  return %extracted_slice : tensor<1203x5x80xf16>
}
