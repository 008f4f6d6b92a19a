// math.fpowi of a negative base by an exponent known only at run time: IREE's CPU backend expands it in
// iree-codegen-math-transform through exp(n * log(x)), so every negative base gives NaN ((-2)^3 = NaN, (-0.5)^-3 =
// NaN); a positive base is right, and a constant exponent is expanded to multiplications and is right too.
// math.fpowi is the op upstream names for a negative base (iree-org/iree#19996 is math.powf's, closed as "powf of a
// negative base is undefined"; llvm/llvm-project#127256: "use math.fpowi for that"); torch-mlir lowers a float
// tensor's pow by an int to it (llvm/torch-mlir#4029). Found by a stock-tools spike of math ops (stop 42).
// Releases: 3.2.0 right (-8 -8 9 8); 3.7.0, 3.10.0, 3.11.0, 3.12.0, 3.13.0 NaN: regressed between 3.2.0 and 3.7.0
// (llvm/llvm-project#126338, Feb. 2025, lowered math.powf to exp(y * log(x)) outside a few exponents).
//   iree-compile fpowi_runtime_exponent_negative_base_nan.mlir --iree-hal-target-backends=llvm-cpu \
//     --iree-llvmcpu-target-cpu=host -o m.vmfb
//   iree-run-module --module=m.vmfb --function=main --input=4xf32=-2,-0.5,-3,2 --input=4xi32=3,-3,2,3
//   -> 4xf32=NAN NAN NAN 8   (expected -8 -8 9 8)
func.func @main(%x: tensor<?xf32>, %n: tensor<?xi32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x, %n : tensor<?xf32>, tensor<?xi32>) outs(%e : tensor<?xf32>) {
  ^bb0(%b: f32, %p: i32, %out: f32):
    %y = math.fpowi %b, %p : f32, i32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
