// An integer converted to bf16 (arith.sitofp i32 -> bf16: JAX's x.astype(jnp.bfloat16) of an int32, i16 and i64 alike)
// fails to link for every x86 CPU without AVX512-BF16: "iree-lld: error: undefined symbol: __truncsfbf2", then "failed
// to link executable and generate target dylib" (failing pass iree-hal-serialize-target-executables). LLVM lowers the
// sitofp to bf16 to a libcall the embedded ELF does not provide; iree-org/iree#13499 (closed; the thread names no fix:
// PR #13607 and PR #15988 decomposed bf16 truncf/extf) left no such call for truncf, not for int -> bf16. An i32 -> f32
// sitofp then an f32 -> bf16 truncf in one dispatch fails alike (folded back into one sitofp); an f32 argument's truncf
// to bf16 links. A regression: compiles and gives the right values on IREE 20231113.707, 3.2.0 and 3.3.0 (x86-64-v3);
// fails on 3.7.0, 3.10.0, 3.12.0 and 3.13.0rc20261016 with x86-64-v3, x86-64-v4, x86-64 and skylake-avx512; links with
// --iree-llvmcpu-target-cpu=znver4 (which has avx512bf16). Found by stop 47's dtype spike with stock tools, then
// generated (the cast op's int -> bf16 casts). Upstream: #13499 is similar (same symbol, a truncf); no report of int ->
// bf16 found (searched: __truncsfbf2, sitofp bf16).
// iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=x86-64-v3 THIS -o x.vmfb
// (expected: a module; iree-run-module --function=f --input=4xi32=1,2,300,-5 gives 4xbf16=1 2 300 -5)
func.func @f(%a: tensor<?xi32>) -> tensor<?xbf16> {
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %a, %c0 : tensor<?xi32>
  %e = tensor.empty(%d0) : tensor<?xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0)->(d0)>, affine_map<(d0)->(d0)>], iterator_types = ["parallel"]}
     ins(%a : tensor<?xi32>) outs(%e : tensor<?xbf16>) {
  ^bb0(%x: i32, %o: bf16):
    %t = arith.sitofp %x : i32 to bf16
    linalg.yield %t : bf16
  } -> tensor<?xbf16>
  return %r : tensor<?xbf16>
}
