// top-k whose index result is unused: the indices still need a scratch tile (required scratch)
func.func @main(%input: tensor<15x17x17xf32>) -> tensor<15x17x7xf32> {
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %values_init = tensor.empty() : tensor<15x17x7xf32>
  %indices_init = tensor.empty() : tensor<15x17x7xi32>
  %values_fill = linalg.fill ins(%neg_inf : f32) outs(%values_init : tensor<15x17x7xf32>) -> tensor<15x17x7xf32>
  %indices_fill = linalg.fill ins(%zero : i32) outs(%indices_init : tensor<15x17x7xi32>) -> tensor<15x17x7xi32>
  %values, %indices = iree_linalg_ext.topk dimension(2) ins(%input : tensor<15x17x17xf32>)
      outs(%values_fill, %indices_fill : tensor<15x17x7xf32>, tensor<15x17x7xi32>) {
  ^bb0(%a: f32, %b: f32):
    %greater = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %greater : i1
  } -> tensor<15x17x7xf32>, tensor<15x17x7xi32>
  return %values : tensor<15x17x7xf32>
}
