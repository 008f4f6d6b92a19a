module {
func.func @main(%arg0: tensor<32xi32>, %arg1: tensor<16xi32>) -> (tensor<32xi32>, tensor<i32>, tensor<48xi32>) {
  %e2 = tensor.empty() : tensor<32xi32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0 : tensor<32xi32>) outs(%e2 : tensor<32xi32>) {
  ^bb0(%b3: i32, %b4: i32):
    linalg.yield %b3 : i32
  } -> tensor<32xi32>
  %e11 = tensor.empty() : tensor<32xi32>
  %r10 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e11 : tensor<32xi32>) {
  ^bb0(%b12: i32):
    %v13 = linalg.index 0 : index
    %v14 = arith.index_cast %v13 : index to i32
    linalg.yield %v14 : i32
  } -> tensor<32xi32>
  %other9, %n0 = iree_linalg_ext.sort dimension(0) outs(%r1, %r10 : tensor<32xi32>, tensor<32xi32>) {
  ^bb0(%x5: i32, %y6: i32, %i7: i32, %j8: i32):
    %v15 = arith.cmpi eq, %x5, %y6 : i32
    %v16 = arith.cmpi slt, %i7, %j8 : i32
    %v17 = arith.andi %v15, %v16 : i1
    %v18 = arith.cmpi slt, %x5, %y6 : i32
    %v19 = arith.ori %v18, %v17 : i1
    iree_linalg_ext.yield %v19 : i1
  } -> tensor<32xi32>, tensor<32xi32>
  %e21 = tensor.empty() : tensor<32xi32>
  %r20 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%n0 : tensor<32xi32>) outs(%e21 : tensor<32xi32>) {
  ^bb0(%b22: i32, %b23: i32):
    linalg.yield %b22 : i32
  } -> tensor<32xi32>
  %e30 = tensor.empty() : tensor<32xi32>
  %r29 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e30 : tensor<32xi32>) {
  ^bb0(%b31: i32):
    %v32 = linalg.index 0 : index
    %v33 = arith.index_cast %v32 : index to i32
    linalg.yield %v33 : i32
  } -> tensor<32xi32>
  %other28, %n1 = iree_linalg_ext.sort dimension(0) outs(%r20, %r29 : tensor<32xi32>, tensor<32xi32>) {
  ^bb0(%x24: i32, %y25: i32, %i26: i32, %j27: i32):
    %v34 = arith.cmpi eq, %x24, %y25 : i32
    %v35 = arith.cmpi slt, %i26, %j27 : i32
    %v36 = arith.andi %v34, %v35 : i1
    %v37 = arith.cmpi slt, %x24, %y25 : i32
    %v38 = arith.ori %v37, %v36 : i1
    iree_linalg_ext.yield %v38 : i1
  } -> tensor<32xi32>, tensor<32xi32>
  %e39 = tensor.empty() : tensor<i32>
  %c40 = arith.constant 0 : i32
  %f41 = linalg.fill ins(%c40 : i32) outs(%e39 : tensor<i32>) -> tensor<i32>
  %n2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%arg0 : tensor<32xi32>) outs(%f41 : tensor<i32>) {
  ^bb0(%b42: i32, %b43: i32):
    %v44 = arith.addi %b43, %b42 : i32
    linalg.yield %v44 : i32
  } -> tensor<i32>
  %n3 = tensor.concat dim(0) %arg1, %n0 : (tensor<16xi32>, tensor<32xi32>) -> tensor<48xi32>
  return %n1, %n2, %n3 : tensor<32xi32>, tensor<i32>, tensor<48xi32>
}
}
