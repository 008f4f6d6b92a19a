// A static linalg.mmt4d with 7x7 inner tiles computes wrong values for an AVX2 CPU: 35 of 49 elements wrong on
// --iree-llvmcpu-target-cpu=x86-64-v3 (and x86-64-v2, generic, haswell); right on znver4 / x86-64-v4 (AVX-512).
// The mmt4d lowering config cuts the inner M0 / N0 tiles from 7 to 4 for AVX2 (vector_common_parallel =
// [1, 1, 0, 4, 4, 0]); the ukernel path then calls iree_uk_mmt4d on a strided 4x4 / 3x3 piece of the 7x7 inner tile
// with M0, N0 = 4 or 3 at run time, and the ukernel reads a packed, contiguous tile (an outsider's reading).
// --iree-llvmcpu-enable-ukernels=none gives right values; 8x8x1, 16x16x1, 6x16x1 and 3x3x3 inner tiles are right.
// IREE 3.7.0, 3.10.0, 3.12.0 and 3.13.0rc20261016 alike. Found by the stop 45 x86-64-v3 campaign (seed 69389, the
// contract op's mmt4d spec with an argument accumulator), reproduced and minimized by an outsider with stock tools;
// no upstream report found. Not in the baseline: its cause id (numeric/wrong-value/contract) would also hide other
// contractions' wrong values.
// iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=x86-64-v3 THIS -o x.vmfb
// iree-run-module --module=x.vmfb --function=main --input=@a.npy --input=@b.npy  (compare with
// numpy.einsum("mkij,nklj->mnil", a, b) in float64)
func.func @main(%a: tensor<1x1x7x7xf32>, %b: tensor<1x1x7x7xf32>) -> tensor<1x1x7x7xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x7x7xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x1x7x7xf32>) -> tensor<1x1x7x7xf32>
  %r = linalg.mmt4d ins(%a, %b : tensor<1x1x7x7xf32>, tensor<1x1x7x7xf32>) outs(%c : tensor<1x1x7x7xf32>) -> tensor<1x1x7x7xf32>
  return %r : tensor<1x1x7x7xf32>
}
