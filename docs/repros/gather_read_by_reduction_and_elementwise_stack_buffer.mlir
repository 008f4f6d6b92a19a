// A gather read by a reduction and by an elementwise op that also reads the reduction (x - sum(x), the shape of a
// log_softmax over gathered rows) keeps a stack buffer on the CPU: dispatch formation puts all three in one
// dispatch; codegen recomputes the gather inside the reduction loop, but stores it whole, (reduction extent x
// parallel tile), into a memref.alloca for the elementwise consumer. With the gather replaced by an elementwise op,
// or without the reduction, there is none; f32 and f16 alike; host (znver4) and x86-64-v3 alike. At model sizes it
// is a compile failure: the same program at 4096x64 f32 is over the 32 KiB stack limit ("exceeded stack allocation
// limit of 32768 bytes ... Got 131072"). IREE 3.13.0rc20261016. Found by the stop 44 x86-64-v3 campaign (seed 70529,
// gather > log_softmax); reproduced and minimized with stock tools by an outsider helper before reading the tool's
// report. Nearest upstream: #23464 (a gather feeding a matmul over the stack limit, fixed in 3.11), #22572; no report
// of this form found.
//   iree-compile gather_read_by_reduction_and_elementwise_stack_buffer.mlir --iree-hal-target-backends=llvm-cpu \
//     --iree-llvmcpu-target-cpu=host --iree-hal-dump-executable-intermediates-to=d -o m.vmfb
//   -> memref.alloca : memref<3x1xf32> in the gather dispatch
func.func @main(%arg0: tensor<1x3xf32>, %arg1: tensor<3x1xi32>) -> tensor<3x3xf32> {
  %e1 = tensor.empty() : tensor<3x3xf32>
  %n0 = iree_linalg_ext.gather dimension_map = [0] ins(%arg0, %arg1 : tensor<1x3xf32>, tensor<3x1xi32>) outs(%e1 : tensor<3x3xf32>) -> tensor<3x3xf32>
  %c0 = arith.constant 0.0 : f32
  %e13 = tensor.empty() : tensor<3xf32>
  %f12 = linalg.fill ins(%c0 : f32) outs(%e13 : tensor<3xf32>) -> tensor<3xf32>
  %r14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%n0 : tensor<3x3xf32>) outs(%f12 : tensor<3xf32>) {
  ^bb0(%b15: f32, %b17: f32):
    %v20 = arith.addf %b15, %b17 : f32
    linalg.yield %v20 : f32
  } -> tensor<3xf32>
  %e2 = tensor.empty() : tensor<3x3xf32>
  %n1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n0, %r14 : tensor<3x3xf32>, tensor<3xf32>) outs(%e2 : tensor<3x3xf32>) {
  ^bb0(%b21: f32, %b23: f32, %b24: f32):
    %v27 = arith.subf %b21, %b23 : f32
    linalg.yield %v27 : f32
  } -> tensor<3x3xf32>
  return %n1 : tensor<3x3xf32>
}
