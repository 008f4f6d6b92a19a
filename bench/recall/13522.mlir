// iree-org/iree#13522 "`stablehlo.round_nearest_even` for `f16` generates `roundevenf`"
// The issue's program (stablehlo.round_nearest_even on tensor<2x1x4xf16>) in the linalg it lowers to: a
// math.roundeven on f16 in one elementwise generic. After #13329 expanded f32 roundeven, the f16 form was still
// left to LLVM, which on a CPU without SSE4.1 round instructions (--iree-llvmcpu-target-cpu=generic) promotes it
// to f32 and calls libm roundevenf, which the embedded linker cannot resolve. The host CPU (AVX-512) rounds with
// an instruction and shows nothing.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @main(%arg0: tensor<2x1x4xf16>) -> tensor<2x1x4xf16> {
  %0 = tensor.empty() : tensor<2x1x4xf16>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x1x4xf16>) outs(%0 : tensor<2x1x4xf16>) {
  ^bb0(%in: f16, %out: f16):
    %2 = math.roundeven %in : f16
    linalg.yield %2 : f16
  } -> tensor<2x1x4xf16>
  return %1 : tensor<2x1x4xf16>
}
