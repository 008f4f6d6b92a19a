module {
func.func @main(%arg0: tensor<4x2048x51200xi32>) -> (tensor<4x2048xi32>, tensor<4x2048xi32>) {
  %e1 = tensor.empty() : tensor<4x2048x51200xi32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e1 : tensor<4x2048x51200xi32>) {
  ^bb0(%b2: i32):
    %v3 = linalg.index 2 : index
    %v4 = arith.index_cast %v3 : index to i32
    linalg.yield %v4 : i32
  } -> tensor<4x2048x51200xi32>
  %e5 = tensor.empty() : tensor<4x2048x51200xi32>
  %n1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n0, %arg0 : tensor<4x2048x51200xi32>, tensor<4x2048x51200xi32>) outs(%e5 : tensor<4x2048x51200xi32>) {
  ^bb0(%b6: i32, %b7: i32, %b8: i32):
    %v9 = arith.addi %b6, %b7 : i32
    linalg.yield %v9 : i32
  } -> tensor<4x2048x51200xi32>
  %e10 = tensor.empty() : tensor<4x2048xi32>
  %c11 = arith.constant -2147483648 : i32
  %f12 = linalg.fill ins(%c11 : i32) outs(%e10 : tensor<4x2048xi32>) -> tensor<4x2048xi32>
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%n1 : tensor<4x2048x51200xi32>) outs(%f12 : tensor<4x2048xi32>) {
  ^bb0(%b13: i32, %b14: i32):
    %v15 = arith.maxsi %b14, %b13 : i32
    linalg.yield %v15 : i32
  } -> tensor<4x2048xi32>
  %e16 = tensor.empty() : tensor<4x2048x51200xi32>
  %n3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n0, %arg0 : tensor<4x2048x51200xi32>, tensor<4x2048x51200xi32>) outs(%e16 : tensor<4x2048x51200xi32>) {
  ^bb0(%b17: i32, %b18: i32, %b19: i32):
    %v20 = arith.muli %b17, %b18 : i32
    linalg.yield %v20 : i32
  } -> tensor<4x2048x51200xi32>
  %e21 = tensor.empty() : tensor<4x2048xi32>
  %c22 = arith.constant -2147483648 : i32
  %f23 = linalg.fill ins(%c22 : i32) outs(%e21 : tensor<4x2048xi32>) -> tensor<4x2048xi32>
  %n4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%n3 : tensor<4x2048x51200xi32>) outs(%f23 : tensor<4x2048xi32>) {
  ^bb0(%b24: i32, %b25: i32):
    %v26 = arith.maxsi %b25, %b24 : i32
    linalg.yield %v26 : i32
  } -> tensor<4x2048xi32>
  return %n2, %n4 : tensor<4x2048xi32>, tensor<4x2048xi32>
}
}
