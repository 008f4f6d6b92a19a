// Round 41's causal_mask>atan>asinh as a raw program: asinh of a causal mask (-1e4 where masked), written into a dead atan's tensor.
module {
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e1 = tensor.empty() : tensor<8x8xf32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<8x8xf32>) outs(%e1 : tensor<8x8xf32>) {
  ^bb0(%b2: f32, %b3: f32):
    %v4 = linalg.index 0 : index
    %v5 = linalg.index 1 : index
    %v6 = arith.constant 0 : index
    %v7 = arith.addi %v4, %v6 : index
    %v8 = arith.cmpi sle, %v5, %v7 : index
    %v9 = arith.constant -1.000000e+04 : f32
    %v10 = arith.select %v8, %b2, %v9 : f32
    linalg.yield %v10 : f32
  } -> tensor<8x8xf32>
  %e11 = tensor.empty() : tensor<8x8xf32>
  %n1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n0 : tensor<8x8xf32>) outs(%e11 : tensor<8x8xf32>) {
  ^bb0(%b12: f32, %b13: f32):
    %v14 = math.atan %b12 : f32
    linalg.yield %v14 : f32
  } -> tensor<8x8xf32>
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n0 : tensor<8x8xf32>) outs(%n1 : tensor<8x8xf32>) {
  ^bb0(%b15: f32, %b16: f32):
    %v17 = math.asinh %b15 : f32
    linalg.yield %v17 : f32
  } -> tensor<8x8xf32>
  return %n2 : tensor<8x8xf32>
}
}
