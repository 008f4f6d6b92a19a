"""Programs and helpers several test files use (one copy each)."""

from __future__ import annotations

import argparse

from ireefuzz.errors import UsageError
from ireefuzz.tools import check

# A dynamic gather whose index operand is a function argument (in-bounds indices are the caller's job).
GATHER = """
func.func @main(%table: tensor<?x?xf32>, %idx: tensor<?xi32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %idx, %c0 : tensor<?xi32>
  %d = tensor.dim %table, %c1 : tensor<?x?xf32>
  %i2 = tensor.expand_shape %idx [[0, 1]] output_shape [%n, 1] : tensor<?xi32> into tensor<?x1xi32>
  %e = tensor.empty(%n, %d) : tensor<?x?xf32>
  %g = iree_linalg_ext.gather dimension_map = [0] ins(%table, %i2 : tensor<?x?xf32>, tensor<?x1xi32>)
         outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %g : tensor<?x?xf32>
}
"""

# An f32 add that IREE compiles and computes right.
ADD = """func.func @add(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
"""


def run_check(argv: list[str]) -> int:
    """What ``ireefuzz check ARGS`` does (cli.main maps UsageError to exit 2)."""
    parser = argparse.ArgumentParser()
    check.configure(parser)
    try:
        return check.main(parser.parse_args(argv))
    except SystemExit as e:  # argparse refused an option's value (one line, exit 2)
        return int(e.code or 0)
    except UsageError as e:
        print(f"ireefuzz check: error: {e}")
        return 2
