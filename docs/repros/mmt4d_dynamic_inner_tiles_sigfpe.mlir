// linalg.mmt4d whose inner tile dims are dynamic crashes iree-compile (SIGFPE, a division by zero in
// limitVectorTileSizes < getMmt4dLoweringConfig) instead of compiling or rejecting the program.
// iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=cascadelake mmt4d_dynamic_inner_tiles_sigfpe.mlir -o m.vmfb
// IREE 3.13.0rc20261016. Found by ireefuzz (contract spec bMKmk,bNKnk->bMNmn, form named = linalg.batch_mmt4d).
func.func @main(%lhs: tensor<8x8x?x1xi32>, %rhs: tensor<8x8x?x1xi32>, %acc: tensor<8x8x?x?xi32>) -> tensor<8x8x?x?xi32> {
  %r = linalg.mmt4d ins(%lhs, %rhs : tensor<8x8x?x1xi32>, tensor<8x8x?x1xi32>) outs(%acc : tensor<8x8x?x?xi32>) -> tensor<8x8x?x?xi32>
  return %r : tensor<8x8x?x?xi32>
}
