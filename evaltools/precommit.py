"""Adding evaltools to a `.pre-commit-config.yaml` without disturbing anything else in it.

ruamel.yaml reads the file (so invalid YAML is refused and positions are known), but
the change is spliced into the text: a full re-dump would re-indent sequences and
rewrite flow collections, and users review this file line by line.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

REPO_URL = "https://github.com/evaltools/evaltools"
DEFAULT_HOOKS = ("evaltools-check",)


class ConfigEditError(ValueError):
    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


@dataclass(frozen=True)
class Edit:
    text: str
    action: str  # "created", "added", "updated", "unchanged"
    old_rev: str | None = None


def _load(text: str) -> Any:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError

    try:
        return YAML(typ="rt").load(io.StringIO(text))
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        column = mark.column + 1 if mark is not None else 1
        raise ConfigEditError(f"not valid YAML: {exc.problem or exc}", line, column) from exc


def _block(indent: str, rev: str, hooks: tuple[str, ...], item_indent: str) -> str:
    dash = "-" + " " * max(len(item_indent) - 1, 1)
    lines = [f"{indent}{dash}repo: {REPO_URL}", f"{indent}{item_indent}rev: {rev}"]
    lines.append(f"{indent}{item_indent}hooks:")
    lines += [f"{indent}{item_indent}  - id: {hook}" for hook in hooks]
    return "\n".join(lines) + "\n"


def add_evaltools(text: str | None, rev: str, hooks: tuple[str, ...] = DEFAULT_HOOKS) -> Edit:
    if text is None or not text.strip():
        header = "# See https://pre-commit.com for more information\nrepos:\n"
        return Edit(header + _block("  ", rev, hooks, "  "), "created")
    data = _load(text)
    if not isinstance(data, dict) or "repos" not in data:
        raise ConfigEditError("the file has no top-level `repos:` list")
    repos = data["repos"]
    if repos is None or not hasattr(repos, "lc"):
        raise ConfigEditError("`repos:` must be a list")
    for index, entry in enumerate(repos):
        if isinstance(entry, dict) and str(entry.get("repo", "")).rstrip("/") == REPO_URL:
            return _update_rev(text, repos, index, entry, rev)
    return _append(text, data, repos, rev, hooks)


def _update_rev(text: str, repos: Any, index: int, entry: Any, rev: str) -> Edit:
    old = str(entry.get("rev", ""))
    if old == rev:
        return Edit(text, "unchanged", old)
    if "rev" not in entry:
        line = repos.lc.item(index)[0] + 1
        raise ConfigEditError("the evaltools entry has no `rev:`: add one by hand", line)
    line, column = entry.lc.value("rev")
    lines = text.split("\n")
    current = lines[line]
    match = re.compile(r"(['\"]?)" + re.escape(old) + r"\1").match(current, column)
    if match is None:
        raise ConfigEditError("cannot find the `rev:` value to update", line + 1, column + 1)
    quote = match.group(1)
    lines[line] = current[:column] + f"{quote}{rev}{quote}" + current[match.end() :]
    return Edit("\n".join(lines), "updated", old)


def _append(text: str, data: Any, repos: Any, rev: str, hooks: tuple[str, ...]) -> Edit:
    lines = text.split("\n")
    if len(repos) == 0 or repos.fa.flow_style():
        if len(repos) != 0:
            line, column = data.lc.value("repos")
            raise ConfigEditError(
                "`repos:` is written in flow style ([...]): add the evaltools entry by hand",
                line + 1,
                column + 1,
            )
        key_line, _ = data.lc.key("repos")
        lines[key_line] = re.sub(r"\[\s*\]", "", lines[key_line]).rstrip()
        block = _block("  ", rev, hooks, "  ")
        lines.insert(key_line + 1, block.rstrip("\n"))
        return Edit("\n".join(lines), "added")
    item_line, item_column = repos.lc.item(0)
    first: Any = repos[0]
    has_repo_key = isinstance(first, dict) and "repo" in first
    key_column: int = first.lc.key("repo")[1] if has_repo_key else item_column + 2
    dash = lines[item_line].rfind("-", 0, key_column)
    dash = item_column if dash < 0 else dash
    indent = " " * dash
    item_indent = " " * (key_column - dash)
    end = _end_of_sequence(lines, repos, dash)
    lines.insert(end, _block(indent, rev, hooks, item_indent).rstrip("\n"))
    return Edit("\n".join(lines), "added")


def _end_of_sequence(lines: list[str], repos: Any, dash_column: int) -> int:
    """The line after the last line that belongs to the last entry of `repos`."""
    last_line: int = repos.lc.item(len(repos) - 1)[0]
    end = last_line + 1
    while end < len(lines):
        line = lines[end]
        stripped = line.lstrip()
        if stripped and len(line) - len(stripped) <= dash_column:
            break
        end += 1
    while end > last_line + 1 and not lines[end - 1].strip():
        end -= 1
    return end


def same_except_evaltools(before: str | None, after: str) -> bool:
    """Black-style check: the new file means the old one plus the evaltools entry, nothing else."""
    try:
        new = _plain(_load(after))
    except ConfigEditError:
        return False
    if before is None or not before.strip():
        return isinstance(new, dict) and "repos" in new
    old = _plain(_load(before))
    others_old = {k: v for k, v in old.items() if k != "repos"}
    others_new = {k: v for k, v in new.items() if k != "repos"}
    return others_old == others_new and _others(old) == _others(new)


def _others(config: dict[str, Any]) -> list[Any]:
    """The repos entries that are not evaltools'."""
    repos = config.get("repos") or []
    return [r for r in repos if str(r.get("repo", "")).rstrip("/") != REPO_URL]


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
