// iree-org/iree#24744 "[Codegen][LLVMCPU] Un-hoisted in-loop stack alloca in the matmul overflows the worker
// stack": the issue's repro, verbatim. Compile: --iree-opt-data-tiling=true
// --iree-llvmcpu-disable-distribution=true (the issue: --iree-llvmcpu-target-cpu=apple-m4); the run
// overflows the worker stack only once the tile count is large (8192^3 here).
func.func @matmul(%A: tensor<8192x8192xf32>, %B: tensor<8192x8192xf32>, %C: tensor<8192x8192xf32>) -> tensor<8192x8192xf32> {
  %0 = linalg.matmul ins(%A, %B : tensor<8192x8192xf32>, tensor<8192x8192xf32>)
                     outs(%C : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
  return %0 : tensor<8192x8192xf32>
}
