// A reverse written as a linalg.generic whose input map is (d0, d1) -> (63 - d0, d1), feeding a reduction
// over d0, fails to compile for llvm-cpu (the verifier rejects IR that a codegen pass produced):
//   error: 'linalg.generic' op inferred input/output operand #0 has shape's dimension #0 to be greater
//          than or equal to 64, but found 57
// iree-compile --iree-hal-target-backends=llvm-cpu reverse_map_then_reduce_invalid_ir.mlir -o m.vmfb
// IREE 3.13.0rc20261016. Found by ireefuzz (op reverse, form map).
func.func @main(%arg0: tensor<64x2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<64x2xf32>
  %rev = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (63 - d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<64x2xf32>) outs(%e : tensor<64x2xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<64x2xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%rev : tensor<64x2xf32>) outs(%acc : tensor<2xf32>) {
  ^bb0(%x: f32, %a: f32):
    %s = arith.addf %a, %x : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %sum : tensor<2xf32>
}
