module {
func.func @main(%arg0: tensor<1x?x1xf32>) -> (tensor<1x?xi32>, tensor<1x?x1xf32>) {
  %c1 = arith.constant 1 : index
  %dim_M = tensor.dim %arg0, %c1 : tensor<1x?x1xf32>
  %c2 = arith.constant 0xFF800000 : f32
  %e4 = tensor.empty(%dim_M) : tensor<1x?xf32>
  %f3 = linalg.fill ins(%c2 : f32) outs(%e4 : tensor<1x?xf32>) -> tensor<1x?xf32>
  %c5 = arith.constant 0 : i32
  %e7 = tensor.empty(%dim_M) : tensor<1x?xi32>
  %f6 = linalg.fill ins(%c5 : i32) outs(%e7 : tensor<1x?xi32>) -> tensor<1x?xi32>
  %other11, %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<1x?x1xf32>) outs(%f3, %f6 : tensor<1x?xf32>, tensor<1x?xi32>) {
  ^bb0(%b8: f32, %b9: f32, %b10: i32):
    %v12 = linalg.index 2 : index
    %v13 = arith.index_cast %v12 : index to i32
    %v14 = arith.cmpf oeq, %b8, %b9 : f32
    %v15 = arith.cmpi slt, %v13, %b10 : i32
    %v16 = arith.andi %v14, %v15 : i1
    %v17 = arith.cmpf ogt, %b8, %b9 : f32
    %v18 = arith.ori %v17, %v16 : i1
    %v19 = arith.select %v18, %b8, %b9 : f32
    %v20 = arith.select %v18, %v13, %b10 : i32
    linalg.yield %v19, %v20 : f32, i32
  } -> (tensor<1x?xf32>, tensor<1x?xi32>)
  %e21 = tensor.empty(%dim_M) : tensor<1x?x1xf32>
  %n1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x?x1xf32>) outs(%e21 : tensor<1x?x1xf32>) {
  ^bb0(%b22: f32, %b23: f32):
    %v24 = arith.constant 1.702000e+00 : f32
    %v25 = arith.mulf %b22, %v24 : f32
    linalg.yield %v25 : f32
  } -> tensor<1x?x1xf32>
  return %n0, %n1 : tensor<1x?xi32>, tensor<1x?x1xf32>
}
}
