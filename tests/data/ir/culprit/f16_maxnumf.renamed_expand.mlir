// IREE 3.13: iree-opt --pass-pipeline='builtin.module(func.func(iree-llvmcpu-expand-f16-op-to-f32))' on the input of iree-llvmcpu-expand-f16-op-to-f32 in f16_maxnumf.after_all.log, with arith.maxnumf renamed arith.maximumf
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> ()>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
module {
  func.func @main_dispatch_0_softmax_2xf16_dispatch_tensor_store() {
    %cst = arith.constant 0.000000e+00 : f16
    %cst_0 = arith.constant 0xFE00 : f16
    %c0 = arith.constant 0 : index
    %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2xf16>>
    %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2xf16>>
    %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2xf16>>
    %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [2], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2xf16>> -> tensor<2xf16>
    %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [2], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2xf16>> -> tensor<2xf16>
    %5 = tensor.empty() : tensor<f16>
    %6 = linalg.fill ins(%cst_0 : f16) outs(%5 : tensor<f16>) -> tensor<f16>
    %7 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction"]} ins(%3 : tensor<2xf16>) outs(%6 : tensor<f16>) {
    ^bb0(%in: f16, %out: f16):
      %11 = arith.extf %in : f16 to f32
      %12 = arith.extf %out : f16 to f32
      %13 = arith.maximumf %11, %12 : f32
      %14 = arith.truncf %13 : f32 to f16
      linalg.yield %14 : f16
    } -> tensor<f16>
    %8 = linalg.fill ins(%cst : f16) outs(%5 : tensor<f16>) -> tensor<f16>
    %9 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["reduction"]} ins(%3, %7 : tensor<2xf16>, tensor<f16>) outs(%8 : tensor<f16>) {
    ^bb0(%in: f16, %in_1: f16, %out: f16):
      %11 = arith.subf %in, %in_1 : f16
      %12 = math.exp %11 : f16
      %13 = arith.addf %12, %out : f16
      linalg.yield %13 : f16
    } -> tensor<f16>
    %10 = linalg.generic {indexing_maps = [#map, #map1, #map1, #map], iterator_types = ["parallel"]} ins(%3, %7, %9 : tensor<2xf16>, tensor<f16>, tensor<f16>) outs(%4 : tensor<2xf16>) {
    ^bb0(%in: f16, %in_1: f16, %in_2: f16, %out: f16):
      %11 = arith.subf %in, %in_1 : f16
      %12 = math.exp %11 : f16
      %13 = arith.divf %12, %in_2 : f16
      linalg.yield %13 : f16
    } -> tensor<2xf16>
    iree_tensor_ext.dispatch.tensor.store %10, %2, offsets = [0], sizes = [2], strides = [1] : tensor<2xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2xf16>>
    return
  }
}

