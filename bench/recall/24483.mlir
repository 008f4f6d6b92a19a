// iree-org/iree#24483 "`hoistOneStaticallyBoundAllocation` produces bogus 2^52-element static `alloca`s when
// dynamic dim bounds default to the `index` umax". The issue's minimal reproducer is an iree-opt test of
// one pass; it surfaces end to end as the e2e_matmul_cpu_dt_inner_tiled_* generic-scalar variants
// silently dropping the accumulator. This is that shape of program: a dynamic-shape matmul with an
// accumulator operand, compiled with data tiling for the generic CPU; not shown to trigger the bug.
func.func @matmul_accumulate(%lhs: tensor<?x?xf32>, %rhs: tensor<?x?xf32>, %acc: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf32>, tensor<?x?xf32>) outs(%acc : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
