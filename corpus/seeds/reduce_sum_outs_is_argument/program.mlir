module {
func.func @main(%arg0: tensor<?x?xf32>, %arg1: tensor<?xf32>) -> tensor<?xf32> {
  %c1 = arith.constant 0 : index
  %dim_M = tensor.dim %arg0, %c1 : tensor<?x?xf32>
  %c2 = arith.constant 1 : index
  %dim_N = tensor.dim %arg0, %c2 : tensor<?x?xf32>
  %c3 = arith.constant 0.000000e+00 : f32
  %f4 = linalg.fill ins(%c3 : f32) outs(%arg1 : tensor<?xf32>) -> tensor<?xf32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<?x?xf32>) outs(%f4 : tensor<?xf32>) {
  ^bb0(%b5: f32, %b6: f32):
    %v7 = arith.addf %b6, %b5 : f32
    linalg.yield %v7 : f32
  } -> tensor<?xf32>
  return %n0 : tensor<?xf32>
}
}
