// Run: iree-compile --iree-hal-target-backends=llvm-cpu sort_of_a_copy_sorts_the_argument_in_place.mlir -o m.vmfb, then call
// main with [3 1 2 7 0 5 4 6] through iree.runtime (a device array): the result is sorted, and so is the argument.
// IREE 3.13.0rc20261016. Found by ireefuzz (cause immutability/read-only-argument-written, op sort).
// iree_linalg_ext.sort sorts its outs in place. The program sorts a copy of %arg0 (a linalg.generic
// into a fresh tensor.empty), so %arg0 is only read; IREE folds the copy away and sorts the caller's
// buffer in place: after the call %arg0 holds the sorted values.
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %copy = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<8xf32>
  %s = iree_linalg_ext.sort dimension(0) outs(%copy : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}
