// iree-org/iree#23142 "[DT][CPU] Incorrect results with linalg op with index semantics": the issue's
// reproducer (a generic matmul, then a generic that masks it by its own position with -inf). The
// stored excerpt stops at the mask's tensor.empty; the mask generic is written as its name and the
// visible constants say (positions j > i get -inf, a causal mask).
// Compile with data tiling: --iree-opt-data-tiling=true.
#map_matmul_lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_matmul_rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#map_matmul_out = affine_map<(d0, d1, d2) -> (d0, d1)>
#map_identity = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul_with_index_mask(%lhs: tensor<16x64xf32>, %rhs: tensor<64x16xf32>) -> tensor<16x16xf32> {
    %cst_zero = arith.constant 0.0 : f32
    %cst_neg_inf = arith.constant 0xFF800000 : i32
    %neg_inf_f32 = arith.bitcast %cst_neg_inf : i32 to f32
    %empty_matmul = tensor.empty() : tensor<16x16xf32>
    %fill_matmul = linalg.fill ins(%cst_zero : f32) outs(%empty_matmul : tensor<16x16xf32>) -> tensor<16x16xf32>
    %matmul = linalg.generic {
      indexing_maps = [#map_matmul_lhs, #map_matmul_rhs, #map_matmul_out],
      iterator_types = ["parallel", "parallel", "reduction"]
    } ins(%lhs, %rhs : tensor<16x64xf32>, tensor<64x16xf32>)
      outs(%fill_matmul : tensor<16x16xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %mul = arith.mulf %a, %b : f32
      %add = arith.addf %mul, %c : f32
      linalg.yield %add : f32
    } -> tensor<16x16xf32>
    %empty_mask = tensor.empty() : tensor<16x16xf32>
    %masked = linalg.generic {indexing_maps = [#map_identity, #map_identity], iterator_types = ["parallel", "parallel"]}
        ins(%matmul : tensor<16x16xf32>) outs(%empty_mask : tensor<16x16xf32>) {
    ^bb0(%v: f32, %o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %keep = arith.cmpi ule, %j, %i : index
      %r = arith.select %keep, %v, %neg_inf_f32 : f32
      linalg.yield %r : f32
    } -> tensor<16x16xf32>
    return %masked : tensor<16x16xf32>
  }
}
