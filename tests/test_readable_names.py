"""shrink.mlir.readable: result names say what each op is, in every scope (the review of the 23665 bundle found
`%sitofp = arith.cmpf`: the printer numbers sibling regions from the same ids)."""

import re

from ireefuzz.tools.shrink.mlir import readable

TWO_BODIES = """#id = affine_map<(d0) -> (d0)>
func.func @main(%a: tensor<4xf32>, %b: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xi1>) {
  %0 = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : tensor<4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  } -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%0 : tensor<4xf32>)
      outs(%b : tensor<4xi1>) {
  ^bb0(%in: f32, %out: i1):
    %x = arith.negf %in : f32
    %y = arith.addf %x, %in : f32
    %z = arith.cmpf oeq, %y, %in : f32
    linalg.yield %z : i1
  } -> tensor<4xi1>
  return %0, %1 : tensor<4xf32>, tensor<4xi1>
}
"""


def test_every_result_is_named_after_its_own_op_in_sibling_regions():
    named = readable(TWO_BODIES)
    definitions = re.findall(r"%([a-z_]+)\d* = ([\w.]+)", named)
    assert definitions, named
    wrong = [(name, op) for name, op in definitions if name not in op.replace("linalg.generic", "mapped")]
    assert wrong == [], named
    assert "%negf = arith.negf %in" in named and "arith.addf %negf, %in" in named, named
