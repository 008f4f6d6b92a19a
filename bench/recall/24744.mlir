// iree-org/iree#24744 "[Codegen][LLVMCPU] Un-hoisted in-loop stack alloca in the matmul overflows the worker
// stack": the issue's repro, reduced
// from 8192 to 2048 (a run of 8192^3 does not fit this machine's budget). Compile: --iree-opt-data-tiling=true
// --iree-llvmcpu-disable-distribution=true (the issue: --iree-llvmcpu-target-cpu=apple-m4); the run
// overflows the worker stack only once the tile count is large.
func.func @matmul(%A: tensor<2048x2048xf32>, %B: tensor<2048x2048xf32>, %C: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %0 = linalg.matmul ins(%A, %B : tensor<2048x2048xf32>, tensor<2048x2048xf32>)
                     outs(%C : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %0 : tensor<2048x2048xf32>
}
