func.func @main(%x: tensor<4x37xf32>) -> tensor<4xi32> {
  %ninf = arith.constant 0xFF800000 : f32
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %ei = tensor.empty() : tensor<4xi32>
  %fi = linalg.fill ins(%z : i32) outs(%ei : tensor<4xi32>) -> tensor<4xi32>
  %v, %i = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x37xf32>) outs(%f, %fi : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%a: f32, %m: f32, %k: i32):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %a, %m : f32
    %nm = arith.select %gt, %a, %m : f32
    %nk = arith.select %gt, %jj, %k : i32
    linalg.yield %nm, %nk : f32, i32
  } -> (tensor<4xf32>, tensor<4xi32>)
  return %i : tensor<4xi32>
}
