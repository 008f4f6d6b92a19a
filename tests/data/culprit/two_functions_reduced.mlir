#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @g0(%arg0: tensor<2x1xf16>) -> tensor<2xf16> {
    %empty = tensor.empty() : tensor<2xf16>
    %cst = arith.constant dense<0> : tensor<2xi32>
    %reduced:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<2x1xf16>) outs(%empty, %cst : tensor<2xf16>, tensor<2xi32>) {
    ^bb0(%in: f16, %out: f16, %out_0: i32):
      %index = linalg.index 1 : index
      %index_cast = arith.index_cast %index : index to i32
      %cmpf = arith.cmpf oeq, %in, %out : f16
      %cmpi = arith.cmpi slt, %index_cast, %out_0 : i32
      %andi = arith.andi %cmpf, %cmpi : i1
      %cmpf1 = arith.cmpf ogt, %in, %out : f16
      %ori = arith.ori %cmpf1, %andi : i1
      %select = arith.select %ori, %in, %out : f16
      %select1 = arith.select %ori, %index_cast, %out_0 : i32
      linalg.yield %select, %select1 : f16, i32
    } -> (tensor<2xf16>, tensor<2xi32>)
    return %reduced#0 : tensor<2xf16>
  }
  func.func @g1(%arg0: tensor<2x1xf16>, %arg1: tensor<1x2xf16>, %arg2: tensor<2xi32>, %arg3: tensor<2xf16>) -> tensor<1x2xf16> {
    %empty = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%arg0 : tensor<2x1xf16>) {
    ^bb0(%out: f16):
      %andi = linalg.index 0 : index
      %cmpf1 = arith.index_cast %andi : index to i32
      %ori = arith.sitofp %cmpf1 : i32 to f16
      linalg.yield %ori : f16
    } -> tensor<2x1xf16>
    %cst = arith.constant 0xFC00 : f16
    %reduced = linalg.fill ins(%cst : f16) outs(%arg3 : tensor<2xf16>) -> tensor<2xf16>
    %index = tensor.empty() : tensor<2xi32>
    %index_cast:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%empty : tensor<2x1xf16>) outs(%reduced, %index : tensor<2xf16>, tensor<2xi32>) {
    ^bb0(%in: f16, %out: f16, %out_1: i32):
      %andi = linalg.index 1 : index
      %cmpf1 = arith.index_cast %andi : index to i32
      %ori = arith.cmpf oeq, %in, %out : f16
      %select = arith.cmpi slt, %cmpf1, %out_1 : i32
      %select1 = arith.andi %ori, %select : i1
      %cmpf2 = arith.cmpf ogt, %in, %out : f16
      %ori1 = arith.ori %cmpf2, %select1 : i1
      %select2 = arith.select %ori1, %in, %out : f16
      %select3 = arith.select %ori1, %cmpf1, %out_1 : i32
      linalg.yield %select2, %select3 : f16, i32
    } -> (tensor<2xf16>, tensor<2xi32>)
    %cst1 = arith.constant dense<0> : tensor<2xi32>
    %cmpf:2 = iree_linalg_ext.sort dimension(0) outs(%index_cast#0, %cst1 : tensor<2xf16>, tensor<2xi32>) {
    ^bb0(%arg4: f16, %arg5: f16, %arg6: i32, %arg7: i32):
      %andi = arith.cmpf oeq, %arg4, %arg5 : f16
      %cmpf1 = arith.cmpi slt, %arg6, %arg7 : i32
      %ori = arith.andi %andi, %cmpf1 : i1
      %select = arith.cmpf olt, %arg4, %arg5 : f16
      %select1 = arith.ori %select, %ori : i1
      iree_linalg_ext.yield %select1 : i1
    } -> tensor<2xf16>, tensor<2xi32>
    %cmpi = linalg.generic {indexing_maps = [#map2, #map], iterator_types = ["parallel", "parallel"]} ins(%cmpf#0 : tensor<2xf16>) outs(%arg1 : tensor<1x2xf16>) {
    ^bb0(%in: f16, %out: f16):
      linalg.yield %in : f16
    } -> tensor<1x2xf16>
    return %cmpi : tensor<1x2xf16>
  }
}
