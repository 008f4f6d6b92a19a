module {
func.func @main(%arg0: tensor<31xf32>, %arg1: tensor<31xf32>) -> (tensor<31xf32>, tensor<31xf32>, tensor<31x1xf32>) {
  %size1 = arith.constant 3.100000e+01 : f32
  %c2 = arith.constant 0.000000e+00 : f32
  %e4 = tensor.empty() : tensor<f32>
  %f3 = linalg.fill ins(%c2 : f32) outs(%e4 : tensor<f32>) -> tensor<f32>
  %r5 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%arg0 : tensor<31xf32>) outs(%f3 : tensor<f32>) {
  ^bb0(%b6: f32, %b7: f32):
    %v8 = arith.mulf %b6, %b6 : f32
    %v9 = arith.addf %b7, %v8 : f32
    linalg.yield %v9 : f32
  } -> tensor<f32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0, %r5 : tensor<31xf32>, tensor<f32>) outs(%arg0 : tensor<31xf32>) {
  ^bb0(%b10: f32, %b11: f32, %b12: f32):
    %v13 = arith.divf %b11, %size1 : f32
    %v14 = arith.constant 1.000000e-02 : f32
    %v15 = arith.addf %v13, %v14 : f32
    %v16 = math.rsqrt %v15 : f32
    %v17 = arith.mulf %b10, %v16 : f32
    linalg.yield %v17 : f32
  } -> tensor<31xf32>
  %n1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0 : tensor<31xf32>) outs(%arg0 : tensor<31xf32>) {
  ^bb0(%b18: f32, %b19: f32):
    %v20 = math.absf %b18 : f32
    %v21 = math.sqrt %v20 : f32
    linalg.yield %v21 : f32
  } -> tensor<31xf32>
  %n2 = tensor.expand_shape %arg1 [[0, 1]] output_shape [31, 1] : tensor<31xf32> into tensor<31x1xf32>
  %e22 = tensor.empty() : tensor<1x31xf32>
  %n3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n2 : tensor<31x1xf32>) outs(%e22 : tensor<1x31xf32>) {
  ^bb0(%b23: f32, %b24: f32):
    linalg.yield %b23 : f32
  } -> tensor<1x31xf32>
  %e26 = tensor.empty() : tensor<31x1xf32>
  %r25 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n2 : tensor<31x1xf32>) outs(%e26 : tensor<31x1xf32>) {
  ^bb0(%b27: f32, %b28: f32):
    linalg.yield %b27 : f32
  } -> tensor<31x1xf32>
  %e35 = tensor.empty() : tensor<31x1xi32>
  %r34 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e35 : tensor<31x1xi32>) {
  ^bb0(%b36: i32):
    %v37 = linalg.index 0 : index
    %v38 = arith.index_cast %v37 : index to i32
    linalg.yield %v38 : i32
  } -> tensor<31x1xi32>
  %n4, %other33 = iree_linalg_ext.sort dimension(0) outs(%r25, %r34 : tensor<31x1xf32>, tensor<31x1xi32>) {
  ^bb0(%x29: f32, %y30: f32, %i31: i32, %j32: i32):
    %v39 = arith.cmpf oeq, %x29, %y30 : f32
    %v40 = arith.cmpi slt, %i31, %j32 : i32
    %v41 = arith.andi %v39, %v40 : i1
    %v42 = arith.cmpf olt, %x29, %y30 : f32
    %v43 = arith.ori %v42, %v41 : i1
    iree_linalg_ext.yield %v43 : i1
  } -> tensor<31x1xf32>, tensor<31x1xi32>
  return %n0, %n1, %n4 : tensor<31xf32>, tensor<31xf32>, tensor<31x1xf32>
}
}
