// the two-functions argmax as ireefuzz check --bundle reduced it (docs/repros/two_functions_iota_argmax_O3_zeroes.mlir); @g1 returns [0 0], [0 1] alone
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @g0(%arg0: tensor<2x1xf16>) -> tensor<2xf16> {
    %mapped = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%arg0 : tensor<2x1xf16>) {
    ^bb0(%out: f16):
      %index = linalg.index 0 : index
      %index_cast = arith.index_cast %index : index to i32
      %sitofp = arith.sitofp %index_cast : i32 to f16
      linalg.yield %sitofp : f16
    } -> tensor<2x1xf16>
    %cst = arith.constant 0xFC00 : f16
    %empty = tensor.empty() : tensor<2xf16>
    %fill = linalg.fill ins(%cst : f16) outs(%empty : tensor<2xf16>) -> tensor<2xf16>
    %cst1 = arith.constant dense<0> : tensor<2xi32>
    %reduced:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%mapped : tensor<2x1xf16>) outs(%fill, %cst1 : tensor<2xf16>, tensor<2xi32>) {
    ^bb0(%in: f16, %out: f16, %out_1: i32):
      %index = linalg.index 1 : index
      %index_cast = arith.index_cast %index : index to i32
      %sitofp = arith.cmpf oeq, %in, %out : f16
      %cmpi = arith.cmpi slt, %index_cast, %out_1 : i32
      %andi = arith.andi %sitofp, %cmpi : i1
      %cmpf = arith.cmpf ogt, %in, %out : f16
      %ori = arith.ori %cmpf, %andi : i1
      %select = arith.select %ori, %in, %out : f16
      %select1 = arith.select %ori, %index_cast, %out_1 : i32
      linalg.yield %select, %select1 : f16, i32
    } -> (tensor<2xf16>, tensor<2xi32>)
    return %reduced#0 : tensor<2xf16>
  }
  func.func @g1(%arg0: tensor<2xi32>) -> tensor<1x2xf16> {
    %empty = tensor.empty() : tensor<2x1xf16>
    %mapped = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%empty : tensor<2x1xf16>) {
    ^bb0(%out: f16):
      %index = linalg.index 0 : index
      %index_cast = arith.index_cast %index : index to i32
      %sitofp = arith.sitofp %index_cast : i32 to f16
      linalg.yield %sitofp : f16
    } -> tensor<2x1xf16>
    %cst = arith.constant 0xFC00 : f16
    %empty1 = tensor.empty() : tensor<2xf16>
    %fill = linalg.fill ins(%cst : f16) outs(%empty1 : tensor<2xf16>) -> tensor<2xf16>
    %cst1 = arith.constant 0 : i32
    %fill1 = linalg.fill ins(%cst1 : i32) outs(%arg0 : tensor<2xi32>) -> tensor<2xi32>
    %reduced:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%mapped : tensor<2x1xf16>) outs(%fill, %fill1 : tensor<2xf16>, tensor<2xi32>) {
    ^bb0(%in: f16, %out: f16, %out_1: i32):
      %index = linalg.index 1 : index
      %index_cast = arith.index_cast %index : index to i32
      %sitofp = arith.cmpf oeq, %in, %out : f16
      %cmpi = arith.cmpi slt, %index_cast, %out_1 : i32
      %andi = arith.andi %sitofp, %cmpi : i1
      %cmpf = arith.cmpf ogt, %in, %out : f16
      %ori = arith.ori %cmpf, %andi : i1
      %select = arith.select %ori, %in, %out : f16
      %select1 = arith.select %ori, %index_cast, %out_1 : i32
      linalg.yield %select, %select1 : f16, i32
    } -> (tensor<2xf16>, tensor<2xi32>)
    %cst2 = arith.constant dense<0> : tensor<2xi32>
    %sorted:2 = iree_linalg_ext.sort dimension(0) outs(%reduced#0, %cst2 : tensor<2xf16>, tensor<2xi32>) {
    ^bb0(%arg1: f16, %arg2: f16, %arg3: i32, %arg4: i32):
      %index = arith.cmpf oeq, %arg1, %arg2 : f16
      %index_cast = arith.cmpi slt, %arg3, %arg4 : i32
      %sitofp = arith.andi %index, %index_cast : i1
      %cmpi = arith.cmpf olt, %arg1, %arg2 : f16
      %andi = arith.ori %cmpi, %sitofp : i1
      iree_linalg_ext.yield %andi : i1
    } -> tensor<2xf16>, tensor<2xi32>
    %empty2 = tensor.empty() : tensor<1x2xf16>
    %mapped1 = linalg.generic {indexing_maps = [#map2, #map], iterator_types = ["parallel", "parallel"]} ins(%sorted#0 : tensor<2xf16>) outs(%empty2 : tensor<1x2xf16>) {
    ^bb0(%in: f16, %out: f16):
      linalg.yield %in : f16
    } -> tensor<1x2xf16>
    return %mapped1 : tensor<1x2xf16>
  }
}
