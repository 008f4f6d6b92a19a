// iree-org/iree#23277 "Compiler crash in LLVMCPUSelectLoweringStrategy with dynamic-shape
// iree_linalg_ext.attention": the issue's reproducer (the attention region's yield, cut from the
// stored excerpt, completed as the op requires; the
// indexing_maps written as a property, <{...}>, as 3.13's parser requires; the
// f32 %scale argument made a constant, since ireefuzz check feeds tensors only).
module @attention_crash {
  util.func public @attention(
      %query: tensor<?x?x?xf32>,
      %key: tensor<?x?x?xf32>,
      %value: tensor<?x?x?xf32>
  ) -> tensor<?x?x?xf32> {
    %scale = arith.constant 0.125 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %batch = tensor.dim %query, %c0 : tensor<?x?x?xf32>
    %seq_len = tensor.dim %query, %c1 : tensor<?x?x?xf32>
    %head_dim = tensor.dim %query, %c2 : tensor<?x?x?xf32>
    %output_init = tensor.empty(%batch, %seq_len, %head_dim) : tensor<?x?x?xf32>
    %output = iree_linalg_ext.attention {
      indexing_maps = [
        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>,
        affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2)>,
        affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4)>,
        affine_map<(d0, d1, d2, d3, d4) -> ()>,
        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>
      ]
    } ins(%query, %key, %value, %scale : tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>, f32)
      outs(%output_init : tensor<?x?x?xf32>) {
    ^bb0(%score: f32):
      iree_linalg_ext.yield %score : f32
    } -> tensor<?x?x?xf32>
    util.return %output : tensor<?x?x?xf32>
  }
}
