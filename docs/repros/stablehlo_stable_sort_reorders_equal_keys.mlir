// A stable stablehlo.sort (is_stable = true: what jnp.argsort, jnp.lexsort and a stable jnp.sort export) returns
// equal keys out of their original order. For keys [1 0 1 0 1 0 1] the argsort is [1 5 3 6 0 2 4]; numpy
// (kind="stable") and JAX on CPU give [1 3 5 0 2 4 6]. The stablehlo.sort becomes an iree_linalg_ext.sort with the
// same comparator and no tie-break: the generated code is a bubble sort that swaps whenever !cmp(a[j], a[j+1]), so
// it swaps equal neighbours, and is_stable is dropped in the conversion (per stop 47's JAX spike's reading). With
// the index as a tie-break in the comparator the order is right; distinct keys are right. A tie-heavy 130x3 argsort
// along axis 0 differs in 373 of 390 indices. IREE 3.2.0, 3.10.0 and 3.13.0rc20261016, host and x86-64-v3. Found
// by stop 47's JAX spike with stock tools; StableHLO input conversion, not llvm-cpu codegen; generated since stop 48
// (the StableHLO frontend exports sort: --frontend stablehlo or mixed). No upstream report found (searched:
// stablehlo sort is_stable, argsort ties).
// iree-compile --iree-input-type=stablehlo --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host THIS -o x.vmfb
// iree-run-module --device=local-task --module=x.vmfb --function=f --input=7xf32=1,0,1,0,1,0,1
//   (expected 7xi32=1 3 5 0 2 4 6)
func.func @f(%x: tensor<7xf32>) -> tensor<7xi32> {
  %i = stablehlo.iota dim = 0 : tensor<7xi32>
  %3:2 = "stablehlo.sort"(%x, %i) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>, %r: tensor<i32>, %t: tensor<i32>):
    %c = stablehlo.compare LT, %p, %q, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<7xf32>, tensor<7xi32>) -> (tensor<7xf32>, tensor<7xi32>)
  return %3#1 : tensor<7xi32>
}
