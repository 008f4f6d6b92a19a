module {
func.func @main(%arg0: tensor<7x17x7xf32>) -> tensor<7x17x7xf32> {
  %e1 = tensor.empty() : tensor<7x17x7xf32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<7x17x7xf32>) outs(%e1 : tensor<7x17x7xf32>) {
  ^bb0(%b2: f32, %b3: f32):
    %v4 = linalg.index 1 : index
    %v5 = linalg.index 2 : index
    %v6 = arith.constant 1 : index
    %v7 = arith.addi %v4, %v6 : index
    %v8 = arith.cmpi sle, %v5, %v7 : index
    %v9 = arith.constant -6.400000e+01 : f32
    %v10 = arith.select %v8, %b2, %v9 : f32
    linalg.yield %v10 : f32
  } -> tensor<7x17x7xf32>
  return %n0 : tensor<7x17x7xf32>
}
}
