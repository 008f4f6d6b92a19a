// A 1-D iree_linalg_ext.sort along a dynamic dim, of values and their positions (an iota generic), fails to compile:
//   error: 'memref.alloca' op expected no unbounded stack allocations
// (the position generic is fused into the sort dispatch and materialized on the stack at the dynamic size).
// The same sort of one operand, or of a tensor<4x?xf32> along its dynamic dim, compiles.
// iree-compile --iree-hal-target-backends=llvm-cpu sort_1d_dynamic_unbounded_stack.mlir -o m.vmfb  (IREE 3.13.0rc20261016)
module {
func.func @main(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %c1 = arith.constant 0 : index
  %dim_M = tensor.dim %arg0, %c1 : tensor<?xf32>
  %e4 = tensor.empty(%dim_M) : tensor<?xf32>
  %r3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0 : tensor<?xf32>) outs(%e4 : tensor<?xf32>) {
  ^bb0(%b5: f32, %b6: f32):
    linalg.yield %b5 : f32
  } -> tensor<?xf32>
  %e8 = tensor.empty(%dim_M) : tensor<?xi32>
  %r7 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e8 : tensor<?xi32>) {
  ^bb0(%b9: i32):
    %v10 = linalg.index 0 : index
    %v11 = arith.index_cast %v10 : index to i32
    linalg.yield %v11 : i32
  } -> tensor<?xi32>
  %n0, %other2 = iree_linalg_ext.sort dimension(0) outs(%r3, %r7 : tensor<?xf32>, tensor<?xi32>) {
  ^bb0(%x0: f32, %y0: f32, %i0: i32, %j0: i32):
    %v12 = arith.cmpf oeq, %x0, %y0 : f32
    %v13 = arith.cmpi slt, %i0, %j0 : i32
    %v14 = arith.andi %v12, %v13 : i1
    %v15 = arith.cmpf olt, %x0, %y0 : f32
    %v16 = arith.ori %v15, %v14 : i1
    iree_linalg_ext.yield %v16 : i1
  } -> tensor<?xf32>, tensor<?xi32>
  return %n0 : tensor<?xf32>
}
}

