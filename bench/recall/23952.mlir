// iree-org/iree#23952 "[CPU] Incorrect results depending on `native_vector_size` for fusion of 2
// generics.". The issue's testcases are attachments (repro2.zip) the stored thread does not hold; its
// minimized IR maps a 1600x625 input to 1600x25x25 and reduces over an extent (625 in steps of 8, masked
// remainder) that the native vector size does not divide. Written here to that shape: two generics fused
// in one dispatch, a reduction over 25 (no multiple of 8 or 16) and its consumer; the outputs must not
// change with --iree-llvmcpu-target-vector-width-in-bytes (16, 32, 64).
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @main(%m: tensor<1600x625xf32>) -> tensor<1600x25x25xf32> {
  %zero = arith.constant 0.0 : f32
  %x = tensor.expand_shape %m [[0], [1, 2]] output_shape [1600, 25, 25] : tensor<1600x625xf32> into tensor<1600x25x25xf32>
  %e2 = tensor.empty() : tensor<1600x25xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1600x25xf32>) -> tensor<1600x25xf32>
  %s = linalg.generic {indexing_maps = [#id3, #red], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1600x25x25xf32>) outs(%f : tensor<1600x25xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1600x25xf32>
  %e3 = tensor.empty() : tensor<1600x25x25xf32>
  %o = linalg.generic {indexing_maps = [#id3, #red, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %s : tensor<1600x25x25xf32>, tensor<1600x25xf32>) outs(%e3 : tensor<1600x25x25xf32>) {
  ^bb0(%a: f32, %t: f32, %out: f32):
    %r = arith.subf %a, %t : f32
    linalg.yield %r : f32
  } -> tensor<1600x25x25xf32>
  return %o : tensor<1600x25x25xf32>
}
