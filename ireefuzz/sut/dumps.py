"""Reading what a compile dumped: executable sources, the per-dispatch IR tree (the observation points), the
pipeline of each dispatch, and the CPU the target resolved to.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Iterable, Mapping

from ireefuzz.oracles import vocabulary
from ireefuzz.sut import remote
from ireefuzz.sut.results import Artifact, CpuInfo, DispatchIR

# Observation points, printed per dispatch into --mlir-print-ir-tree-dir (one file per dump, so
# multithreaded compilation cannot interleave them and no --mlir-disable-threading is needed):
#  * final IR: before iree-convert-to-llvm (allocas, vector code, still MLIR).
#  * bufferized IR: before the first iree-codegen-cleanup-buffer-alloc-view (CleanupBufferAllocViewPass).
#    On 3.13 the CPU pipelines run IREEComprehensiveBufferizePass -> inject-assume-alignment ->
#    resolve-shaped-type-result-dims -> iree-codegen-canonicalize -> cse -> iree-codegen-canonicalize
#    -> CleanupBufferAllocViewPass -> ... -> LLVMCPUVirtualVectorLoweringPass. The self-copy
#    linalg.generics bufferization leaves behind are folded by the second canonicalize, so the IR
#    entering CleanupBufferAllocViewPass is the first point after those folds; vector.contract etc.
#    are still unlowered there. The pass runs again late in the pipeline; the first dump is the one.
FINAL_PASS = vocabulary.FINAL_PASS
BUFFERIZED_PASS = vocabulary.BUFFERIZED_PASS
OBSERVATION_PASSES = vocabulary.OBSERVATION_PASSES  # the IR is read *before* these
HOST_PASS = vocabulary.HOST_PASS  # the whole module before stream conversion: the host program's dispatches
_DUMPS = frozenset({*OBSERVATION_PASSES.values(), HOST_PASS})  # printed to be read, not after a failure


def read_sources(sources_dir: Path) -> dict[str, str]:
    """Executable name -> its dumped source (files are named <module>_<executable>.mlir)."""
    sources = {}
    for path in sorted(sources_dir.glob("*.mlir")):
        text = path.read_text()
        match = re.search(r"hal\.executable (?:public |private )?@([\w$.-]+)", text)
        if match:
            sources[match.group(1)] = text
    return sources


_LLVM_DEFINE = re.compile(r"^define [^@\n]*@([\w$.-]+)\(", re.M)


def read_llvm_functions(intermediates_dir: Path) -> dict[str, str]:
    """Function name -> its text in the optimized LLVM IR the compile dumped (``vocabulary.LLVM_OPTIMIZED_SUFFIX``
    files); empty when nothing was dumped (a release without the flag, a compile without observation)."""
    functions: dict[str, str] = {}
    for path in sorted(intermediates_dir.glob(f"*{vocabulary.LLVM_OPTIMIZED_SUFFIX}")):
        text = path.read_text()
        for head in _LLVM_DEFINE.finditer(text):
            end = text.find("\n}\n", head.end())
            functions.setdefault(head.group(1), text[head.start() : end + 2 if end >= 0 else len(text)])
    return functions


# A dispatch without a translation_info gets no codegen pipeline: the pure data-movement ``*_slow_memcpy``
# ones (a strided slice, a concat's parts) are lowered directly. Named after IREE's pipeline enum ``None``.
NO_PIPELINE = "None"
_EXPORT = re.compile(r"hal\.executable\.export (?:public )?@([\w$.-]+)")
_FUNC = re.compile(r"^([ \t]*)func\.func (?:public |private )?@([\w$.-]+)\(", re.M)
_PIPELINE = re.compile(  # ``<pipeline = #iree_cpu.pipeline<X>`` (3.13), ``<pipeline = X`` (3.x), ``<X`` (2024)
    r"translation_info\s*=\s*#iree_codegen\.translation_info<\s*(?:pipeline\s*=\s*)?(?:#[\w.]+<)?(\w+)"
)
_TREE_FILE = re.compile(r"^((?:\d+_)+)(.+)\.mlir$")


def read_dispatches(
    sources: Mapping[str, str],
    tree_dir: Path | None,
    configured: Mapping[str, str] | None = None,
    printed: Mapping[str, Mapping[str, str]] | None = None,
    llvm_functions: Mapping[str, str] | None = None,
) -> tuple[DispatchIR, ...]:
    final_ir: dict[str, str] = dict((printed or {}).get(FINAL_PASS, {}))  # stderr's dumps (``printed_ir``)
    bufferized_ir: dict[str, str] = dict((printed or {}).get(BUFFERIZED_PASS, {}))
    hosted: HostFlow | None = None  # what the host program (HOST_PASS) says of each dispatch
    if tree_dir is not None:
        for path in sorted(tree_dir.rglob("*.mlir"), key=_tree_order):
            dump = _TREE_FILE.match(path.name)
            if dump and dump.group(2) == HOST_PASS and hosted is None:
                hosted = host_flow(path.read_text())
                continue
            target = {FINAL_PASS: final_ir, BUFFERIZED_PASS: bufferized_ir}.get(dump.group(2) if dump else "")
            if target is None:
                continue
            for name, text in _functions(path.read_text()).items():
                target.setdefault(name, text)  # the first dump of a pass that runs twice
    dispatches = []
    for executable, source in sources.items():
        for name in _EXPORT.findall(source):
            bufferized = bufferized_ir.get(name, "")
            configured_ir = (configured or {}).get(executable, "")
            pipeline = (
                _PIPELINE.search(bufferized)
                or _PIPELINE.search(final_ir.get(name, ""))
                or _PIPELINE.search(configured_ir)
            )  # a buffer-ops dispatch (a copy) is never bufferized
            dispatches.append(
                DispatchIR(
                    name=name,
                    pipeline=pipeline.group(1) if pipeline else NO_PIPELINE,
                    final_ir=final_ir.get(name, ""),
                    bufferized_ir=bufferized,
                    source=source,
                    configured=configured_ir,
                    llvm_ir=(llvm_functions or {}).get(name, ""),
                    read_by=hosted.read_by.get(name) if hosted and hosted.read_by else None,
                    reads_hoisted=hosted.reads_hoisted.get(name, ()) if hosted else (),
                    hoists=hosted.hoists.get(name, ()) if hosted else (),
                )
            )
    return tuple(sorted(dispatches, key=lambda d: _natural_key(d.name)))


_HOST_BODY = re.compile(rf"^[ \t]*(?:util\.func|{re.escape(vocabulary.HOST_INITIALIZER)})\b", re.M)
_SSA_RESULTS = re.compile(r"^\s*((?:%[\w$.-]+(?::\d+)?(?:,\s*)?)+)\s*=\s*(.*)$")
_SSA_VALUE = re.compile(r"%([\w$.-]+)")
# a region op the host program keeps (a loop, a branch): what its results hold went through its regions, which no
# dispatch region crosses, so its operands' producers are not what a later dispatch reads
_REGION_OP = re.compile(r"^scf\.(?:while|for|forall|if|index_switch|execute_region)\b")
_DISPATCHED = re.compile(rf"{re.escape(vocabulary.FLOW_DISPATCH)} @[\w$.-]+::@([\w$.-]+)")
_HOISTED = rf"@({re.escape(vocabulary.HOISTED_GLOBAL_PREFIX)}[\w$.-]*)"
_GLOBAL_LOAD = re.compile(rf"\butil\.global\.load (?:immutable )?{_HOISTED}")
_GLOBAL_STORE = re.compile(rf"\butil\.global\.store %[\w$.-]+, {_HOISTED}")


@dataclasses.dataclass(frozen=True)
class HostFlow:
    """What the host program (printed before ``HOST_PASS``) says of each dispatch entry point it calls: the
    dispatches that read its result (``read_by``; through a hoisted global too), the hoisted constant globals
    (``vocabulary.HOISTED_GLOBAL_PREFIX``) it reads, and those its result initializes (a ``util.initializer``'s
    dispatch: the producer const-expr hoisting took out of the program, run once, at load)."""

    read_by: Mapping[str, tuple[str, ...]]
    reads_hoisted: Mapping[str, tuple[str, ...]]
    hoists: Mapping[str, tuple[str, ...]]


def host_flow(host_ir: str) -> HostFlow:
    """The ``HostFlow`` of a host program. A result reaches a dispatch through any chain of host ops (reshapes,
    updates, casts, a hoisted global's store and load), not through a loop or branch (``_REGION_OP``); one that only
    reaches ``hal.tensor.export`` / ``util.return`` goes back to the caller (no reader)."""
    readers: dict[str, list[str]] = {}  # a dispatch, or a hoisted global as "@name" -> the dispatches reading it
    stores: dict[str, list[str]] = {}
    for body in _HOST_BODY.split(host_ir)[1:]:  # SSA names are per function (or initializer)
        origin: dict[str, set[str]] = {}  # value -> the dispatches (and hoisted globals) its data comes from
        for line in body.splitlines():
            assigned = _SSA_RESULTS.match(line)
            uses = _SSA_VALUE.findall(assigned.group(2) if assigned else line)
            sources = set().union(*(origin.get(v, set()) for v in uses))
            if assigned and _REGION_OP.match(assigned.group(2).lstrip()):
                sources = set()  # stop 48: an iota a loop carries was taken for the read of the dispatch after it
            entry, load, store = _DISPATCHED.search(line), _GLOBAL_LOAD.search(line), _GLOBAL_STORE.search(line)
            if store:
                for source in sorted(s for s in sources if not s.startswith("@")):
                    stores.setdefault(source, []).append(store.group(1))
            if load:
                sources = {f"@{load.group(1)}"}
            if entry:
                readers.setdefault(entry.group(1), [])
                for source in sorted(sources):
                    readers.setdefault(source, []).append(entry.group(1))
                sources = {entry.group(1)}
            if assigned and sources:
                for value in _SSA_VALUE.findall(assigned.group(1)):
                    origin[value] = sources
    once = lambda names: tuple(dict.fromkeys(names))
    dispatches = [name for name in readers if not name.startswith("@")]
    through = lambda d: [r for g in stores.get(d, ()) for r in readers.get(f"@{g}", ())]
    return HostFlow(
        {d: once([*readers[d], *through(d)]) for d in dispatches},
        {d: once(g[1:] for g, rs in readers.items() if g.startswith("@") and d in rs) for d in dispatches},
        {d: once(stores.get(d, ())) for d in dispatches},
    )


def dispatch_consumers(host_ir: str) -> dict[str, tuple[str, ...]]:
    """Each dispatch entry point the host program calls -> the dispatches that read its result, in program order
    (``HostFlow.read_by``)."""
    return dict(host_flow(host_ir).read_by)


def read_elsewhere(dispatches: tuple[DispatchIR, ...], python: str | None) -> tuple[DispatchIR, ...]:
    """``dispatches`` with their ``facts`` read by the MLIR bindings of ``python``, the install the compiler comes
    from (``Toolchain.runtime_python``; ``remote.read_ir`` in it), unless None (this one): IR is read by the
    bindings of the compiler that printed it (an older release's does not parse with the installed bindings)."""
    if python is None or not dispatches:
        return dispatches
    fields = ("name", "final_ir", "bufferized_ir", "source", "configured")
    facts = remote.read_ir(python, [{f: getattr(d, f) for f in fields} for d in dispatches])
    return tuple(dataclasses.replace(d, facts=f) for d, f in zip(dispatches, facts))


_PRINTED = re.compile(r"^// -----// IR Dump Before \S+ \(([\w-]+)\)(?: \([^)]*\))? //----- //$", re.M)


def printed_ir(stderr: str) -> tuple[str, dict[str, dict[str, str]]]:
    """(``stderr`` without the IR printed before passes, {pass-arg: {function: its IR}}): where a release lacks
    ``--mlir-print-ir-tree-dir`` the observation points are printed to stderr (``releases.adapt_command``).
    The first dump of a function before a pass is kept (as from the tree)."""
    heads = list(_PRINTED.finditer(stderr))
    if not heads:
        return stderr, {}
    printed: dict[str, dict[str, str]] = {}
    rest = [stderr[: heads[0].start()]]
    for k, head in enumerate(heads):
        end = heads[k + 1].start() if k + 1 < len(heads) else len(stderr)
        chunk = stderr[head.end() : end]
        target = printed.setdefault(head.group(1), {})
        for name, text in _functions(chunk).items():
            target.setdefault(name, text)
        if not chunk.lstrip().startswith(("func.func", "module", "builtin.module", "hal.executable")):
            rest.append(chunk)  # a diagnostic right after a dump (the compile failed): keep it
        else:  # what follows the dump: its op closes at the first ``}`` in column 0 (a diagnostic may follow)
            closing = re.search(r"\n\}[ \t]*(?:\n|$)", chunk)
            rest.append(chunk[closing.end() :] if closing else "")
    return "".join(rest), printed


def failing_passes(tree_dir: Path) -> list[str]:
    """What ``--mlir-print-ir-after-failure`` left in the tree dump: per executable (or the module, for a pass
    that fails before dispatches exist), the innermost pass that failed, as ``failing pass: <pass-arg> (<where>)``
    lines, in dump order. The observation dumps (``OBSERVATION_PASSES``, ``HOST_PASS``) are not failures, unless
    the pass failed (stop 47: a loop's ``iree-stream-conversion`` failure had been placed at the input)."""
    innermost: dict[str, tuple[int, tuple, str, str]] = {}
    for path in sorted(tree_dir.rglob("*.mlir"), key=_tree_order) if tree_dir.is_dir() else ():
        match = _TREE_FILE.match(path.name)
        if match is None or (match.group(2) in _DUMPS and not _dumped_after_failure(path)):
            continue
        parts = path.relative_to(tree_dir).parts[:-1]
        executable = next(
            (
                p.removeprefix("hal_executable_")
                for p in parts
                if p.startswith("hal_executable_") and not p.startswith("hal_executable_variant")
            ),
            "module",
        )
        function = next((p.removeprefix("func_func_") for p in parts if p.startswith("func_func_")), executable)
        depth = len(parts)
        if executable not in innermost or depth > innermost[executable][0]:
            innermost[executable] = (depth, _tree_order(path), match.group(2), function)
    return [f"failing pass: {name} ({where})" for _, _, name, where in sorted(innermost.values(), key=lambda v: v[1])]


def _dumped_after_failure(path: Path) -> bool:
    """Whether a dump's header says its pass failed (``IR Dump After ... Failed``): an observation pass (a pass
    printed before it runs, as ``iree-stream-conversion``) that fails leaves its failure under the same name."""
    with path.open(errors="replace") as dump:
        return " Failed: " in dump.readline()


def _tree_order(path: Path) -> tuple:
    """Dump files in pass order: directories, then the numeric prefix (0_0_0_1_...) of the name."""
    prefix = _TREE_FILE.match(path.name)
    numbers = tuple(int(n) for n in prefix.group(1).rstrip("_").split("_")) if prefix else ()
    return (path.parent.parts, numbers)


def _natural_key(name: str) -> tuple:
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


def _functions(text: str) -> dict[str, str]:
    """``func.func`` blocks of printed IR by name (a function ends at the ``}`` at its own indent)."""
    lines = text.splitlines()
    functions = {}
    for match in _FUNC.finditer(text):
        indent, name = match.group(1), match.group(2)
        first = text.count("\n", 0, match.start(2))
        end = next((i for i in range(first + 1, len(lines)) if lines[i] == indent + "}"), len(lines) - 1)
        functions[name] = "\n".join(line[len(indent) :] for line in lines[first : end + 1]) + "\n"
    return functions


def cpu_info(requested: str, sources: Iterable[str]) -> CpuInfo:
    for source in sources:
        cpu = re.search(r'\bcpu = "([^"]*)"', source)
        if cpu:
            features = re.search(r'\bcpu_features = "([^"]*)"', source)
            return CpuInfo(requested, cpu.group(1), features.group(1) if features else "")
    return CpuInfo(requested, "", "")  # a module without dispatches never names its target


def dispatches_of(artifact: Artifact, function_name: str) -> tuple[DispatchIR, ...]:
    """The dispatches outlined from ``function_name`` (IREE names them ``<function>_dispatch_<N>_...``).

    IREE deduplicates identical executables across functions, so a dispatch that is identical to one
    of an earlier function is listed under that earlier function only.
    """
    prefix = f"{function_name}_dispatch_"
    return tuple(d for d in artifact.dispatches if d.name.startswith(prefix) and d.name[len(prefix) :][:1].isdigit())
