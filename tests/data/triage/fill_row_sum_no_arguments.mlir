// Issue 30: the known fill-sum miscompile reduced to a row sum over a linalg.fill splat, with no arguments (all of
// it hoisted into initializers: no dispatch). IREE 3.13 returns a wrong sum. Keyed by its op cone, it is the known
// numeric/wrong-value/fill>reduce_sum (never the function's name); its twin is fill_sum_known.mlir.
func.func @main() -> tensor<3xi32> {
  %two = arith.constant 2 : i32
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3x2xi32>
  %splat = linalg.fill ins(%two : i32) outs(%e : tensor<3x2xi32>) -> tensor<3x2xi32>
  %e1 = tensor.empty() : tensor<3xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e1 : tensor<3xi32>) -> tensor<3xi32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%splat : tensor<3x2xi32>) outs(%acc : tensor<3xi32>) {
  ^bb0(%x: i32, %o: i32):
    %s = arith.addi %o, %x : i32
    linalg.yield %s : i32
  } -> tensor<3xi32>
  return %sum : tensor<3xi32>
}
