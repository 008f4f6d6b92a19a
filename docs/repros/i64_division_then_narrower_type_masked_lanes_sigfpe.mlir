// An i64 integer division whose result is converted to a narrower type (sitofp to f32 here; a trunci to i32 or i8,
// or remsi / divui alike) traps at run time: SIGFPE ("Floating point exception", iree-run-module exits 136 / 248,
// no message) though no divisor is 0. The narrower type makes the dispatch's vector tile 16 wide; the remainder is
// vectorized with a mask (vector<15xi1>) whose masked-off lanes load the divisor padded with 0, and x86's vector
// division traps on them. iree-org/iree#18085 (a remsi's SIGFPE) was fixed by PR #18146 (2024-08-15): the vector
// pre-processing strategy peels instead of masking when the root op holds a division. This form escapes it: an
// incomplete fix. #18085's own program traps on 20231113.707 and is right on 3.2.0; this one traps on 20231113.707,
// 3.2.0, 3.7.0, 3.10.0, 3.12.0 and 3.13.0rc20261016, host (znver4: sizes 1, 3, 7, 8, 17, 33, 130; 16 is right) and
// x86-64-v3. Right: the division alone (an i64 result), i32 or i16 throughout, or a size that is a multiple of 16.
// Found by stop 47's dtype spike with stock tools, then generated (int_div / int_rem by a divisor argument, then a
// cast).
// iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=x86-64-v3 THIS -o x.vmfb
// iree-run-module --device=local-sync --module=x.vmfb --function=f --input=17xi64=7 --input=17xi64=3
//   (expected 17xf32=2 2 ... 2; observed: Floating point exception)
#m = affine_map<(i)->(i)>
func.func @f(%a: tensor<?xi64>, %b: tensor<?xi64>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?xi64>
  %e0 = tensor.empty(%d) : tensor<?xi64>
  %e1 = tensor.empty(%d) : tensor<?xf32>
  %q = linalg.generic {indexing_maps=[#m, #m, #m], iterator_types=["parallel"]} ins(%a, %b: tensor<?xi64>, tensor<?xi64>) outs(%e0: tensor<?xi64>) {
  ^bb0(%p: i64, %r: i64, %o: i64):
    %v = arith.divsi %p, %r : i64
    linalg.yield %v : i64
  } -> tensor<?xi64>
  %t = linalg.generic {indexing_maps=[#m, #m], iterator_types=["parallel"]} ins(%q: tensor<?xi64>) outs(%e1: tensor<?xf32>) {
  ^bb0(%p: i64, %o: f32):
    %v = arith.sitofp %p : i64 to f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  return %t : tensor<?xf32>
}
