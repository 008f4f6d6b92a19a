import numpy as np

from ireefuzz import sut

TEXT = """
func.func @main(%q: tensor<1x2x?xf32>, %k: tensor<1x3x?xf32>, %v: tensor<1x3x2xf32>) -> tensor<1x2x2xf32> {
  %scale = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<1x2x2xf32>
  %r = iree_linalg_ext.attention <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, \
affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, \
affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>]}> \
ins(%q, %k, %v, %scale : tensor<1x2x?xf32>, tensor<1x3x?xf32>, tensor<1x3x2xf32>, f32) outs(%e : tensor<1x2x2xf32>) {
  ^bb0(%s: f32):
    iree_linalg_ext.yield %s : f32
  } -> tensor<1x2x2xf32>
  return %r : tensor<1x2x2xf32>
}
"""
import sys

D = int(sys.argv[1]) if len(sys.argv) > 1 else 4
text = TEXT if D > 0 else TEXT
rng = np.random.default_rng(0)
q = rng.integers(-2, 3, (1, 2, abs(D))).astype(np.float32)
k = rng.integers(-2, 3, (1, 3, abs(D))).astype(np.float32)
v = rng.integers(-2, 3, (1, 3, 2)).astype(np.float32)
a = sut.compile_mlir(text, sut.CompilerConfig())
m = sut.LoadedModule(a.vmfb) if not hasattr(sut, "load") else sut.load(a)
out = m.call("main", [q, k, v]).outputs[0]
s = np.einsum("bsd,btd->bst", q.astype(np.float64), k)
p = np.exp(s - s.max(-1, keepdims=True))
p /= p.sum(-1, keepdims=True)
want = np.einsum("bst,bte->bse", p, v)
print("D", D, "IREE", out.ravel(), "\nnumpy", want.ravel(), "\npipelines", [d.pipeline for d in a.dispatches])
