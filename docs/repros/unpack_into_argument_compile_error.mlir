// linalg.unpack whose destination is a function argument fails to compile for llvm-cpu:
//   error: 'linalg.generic' op write affecting operations on global resources are restricted to
//          workgroup distributed contexts.
// With a fresh tensor.empty as the destination it compiles. (The DPS-destination-argument family of
// iree-org/iree#16168, here as a compile error rather than an in-place write.)
// iree-compile --iree-hal-target-backends=llvm-cpu unpack_into_argument_compile_error.mlir -o m.vmfb
// IREE 3.13.0rc20261016. Found by ireefuzz (op unpack, init = an argument).
func.func @main(%arg0: tensor<8x2xf32>, %arg1: tensor<15xf32>) -> tensor<15xf32> {
  %u = linalg.unpack %arg0 inner_dims_pos = [0] inner_tiles = [2] into %arg1 : tensor<8x2xf32> -> tensor<15xf32>
  return %u : tensor<15xf32>
}
