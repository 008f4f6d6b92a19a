"""IREE's IR vocabulary: the op names, pass names and markers the judges and filing read from IREE's IR.

One home for every word of IREE's IR that ireefuzz depends on, so that following an IREE release's change to
the IR (a dialect rename, a pass renamed) is one edit here. Stdlib only (L1): the text readers (``ir_text``),
the binding readers (``memory``, ``fusion``, ``scratch``), ``sut``'s dump reader and filing all import it, and
``tests/test_vocabulary.py`` keeps every reader in agreement with it.

``RENAMES`` records the spellings an IREE release changed: a reader accepts every spelling of a word
(``spellings``), so recorded IR of older releases is still read.
"""

from __future__ import annotations

import dataclasses
import re


@dataclasses.dataclass(frozen=True)
class Rename:
    old: str
    new: str
    release: str  # the published releases between which the spelling changed, as far as checked
    checked: str  # how that was established


RENAMES = (
    Rename(
        "flow.dispatch.tensor.load",
        "iree_tensor_ext.dispatch.tensor.load",
        "after 20241104.1068, by 3.12.0",
        "--compile-to=executable-sources of 3.12.0 and 3.13.0 prints only the new name; the 2023-2024 releases' "
        "readers (ir_text) expect the old; the releases between were not checked",
    ),
    Rename(
        "flow.dispatch.tie_shape",
        "iree_tensor_ext.dispatch.tie_shape",
        "after 20241104.1068, by 3.12.0",
        "as dispatch.tensor.load",
    ),
    Rename(
        "flow.dispatch.tensor.store",
        "iree_tensor_ext.dispatch.tensor.store",
        "after 20241104.1068, by 3.12.0",
        "as dispatch.tensor.load",
    ),
)


def spellings(name: str) -> tuple[str, ...]:
    """Every spelling of an op name across releases, the newest first."""
    for rename in RENAMES:
        if name in (rename.old, rename.new):
            return (rename.new, rename.old)
    return (name,)


# --------------------------------------------------------------------------- dispatch interface

BINDING_OP = "hal.interface.binding.subspan"  # a dispatch's input and output buffers
TENSOR_LOADS = spellings("iree_tensor_ext.dispatch.tensor.load")
TENSOR_STORES = spellings("iree_tensor_ext.dispatch.tensor.store")
TIE_SHAPES = spellings("iree_tensor_ext.dispatch.tie_shape")  # a dispatch tensor with its dynamic dims
BUFFER_STORE = "iree_codegen.store_to_buffer"  # a dispatch's result stored into its output binding (codegen)

# --------------------------------------------------------------------------- memory

ALLOCA = "memref.alloca"
ALLOC = "memref.alloc"
ALLOC_OPS = (ALLOCA, ALLOC)
COPY_OPS = ("memref.copy", "linalg.copy", "linalg.generic")  # a generic counts when it only copies
LOOP_OPS = ("scf.for", "scf.forall", "scf.while", "scf.parallel", "affine.for", "affine.parallel")
# Ops whose result is the same memory as their first operand.
ALIAS_OPS = ("memref.cast", "memref.assume_alignment", "memref.memory_space_cast")
VIEW_OPS = ALIAS_OPS + ("memref.subview", "memref.expand_shape", "memref.collapse_shape", "memref.reinterpret_cast")
# Ops in a dispatch's executable source whose semantics is moving data (besides copy-like linalg.generics, a
# generic that gathers with tensor.extract, and a dispatch with no compute op).
DATA_MOVEMENT_OPS = (
    "iree_linalg_ext.gather",
    "iree_linalg_ext.scatter",
    "linalg.transpose",
    "linalg.broadcast",
    "linalg.copy",
    "tensor.pad",
    "tensor.concat",
    "tensor.extract_slice",
    "tensor.insert_slice",
)
# ops that write their whole destination and never read it: a read-only destination needs a fresh buffer, not a
# copy of its values (bufferization copying an argument an unpack overwrites is its own defect, not a materialization)
DESTINATION_UNREAD_OPS = ("linalg.unpack", "linalg.pack", "linalg.fill", "linalg.copy", "linalg.transpose")
# Ops that update all of their ``outs`` operands in place (their results are those operands).
IN_PLACE_OPS = ("iree_linalg_ext.sort", "iree_linalg_ext.topk", "iree_linalg_ext.scan", "iree_linalg_ext.scatter")
EXECUTABLE_TARGET = "#hal.executable.target<"  # a dispatch's target attribute, as IREE prints it (inline or aliased)
STACK_LIMIT_ATTRIBUTE = "max_stack_allocation_size"  # on the executable target; bytes
DEFAULT_STACK_LIMIT = 32768  # bytes: IREE's llvm-cpu default max_stack_allocation_size

# --------------------------------------------------------------------------- fusion

# Ops that only produce data from indices / constants (plus the empty destination they fill).
PRODUCER_ROOTS = ("linalg.", "arith.constant", "tensor.splat", "tensor.generate")
# IREE's dispatch-creation fusion policy: by default it fuses no producer into some consumers (3.13: none into
# ``iree_linalg_ext.attention``, whose index-only mask gets a dispatch of its own); this flag fuses them.
AGGRESSIVE_FUSION_FLAG = "--iree-dispatch-creation-enable-aggressive-fusion"
# The llvm-cpu microkernels (an mmt4d's inner tiles computed by a hand-written kernel): off, the tile is vectorized
# by codegen like any other contraction. A wrong value that goes away with it is the kernel's.
UKERNELS_OFF_FLAG = "--iree-llvmcpu-enable-ukernels=none"

