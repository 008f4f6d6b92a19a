module {
func.func @main() -> tensor<3xi32> {
  %e1 = tensor.empty() : tensor<3xi32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e1 : tensor<3xi32>) {
  ^bb0(%b2: i32):
    %v3 = linalg.index 0 : index
    %v4 = arith.index_cast %v3 : index to i32
    linalg.yield %v4 : i32
  } -> tensor<3xi32>
  %e6 = tensor.empty() : tensor<3xi32>
  %r5 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%n0 : tensor<3xi32>) outs(%e6 : tensor<3xi32>) {
  ^bb0(%b7: i32, %b8: i32):
    linalg.yield %b7 : i32
  } -> tensor<3xi32>
  %e15 = tensor.empty() : tensor<3xi32>
  %r14 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e15 : tensor<3xi32>) {
  ^bb0(%b16: i32):
    %v17 = linalg.index 0 : index
    %v18 = arith.index_cast %v17 : index to i32
    linalg.yield %v18 : i32
  } -> tensor<3xi32>
  %n1, %other13 = iree_linalg_ext.sort dimension(0) outs(%r5, %r14 : tensor<3xi32>, tensor<3xi32>) {
  ^bb0(%x9: i32, %y10: i32, %i11: i32, %j12: i32):
    %v19 = arith.cmpi eq, %x9, %y10 : i32
    %v20 = arith.cmpi slt, %i11, %j12 : i32
    %v21 = arith.andi %v19, %v20 : i1
    %v22 = arith.cmpi slt, %x9, %y10 : i32
    %v23 = arith.ori %v22, %v21 : i1
    iree_linalg_ext.yield %v23 : i1
  } -> tensor<3xi32>, tensor<3xi32>
  return %n1 : tensor<3xi32>
}
}
