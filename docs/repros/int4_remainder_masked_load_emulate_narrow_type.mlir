// An int4 tensor whose static size is not a whole number of vectors fails to compile for the CPU:
// "failed to legalize operation 'vector.maskedload' that was explicitly marked illegal" and "'func.func' op failed to
// emulate bit width" (iree-codegen-emulate-narrow-type). The dispatch is vectorized with masking
// (vector_common_parallel = [16]); iree-codegen-vector-transfer-lowering turns the vector.create_mask into a
// compare of a broadcast bound with a step before narrow-type emulation, which accepts only create_mask /
// constant_mask masks (an outsider's reading). Sizes 18, 30, 34, 66 and 1000 fail; 32, or i8 instead of i4, compile.
// Host (znver4), x86-64-v3 and generic; IREE 3.13.0rc20261016. Compiles on 20231113.707. Likely a regression of
// iree-org/iree#15024 (sub-byte masking turned off on CPU, #15031 closed); no open upstream report found.
// Found by the stop 45 campaigns (host 47303, x86-64-v3 58867) through int4 weight-only dequantizing matmuls
// (K x N/2 bytes bitcast to K x N i4), the form the narrow-types spike named; minimized by an outsider.
// iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host THIS -o x.vmfb
func.func @main(%arg1: tensor<34xi4>) -> tensor<34xf32> {
  %e = tensor.empty() : tensor<34xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d1) -> (d1)>, affine_map<(d1) -> (d1)>], iterator_types = ["parallel"]} ins(%arg1 : tensor<34xi4>) outs(%e : tensor<34xf32>) {
  ^bb0(%b4: i4, %b6: f32):
    %v7 = arith.sitofp %b4 : i4 to f32
    linalg.yield %v7 : f32
  } -> tensor<34xf32>
  return %r : tensor<34xf32>
}
