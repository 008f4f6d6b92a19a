// iree-org/iree#23381 "Incorrect results coming from cumsum". The issue attaches a JAX model exported
// to StableHLO whose jnp.cumsum gradient came back almost all zeros (the same model with a matmul in place
// of cumsum was right). Its files are attachments the stored thread does not hold, so this is the same
// pattern exported here with jax.export (JAX 0.10.2): cumsum along axis 0 and its gradient (a reversed
// cumulative sum), both returned.
#loc = loc(unknown)
#loc1 = loc("x")
#loc2 = loc("w")
#loc10 = loc("reduce_window_sum")
#loc18 = loc("reduce_window_sum:"(#loc10))
module @jit_cumsum_model attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x8xf32> loc("x"), %arg1: tensor<64x8xf32> loc("w")) -> (tensor<64x8xf32> {jax.result_info = "result[0]"}, tensor<64x8xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32> loc(#loc20)
    %0 = call @cumsum(%arg0) : (tensor<64x8xf32>) -> tensor<64x8xf32> loc(#loc23)
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x8xf32> loc(#loc28)
    %2 = stablehlo.multiply %1, %arg1 : tensor<64x8xf32> loc(#loc29)
    %3 = call @cumsum_1(%2) : (tensor<64x8xf32>) -> tensor<64x8xf32> loc(#loc30)
    return %0, %3 : tensor<64x8xf32>, tensor<64x8xf32> loc(#loc20)
  } loc(#loc)
  func.func private @cumsum(%arg0: tensor<64x8xf32> loc(unknown)) -> tensor<64x8xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<64x8xf32>) -> tensor<64x8xf32> loc(#loc)
    return %0 : tensor<64x8xf32> loc(#loc)
  } loc(#loc31)
  func.func private @cumsum_0(%arg0: tensor<64x8xf32> loc(unknown)) -> tensor<64x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32> loc(#loc10)
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32> loc(#loc10)
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{padding = dense<[[63, 0], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 64, 1>}> ({
    ^bb0(%arg1: tensor<f32> loc("reduce_window_sum:"(#loc10)), %arg2: tensor<f32> loc("reduce_window_sum:"(#loc10))):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32> loc(#loc10)
      stablehlo.return %2 : tensor<f32> loc(#loc10)
    }) : (tensor<64x8xf32>, tensor<f32>) -> tensor<64x8xf32> loc(#loc10)
    return %1 : tensor<64x8xf32> loc(#loc)
  } loc(#loc)
  func.func private @cumsum_1(%arg0: tensor<64x8xf32> loc(unknown)) -> tensor<64x8xf32> {
    %0 = call @cumsum_2(%arg0) : (tensor<64x8xf32>) -> tensor<64x8xf32> loc(#loc)
    return %0 : tensor<64x8xf32> loc(#loc)
  } loc(#loc33)
  func.func private @cumsum_2(%arg0: tensor<64x8xf32> loc(unknown)) -> tensor<64x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32> loc(#loc10)
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32> loc(#loc10)
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{padding = dense<[[0, 63], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 64, 1>}> ({
    ^bb0(%arg1: tensor<f32> loc("reduce_window_sum:"(#loc10)), %arg2: tensor<f32> loc("reduce_window_sum:"(#loc10))):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32> loc(#loc10)
      stablehlo.return %2 : tensor<f32> loc(#loc10)
    }) : (tensor<64x8xf32>, tensor<f32>) -> tensor<64x8xf32> loc(#loc10)
    return %1 : tensor<64x8xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc3 = loc("<stdin>":4:10 to :44)
#loc4 = loc("<stdin>":10:0 to 16:102)
#loc5 = loc("<stdin>":9:11 to :32)
#loc6 = loc("<stdin>":8:21 to :55)
#loc7 = loc("<stdin>":9:34 to :51)
#loc8 = loc("<stdin>":8:29 to :54)
#loc9 = loc("<stdin>":8:29 to :50)
#loc11 = loc("write"(#loc3))
#loc12 = loc("<module>"(#loc4))
#loc13 = loc("cumsum_model"(#loc5))
#loc14 = loc("cumsum_model.<locals>.<lambda>"(#loc6))
#loc15 = loc("cumsum_model"(#loc7))
#loc16 = loc("cumsum_model.<locals>.<lambda>"(#loc8))
#loc17 = loc("cumsum_model.<locals>.<lambda>"(#loc9))
#loc19 = loc(callsite(#loc11 at #loc12))
#loc20 = loc("jit(cumsum_model)"(#loc19))
#loc21 = loc(callsite(#loc13 at #loc19))
#loc22 = loc(callsite(#loc15 at #loc19))
#loc23 = loc("jit(cumsum_model)/jit(cumsum)"(#loc21))
#loc24 = loc(callsite(#loc14 at #loc22))
#loc25 = loc(callsite(#loc16 at #loc22))
#loc26 = loc(callsite(#loc17 at #loc22))
#loc27 = loc("jit(cumsum_model)/jit"(#loc21))
#loc28 = loc("jit(cumsum_model)/transpose(jvp())/broadcast_in_dim"(#loc24))
#loc29 = loc("jit(cumsum_model)/transpose(jvp())/mul"(#loc25))
#loc30 = loc("jit(cumsum_model)/transpose(jvp(jit(cumsum)))"(#loc26))
#loc31 = loc("jit:"(#loc27))
#loc32 = loc("jit(cumsum_model)/transpose(jvp())/jit"(#loc26))
#loc33 = loc("jit:"(#loc32))
