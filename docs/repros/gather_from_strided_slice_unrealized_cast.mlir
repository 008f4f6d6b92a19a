func.func @main(%arg2: tensor<13x3x64xi32>, %arg3: tensor<13xi32>) -> tensor<13x3xi32> {
  %n2 = tensor.extract_slice %arg2[0, 0, 33] [13, 3, 1] [1, 1, 1] : tensor<13x3x64xi32> to tensor<13x3xi32>
  %e17 = tensor.empty() : tensor<13x3xi32>
  %n3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg3 : tensor<13xi32>) outs(%e17 : tensor<13x3xi32>) {
  ^bb0(%b18: i32, %b19: i32):
    %v20 = arith.index_cast %b18 : i32 to index
    %v21 = linalg.index 1 : index
    %v22 = tensor.extract %n2[%v20, %v21] : tensor<13x3xi32>
    linalg.yield %v22 : i32
  } -> tensor<13x3xi32>
  return %n3 : tensor<13x3xi32>
}
