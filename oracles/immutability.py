"""Input-immutability oracle: after the call, every caller buffer still holds what was passed in."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ireefuzz.generators.graph import Graph

from .finding import Finding, dims_pattern, make_signature


def check_inputs_unchanged(graph: Graph, before: Sequence[np.ndarray], after: Sequence[np.ndarray]) -> list[Finding]:
    findings = []
    for i, (b, a) in enumerate(zip(before, after)):
        b, a = np.asarray(b), np.asarray(a)
        changed = b.shape != a.shape or b.tobytes() != a.tobytes()  # bitwise: NaN payloads and -0.0 count too
        if not changed:
            continue
        users = [graph.nodes[j].op for j in graph.users(f"a{i}")]
        users += [n.op for n in graph.nodes if n.attrs.get("init") == f"value:a{i}"]  # used as a destination
        t = graph.args[i]
        evidence: dict = {"argument": i, "users": users}
        if b.shape == a.shape:
            diff = np.argwhere(b.view(np.uint8).reshape(b.shape + (-1,)).any(-1) != a.view(np.uint8).reshape(a.shape + (-1,)).any(-1)
                               ) if b.ndim else np.zeros((0, 0))
            mask = ~(b == a) & ~((b != b) & (a != a)) if b.dtype.kind == "f" else b != a
            idx = np.argwhere(mask)
            first = [int(v) for v in idx[0]] if len(idx) else []
            evidence |= {"changed_elements": int(len(idx)) or len(diff), "first_index": first,
                         "before": b[tuple(first)].item() if first else None, "after": a[tuple(first)].item() if first else None}
        else:
            evidence |= {"before_shape": list(b.shape), "after_shape": list(a.shape)}
        findings.append(Finding(
            "immutability", "input-mutated",
            make_signature("immutability", "input-mutated", ">".join(dict.fromkeys(users)) or "-", t.dtype, dims_pattern([t.shape])),
            f"argument {i} ({t!r}) was modified by the call ({evidence.get('changed_elements', 'shape')} elements changed)",
            evidence))
    return findings