# --------------------------------------------------------------------------- passes

# The IR the memory oracle reads is printed *before* these passes (``--mlir-print-ir-before``):
FINAL_PASS = "iree-convert-to-llvm"  # allocas, vector code, still MLIR
BUFFERIZED_PASS = "iree-codegen-cleanup-buffer-alloc-view"  # after bufferization (its first run)
OBSERVATION_PASSES = {"final": FINAL_PASS, "bufferized": BUFFERIZED_PASS}
# The host program is printed once, before stream conversion: its ``flow.dispatch`` ops say which dispatch's
# result another dispatch reads (the fusion oracle), and which only goes back to the caller.
HOST_PASS = "iree-stream-conversion"
FLOW_DISPATCH = "flow.dispatch"
# Const-expr hoisting (``iree-util-hoist-into-globals``, which 3.13 also runs after dispatch creation, past the
# consteval JIT) moves a producer of constant data into ``util.global private @__hoisted_<type>``: computed once, by
# a ``flow.dispatch`` in a ``util.initializer`` (or folded by the JIT), and read by ``util.global.load``. The
# program's own literals outlined as ``@__constant_*`` are not producers: left out.
HOST_INITIALIZER = "util.initializer"
HOISTED_GLOBAL_PREFIX = "__hoisted"
SEEN_AT = {"final": f"before {FINAL_PASS}", "bufferized": "after bufferization cleanup"}

# What survives LLVM: the optimized LLVM IR of each executable (``--iree-hal-dump-executable-intermediates-to``, one
# ``<module>_<executable>_<format>.optimized.ll`` per executable since 2022). A ``memref.alloca`` that LLVM's SROA /
# mem2reg promotes to registers leaves no ``alloca`` instruction in the dispatch's function: no stack buffer.
LLVM_INTERMEDIATES_FLAG = "--iree-hal-dump-executable-intermediates-to"
LLVM_OPTIMIZED_SUFFIX = ".optimized.ll"
LLVM_ALLOCA = re.compile(r"^\s*%[\w.$-]+ = alloca\b", re.M)

# Passes that run one transformation, by family: a bug in that transformation is one cause whichever of them meets
# it first (``cause.pass_family``): the workgroup-level or a vector-level tiling of one op, IREE's or upstream
# MLIR's unit-dim folding. Names as 3.13's ``iree-opt --help`` lists them.
PASS_FAMILIES = {
    "tiling": (
        "iree-codegen-tile-and-distribute-to-workgroups-using-forall-op",
        "iree-llvmcpu-tile",
        "iree-llvmcpu-tile-and-fuse-producer-consumer",
        "iree-llvmcpu-tile-to-vector-size",
        "iree-codegen-tile-large-tensors",
    ),
    "fold-unit-extent-dims": (
        "iree-dispatch-creation-fold-unit-extent-dims",
        "iree-dispatch-creation-fold-unit-extent-dims-for-func",
        "iree-linalg-ext-fold-unit-extent-dims",
        "linalg-fold-unit-extent-dims",
    ),
    "bufferization": (
        "iree-codegen-iree-comprehensive-bufferize",
        "iree-codegen-bufferize-dispatch-tensor-load-store",
        "iree-codegen-bufferize-copy-only-dispatches",
        "one-shot-bufferize",
    ),
}

# Passes where a failure only surfaces: they check or translate what earlier passes made (the final stack check,
# workgroup distribution's verifier, LLVM translation and linking). A failure there names where it was seen, not
# which transformation made it, so it is no evidence of a mechanism by itself; by stage, the later a pass, the
# higher (a variant failing at a later stage got past the target's failure point).
LINK_PASSES = ("iree-hal-serialize-target-executables",)
FINAL_CHECK_PASS = "iree-llvmcpu-check-ir-before-llvm-conversion"  # the stack limit, the last check before LLVM
CHECK_PASSES = (FINAL_CHECK_PASS, "iree-codegen-verify-workgroup-distribution")
REPORTING_PASSES = (*CHECK_PASSES, *LINK_PASSES)
# Passes that, for one oracle, only materialize what earlier passes left: bufferization gives a stack buffer to
# whatever tile vectorization or fusion left a tensor, so the pass where an alloca first shows names no mechanism.
# Stop 43: an f16 max reduction left unvectorized (its body expanded to f32) was called iree-org/iree#8303's
# duplicate (a fill + matmul tile) by that pass alone; an outsider with stock tools showed two other mechanisms.
MATERIALIZING_PASSES = {"memory": PASS_FAMILIES["bufferization"]}


def reports_only(oracle: str, culprit: str) -> bool:
    """``culprit`` only shows, for ``oracle``, what an earlier pass made: no evidence of a mechanism by itself."""
    return culprit in REPORTING_PASSES or culprit in MATERIALIZING_PASSES.get(oracle, ())


LATE_CHECK_STAGE = "codegen"  # the stage a codegen check's error names without a pass (the stack limit)

# --------------------------------------------------------------------------- diagnostics

# Global optimization's warning on a linalg op that reads an operand produced by a tensor.empty (3.13: "reads
# uninitialized values from an operand produced by a tensor.empty op"; --iree-global-opt-enable-warn-on-
# uninitialized-values): the program is undefined there.
READS_UNINITIALIZED = "reads uninitialized values"
