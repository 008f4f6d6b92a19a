// iree-org/iree#14934 "Different Results for CPU and CUDA backend": the issue's NLLLoss IR (torch-mlir's
// linalg), reduced from 4096x8192 to 64x128. A generic reads x[i, target[i]] with tensor.extract at a
// computed column (ignore_index -100 selects 0), negates it, and the mean over the batch is returned.
// The stored excerpt stops after the gather generic; the mean is written as NLLLoss's reduction="mean".
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> ()>
func.func @forward(%arg0: tensor<64x128xf32>, %arg1: tensor<64xi64>) -> tensor<f32> {
  %cst = arith.constant 0.000000e+00 : f32
  %c-100 = arith.constant -100 : index
  %c0 = arith.constant 0 : index
  %c127 = arith.constant 127 : index
  %cst_0 = arith.constant 6.400000e+01 : f32
  %0 = tensor.empty() : tensor<64xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg1 : tensor<64xi64>) outs(%0 : tensor<64xf32>) {
  ^bb0(%in: i64, %out: f32):
    %5 = arith.index_cast %in : i64 to index
    %6 = arith.cmpi eq, %5, %c-100 : index
    %lo = arith.maxsi %5, %c0 : index
    %col = arith.minsi %lo, %c127 : index
    %7 = linalg.index 0 : index
    %extracted = tensor.extract %arg0[%7, %col] : tensor<64x128xf32>
    %8 = arith.negf %extracted : f32
    %9 = arith.select %6, %cst, %8 : f32
    linalg.yield %9 : f32
  } -> tensor<64xf32>
  %2 = tensor.empty() : tensor<f32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<f32>) -> tensor<f32>
  %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction"]} ins(%1 : tensor<64xf32>) outs(%3 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = arith.addf %in, %out : f32
    linalg.yield %5 : f32
  } -> tensor<f32>
  %mean = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%4 : tensor<f32>) outs(%2 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = arith.divf %in, %cst_0 : f32
    linalg.yield %5 : f32
  } -> tensor<f32>
  return %mean : tensor<f32>
}
