module {
func.func @main(%arg0: tensor<1x?xf16>, %arg1: tensor<?xf32>, %arg2: tensor<?xf32>) -> tensor<6x?x6xf32> {
  %c1 = arith.constant 1 : index
  %dim_M = tensor.dim %arg0, %c1 : tensor<1x?xf16>
  %c2 = arith.constant 0 : index
  %dim_N = tensor.dim %arg2, %c2 : tensor<?xf32>
  %e3 = tensor.empty(%dim_M) : tensor<?xf32>
  %c4 = arith.constant 0xFF800000 : f32
  %e6 = tensor.empty() : tensor<f32>
  %f5 = linalg.fill ins(%c4 : f32) outs(%e6 : tensor<f32>) -> tensor<f32>
  %r7 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%arg1 : tensor<?xf32>) outs(%f5 : tensor<f32>) {
  ^bb0(%b8: f32, %b9: f32):
    %v10 = arith.maximumf %b9, %b8 : f32
    linalg.yield %v10 : f32
  } -> tensor<f32>
  %e11 = tensor.empty(%dim_M) : tensor<?xf32>
  %r12 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1, %r7 : tensor<?xf32>, tensor<f32>) outs(%e11 : tensor<?xf32>) {
  ^bb0(%b13: f32, %b14: f32, %b15: f32):
    %v16 = arith.subf %b13, %b14 : f32
    %v17 = math.exp %v16 : f32
    linalg.yield %v17 : f32
  } -> tensor<?xf32>
  %c18 = arith.constant 0.000000e+00 : f32
  %e20 = tensor.empty() : tensor<f32>
  %f19 = linalg.fill ins(%c18 : f32) outs(%e20 : tensor<f32>) -> tensor<f32>
  %r21 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%r12 : tensor<?xf32>) outs(%f19 : tensor<f32>) {
  ^bb0(%b22: f32, %b23: f32):
    %v24 = arith.addf %b23, %b22 : f32
    linalg.yield %v24 : f32
  } -> tensor<f32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r12, %r21 : tensor<?xf32>, tensor<f32>) outs(%e3 : tensor<?xf32>) {
  ^bb0(%b25: f32, %b26: f32, %b27: f32):
    %v28 = arith.divf %b25, %b26 : f32
    linalg.yield %v28 : f32
  } -> tensor<?xf32>
  %e29 = tensor.empty(%dim_N) : tensor<6x?x6xf16>
  %c30 = arith.constant 2.000000e+00 : f16
  %n1 = linalg.fill ins(%c30 : f16) outs(%e29 : tensor<6x?x6xf16>) -> tensor<6x?x6xf16>
  %c33 = arith.constant 0xFC00 : f16
  %e35 = tensor.empty(%dim_N) : tensor<6x?x6xf16>
  %f34 = linalg.fill ins(%c33 : f16) outs(%e35 : tensor<6x?x6xf16>) -> tensor<6x?x6xf16>
  %c36 = arith.constant 0 : i32
  %e38 = tensor.empty(%dim_N) : tensor<6x?x6xi32>
  %f37 = linalg.fill ins(%c36 : i32) outs(%e38 : tensor<6x?x6xi32>) -> tensor<6x?x6xi32>
  %n2, %other39 = iree_linalg_ext.topk dimension(2) ins(%n1 : tensor<6x?x6xf16>) outs(%f34, %f37 : tensor<6x?x6xf16>, tensor<6x?x6xi32>) {
  ^bb0(%x31: f16, %y32: f16):
    %v40 = arith.cmpf ogt, %x31, %y32 : f16
    iree_linalg_ext.yield %v40 : i1
  } -> tensor<6x?x6xf16>, tensor<6x?x6xi32>
  %n3 = linalg.softmax dimension(0) ins(%n0 : tensor<?xf32>) outs(%n0 : tensor<?xf32>) -> tensor<?xf32>
  %e41 = tensor.empty(%dim_N) : tensor<6x?x6xf16>
  %size42 = arith.constant 6.000000e+00 : f16
  %c43 = arith.constant 0.000000e+00 : f16
  %e45 = tensor.empty(%dim_N) : tensor<6x?xf16>
  %f44 = linalg.fill ins(%c43 : f16) outs(%e45 : tensor<6x?xf16>) -> tensor<6x?xf16>
  %r46 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%n2 : tensor<6x?x6xf16>) outs(%f44 : tensor<6x?xf16>) {
  ^bb0(%b47: f16, %b48: f16):
    %v49 = arith.addf %b48, %b47 : f16
    linalg.yield %v49 : f16
  } -> tensor<6x?xf16>
  %e50 = tensor.empty(%dim_N) : tensor<6x?x6xf16>
  %r51 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n2, %r46 : tensor<6x?x6xf16>, tensor<6x?xf16>) outs(%e50 : tensor<6x?x6xf16>) {
  ^bb0(%b52: f16, %b53: f16, %b54: f16):
    %v55 = arith.divf %b53, %size42 : f16
    %v56 = arith.subf %b52, %v55 : f16
    linalg.yield %v56 : f16
  } -> tensor<6x?x6xf16>
  %c57 = arith.constant 0.000000e+00 : f16
  %e59 = tensor.empty(%dim_N) : tensor<6x?xf16>
  %f58 = linalg.fill ins(%c57 : f16) outs(%e59 : tensor<6x?xf16>) -> tensor<6x?xf16>
  %r60 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%r51 : tensor<6x?x6xf16>) outs(%f58 : tensor<6x?xf16>) {
  ^bb0(%b61: f16, %b62: f16):
    %v63 = arith.mulf %b61, %b61 : f16
    %v64 = arith.addf %b62, %v63 : f16
    linalg.yield %v64 : f16
  } -> tensor<6x?xf16>
  %n4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r51, %r60 : tensor<6x?x6xf16>, tensor<6x?xf16>) outs(%e41 : tensor<6x?x6xf16>) {
  ^bb0(%b65: f16, %b66: f16, %b67: f16):
    %v68 = arith.divf %b66, %size42 : f16
    %v69 = arith.constant 1.000000e-02 : f16
    %v70 = arith.addf %v68, %v69 : f16
    %v71 = math.rsqrt %v70 : f16
    %v72 = arith.mulf %b65, %v71 : f16
    linalg.yield %v72 : f16
  } -> tensor<6x?x6xf16>
  %e73 = tensor.empty(%dim_N) : tensor<6x?x6xf32>
  %n5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n4 : tensor<6x?x6xf16>) outs(%e73 : tensor<6x?x6xf32>) {
  ^bb0(%b74: f16, %b75: f32):
    %v76 = arith.extf %b74 : f16 to f32
    linalg.yield %v76 : f32
  } -> tensor<6x?x6xf32>
  return %n5 : tensor<6x?x6xf32>
}
}
