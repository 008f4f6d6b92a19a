// jnp.cumsum(x, axis=1) of a tensor<?x17xf32> (a dynamic batch, a static scan dim) exports a stablehlo.reduce_window
// with window [1, 17] and padding [[0, 0], [16, 0]]; IREE fails to compile it: "'tensor.empty' op incorrect number
// of dynamic sizes, has 0, expected 1" in iree-stablehlo-to-linalg-ext, whose reduce_window -> scan rewrite creates
// the scan's output with a tensor.empty of no dynamic sizes. cumprod, cummax and a 3-D input fail alike; with every
// dim static it compiles and matches np.cumsum (7e-7). IREE 3.2.0, 3.10.0 and 3.13.0rc20261016, host and
// x86-64-v3. Found by stop 47's JAX spike with stock tools; StableHLO input conversion, not llvm-cpu codegen; not
// generated (the StableHLO frontend exports cumsum through lax.cumsum's own lowering). No upstream report found.
// iree-compile --iree-input-type=stablehlo --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host THIS -o x.vmfb
func.func @f(%x: tensor<?x17xf32>) -> tensor<?x17xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %cst) <{padding = dense<[[0, 0], [16, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 17>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<?x17xf32>, tensor<f32>) -> tensor<?x17xf32>
  return %0 : tensor<?x17xf32>
}
