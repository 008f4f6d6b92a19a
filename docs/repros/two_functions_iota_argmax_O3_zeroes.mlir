module {
func.func @g0(%arg0: tensor<17x5x17xf32>, %arg1: tensor<17x16x17xf32>, %arg2: tensor<17x64xf16>, %arg3: tensor<17x17x32xf32>, %arg4: tensor<17x16x32xf32>) -> (tensor<17xf16>, tensor<17x16x32xf32>, tensor<16x17xi32>) {
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%arg2 : tensor<17x64xf16>) {
  ^bb0(%b1: f16):
    %v2 = linalg.index 0 : index
    %v3 = arith.index_cast %v2 : index to i32
    %v4 = arith.sitofp %v3 : i32 to f16
    linalg.yield %v4 : f16
  } -> tensor<17x64xf16>
  %c5 = arith.constant 0xFC00 : f16
  %e7 = tensor.empty() : tensor<17xf16>
  %f6 = linalg.fill ins(%c5 : f16) outs(%e7 : tensor<17xf16>) -> tensor<17xf16>
  %c8 = arith.constant 0 : i32
  %e10 = tensor.empty() : tensor<17xi32>
  %f9 = linalg.fill ins(%c8 : i32) outs(%e10 : tensor<17xi32>) -> tensor<17xi32>
  %n1, %other14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%n0 : tensor<17x64xf16>) outs(%f6, %f9 : tensor<17xf16>, tensor<17xi32>) {
  ^bb0(%b11: f16, %b12: f16, %b13: i32):
    %v15 = linalg.index 1 : index
    %v16 = arith.index_cast %v15 : index to i32
    %v17 = arith.cmpf oeq, %b11, %b12 : f16
    %v18 = arith.cmpi slt, %v16, %b13 : i32
    %v19 = arith.andi %v17, %v18 : i1
    %v20 = arith.cmpf ogt, %b11, %b12 : f16
    %v21 = arith.ori %v20, %v19 : i1
    %v22 = arith.select %v21, %b11, %b12 : f16
    %v23 = arith.select %v21, %v16, %b13 : i32
    linalg.yield %v22, %v23 : f16, i32
  } -> (tensor<17xf16>, tensor<17xi32>)
  %c24 = arith.constant 0.000000e+00 : f32
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%arg4 : tensor<17x16x32xf32>) {
  ^bb0(%b25: f32):
    linalg.yield %c24 : f32
  } -> tensor<17x16x32xf32>
  %n3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg1, %arg3 : tensor<17x16x17xf32>, tensor<17x17x32xf32>) outs(%n2 : tensor<17x16x32xf32>) {
  ^bb0(%b26: f32, %b27: f32, %b28: f32):
    %v29 = arith.mulf %b26, %b27 : f32
    %v30 = arith.addf %b28, %v29 : f32
    linalg.yield %v30 : f32
  } -> tensor<17x16x32xf32>
  %c31 = arith.constant 0xFF800000 : f32
  %e33 = tensor.empty() : tensor<16x17xf32>
  %f32 = linalg.fill ins(%c31 : f32) outs(%e33 : tensor<16x17xf32>) -> tensor<16x17xf32>
  %c34 = arith.constant 0 : i32
  %e36 = tensor.empty() : tensor<16x17xi32>
  %f35 = linalg.fill ins(%c34 : i32) outs(%e36 : tensor<16x17xi32>) -> tensor<16x17xi32>
  %other40, %n4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%arg1 : tensor<17x16x17xf32>) outs(%f32, %f35 : tensor<16x17xf32>, tensor<16x17xi32>) {
  ^bb0(%b37: f32, %b38: f32, %b39: i32):
    %v41 = linalg.index 0 : index
    %v42 = arith.index_cast %v41 : index to i32
    %v43 = arith.cmpf oeq, %b37, %b38 : f32
    %v44 = arith.cmpi slt, %v42, %b39 : i32
    %v45 = arith.andi %v43, %v44 : i1
    %v46 = arith.cmpf ogt, %b37, %b38 : f32
    %v47 = arith.ori %v46, %v45 : i1
    %v48 = arith.select %v47, %b37, %b38 : f32
    %v49 = arith.select %v47, %v42, %b39 : i32
    linalg.yield %v48, %v49 : f32, i32
  } -> (tensor<16x17xf32>, tensor<16x17xi32>)
  return %n1, %n3, %n4 : tensor<17xf16>, tensor<17x16x32xf32>, tensor<16x17xi32>
}
func.func @g1(%arg0: tensor<17x5x17xf32>, %arg1: tensor<17x16x17xf32>, %arg2: tensor<17x64xf16>) -> tensor<1x17xf16> {
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%arg2 : tensor<17x64xf16>) {
  ^bb0(%b1: f16):
    %v2 = linalg.index 0 : index
    %v3 = arith.index_cast %v2 : index to i32
    %v4 = arith.sitofp %v3 : i32 to f16
    linalg.yield %v4 : f16
  } -> tensor<17x64xf16>
  %c5 = arith.constant 0xFC00 : f16
  %e7 = tensor.empty() : tensor<17xf16>
  %f6 = linalg.fill ins(%c5 : f16) outs(%e7 : tensor<17xf16>) -> tensor<17xf16>
  %c8 = arith.constant 0 : i32
  %e10 = tensor.empty() : tensor<17xi32>
  %f9 = linalg.fill ins(%c8 : i32) outs(%e10 : tensor<17xi32>) -> tensor<17xi32>
  %n1, %other14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%n0 : tensor<17x64xf16>) outs(%f6, %f9 : tensor<17xf16>, tensor<17xi32>) {
  ^bb0(%b11: f16, %b12: f16, %b13: i32):
    %v15 = linalg.index 1 : index
    %v16 = arith.index_cast %v15 : index to i32
    %v17 = arith.cmpf oeq, %b11, %b12 : f16
    %v18 = arith.cmpi slt, %v16, %b13 : i32
    %v19 = arith.andi %v17, %v18 : i1
    %v20 = arith.cmpf ogt, %b11, %b12 : f16
    %v21 = arith.ori %v20, %v19 : i1
    %v22 = arith.select %v21, %b11, %b12 : f16
    %v23 = arith.select %v21, %v16, %b13 : i32
    linalg.yield %v22, %v23 : f16, i32
  } -> (tensor<17xf16>, tensor<17xi32>)
  %e25 = tensor.empty() : tensor<17xf16>
  %r24 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%n1 : tensor<17xf16>) outs(%e25 : tensor<17xf16>) {
  ^bb0(%b26: f16, %b27: f16):
    linalg.yield %b26 : f16
  } -> tensor<17xf16>
  %e34 = tensor.empty() : tensor<17xi32>
  %r33 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e34 : tensor<17xi32>) {
  ^bb0(%b35: i32):
    %v36 = linalg.index 0 : index
    %v37 = arith.index_cast %v36 : index to i32
    linalg.yield %v37 : i32
  } -> tensor<17xi32>
  %n2, %other32 = iree_linalg_ext.sort dimension(0) outs(%r24, %r33 : tensor<17xf16>, tensor<17xi32>) {
  ^bb0(%x28: f16, %y29: f16, %i30: i32, %j31: i32):
    %v38 = arith.cmpf oeq, %x28, %y29 : f16
    %v39 = arith.cmpi slt, %i30, %j31 : i32
    %v40 = arith.andi %v38, %v39 : i1
    %v41 = arith.cmpf olt, %x28, %y29 : f16
    %v42 = arith.ori %v41, %v40 : i1
    iree_linalg_ext.yield %v42 : i1
  } -> tensor<17xf16>, tensor<17xi32>
  %e43 = tensor.empty() : tensor<17xf16>
  %n3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%n2 : tensor<17xf16>) outs(%e43 : tensor<17xf16>) {
  ^bb0(%b44: f16, %b45: f16):
    %v46 = math.absf %b44 : f16
    linalg.yield %v46 : f16
  } -> tensor<17xf16>
  %e47 = tensor.empty() : tensor<1x17xf16>
  %n4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n2 : tensor<17xf16>) outs(%e47 : tensor<1x17xf16>) {
  ^bb0(%b48: f16, %b49: f16):
    linalg.yield %b48 : f16
  } -> tensor<1x17xf16>
  return %n4 : tensor<1x17xf16>
}
}
