// A masked contraction whose reduction is not innermost: iree-codegen-drop-vector-unit-dims drops the accumulator's
// unit dim but not the mask's, and the vector.mask verifier rejects it. Reached here through an f16 attention with a
// dynamic head dim whose K2 tile comes out as 1 (found by ireefuzz, seed 29411, x86-64-v2; also host and generic).
module {
func.func @main(%arg0: tensor<31x?xi32>, %arg1: tensor<?x31x?xf16>, %arg2: tensor<?x31x?xf16>, %arg3: tensor<?x31x1xf16>) -> tensor<?x31x1xf16> {
  %c1 = arith.constant 1 : index
  %dim_M = tensor.dim %arg0, %c1 : tensor<31x?xi32>
  %c2 = arith.constant 0 : index
  %dim_N = tensor.dim %arg1, %c2 : tensor<?x31x?xf16>
  %c3 = arith.constant 0.000000e+00 : f16
  %c4 = arith.constant 0xFC00 : f16
  %e5 = tensor.empty(%dim_N) : tensor<?x31x1xf16>
  %e7 = tensor.empty(%dim_N) : tensor<?x31x31xf16>
  %r6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e7 : tensor<?x31x31xf16>) {
  ^bb0(%b8: f16):
    %v9 = linalg.index 1 : index
    %v10 = linalg.index 2 : index
    %v11 = arith.cmpi ule, %v10, %v9 : index
    %v12 = arith.select %v11, %c3, %c4 : f16
    linalg.yield %v12 : f16
  } -> tensor<?x31x31xf16>
  %c13 = arith.constant 1.250000e-01 : f16
  %n0 = iree_linalg_ext.attention <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]}> ins(%arg1, %arg2, %arg3, %c13, %r6 : tensor<?x31x?xf16>, tensor<?x31x?xf16>, tensor<?x31x1xf16>, f16, tensor<?x31x31xf16>) outs(%e5 : tensor<?x31x1xf16>) {
  ^bb0(%score0: f32):
    iree_linalg_ext.yield %score0 : f32
  } -> tensor<?x31x1xf16>
  return %n0 : tensor<?x31x1xf16>
}
}
