// math.asinh of negative values: IREE's CPU backend expands it as MLIR's ExpandPatterns writes it,
// log(x + sqrt(x^2 + 1)) without |x| (iree-codegen-math-transform), which cancels for x << 0: asinh(-200) is off in
// the third digit in f32, asinh(-1e4) is -inf, and f16 gives -inf from x = -60. Found by round 41's campaigns
// (after a causal mask's fill, after a dequantized matmul: one mechanism). The program scales its inputs by 1e4
// before the asinh, so every negative input of a drawn magnitude comes out -inf.
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %scale = arith.constant 10000.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %scale : f32
    %a = math.asinh %s : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
