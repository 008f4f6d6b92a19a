// An f16 max reduction (arith.maximumf) feeding a broadcast keeps a stack buffer on the CPU: the reduction is left a
// linalg.generic by vectorization (ExpandF16OpToF32 has rewritten its body to extf / maximumf / truncf), and
// bufferization gives its fused intermediate a stack buffer. The same program with f32, or with f16 arith.addf,
// has none. 3.13.0rc20261016, host (znver4) and x86-64-v3 alike (`ireefuzz check`: memory/alloca/elementwise@
// DoubleTilingExpert). Found by the stop 43 x86-64-v3 campaign (seed 33457), where the tool called it
// iree-org/iree#8303's duplicate by the pass the buffer first shows in (bufferization) alone; an outsider helper
// reproduced it with stock tools and minimized it; no upstream report found (PR #13808 added the f16 max
// expansion for #14187's fmaxf). Not yet bundled; a perf defect (the memory oracle's), not wrong values.
//   iree-compile f16_max_reduction_broadcast_stack_buffer.mlir --iree-hal-target-backends=llvm-cpu \
//     --iree-llvmcpu-target-cpu=host --iree-hal-dump-executable-intermediates-to=d -o m.vmfb
//   -> an alloca in the dispatch's optimized LLVM IR (none with f32 or with arith.addf)
func.func @main(%arg0: tensor<2x?x1xf16>, %arg2: tensor<2x1x?xf16>) -> tensor<?x1x?xf16> {
  %c1 = arith.constant 1 : index
  %dim_M = tensor.dim %arg0, %c1 : tensor<2x?x1xf16>
  %c2 = arith.constant 2 : index
  %dim_N = tensor.dim %arg2, %c2 : tensor<2x1x?xf16>
  %e32 = tensor.empty(%dim_M) : tensor<?x1xf16>
  %c33 = arith.constant 0xFC00 : f16
  %f34 = linalg.fill ins(%c33 : f16) outs(%e32 : tensor<?x1xf16>) -> tensor<?x1xf16>
  %n1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%arg0 : tensor<2x?x1xf16>) outs(%f34 : tensor<?x1xf16>) {
  ^bb0(%b35: f16, %b36: f16):
    %v37 = arith.maximumf %b36, %b35 : f16
    linalg.yield %v37 : f16
  } -> tensor<?x1xf16>
  %e38 = tensor.empty(%dim_M, %dim_N) : tensor<?x1x?xf16>
  %n2 = linalg.broadcast ins(%n1 : tensor<?x1xf16>) outs(%e38 : tensor<?x1x?xf16>) dimensions = [2]
  return %n2 : tensor<?x1x?xf16>
}
