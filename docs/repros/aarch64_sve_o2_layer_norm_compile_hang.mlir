// A dynamic 1-D layer norm compiled for aarch64 with SVE at -O2 does not finish: iree-compile still runs after
// 25 s at 1.8 GB (this program) and after 40 s at 3 GB (the campaign's case, a layer norm and three elementwise ops).
// That case compiles in 0.5 s at -O1, in 0.3 s for +neon alone at -O2, and in 0.2 s for x86-64 (host) at -O2;
// --iree-dispatch-creation-enable-aggressive-fusion instead of -O2 hangs too. Found by a --configs campaign
// (signed crash/compile-timeout); its mean-centring half alone compiles in 0.6 s. Cut by hand.
// timeout 60 iree-compile aarch64_sve_o2_layer_norm_compile_hang.mlir -o m.vmfb --iree-hal-target-backends=llvm-cpu \
//   --iree-llvmcpu-target-triple=aarch64-unknown-linux-gnu --iree-llvmcpu-target-cpu=generic \
//   --iree-llvmcpu-target-cpu-features=+sve --iree-opt-level=O2        (IREE 3.13.0rc20261016)
module {
func.func @main(%arg0: tensor<?xf32>, %arg1: tensor<?xf32>, %arg2: tensor<f32>, %arg3: tensor<f32>) -> tensor<?xf32> {
  %c1 = arith.constant 0 : index
  %dim_M = tensor.dim %arg0, %c1 : tensor<?xf32>
  %size3 = arith.index_cast %dim_M : index to i64
  %size2 = arith.sitofp %size3 : i64 to f32
  %c4 = arith.constant 0.000000e+00 : f32
  %e6 = tensor.empty() : tensor<f32>
  %f5 = linalg.fill ins(%c4 : f32) outs(%e6 : tensor<f32>) -> tensor<f32>
  %r7 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%arg0 : tensor<?xf32>) outs(%f5 : tensor<f32>) {
  ^bb0(%b8: f32, %b9: f32):
    %v10 = arith.addf %b9, %b8 : f32
    linalg.yield %v10 : f32
  } -> tensor<f32>
  %e11 = tensor.empty(%dim_M) : tensor<?xf32>
  %r12 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0, %r7 : tensor<?xf32>, tensor<f32>) outs(%e11 : tensor<?xf32>) {
  ^bb0(%b13: f32, %b14: f32, %b15: f32):
    %v16 = arith.divf %b14, %size2 : f32
    %v17 = arith.subf %b13, %v16 : f32
    linalg.yield %v17 : f32
  } -> tensor<?xf32>
  %c18 = arith.constant 0.000000e+00 : f32
  %e20 = tensor.empty() : tensor<f32>
  %f19 = linalg.fill ins(%c18 : f32) outs(%e20 : tensor<f32>) -> tensor<f32>
  %r21 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%r12 : tensor<?xf32>) outs(%f19 : tensor<f32>) {
  ^bb0(%b22: f32, %b23: f32):
    %v24 = arith.mulf %b22, %b22 : f32
    %v25 = arith.addf %b23, %v24 : f32
    linalg.yield %v25 : f32
  } -> tensor<f32>
  %n0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r12, %r21 : tensor<?xf32>, tensor<f32>) outs(%e11 : tensor<?xf32>) {
  ^bb0(%b26: f32, %b27: f32, %b28: f32):
    %v29 = arith.divf %b27, %size2 : f32
    %v30 = arith.constant 1.000000e-05 : f32
    %v31 = arith.addf %v29, %v30 : f32
    %v32 = math.rsqrt %v31 : f32
    %v33 = arith.mulf %b26, %v32 : f32
    linalg.yield %v33 : f32
  } -> tensor<?xf32>
  return %n0 : tensor<?xf32>
}
}
