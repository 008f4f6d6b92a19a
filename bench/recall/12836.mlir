// iree-org/iree#12836 "IREE compilation has failed for TOSA-imported models since iree candidate-20230329.473"
// The issue's programs are TFLite models (tosa.rescale, which LLVM 89a1af74 made emit math.roundeven); this is
// the pattern it names: a math.roundeven, here in one elementwise generic. On a CPU without SSE4.1 round
// instructions (--iree-llvmcpu-target-cpu=generic) it became a libm roundevenf call the embedded linker cannot
// resolve ("lld: error: undefined symbol: roundevenf"), until #13329 enabled the roundeven expansion.
// On the host CPU (AVX-512) it lowers to vrndscaleps and shows nothing.
#map = affine_map<(d0) -> (d0)>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tensor.empty() : tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : tensor<8xf32>) outs(%0 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %2 = math.roundeven %in : f32
    linalg.yield %2 : f32
  } -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
