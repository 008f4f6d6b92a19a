// iree-org/iree#12974 "math.exp2 fails to compile for llvm-cpu"
// The issue's program as written (math.exp2 on a tensor): before #13124 added the exp2 expansion, the CPU
// backend lowered it to a libm exp2f call the embedded linker cannot resolve ("lld: error: undefined symbol:
// exp2f"). Any CPU shows it (exp2 has no x86 instruction).
func.func @f1(%arg0: tensor<1xf32>) -> tensor<1xf32> {
  %0 = math.exp2 %arg0 : tensor<1xf32>
  return %0 : tensor<1xf32>
}
