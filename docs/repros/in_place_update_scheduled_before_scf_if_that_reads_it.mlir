// A tensor read by an scf.if and, after it, updated in place with one element of itself (an insert_slice of its
// own slice: a slow_memcpy dispatch tied to it) returns wrong values for both outputs: iree-stream-schedule-execution
// puts the in-place update into the execute region before the scf.if, so the branch reads the updated tensor
// (out0[0,0] wrong) and output 1 is exported from a slot nobody wrote (all zeros). Confirmed by iree-opt running
// the pass alone on the IR it received. Not the known two-result cond bug (this scf.if has one result). Every CPU
// (generic, x86-64-v3, host); a regression: right on 3.7.0, wrong on 3.10.0, 3.12.0 and 3.13.0rc20261016 (PRs
// #22483 and #22739 landed between, the likely suspects; not bisected). Found by stop 48's host campaign (seed
// 93811, as log_softmax>cond), reproduced, localized and minimized by an outsider with stock tools first.
// Related: iree-org/iree#14889 / PR #14893 (closed). No report of this found.
// IREE 3.13.0rc20261016, llvm-cpu (host / x86-64-v3 / generic alike): wrong values, both outputs.
// n0 = x - rowsum(x) is produced by one reduction dispatch. An scf.if reads n0 (x + n0 or x * n0), and
// AFTER it n0 is updated in place with one element of itself (n2 = n0 with n2[0,0] = n0[3,1]; a slow_memcpy
// dispatch tied to n0). iree-stream-schedule-execution puts the in-place update into the execute region
// BEFORE the scf.if (it yields n0 and the tied result from the same region), so:
//   * the scf.if reads the already updated n0 (out0[0,0] wrong), and
//   * output 1 is exported from a slot of the allocation nobody wrote (all zeros).
// iree-compile repro.mlir --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host -o r.vmfb
// iree-run-module --module=r.vmfb --device=local-sync --function=main --input="4x2xf32=1 2 3 4 5 6 7 8" --input="i32=0"
//   expected: out0 = [[-2 -2][-12 -12][-30 -30][-56 -56]]   out1 = [[-7 -1][-4 -3][-6 -5][-8 -7]]
//   got:      out0 = [[-7 -2][-12 -12][-30 -30][-56 -56]]   out1 = all zeros
func.func @main(%x: tensor<4x2xf32>, %p: tensor<i32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<4xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x2xf32>) outs(%fr : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x2xf32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %r : tensor<4x2xf32>, tensor<4xf32>) outs(%e : tensor<4x2xf32>) {
  ^bb0(%a: f32, %s: f32, %b: f32):
    %v = arith.subf %a, %s : f32
    linalg.yield %v : f32
  } -> tensor<4x2xf32>
  %pi = tensor.extract %p[] : tensor<i32>
  %c0i = arith.constant 0 : i32
  %pv = arith.cmpi ne, %pi, %c0i : i32
  %n1 = scf.if %pv -> (tensor<4x2xf32>) {
    %a1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %n0 : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e : tensor<4x2xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %v = arith.addf %a, %b : f32
      linalg.yield %v : f32
    } -> tensor<4x2xf32>
    scf.yield %a1 : tensor<4x2xf32>
  } else {
    %a1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %n0 : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e : tensor<4x2xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %v = arith.mulf %a, %b : f32
      linalg.yield %v : f32
    } -> tensor<4x2xf32>
    scf.yield %a1 : tensor<4x2xf32>
  }
  %s = tensor.extract_slice %n0[3, 1] [1, 1] [1, 1] : tensor<4x2xf32> to tensor<1x1xf32>
  %n2 = tensor.insert_slice %s into %n0[0, 0] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<4x2xf32>
  return %n1, %n2 : tensor<4x2xf32>, tensor<4x2xf32>
}
