"""The command line a finding's "run ... --fix" hint names: the invocation that printed it,
with `--fix`, so that the advice can be copied and run where it was printed."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

_SAFE = frozenset("@%+=:,./-_")


def with_fix(command: str, paths: Sequence[Path], options: Sequence[tuple[str, object]]) -> str:
    """`evaltools <command> [PATH...] [--option VALUE...] --fix`, quoted for a POSIX shell;
    an option whose value is None was not given and is left out."""
    words = ["evaltools", *command.split()]
    words += [str(p) for p in paths]
    for flag, value in options:
        if value is not None:
            words += [flag, str(value)]
    return " ".join(_quoted(w) for w in words) + " --fix"


def _quoted(word: str) -> str:
    if word and all(c.isalnum() or c in _SAFE for c in word):
        return word
    import shlex  # only for a word that needs quoting: gold check's warm start is counted

    return shlex.quote(word)
