// An argmax over a static dim of size 0 (the right answer is the initial values, -inf and 0) crashes iree-compile
// with SIGFPE (exit 248) in iree-flow-annotate-dispatches: summarizeDispatchRegion's cost estimate multiplies the
// loop ranges with saturatingMul(lhs, rhs), which computes lhs > INT64_MAX / rhs, and the zero-size loop makes rhs 0
// (the guarding assert is compiled out in release builds; an outsider's reading of the current source). Through
// iree-opt and that one pass alone, a plain sum over a 0x4 tensor crashes too; iree-compile folds the sum away before
// dispatch formation, not the two-result argmax. A size of 1 or 2 compiles. Host (znver4) and x86-64-v3 alike, IREE
// 3.13.0rc20261016; found by stop 46's host campaign (seed 50923), where it had been called the offset-map SIGSEGV
// in inferConvolutionDims (docs/repros/offset_map_infer_convolution_dims_sigsegv.mlir) by its pass alone. The
// "reads uninitialized values" warning is IREE's: both outs are filled. No upstream report found.
// iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host THIS -o x.vmfb   (exit 248)
module {
func.func @main(%arg0: tensor<0x1x1xf16>) -> tensor<1x1xf16> {
  %c1 = arith.constant 0xFC00 : f16
  %e3 = tensor.empty() : tensor<1x1xf16>
  %f2 = linalg.fill ins(%c1 : f16) outs(%e3 : tensor<1x1xf16>) -> tensor<1x1xf16>
  %c4 = arith.constant 0 : i32
  %e6 = tensor.empty() : tensor<1x1xi32>
  %f5 = linalg.fill ins(%c4 : i32) outs(%e6 : tensor<1x1xi32>) -> tensor<1x1xi32>
  %n0, %other10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%arg0 : tensor<0x1x1xf16>) outs(%f2, %f5 : tensor<1x1xf16>, tensor<1x1xi32>) {
  ^bb0(%b7: f16, %b8: f16, %b9: i32):
    %v11 = linalg.index 0 : index
    %v12 = arith.index_cast %v11 : index to i32
    %v13 = arith.cmpf oeq, %b7, %b8 : f16
    %v14 = arith.cmpi slt, %v12, %b9 : i32
    %v15 = arith.andi %v13, %v14 : i1
    %v16 = arith.cmpf ogt, %b7, %b8 : f16
    %v17 = arith.ori %v16, %v15 : i1
    %v18 = arith.select %v17, %b7, %b8 : f16
    %v19 = arith.select %v17, %v12, %b9 : i32
    linalg.yield %v18, %v19 : f16, i32
  } -> (tensor<1x1xf16>, tensor<1x1xi32>)
  return %n0 : tensor<1x1xf16>
}
}
