"""`[tool.evaltools]` for a repository that has none (or an incomplete one), from what is in it.

Example folders and retrieval sets are found by a sniff of each file's first bytes
(`evaltools.config.evalfiles`).
Keys already set are never touched, and the new text is added to pyproject.toml as text,
so its comments and layout stay; the result is re-read to prove it means the old
configuration plus the new keys and nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from evaltools.discover import walk_files
from evaltools.tomlio import TomlError, loads

# What init offers, commented out, in a [tool.evaltools] it writes: warnings pass unless asked.
MAX_WARNINGS_HINT = (
    "# Uncomment to make warnings fail `evaltools check` (and so the commit) as errors do:\n"
    "# max-warnings = 0\n"
)
# A real table, not a commented one: `paths = []` tells `check` that nothing is there yet
# (it passes, saying so), where no table at all leaves it a usage error on every commit.
TEMPLATE = f"""
# evaltools init found no example files or retrieval sets yet; `evaltools check` passes,
# saying there is nothing to check, until you fill in `paths` (or uncomment `sets`):
[tool.evaltools]
paths = []                             # folders of examples (*.md, *.json, *.jsonl), e.g. ["evals"]
{MAX_WARNINGS_HINT}
# [tool.evaltools.retrieval]
# sets = ["evals/retrieval.jsonl"]     # retrieval eval sets (*.jsonl)
# root = "."                           # what gold chunk paths are relative to
"""


@dataclass
class Found:
    examples: list[str] = field(default_factory=list)  # folders (or files) of examples
    sets: list[str] = field(default_factory=list)
    example_files: list[str] = field(default_factory=list)  # every example file found

    def __bool__(self) -> bool:
        return bool(self.examples or self.sets)


def _widest_folders(examples: list[str], others: list[str]) -> list[str]:
    """The highest folder above each example holding none of `others` (else the file)."""
    blocking = [PurePosixPath(m) for m in others]
    chosen: set[str] = set()
    for name in examples:
        best = name
        for folder in PurePosixPath(name).parents:
            # Never the whole repository: a README added later is no example.
            if folder == PurePosixPath(".") or any(folder in o.parents for o in blocking):
                break
            best = folder.as_posix()
        chosen.add(best)
    return sorted(chosen)


def discover(root: Path) -> Found:
    """The example files (in all three forms) and retrieval sets below `root`, found as every
    command finds files, each told by its first bytes."""
    from evaltools.config.evalfiles import SUFFIXES, Kind, kind

    names = walk_files(root, SUFFIXES).names
    kinds = {name: kind(root / name) for name in names if (root / name).is_file()}
    examples = [name for name, k in kinds.items() if k is Kind.EXAMPLE]
    sets = [name for name, k in kinds.items() if k is Kind.SET]
    # What `check` would read as an example below a configured folder though it is none
    # (any Markdown, a JSON it cannot tell): a folder holding one is not widened to.
    others = [
        name
        for name, k in kinds.items()
        if k is Kind.UNKNOWN or (k is Kind.OTHER and name.endswith(".md"))
    ]
    return Found(_widest_folders(examples, others), sets, examples)


TEMPLATE_ADDED = "[tool.evaltools] paths = [] with a commented template"


@dataclass(frozen=True)
class Completion:
    text: str | None  # the new pyproject.toml, None when nothing changes
    added: list[str]  # the keys added, as `[table] key`
    refused: str | None = None  # why the file could not be completed safely
    refused_at: tuple[str, ...] = ("tool", "evaltools")  # the key it is about


def _wanted(found: Found) -> dict[str, dict[str, Any]]:
    top: dict[str, Any] = {"paths": found.examples} if found.examples else {}
    retrieval: dict[str, Any] = {"sets": found.sets, "root": "."} if found.sets else {}
    return {"": top, "retrieval": retrieval}


def complete(text: str | None, found: Found) -> Completion:
    """`text` (a pyproject.toml, None if there is none) with what `found` adds."""
    import tomli_w

    data = loads(text) if text else {}
    tool = data.get("tool", {})
    current = tool.get("evaltools") if isinstance(tool, dict) else None
    if current is None:
        if not found:
            return Completion(_joined(text, TEMPLATE), [TEMPLATE_ADDED])
        wanted = _wanted(found)
        table = f"[tool.evaltools]\n{tomli_w.dumps(wanted[''])}{MAX_WARNINGS_HINT}"
        if wanted["retrieval"]:
            table += f"\n[tool.evaltools.retrieval]\n{tomli_w.dumps(wanted['retrieval'])}"
        return Completion(_joined(text, table), _names(wanted))
    if not isinstance(current, dict) or text is None:
        why = "[tool.evaltools] is not a table: write it as one, with the keys of the README"
        return Completion(None, [], why)
    return _complete_existing(text, data, current, found)


def _names(wanted: dict[str, dict[str, Any]]) -> list[str]:
    return [
        f"[tool.evaltools{'.' + table if table else ''}] {key}"
        for table, keys in wanted.items()
        for key in keys
    ]


def _joined(text: str | None, addition: str) -> str:
    if not text:
        return addition.lstrip("\n")
    return text.rstrip("\n") + "\n\n" + addition.lstrip("\n")


def _complete_existing(
    text: str, data: dict[str, Any], current: dict[str, Any], found: Found
) -> Completion:

    retrieval = current.get("retrieval", {})
    wanted = _wanted(found)
    if not found and "paths" not in current and "sets" not in retrieval:
        wanted[""]["paths"] = []  # as the template has it: nothing to check yet, said
    # `paths = []` is init's own "nothing here yet": examples found since then fill it.
    refill = current.get("paths") == [] and bool(wanted[""].get("paths"))
    missing = {
        "": {k: v for k, v in wanted[""].items() if k not in current or (k == "paths" and refill)},
        "retrieval": {
            k: v
            for k, v in wanted["retrieval"].items()
            if isinstance(retrieval, dict) and k not in retrieval and "metas" not in retrieval
        },
    }
    if not any(missing.values()):
        return Completion(None, [])
    new = text
    if refill:
        filled = _fill_empty_paths(new, wanted[""]["paths"])
        if filled is None:
            why = (
                "`paths = []` is written in a form init cannot fill (it fills `paths = []` on "
                "one line below a [tool.evaltools] header): list the eval folders by hand"
            )
            return Completion(None, [], why, ("tool", "evaltools", "paths"))
        new = filled
    done: dict[str, dict[str, Any]] = {"": {}, "retrieval": {}}
    for table, wanted_keys in missing.items():
        keys = {
            k: v for k, v in wanted_keys.items() if not (refill and table == "" and k == "paths")
        }
        new = _insert(new, "tool.evaltools" + (f".{table}" if table else ""), keys)
        done[table] = wanted_keys
        try:
            same = loads(new) == _merged(data, done)
        except TomlError:
            same = False
        if not same:  # a table not there yet goes below its parent: the parent is at fault
            return _not_extensible(table if table in current or not table else "")
    return Completion(new, _names(missing))


def _not_extensible(table: str) -> Completion:
    """The refusal for a table written inline or by dotted keys: it cannot take more keys."""
    where = ("tool", "evaltools", table) if table else ("tool", "evaltools")
    name = "[tool.evaltools" + (f".{table}]" if table else "]")
    why = (
        f"{name} is written inline or by dotted keys, which init cannot extend: write it as "
        f"a {name} table, or add the eval files to it by hand"
    )
    return Completion(None, [], why, where)


def _insert(text: str, header: str, keys: dict[str, Any]) -> str:
    """`keys` right under `[header]`, or as a new table at the end; the caller's re-read
    refuses what TOML would not allow (a table written inline cannot be extended)."""
    import tomli_w

    if not keys:
        return text
    lines = tomli_w.dumps(keys)
    at = _header_end(text, header)
    return (
        text[:at] + lines + text[at:] if at is not None else _joined(text, f"[{header}]\n{lines}")
    )


def _fill_empty_paths(text: str, paths: list[str]) -> str | None:
    """`text` with the `paths = []` of [tool.evaltools] holding `paths` instead."""
    import tomli_w

    start = _header_end(text, "tool.evaltools")
    if start is None:
        return None
    empty = re.compile(r"^([ \t]*paths[ \t]*=[ \t]*)\[[ \t]*\]", re.MULTILINE)
    match = empty.search(text, start)
    next_table = re.compile(r"^[ \t]*\[", re.MULTILINE).search(text, start)
    if match is None or (next_table is not None and next_table.start() < match.start()):
        return None
    # One line, as the template's `[]` was, so that its comment stays beside it.
    value = "[" + ", ".join(tomli_w.dumps({"p": p})[len("p = ") :].strip() for p in paths) + "]"
    return text[: match.start()] + match.group(1) + value + text[match.end() :]


def _header_end(text: str, header: str) -> int | None:
    """The offset just after the line `[header]`, where new keys can go."""
    parts = r"\s*\.\s*".join(re.escape(p) for p in header.split("."))
    match = re.search(rf"^[ \t]*\[\s*{parts}\s*\][ \t]*(#[^\n]*)?\r?\n", text, re.MULTILINE)
    return match.end() if match else None


def _merged(data: dict[str, Any], missing: dict[str, dict[str, Any]]) -> dict[str, Any]:
    import copy

    out = copy.deepcopy(data)
    table = out["tool"]["evaltools"]
    table.update(missing[""])
    if missing["retrieval"]:
        table.setdefault("retrieval", {}).update(missing["retrieval"])
    return out
