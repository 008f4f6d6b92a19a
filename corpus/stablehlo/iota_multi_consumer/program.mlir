module {
  func.func public @main(%arg0: tensor<?x51xf32>) -> (tensor<?x51xi32> {jax.result_info = "result[0]"}, tensor<?xi32> {jax.result_info = "result[1]"}, tensor<?x4xf32> {jax.result_info = "result[2]"}, tensor<?x4xi32> {jax.result_info = "result[3]"}, tensor<?xi32> {jax.result_info = "result[4]"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x51xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'B'. Using the following polymorphic shapes specifications: args[0].shape = (B, 51). Obtained dimension variables: 'B' = {0} from specification 'B' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2:5 = call @main__wrapped_jax_export_main(%0, %arg0) : (tensor<i32>, tensor<?x51xf32>) -> (tensor<?x51xi32>, tensor<?xi32>, tensor<?x4xf32>, tensor<?x4xi32>, tensor<?xi32>)
    return %2#0, %2#1, %2#2, %2#3, %2#4 : tensor<?x51xi32>, tensor<?xi32>, tensor<?x4xf32>, tensor<?x4xi32>, tensor<?xi32>
  }
  func.func private @main__wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "B"}, %arg1: tensor<?x51xf32>) -> (tensor<?x51xi32> {jax.result_info = "result[0]"}, tensor<?xi32> {jax.result_info = "result[1]"}, tensor<?x4xf32> {jax.result_info = "result[2]"}, tensor<?x4xi32> {jax.result_info = "result[3]"}, tensor<?xi32> {jax.result_info = "result[4]"}) {
    %c = stablehlo.constant dense<2147483647> : tensor<i32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_0 = stablehlo.constant dense<51> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<51> : tensor<i32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %2 = stablehlo.dynamic_iota %1, dim = 1 : (tensor<2xi32>) -> tensor<?x51xi32>
    %3 = call @main__argsort(%arg0, %arg1) : (tensor<i32>, tensor<?x51xf32>) -> tensor<?x51xi32>
    %4 = call @main__argmax(%arg0, %arg1) : (tensor<i32>, tensor<?x51xf32>) -> tensor<?xi32>
    %5:2 = stablehlo.composite "chlo.top_k" %arg1 {composite_attributes = {k = 4 : i64}, decomposition = @main__chlo.top_k.impl, version = 1 : i32} : (tensor<?x51xf32>) -> (tensor<?x4xf32>, tensor<?x4xi32>)
    %6 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %7 = stablehlo.concatenate %6, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %8 = stablehlo.dynamic_broadcast_in_dim %cst, %7, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x51xf32>
    %9 = stablehlo.compare GT, %arg1, %8, FLOAT : (tensor<?x51xf32>, tensor<?x51xf32>) -> tensor<?x51xi1>
    %10 = call @main__where(%arg0, %9, %2, %c_1) : (tensor<i32>, tensor<?x51xi1>, tensor<?x51xi32>, tensor<i32>) -> tensor<?x51xi32>
    %11 = stablehlo.reduce(%10 init: %c) applies stablehlo.minimum across dimensions = [1] : (tensor<?x51xi32>, tensor<i32>) -> tensor<?xi32>
    return %3, %4, %5#0, %5#1, %11 : tensor<?x51xi32>, tensor<?xi32>, tensor<?x4xf32>, tensor<?x4xi32>, tensor<?xi32>
  }
  func.func private @main__chlo.top_k.impl(%arg0: tensor<?x51xf32>) -> (tensor<?x4xf32>, tensor<?x4xi32>) {
    %c = stablehlo.constant dense<1> : tensor<2xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<2xi64>
    %c_1 = stablehlo.constant dense<4> : tensor<i64>
    %c_2 = stablehlo.constant dense<51> : tensor<i64>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x51xf32>) -> tensor<i32>
    %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<i64>
    %2 = stablehlo.reshape %1 : (tensor<i64>) -> tensor<1xi64>
    %3 = stablehlo.reshape %c_2 : (tensor<i64>) -> tensor<1xi64>
    %4 = stablehlo.concatenate %2, %3, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
    %5 = stablehlo.reshape %c_1 : (tensor<i64>) -> tensor<1xi64>
    %6 = stablehlo.concatenate %2, %5, dim = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
    %7 = stablehlo.dynamic_iota %4, dim = 1 : (tensor<2xi64>) -> tensor<?x51xi32>
    %8:2 = "stablehlo.sort"(%arg0, %7) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %11 = stablehlo.compare GT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %11 : tensor<i1>
    }) : (tensor<?x51xf32>, tensor<?x51xi32>) -> (tensor<?x51xf32>, tensor<?x51xi32>)
    %9 = stablehlo.real_dynamic_slice %8#0, %c_0, %6, %c : (tensor<?x51xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x4xf32>
    %10 = stablehlo.real_dynamic_slice %8#1, %c_0, %6, %c : (tensor<?x51xi32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x4xi32>
    return %9, %10 : tensor<?x4xf32>, tensor<?x4xi32>
  }
  func.func private @main__argsort(%arg0: tensor<i32> {jax.global_constant = "B"}, %arg1: tensor<?x51xf32>) -> tensor<?x51xi32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<51> : tensor<1xi32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %2 = stablehlo.dynamic_iota %1, dim = 1 : (tensor<2xi32>) -> tensor<?x51xi32>
    %3:2 = "stablehlo.sort"(%arg1, %2) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<i32>, %arg5: tensor<i32>):
      %4 = stablehlo.compare EQ, %arg2, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = stablehlo.select %4, %cst_0, %arg2 : tensor<i1>, tensor<f32>
      %6 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %7 = stablehlo.select %6, %cst, %5 : tensor<i1>, tensor<f32>
      %8 = stablehlo.compare EQ, %arg3, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %9 = stablehlo.select %8, %cst_0, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.compare NE, %arg3, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %11 = stablehlo.select %10, %cst, %9 : tensor<i1>, tensor<f32>
      %12 = stablehlo.compare LT, %7, %11, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %12 : tensor<i1>
    }) : (tensor<?x51xf32>, tensor<?x51xi32>) -> (tensor<?x51xf32>, tensor<?x51xi32>)
    return %3#1 : tensor<?x51xi32>
  }
  func.func private @main__argmax(%arg0: tensor<i32>, %arg1: tensor<?x51xf32>) -> tensor<?xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c_0 = stablehlo.constant dense<51> : tensor<1xi32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %2 = stablehlo.dynamic_iota %1, dim = 1 : (tensor<2xi32>) -> tensor<?x51xi32>
    %3:2 = stablehlo.reduce(%arg1 init: %cst), (%2 init: %c) across dimensions = [1] : (tensor<?x51xf32>, tensor<?x51xi32>, tensor<f32>, tensor<i32>) -> (tensor<?xf32>, tensor<?xi32>)
     reducer(%arg2: tensor<f32>, %arg4: tensor<f32>) (%arg3: tensor<i32>, %arg5: tensor<i32>)  {
      %4 = stablehlo.compare GT, %arg2, %arg4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %5 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.or %4, %5 : tensor<i1>
      %7 = stablehlo.compare EQ, %arg2, %arg4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = stablehlo.compare LT, %arg3, %arg5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = stablehlo.and %7, %8 : tensor<i1>
      %10 = stablehlo.or %6, %9 : tensor<i1>
      %11 = stablehlo.select %6, %arg2, %arg4 : tensor<i1>, tensor<f32>
      %12 = stablehlo.select %10, %arg3, %arg5 : tensor<i1>, tensor<i32>
      stablehlo.return %11, %12 : tensor<f32>, tensor<i32>
    }
    return %3#1 : tensor<?xi32>
  }
  func.func private @main__where(%arg0: tensor<i32> {jax.global_constant = "B"}, %arg1: tensor<?x51xi1>, %arg2: tensor<?x51xi32>, %arg3: tensor<i32>) -> tensor<?x51xi32> {
    %c = stablehlo.constant dense<51> : tensor<1xi32>
    %0 = stablehlo.convert %arg3 : tensor<i32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %0, %2, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x51xi32>
    %4 = stablehlo.select %arg1, %arg2, %3 : tensor<?x51xi1>, tensor<?x51xi32>
    return %4 : tensor<?x51xi32>
  }
}
