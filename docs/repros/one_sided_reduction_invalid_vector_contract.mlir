// A contraction that reduces a dim only one operand indexes (out = init + sum_ij A[i,j] * b[j], jnp.sum(a * b) of a
// broadcast b) fails to compile for the CPU: "'vector.contract' op invalid accumulator/result vector shape" in
// iree-codegen-generic-vectorization (generate-contract = true). After tiling, d0 has size 1 and reaches b only
// through a broadcast; upstream MLIR's combineContractAndBroadcast (CombineContractBroadcastMask) folds the broadcast
// away, as its guard allows dropping a unit reduction dim, leaving a reduction dim only the lhs indexes, which the
// verifier rejects (an outsider's reading). The same invalid contract also fails in drop-vector-unit-dims.
// It compiles if d0 is a static 1, if d0 is parallel (a matvec), or if both operands index d0. Host (znver4),
// x86-64-v3 and generic; f32, f16 -> f32 and i8 -> i32; static and dynamic; IREE 3.13.0rc20261016. JAX's own
// StableHLO for jnp.sum(a * b) fails the same way. Found by hand by a stop 45 spike, then by the stop 45 campaigns
// (host 36151, x86-64-v3 69389) once the generators drew such contractions; graded new by outsiders. No upstream
// report found.
// iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host THIS -o x.vmfb
func.func @f(%a: tensor<2x2xf32>, %b: tensor<2xf32>) -> tensor<f32> {
  %e1=tensor.empty():tensor<f32>
  %zf=arith.constant 0.0:f32
  %i1=linalg.fill ins(%zf:f32) outs(%e1:tensor<f32>)->tensor<f32>
  %r=linalg.generic {indexing_maps=[affine_map<(d0,d1)->(d0,d1)>,affine_map<(d0,d1)->(d1)>,affine_map<(d0,d1)->()>],iterator_types=["reduction","reduction"]} ins(%a,%b:tensor<2x2xf32>,tensor<2xf32>) outs(%i1:tensor<f32>){
  ^bb0(%x:f32,%y:f32,%o1:f32):
    %v=arith.mulf %x,%y:f32
    %r1=arith.addf %v,%o1:f32
    linalg.yield %r1:f32
  } -> tensor<f32>
  return %r:tensor<f32>
}