"""Dispatch IR read by the bindings of the compiler that printed it: the IR half of an older release.

Run as a script by a release's Python (``python -I ir_reader.py``), whose ``iree.compiler`` is the
release's own: the installed bindings cannot parse an older release's IR (attribute syntax changes
from release to release), its own can. It loads ireefuzz's judges from this checkout (never the
installed ``iree`` beside it) and answers, per dispatch, every declared fact (``oracles.ir.facts_of``:
memory ops, data movement, materialized producers, op pattern, configuration) as JSON, which
``sut`` hands to the oracles in ``DispatchIR.facts``. A fact these bindings cannot read (the 2023 releases'
know no IREE dialect) is read from the text (``oracles.ir_text``, no bindings needed).

Protocol: ``runner.py``'s framing (npz messages, no pickle). Request: ``dispatches``, a JSON list of
``{"name", "final_ir", "bufferized_ir", "source", "configured"}``; reply: ``status`` ``ok`` and
``facts``, a JSON list (one object per dispatch, ``{"unreadable": why}`` for IR that does not
parse), or ``status`` ``error`` and ``message`` (these bindings cannot be loaded).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import types
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # ireefuzz/, this file being ireefuzz/sut/ir_reader.py


def _load_package() -> None:
    """``ireefuzz`` imported from this file's folder only: putting its parent on ``sys.path`` would put
    the installed ``iree`` (a site-packages) before the release's."""
    spec = importlib.util.spec_from_file_location(
        "ireefuzz", PACKAGE / "__init__.py", submodule_search_locations=[str(PACKAGE)]
    )
    assert spec is not None and spec.loader is not None  # a file path always has a spec and a loader
    package = importlib.util.module_from_spec(spec)
    sys.modules["ireefuzz"] = package
    spec.loader.exec_module(package)
    for sub in ("generators", "oracles"):  # the wheel puts them inside ireefuzz/; a checkout beside it
        if not (PACKAGE / sub).is_dir() and (PACKAGE.parent / sub / "__init__.py").is_file():
            _alias(f"ireefuzz.{sub}", PACKAGE.parent / sub)


def _alias(name: str, folder: Path) -> None:
    """Load the package ``name`` from ``folder`` (the checkout layout, ``package-dir`` in pyproject.toml)."""
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)


def _reader() -> types.ModuleType:
    from ireefuzz.oracles import fusion, ir, memory  # noqa: F401  (importing them declares their facts)

    return ir


def answer(ir: types.ModuleType | None, request: dict) -> dict:
    """Every fact of each dispatch: read with these bindings, else from the text (``oracles.ir_text``; also
    when these bindings cannot be loaded at all: ``ir`` None)."""
    dispatches = [types.SimpleNamespace(facts=None, **d) for d in json.loads(str(request["dispatches"]))]
    return {"status": "ok", "facts": json.dumps([_facts(ir, d) for d in dispatches])}


def _facts(ir: types.ModuleType | None, dispatch: types.SimpleNamespace) -> dict:
    from ireefuzz.oracles import ir_text

    if ir is None:
        return ir_text.facts_of(dispatch)
    try:
        return ir.facts_of(dispatch)
    except Exception as e:  # bindings older than the judges' use of them (e.g. 2023's operand_segment_sizes)
        facts = ir_text.facts_of(dispatch)
        return {
            name: value
            if not (isinstance(value, dict) and ir_text.UNREADABLE in value)
            else {ir_text.UNREADABLE: f"these bindings cannot answer ({type(e).__name__}: {e})"}
            for name, value in facts.items()
        }


def _text_only() -> bool:
    """The text reader can answer without any bindings (it is stdlib only)."""
    try:
        from ireefuzz.oracles import ir_text  # noqa: F401
    except Exception:  # noqa: BLE001
        return False
    return True


def main() -> int:
    _load_package()
    from ireefuzz.sut import runner

    runner.die_with_parent()
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # whatever the bindings print goes to stderr, never into the protocol
    try:
        ir, reason = _reader(), ""
    except Exception as e:  # no usable iree.compiler here: every request gets the reason
        ir, reason = None, f"{type(e).__name__}: {e}"
    while True:
        request = runner.read_message(sys.stdin.buffer)
        if request is None:
            return 0
        reply = answer(ir, request) if ir is not None or _text_only() else {"status": "error", "message": reason}
        runner.write_message(replies, reply)


if __name__ == "__main__":
    sys.exit(main())
