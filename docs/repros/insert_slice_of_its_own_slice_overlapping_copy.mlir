// A tensor updated with a slice of itself (x[0:n-1] = x[1:n], a sliding-window shift of a computed tensor) fails at
// run time: "INVALID_ARGUMENT; source and target ranges overlap within the same buffer; while invoking native
// function hal.command_buffer.copy_buffer". The Stream canonicalizer folds stream.async.update(stream.async.slice(%x),
// %x) into one stream.async.copy %x -> %x, and no copy-on-write clone separates them (an outsider's reading of the
// stop 45 x86-64-v3 campaign's bundle). The program is well defined (%x is computed, no argument is written).
// Fails on local-task and local-sync, host (znver4) and x86-64-v3, on IREE 3.2.0, 3.10.0, 3.12.0 and 3.13.0rc20261016.
// With static sizes the copy is const-evaluated into an initializer and the module fails to load with the same
// check; with an argument as x, the caller's buffer is written (immutability/read-only-argument-written).
// Found by the stop 45 campaigns (x86-64-v3 seed 58867, host seed 47303) through the shift op the update-forms
// spike named; no upstream report found.
// iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host THIS -o x.vmfb
// iree-run-module --device=local-task --module=x.vmfb --function=main --input=8xf32=0,1,2,3,4,5,6,7
//   expected 8xf32=101 102 103 104 105 106 107 107
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c = arith.constant 100.0 : f32
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %m = arith.subi %n, %c1 : index
  %x = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %c : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %src = tensor.extract_slice %x[1] [%m] [1] : tensor<?xf32> to tensor<?xf32>
  %r = tensor.insert_slice %src into %x[0] [%m] [1] : tensor<?xf32> into tensor<?xf32>
  return %r : tensor<?xf32>
}
