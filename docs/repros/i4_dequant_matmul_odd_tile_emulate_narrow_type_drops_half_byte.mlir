// An i4 weight-only dequantizing matmul whose i4 dim is 130 (65 bytes) returns wrong values: the CPU lowering
// strategy tiles that dim by 13 (distribution = [32, 13, 0]), so workgroups start at i4 column 13, 39, 65, ... (the
// middle of a byte), and iree-codegen-emulate-narrow-type rewrites the vector.maskedload of vector<8xi4> at such an
// offset to a byte index `(s0 * 65 + s1) floordiv 2` with no intra-byte offset: upstream MLIR's
// ConvertVectorMaskedLoad (VectorEmulateNarrowType.cpp) takes the offset to be byte-aligned whenever the vector
// length is a multiple of the elements per byte. Columns 13..25, 39..51, ... read the element one nibble before.
// With x = 1, s = 1 the output is the weight itself: 62 of 130 values wrong on x86-64-v3 (IREE 3.13.0rc20261016;
// host and generic alike by the outsider). N = 126, 128, 132, 134, 144 are right; the fully static form fails to
// compile instead (docs/repros/int4_remainder_masked_load_emulate_narrow_type.mlir, the known int4 error).
// IREE relies on its tile sizes keeping sub-byte accesses aligned (iree-org/iree#20645, PR #23319); the tile of 13
// breaks it. Found by stop 48's x86-64-v3 campaign (seed 17389, as dequant_matmul>log1p), reproduced and localized
// by an outsider with stock tools first (iree-opt running iree-codegen-emulate-narrow-type alone shows the floordiv).
// No upstream report found (searched: emulate narrow type i4 unaligned offset, int4 wrong results cpu); nearest:
// iree-org/iree#20645, #16219, llvm/llvm-project#131528.
// iree-compile --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=x86-64-v3 THIS -o x.vmfb
// iree-run-module --module=x.vmfb --function=main --input=1x1xf32=1 --input=@wb.npy --input=@s.npy (s = 130 ones,
//   wb = any 1x65 int8): y must equal the 130 nibbles of wb (low nibble first, signed).
// y[m, n] = sum_k x[m, k] * (float(w[k, n]) * s[n]),  w: K x 130 i4 (K x 65 bytes)
func.func @main(%x: tensor<?x?xf32>, %wb: tensor<?x65xi8>, %s: tensor<130xf32>) -> tensor<?x130xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %k = tensor.dim %wb, %c0 : tensor<?x65xi8>
  %w = flow.tensor.bitcast %wb : tensor<?x65xi8>{%k} -> tensor<?x130xi4>{%k}
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x130xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x130xf32>) -> tensor<?x130xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w, %s : tensor<?x?xf32>, tensor<?x130xi4>, tensor<130xf32>) outs(%acc : tensor<?x130xf32>) {
  ^bb0(%a: f32, %b: i4, %sc: f32, %o: f32):
    %bf = arith.sitofp %b : i4 to f32
    %d = arith.mulf %bf, %sc : f32
    %p = arith.mulf %a, %d : f32
    %r = arith.addf %o, %p : f32
    linalg.yield %r : f32
  } -> tensor<?x130xf32>
  return %y : tensor<?x130xf32>
}
