// A gather whose result is read through a reversed indexing map ((1 - d0, 1 - d1), a flip) fails to compile for the
// CPU: iree-codegen-combine-result-layout-transformation (scope = dispatch) fails without a diagnostic of its own,
// and iree-compile reports only "failed to run translation of source executable to target executable for backend".
// Before that pass the gather is tiled into an scf.forall and the reversed-index generic is left outside it.
// Reversing one dim, or a body that computes (an addi), fails too; a transpose consumer compiles and runs right; an
// elementwise or matmul producer with the same reversed consumer compiles. IREE 3.13.0rc20261016, host (znver4) and
// x86-64-v3 alike, and 3.10.0-3.12.0. Found by the stop 44 host campaign (seed 61837); reproduced with stock tools by
// an outsider helper before reading the tool's report; no upstream report found. Indices are 0, in bounds. But on
// 3.7.0 the same program fails with llvm/llvm-project#113021's diagnostic ("'linalg.generic' op inferred input/output
// operand #0 has shape's dimension #0 to be greater than or equal to 2, but found 1"): likely that reversed map's
// tiling, failing silently in a later pass since. Not bundled; in the baseline as #113021's duplicate.
func.func @main(%arg0: tensor<2xi32>, %arg1: tensor<1x2xi32>) -> tensor<2x2xi32> {
  %e1 = tensor.empty() : tensor<2x2xi32>
  %x2 = tensor.expand_shape %arg0 [[0, 1]] output_shape [2, 1] : tensor<2xi32> into tensor<2x1xi32>
  %n0 = iree_linalg_ext.gather dimension_map = [0] ins(%arg1, %x2 : tensor<1x2xi32>, tensor<2x1xi32>) outs(%e1 : tensor<2x2xi32>) -> tensor<2x2xi32>
  %e3 = tensor.empty() : tensor<2x2xi32>
  %n1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (1 - d0, 1 - d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n0 : tensor<2x2xi32>) outs(%e3 : tensor<2x2xi32>) {
  ^bb0(%b4: i32, %b5: i32):
    linalg.yield %b4 : i32
  } -> tensor<2x2xi32>
  return %n1 : tensor<2x2xi32>
}
