// A tensor updated with a strided slice of itself, moved toward higher indices (x[:, 3:7] = x[:, 0:4] of a 7x7
// tensor, a sliding-window shift), returns wrong values. Dispatch creation makes the update
// @main_dispatch_1_slow_memcpy: it loads a 7x4 slice of its one readwrite binding and stores it at offsets [0, 3] of
// the same binding; the code copies in place, in increasing order, so the last column reads one already overwritten
// (row 0: expected 0 2 4 0 2 4 6, got 0 2 4 0 2 4 0). The program is well defined (%x is computed, no argument is
// written).
// The same shift toward lower indices (x[:, 0:4] = x[:, 3:7]) is right, and so is a shift by 4 (source and
// destination apart); a contiguous 1-D shift of a static tensor is right; a dynamic one fails at run time instead
// ("source and target ranges overlap", docs/repros/insert_slice_of_its_own_slice_overlapping_copy.mlir).
// Wrong on host (znver4), x86-64-v3 and generic, IREE 3.2.0, 3.7.0, 3.10.0, 3.12.0 and 3.13.0rc20261016. Found by
// the stop 45 README quick start (a shift of an argument read by a batch_matmul, wrong with the argument computed
// too); checked with stock tools in stop 46. No upstream report found.
// iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host THIS -o x.vmfb
// iree-run-module --device=local-task --module=x.vmfb --function=main --input="7x7xf32=$(seq -s, 0 48)"
//   expected row 0: 0 2 4 0 2 4 6 (each row r: 2*(7r + [0 1 2 0 1 2 3]))
func.func @main(%a: tensor<7x7xf32>) -> tensor<7x7xf32> {
  %x = arith.addf %a, %a : tensor<7x7xf32>
  %m = tensor.extract_slice %x[0, 0] [7, 4] [1, 1] : tensor<7x7xf32> to tensor<7x4xf32>
  %r = tensor.insert_slice %m into %x[0, 3] [7, 4] [1, 1] : tensor<7x4xf32> into tensor<7x7xf32>
  return %r : tensor<7x7xf32>
}
