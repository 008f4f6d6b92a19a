// A JAX lax.fori_loop (scf.while on an i32 counter) carrying two dynamically shaped tensors, whose body computes
// (x, y) <- (x * 0.5, x + y), fails to compile: "failed to legalize unresolved source materialization from
// ('index') to ('i32') that remained live after conversion" at the scf.while, in iree-stream-conversion (its
// after-failure dump). With the body's add written y + x (operands swapped, the same values) it compiles, and then
// gives the wrong values of docs/repros/cond_two_dynamic_results_second_read_at_first_offset.mlir (2-D); with one
// carried tensor it compiles and is right. With an index counter instead of i32 the same loop fails with "'scf.while'
// op along control flow edge from Operation scf.condition to Region #1: region branch point has 5 operands, but
// region successor needs 7 inputs" (docs/repros/while_two_dynamic_carried_tensors_stream_conversion_error.mlir: one
// root cause, stream conversion of an scf.while whose regions carry dynamic tensors, per the stop 46 spike's
// reading). A regression: compiles and is right on IREE 20231113.707 ([[2.75 4.5 6.25][9 10.75 12.5]] for the
// inputs below); fails on 3.2.0, 3.7.0, 3.10.0 and 3.13.0rc20261016 (host and x86-64-v3). Found by stop 47 by
// hand while adding the fori_loop op, then generated (fori_loop, yields=2, x_first). No upstream report found.
// iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host THIS -o x.vmfb
// iree-run-module --device=local-task --module=x.vmfb --function=f --input=2x3xf32=1,2,3,4,5,6 \
//   --input=2x3xf32=1,1,1,2,2,2      (expected 2x3xf32=[2.75 4.5 6.25][9 10.75 12.5])
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%x0: tensor<?x?xf32>, %y0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %trips = arith.constant 2 : i32
  %res:3 = scf.while (%x = %x0, %y = %y0, %i = %zero) : (tensor<?x?xf32>, tensor<?x?xf32>, i32) -> (tensor<?x?xf32>, tensor<?x?xf32>, i32) {
    %p = arith.cmpi slt, %i, %trips : i32
    scf.condition(%p) %x, %y, %i : tensor<?x?xf32>, tensor<?x?xf32>, i32
  } do {
  ^bb0(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>, %i: i32):
    %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
    %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
    %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
    %nx = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
    ^bb0(%a: f32, %o: f32):
      %h = arith.constant 0.5 : f32
      %m = arith.mulf %a, %h : f32
      linalg.yield %m : f32
    } -> tensor<?x?xf32>
    %e2 = tensor.empty(%d0, %d1) : tensor<?x?xf32>
    %ny = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e2 : tensor<?x?xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<?x?xf32>
    %one = arith.constant 1 : i32
    %ni = arith.addi %i, %one : i32
    scf.yield %nx, %ny, %ni : tensor<?x?xf32>, tensor<?x?xf32>, i32
  }
  %d0 = tensor.dim %res#0, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %res#0, %c1 : tensor<?x?xf32>
  %e3 = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%res#0, %res#1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e3 : tensor<?x?xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %out : tensor<?x?xf32>
}
