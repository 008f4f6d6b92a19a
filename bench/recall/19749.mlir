// iree-org/iree#19749 "[LLVMCPU] Gather codegen for gather on strided access is numerically
// incorrect". The issue's input is torch IR: x[:, 0, :] of a 57x2x128 f16 tensor, then
// index_select of two rows by si64 indices. Written here as the linalg torch-mlir lowers it to: a
// rank-reducing strided extract_slice and a linalg.generic reading rows with tensor.extract.
// Compile: --iree-llvmcpu-target-cpu=generic.
func.func @main(%arg0: tensor<57x2x128xf16>, %arg1: tensor<2xi64>) -> tensor<2x128xf16> {
  %sel = tensor.extract_slice %arg0[0, 0, 0] [57, 1, 128] [1, 1, 1] : tensor<57x2x128xf16> to tensor<57x128xf16>
  %empty = tensor.empty() : tensor<2x128xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%arg1 : tensor<2xi64>) outs(%empty : tensor<2x128xf16>) {
  ^bb0(%idx: i64, %o: f16):
    %row = arith.index_cast %idx : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %sel[%row, %col] : tensor<57x128xf16>
    linalg.yield %v : f16
  } -> tensor<2x128xf16>
  return %out : tensor<2x128xf16>
}
