// A padded linalg.pack of a value an elementwise op computes, fused into one dispatch, keeps the producer's tile in a
// stack buffer: vectorization turns the pack into a read of the producer's 2-element tile that may go out of bounds
// (8 lanes), which cannot be fed from the producer's vector<2> write, so the tile's tensor.empty stays live and
// bufferization gives it a memref.alloca (here memref<1x1x2xf32>, 8 bytes). Values are right: a speed-only defect.
// Packing whole tiles (inner tile 2, no padding) or packing the argument itself (no producer) leaves none (the
// argument's padded pack may keep the transfer split's buffer instead, by design: #8076). IREE 3.13.0rc20261016,
// x86-64-v3 and host (znver4). Found by stop 44's campaigns in three of four runs (host 51283, x86-64-v3 70529 and
// 86129), each time called new under the dispatch's category; graded real but low-priority by two outsider helpers,
// "the padded read's" by a third. Nearest upstream: #13524 (closed). Not filed.
//   iree-compile padded_pack_of_a_fused_producer_stack_buffer.mlir --iree-hal-target-backends=llvm-cpu \
//     --iree-llvmcpu-target-cpu=x86-64-v3 --iree-hal-dump-executable-intermediates-to=d -o m.vmfb
func.func @main(%arg0: tensor<1x1x2xf32>) -> tensor<1x1x1x8xf32> {
  %e1 = tensor.empty() : tensor<1x1x2xf32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x1x2xf32>) outs(%e1 : tensor<1x1x2xf32>) {
  ^bb0(%b2: f32, %b3: f32):
    %v = arith.negf %b2 : f32
    linalg.yield %v : f32
  } -> tensor<1x1x2xf32>
  %e11 = tensor.empty() : tensor<1x1x1x8xf32>
  %c12 = arith.constant 0.000000e+00 : f32
  %n1 = linalg.pack %n0 padding_value(%c12 : f32) inner_dims_pos = [2] inner_tiles = [8] into %e11 : tensor<1x1x2xf32> -> tensor<1x1x1x8xf32>
  return %n1 : tensor<1x1x1x8xf32>
}
