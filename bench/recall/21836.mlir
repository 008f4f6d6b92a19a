// iree-org/iree#21836 "[CPU] Failed to compile onnx.LogSoftmax op at O2 opt level". The issue shows the
// failing dispatch (test_logsoftmax_axis_1, reduction_3x5x4, znver4) as hal.executable IR; this is the
// ONNX test's op as torch-mlir lowers LogSoftmax(axis=1) of a 3x4x5 f32 tensor: a max reduction, then
// x - max, a sum of exp, and x - max - log(sum), in two generics writing the same destination family.
// Compile: --iree-opt-level=O2 --iree-llvmcpu-target-cpu=znver4.
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @test_logsoftmax_axis_1(%x: tensor<3x4x5xf32>) -> tensor<3x4x5xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<3x5xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<3x5xf32>) -> tensor<3x5xf32>
  %max = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<3x4x5xf32>) outs(%mi : tensor<3x5xf32>) {
  ^bb0(%a: f32, %m: f32):
    %r = arith.maximumf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<3x5xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e2 : tensor<3x5xf32>) -> tensor<3x5xf32>
  %sum = linalg.generic {indexing_maps = [#id, #red, #red], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x, %max : tensor<3x4x5xf32>, tensor<3x5xf32>) outs(%si : tensor<3x5xf32>) {
  ^bb0(%a: f32, %m: f32, %s: f32):
    %d = arith.subf %a, %m : f32
    %ex = math.exp %d : f32
    %r = arith.addf %ex, %s : f32
    linalg.yield %r : f32
  } -> tensor<3x5xf32>
  %e3 = tensor.empty() : tensor<3x4x5xf32>
  %out = linalg.generic {indexing_maps = [#id, #red, #red, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max, %sum : tensor<3x4x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>) outs(%e3 : tensor<3x4x5xf32>) {
  ^bb0(%a: f32, %m: f32, %s: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %l = math.log %s : f32
    %r = arith.subf %d, %l : f32
    linalg.yield %r : f32
  } -> tensor<3x4x5xf32>
  return %out : tensor<3x4x5xf32>
}
