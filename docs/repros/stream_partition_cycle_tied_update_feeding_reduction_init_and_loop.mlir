// A tensor updated in place (an insert_slice of its own slice into an argument) that feeds both a reduction's init
// and an scf.while, with a dispatch reading the loop's result, fails to compile: "circular dependency: input
// operation uses partition output ... - this indicates the operation should be inside the partition" in
// iree-stream-schedule-execution (its partitioning builds a cyclic partition around the loop; confirmed by
// iree-opt running the pass alone on the IR it received, which verifies). A fill of a tensor.empty as the
// reduction's init, or no consumer after the loop, compiles; an scf.for fails the same way; inserting into the
// other argument fails too (not about shifting). Every CPU (generic, x86-64-v3, host), static or dynamic shapes;
// IREE 3.13.0rc20261016. Found by stop 48's campaigns (x86-64-v3 seed 17389, and host seed 93811, where it was not
// reproduced alone), minimized by an outsider with stock tools. No upstream report found (searched: circular
// dependency partition stream); nearest: iree-org/iree PR #18217, #18123.
// iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=generic THIS -o x.vmfb
//   (expected: a module)
func.func @main(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %s = tensor.extract_slice %arg0[0, 0] [1, 2] [1, 1] : tensor<4x4xf32> to tensor<1x2xf32>
  %n0 = tensor.insert_slice %s into %arg0[3, 2] [1, 2] [1, 1] : tensor<1x2xf32> into tensor<4x4xf32>
  %n1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<4x4xf32>) outs(%n0 : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %loop:2 = scf.while (%x = %n0, %i = %c0) : (tensor<4x4xf32>, i32) -> (tensor<4x4xf32>, i32) {
    %go = arith.cmpi slt, %i, %c2 : i32
    scf.condition(%go) %x, %i : tensor<4x4xf32>, i32
  } do {
  ^bb0(%x: tensor<4x4xf32>, %i: i32):
    %nx = arith.mulf %x, %arg1 : tensor<4x4xf32>
    %c1 = arith.constant 1 : i32
    %ni = arith.addi %i, %c1 : i32
    scf.yield %nx, %ni : tensor<4x4xf32>, i32
  }
  %n2 = arith.addf %loop#0, %arg1 : tensor<4x4xf32>
  return %n1, %n2 : tensor<4x4xf32>, tensor<4x4xf32>
}
