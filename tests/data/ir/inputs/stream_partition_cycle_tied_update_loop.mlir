func.func @main(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %s = tensor.extract_slice %arg0[0, 0] [1, 2] [1, 1] : tensor<4x4xf32> to tensor<1x2xf32>
  %n0 = tensor.insert_slice %s into %arg0[3, 2] [1, 2] [1, 1] : tensor<1x2xf32> into tensor<4x4xf32>
  %n1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<4x4xf32>) outs(%n0 : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %loop:2 = scf.while (%x = %n0, %i = %c0) : (tensor<4x4xf32>, i32) -> (tensor<4x4xf32>, i32) {
    %go = arith.cmpi slt, %i, %c2 : i32
    scf.condition(%go) %x, %i : tensor<4x4xf32>, i32
  } do {
  ^bb0(%x: tensor<4x4xf32>, %i: i32):
    %nx = arith.mulf %x, %arg1 : tensor<4x4xf32>
    %c1 = arith.constant 1 : i32
    %ni = arith.addi %i, %c1 : i32
    scf.yield %nx, %ni : tensor<4x4xf32>, i32
  }
  %n2 = arith.addf %loop#0, %arg1 : tensor<4x4xf32>
  return %n1, %n2 : tensor<4x4xf32>, tensor<4x4xf32>
}
