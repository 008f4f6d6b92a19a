// iree-org/iree#20792 "[CPU] TileRootAndFuseProducerConsumer causes redundant stack allocation". The thread's
// IR is the data-tiled dispatch main$async_dispatch_10_batch_matmul_transpose_b_9x140x140x64_f32
// (Mmt4dTilingExpert, an unpack fused with its consumer); this is that batch matmul (B transposed) with
// an elementwise consumer, the program data tiling turns into that dispatch.
// Compile: --iree-opt-data-tiling=true.
func.func @main(%a: tensor<9x140x64xf32>, %b: tensor<9x140x64xf32>, %bias: tensor<9x140x140xf32>) -> tensor<9x140x140xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<9x140x140xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<9x140x140xf32>) -> tensor<9x140x140xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<9x140x64xf32>, tensor<9x140x64xf32>) outs(%f : tensor<9x140x140xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<9x140x140xf32>
  %e2 = tensor.empty() : tensor<9x140x140xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm, %bias : tensor<9x140x140xf32>, tensor<9x140x140xf32>) outs(%e2 : tensor<9x140x140xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<9x140x140xf32>
  return %o : tensor<9x140x140xf32>
}
