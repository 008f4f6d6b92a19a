module {
func.func @main(%arg0: tensor<22xf16>) -> tensor<3xf16> {
  %n0 = tensor.extract_slice %arg0[19] [3] [1] : tensor<22xf16> to tensor<3xf16>
  %e2 = tensor.empty() : tensor<3xf16>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%n0 : tensor<3xf16>) outs(%e2 : tensor<3xf16>) {
  ^bb0(%b3: f16, %b4: f16):
    linalg.yield %b3 : f16
  } -> tensor<3xf16>
  %e11 = tensor.empty() : tensor<3xi32>
  %r10 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e11 : tensor<3xi32>) {
  ^bb0(%b12: i32):
    %v13 = linalg.index 0 : index
    %v14 = arith.index_cast %v13 : index to i32
    linalg.yield %v14 : i32
  } -> tensor<3xi32>
  %n1, %other9 = iree_linalg_ext.sort dimension(0) outs(%r1, %r10 : tensor<3xf16>, tensor<3xi32>) {
  ^bb0(%x5: f16, %y6: f16, %i7: i32, %j8: i32):
    %v15 = arith.cmpf oeq, %x5, %y6 : f16
    %v16 = arith.cmpi slt, %i7, %j8 : i32
    %v17 = arith.andi %v15, %v16 : i1
    %v18 = arith.cmpf olt, %x5, %y6 : f16
    %v19 = arith.ori %v18, %v17 : i1
    iree_linalg_ext.yield %v19 : i1
  } -> tensor<3xf16>, tensor<3xi32>
  return %n1 : tensor<3xf16>
}
}
