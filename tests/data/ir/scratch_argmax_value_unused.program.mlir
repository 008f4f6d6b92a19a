// argmax over dim 0 returning only the index: the running maximum still needs an accumulator (required scratch)
func.func @main(%input: tensor<48x?xf32>) -> tensor<?xi32> {
  %c1 = arith.constant 1 : index
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %n = tensor.dim %input, %c1 : tensor<48x?xf32>
  %max_init = tensor.empty(%n) : tensor<?xf32>
  %index_init = tensor.empty(%n) : tensor<?xi32>
  %max_fill = linalg.fill ins(%neg_inf : f32) outs(%max_init : tensor<?xf32>) -> tensor<?xf32>
  %index_fill = linalg.fill ins(%zero : i32) outs(%index_init : tensor<?xi32>) -> tensor<?xi32>
  %max, %index = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                                                  affine_map<(d0, d1) -> (d1)>],
                                 iterator_types = ["reduction", "parallel"]}
      ins(%input : tensor<48x?xf32>) outs(%max_fill, %index_fill : tensor<?xf32>, tensor<?xi32>) {
  ^bb0(%x: f32, %best: f32, %best_index: i32):
    %row = linalg.index 0 : index
    %row_i32 = arith.index_cast %row : index to i32
    %greater = arith.cmpf ogt, %x, %best : f32
    %new_best = arith.select %greater, %x, %best : f32
    %new_index = arith.select %greater, %row_i32, %best_index : i32
    linalg.yield %new_best, %new_index : f32, i32
  } -> (tensor<?xf32>, tensor<?xi32>)
  return %index : tensor<?xi32>
}
