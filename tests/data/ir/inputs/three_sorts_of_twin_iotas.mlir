// Three argsorts of three arguments: their three position iotas are twins, CSE merges them (#23665).
func.func @main(%arg0: tensor<32xi32>, %arg1: tensor<32xi32>, %arg2: tensor<32xi32>) -> (tensor<32xi32>, tensor<32xi32>, tensor<32xi32>) {
  %e0a = tensor.empty() : tensor<32xi32>
  %copy0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0 : tensor<32xi32>) outs(%e0a : tensor<32xi32>) {
  ^bb0(%x: i32, %o: i32):
    linalg.yield %x : i32
  } -> tensor<32xi32>
  %e0b = tensor.empty() : tensor<32xi32>
  %iota0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e0b : tensor<32xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<32xi32>
  %sorted0, %pos0 = iree_linalg_ext.sort dimension(0) outs(%copy0, %iota0 : tensor<32xi32>, tensor<32xi32>) {
  ^bb0(%x: i32, %y: i32, %i: i32, %j: i32):
    %eq = arith.cmpi eq, %x, %y : i32
    %before = arith.cmpi slt, %i, %j : i32
    %tie = arith.andi %eq, %before : i1
    %lt = arith.cmpi slt, %x, %y : i32
    %first = arith.ori %lt, %tie : i1
    iree_linalg_ext.yield %first : i1
  } -> tensor<32xi32>, tensor<32xi32>
  %e1a = tensor.empty() : tensor<32xi32>
  %copy1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg1 : tensor<32xi32>) outs(%e1a : tensor<32xi32>) {
  ^bb0(%x: i32, %o: i32):
    linalg.yield %x : i32
  } -> tensor<32xi32>
  %e1b = tensor.empty() : tensor<32xi32>
  %iota1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e1b : tensor<32xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<32xi32>
  %sorted1, %pos1 = iree_linalg_ext.sort dimension(0) outs(%copy1, %iota1 : tensor<32xi32>, tensor<32xi32>) {
  ^bb0(%x: i32, %y: i32, %i: i32, %j: i32):
    %eq = arith.cmpi eq, %x, %y : i32
    %before = arith.cmpi slt, %i, %j : i32
    %tie = arith.andi %eq, %before : i1
    %lt = arith.cmpi slt, %x, %y : i32
    %first = arith.ori %lt, %tie : i1
    iree_linalg_ext.yield %first : i1
  } -> tensor<32xi32>, tensor<32xi32>
  %e2a = tensor.empty() : tensor<32xi32>
  %copy2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg2 : tensor<32xi32>) outs(%e2a : tensor<32xi32>) {
  ^bb0(%x: i32, %o: i32):
    linalg.yield %x : i32
  } -> tensor<32xi32>
  %e2b = tensor.empty() : tensor<32xi32>
  %iota2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e2b : tensor<32xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<32xi32>
  %sorted2, %pos2 = iree_linalg_ext.sort dimension(0) outs(%copy2, %iota2 : tensor<32xi32>, tensor<32xi32>) {
  ^bb0(%x: i32, %y: i32, %i: i32, %j: i32):
    %eq = arith.cmpi eq, %x, %y : i32
    %before = arith.cmpi slt, %i, %j : i32
    %tie = arith.andi %eq, %before : i1
    %lt = arith.cmpi slt, %x, %y : i32
    %first = arith.ori %lt, %tie : i1
    iree_linalg_ext.yield %first : i1
  } -> tensor<32xi32>, tensor<32xi32>
  return %pos0, %pos1, %pos2 : tensor<32xi32>, tensor<32xi32>, tensor<32xi32>
}
