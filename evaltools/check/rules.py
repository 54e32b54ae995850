"""RG015: what `evaltools check` itself reports of the gold check it composes."""

from __future__ import annotations

from evaltools.diagnostics import Rule, Severity

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


GOLD_CHECK_SKIPPED = Rule(
    "RG015",
    "gold-check-skipped",
    W,
    "`evaltools check` did not resolve a retrieval set's gold IDs: nothing says where the code is.",
    "The configuration names retrieval sets but neither `root` nor `metas` in "
    "[tool.evaltools.retrieval]; the set is validated, its gold IDs are not checked.",
    "A check that passes without resolving the gold would hide every stale ID: set "
    "`root` (the folder chunk ID paths are relative to) or `metas` (the index's chunk "
    "list).",
    '[tool.evaltools.retrieval]\nsets = ["evals/retrieval.jsonl"]',
    '[tool.evaltools.retrieval]\nsets = ["evals/retrieval.jsonl"]\nroot = "."',
    check="evaltools.check.compose",
)
