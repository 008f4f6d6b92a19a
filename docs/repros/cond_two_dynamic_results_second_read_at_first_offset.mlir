// An scf.if (JAX lax.cond) whose branches yield two dynamically shaped 2-D tensors, both read after it, returns
// wrong values when the else branch computes them: the second result is read at the first one's offset.
// Stream allocation packs both results into one buffer (offset 0 and util.align(size0, 64)); after
// iree-util-optimize-int-arithmetic the second result's offset is the constant 0, while the dispatch that wrote it
// used the real offset (a helper's reading of the dumps: util.align's integer range is left unset for an unbounded
// input, and the merge across the scf.if keeps only the then branch's 0). With %p false the result below is
// 2 * (x + y) = [4 6 8][12 14 16], expected (x + y) + x * y = [3 5 7][14 17 20]; with %p true it is right.
// Static shapes, or 1-D dynamic ones, are right. The same happens to scf.for / scf.while (lax.fori_loop,
// lax.while_loop) carrying two recomputed 2-D dynamic tensors.
// Right on IREE 3.2.0 and 3.7.0; wrong on 3.10.0, 3.12.0 and 3.13.0rc20261016 (host znver4 and x86-64-v3 alike):
// a regression between 3.7.0 and 3.10.0. Found by stop 46's control-flow spike with stock tools; no upstream report
// found.
// iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host THIS -o x.vmfb
// python -c "import numpy as np; np.save('p.npy', np.array(False))"
// iree-run-module --device=local-task --module=x.vmfb --function=main --input=@p.npy \
//   --input=2x3xf32=1,2,3,4,5,6 --input=2x3xf32=1,1,1,2,2,2     (expected 2x3xf32=[3 5 7][14 17 20])
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%p: tensor<i1>, %x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %pv = tensor.extract %p[] : tensor<i1>
  %r:2 = scf.if %pv -> (tensor<?x?xf32>, tensor<?x?xf32>) {
    scf.yield %x, %y : tensor<?x?xf32>, tensor<?x?xf32>
  } else {
    %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
    %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<?x?xf32>
    %e2 = tensor.empty(%d0, %d1) : tensor<?x?xf32>
    %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e2 : tensor<?x?xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.mulf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<?x?xf32>
    scf.yield %g, %h : tensor<?x?xf32>, tensor<?x?xf32>
  }
  %e3 = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %z = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%r#0, %r#1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e3 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %z : tensor<?x?xf32>
}
