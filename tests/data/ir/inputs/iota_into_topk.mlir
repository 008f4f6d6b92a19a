// stop 47's host campaign (seed 83117): an f32 iota read by a top-k gets a dispatch of its own (fusion/materialized-producer/topk-operand, by design); its consumer made an add
module {
func.func @main(%arg0: tensor<?x2x1xi32>) -> tensor<?x2x1xi32> {
  %c1 = arith.constant 0 : index
  %dim_M = tensor.dim %arg0, %c1 : tensor<?x2x1xi32>
  %e2 = tensor.empty(%dim_M) : tensor<?x2x1xf32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e2 : tensor<?x2x1xf32>) {
  ^bb0(%b3: f32):
    %v4 = linalg.index 1 : index
    %v5 = arith.index_cast %v4 : index to i32
    %v6 = arith.sitofp %v5 : i32 to f32
    linalg.yield %v6 : f32
  } -> tensor<?x2x1xf32>
  %c9 = arith.constant 0xFF800000 : f32
  %e11 = tensor.empty(%dim_M) : tensor<?x2x1xf32>
  %f10 = linalg.fill ins(%c9 : f32) outs(%e11 : tensor<?x2x1xf32>) -> tensor<?x2x1xf32>
  %c12 = arith.constant 0 : i32
  %e14 = tensor.empty(%dim_M) : tensor<?x2x1xi32>
  %f13 = linalg.fill ins(%c12 : i32) outs(%e14 : tensor<?x2x1xi32>) -> tensor<?x2x1xi32>
  %other15, %n1 = iree_linalg_ext.topk dimension(2) ins(%n0 : tensor<?x2x1xf32>) outs(%f10, %f13 : tensor<?x2x1xf32>, tensor<?x2x1xi32>) {
  ^bb0(%x7: f32, %y8: f32):
    %v16 = arith.cmpf ogt, %x7, %y8 : f32
    iree_linalg_ext.yield %v16 : i1
  } -> tensor<?x2x1xf32>, tensor<?x2x1xi32>
  %e17 = tensor.empty(%dim_M) : tensor<?x2x1xi32>
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n1, %arg0 : tensor<?x2x1xi32>, tensor<?x2x1xi32>) outs(%e17 : tensor<?x2x1xi32>) {
  ^bb0(%b18: i32, %b19: i32, %b20: i32):
    %v21 = arith.addi %b18, %b19 : i32
    linalg.yield %v21 : i32
  } -> tensor<?x2x1xi32>
  return %n2 : tensor<?x2x1xi32>
}
}
