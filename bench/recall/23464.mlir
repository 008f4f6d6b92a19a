// iree-org/iree#23464 "[Codegen] llvm-cpu codegen crash on gather + matmul on znver4": the issue's
// reproducer (iree_linalg_ext.gather of expert weights by ids, fused with a linalg.generic matmul);
// the stored excerpt stops after the gather, so the matmul generic is written as the issue's comment
// describes it (gathered [n_expert_used, n_tokens, n_out, n_embd] x input [n_embd, n_tokens]).
// Compile: --iree-llvmcpu-target-cpu=znver4 ("exceeded stack allocation limit of 32768 bytes").
module {
  util.func public @repro(
      %input: tensor<?x?xf32>,
      %weights: tensor<?x?x?xf32>,
      %ids: tensor<?x?xi32>
  ) -> tensor<?x?x?xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %n_embd = tensor.dim %input, %c0 : tensor<?x?xf32>
    %n_tokens = tensor.dim %input, %c1 : tensor<?x?xf32>
    %n_out = tensor.dim %weights, %c1 : tensor<?x?x?xf32>
    %n_expert_used = tensor.dim %ids, %c0 : tensor<?x?xi32>
    %gathered_init = tensor.empty(%n_expert_used, %n_tokens, %n_out, %n_embd) : tensor<?x?x?x?xf32>
    %gathered = iree_linalg_ext.gather dimension_map = [0]
        ins(%weights, %ids : tensor<?x?x?xf32>, tensor<?x?xi32>)
        outs(%gathered_init : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
    %out_init = tensor.empty(%n_expert_used, %n_tokens, %n_out) : tensor<?x?x?xf32>
    %out_fill = linalg.fill ins(%zero : f32) outs(%out_init : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %out = linalg.generic {
        indexing_maps = [affine_map<(e, t, o, k) -> (e, t, o, k)>,
                         affine_map<(e, t, o, k) -> (k, t)>,
                         affine_map<(e, t, o, k) -> (e, t, o)>],
        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%gathered, %input : tensor<?x?x?x?xf32>, tensor<?x?xf32>) outs(%out_fill : tensor<?x?x?xf32>) {
    ^bb0(%w: f32, %x: f32, %acc: f32):
      %m = arith.mulf %w, %x : f32
      %s = arith.addf %m, %acc : f32
      linalg.yield %s : f32
    } -> tensor<?x?x?xf32>
    util.return %out : tensor<?x?x?xf32>
  }
}
