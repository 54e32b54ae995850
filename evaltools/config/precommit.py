"""Adding evaltools to a `.pre-commit-config.yaml` without disturbing anything else in it.

ruamel.yaml reads the file (so invalid YAML is refused and positions are known), but
the change is spliced into the text: a full re-dump would re-indent sequences and
rewrite flow collections, and users review this file line by line. Every value written
goes through `yaml_scalar`, so it reads back as exactly the string given.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from evaltools.config.precommit_hooks import (
    BY_ID,
    HOOK_IDS,
    LOCAL_LANGUAGE,
    hook_fields,
    needs_escapes,
    yaml_scalar,
)
from evaltools.fileio import UsageError

REPO_URL = "https://github.com/evaltools/evaltools"
DEFAULT_HOOKS = ("evaltools-check",)


class ConfigEditError(ValueError):
    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


@dataclass(frozen=True)
class Request:
    """What to add: hooks asked for by id, and the remote form's URL and rev if wanted."""

    hooks: tuple[str, ...] = ()
    remote: str | None = None
    rev: str | None = None
    files: Mapping[str, str] = field(default_factory=dict)  # hook id -> its narrowed `files:`


@dataclass(frozen=True)
class Edit:
    text: str
    action: str  # "created", "added", "updated", "unchanged"
    changes: list[str] = field(default_factory=list)  # what "updated" changed, for people


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


def _hook_lines(
    hook_id: str, local: bool, dash: str, key_indent: str, files: str | None = None
) -> list[str]:
    """One item of a `hooks:` list: the full definition for a local entry, else its id
    and, when narrowed, its `files:`."""
    fields = hook_fields(BY_ID[hook_id], LOCAL_LANGUAGE, describe=False, files=files)
    if not local:
        fields = [fields[0], *([("files", yaml_scalar(files))] if files else [])]
    first, *rest = (f"{key}: {value}" for key, value in fields)
    return [dash + first, *(key_indent + line for line in rest)]


def _block(indent: str, request: Request, item_indent: str) -> str:
    dash = "-" + " " * max(len(item_indent) - 1, 1)
    hooks = request.hooks or DEFAULT_HOOKS
    inner = indent + item_indent
    if request.remote is None:
        lines = [f"{indent}{dash}repo: local", f"{inner}hooks:"]
    else:
        lines = [f"{indent}{dash}repo: {yaml_scalar(request.remote)}"]
        lines += [f"{inner}rev: {yaml_scalar(request.rev or '')}", f"{inner}hooks:"]
    for hook_id in hooks:
        lines += _hook_lines(
            hook_id,
            request.remote is None,
            f"{inner}  - ",
            f"{inner}    ",
            request.files.get(hook_id),
        )
    return "\n".join(lines) + "\n"


def is_evaltools_entry(entry: object) -> bool:
    """Our repository's URL, or any entry (local or a fork) that runs one of our hooks."""
    if not isinstance(entry, dict):
        return False
    if str(entry.get("repo", "")).rstrip("/") == REPO_URL:
        return True
    hooks = entry.get("hooks")
    return isinstance(hooks, list) and any(
        isinstance(h, dict) and h.get("id") in HOOK_IDS for h in hooks
    )


def add_evaltools(text: str | None, request: Request) -> Edit:
    if request.rev is not None and request.remote is None:
        _refuse_a_new_entry_without_remote(text)
    if text is None or not text.strip():
        header = "# See https://pre-commit.com for more information\nrepos:\n"
        return Edit(header + _block("  ", request, "  "), "created")
    data = _load(text)
    if not isinstance(data, dict) or "repos" not in data:
        raise ConfigEditError("the file has no top-level `repos:` list")
    repos = data["repos"]
    if repos is None or not hasattr(repos, "lc"):
        raise ConfigEditError("`repos:` must be a list")
    for index, entry in enumerate(repos):
        if is_evaltools_entry(entry):
            return _update(text, index, request)
    return _append(text, data, repos, request)


def _refuse_a_new_entry_without_remote(text: str | None) -> None:
    """`--rev` alone may move an existing remote entry; a new entry needs its URL too."""
    repos = _load(text).get("repos") if text and text.strip() else None
    if not isinstance(repos, list) or not any(
        is_evaltools_entry(e) and e.get("repo") != "local" for e in repos
    ):
        raise UsageError(
            "--rev pins a remote entry: give --remote URL too (without both, init writes a "
            "`repo: local` entry that runs the installed evaltools)"
        )


def _entry(text: str, index: int) -> tuple[Any, Any]:
    repos = _load(text)["repos"]
    return repos, repos[index]


def _update(text: str, index: int, request: Request) -> Edit:
    """Add the hooks asked for that are missing, then move the URL and rev if asked."""
    changes: list[str] = []
    repos, entry = _entry(text, index)
    local = str(entry.get("repo", "")) == "local"
    if local and (request.remote is not None or request.rev is not None):
        raise ConfigEditError(
            "the evaltools entry is `repo: local` (it runs the installed evaltools and has no "
            "rev): remove it first to switch to the remote form",
            repos.lc.item(index)[0] + 1,
        )
    present = {h.get("id") for h in entry.get("hooks") or [] if isinstance(h, dict)}
    missing = [h for h in request.hooks if h not in present]
    if missing:
        text = _add_hooks(text, index, missing, local=local, files=request.files)
        changes.append("added " + ", ".join(missing))
    for key, wanted in (("repo", request.remote), ("rev", request.rev)):
        if wanted is None:
            continue
        old = str(_entry(text, index)[1].get(key, ""))
        if (old.rstrip("/") == wanted.rstrip("/")) if key == "repo" else old == wanted:
            continue
        text = _replace_value(text, index, key, wanted)
        changes.append(f"{key} {old} -> {wanted}")
    return Edit(text, "updated" if changes else "unchanged", changes)


def _add_hooks(
    text: str, index: int, ids: list[str], *, local: bool, files: Mapping[str, str]
) -> str:
    repos, entry = _entry(text, index)
    hooks: Any = entry.get("hooks")
    entry_line = repos.lc.item(index)[0] + 1
    if not isinstance(hooks, list) or not hooks or not hasattr(hooks, "lc"):
        raise ConfigEditError("the evaltools entry has no `hooks:` list to add to", entry_line)
    sequence: Any = hooks  # ruamel's CommentedSeq, whose attributes mypy does not know
    if sequence.fa.flow_style():
        line, column = entry.lc.value("hooks")
        raise ConfigEditError(
            "the evaltools entry's `hooks:` is written in flow style ([...]): add "
            + ", ".join(ids)
            + " by hand",
            line + 1,
            column + 1,
        )
    lines = text.split("\n")
    item_line, item_column = hooks.lc.item(0)
    first: Any = hooks[0]
    has_id = isinstance(first, dict) and "id" in first
    key_column: int = first.lc.key("id")[1] if has_id else item_column + 2
    dash_column = lines[item_line].rfind("-", 0, key_column)
    dash_column = item_column if dash_column < 0 else dash_column
    dash = " " * dash_column + "-" + " " * (key_column - dash_column - 1)
    new: list[str] = []
    for hook_id in ids:
        new += _hook_lines(hook_id, local, dash, " " * key_column, files.get(hook_id))
    end = _end_of_sequence(lines, hooks, dash_column)
    lines[end:end] = new
    return "\n".join(lines)


def _replace_value(text: str, index: int, key: str, new: str) -> str:
    repos, entry = _entry(text, index)
    if key not in entry:
        line = repos.lc.item(index)[0] + 1
        raise ConfigEditError(f"the evaltools entry has no `{key}:`: add one by hand", line)
    old = str(entry[key])
    line, column = entry.lc.value(key)
    lines = text.split("\n")
    current = lines[line]
    match = re.compile(r"(['\"]?)" + re.escape(old) + r"\1").match(current, column)
    if match is None:
        raise ConfigEditError(f"cannot find the `{key}:` value to update", line + 1, column + 1)
    quote = match.group(1)
    if needs_escapes(new):
        value = yaml_scalar(new)
    elif quote == "'":  # keep the file's quoting; each form has its own escapes
        value = "'" + new.replace("'", "''") + "'"
    elif quote == '"':
        value = json.dumps(new, ensure_ascii=False)
    else:
        value = yaml_scalar(new)
    lines[line] = current[:column] + value + current[match.end() :]
    return "\n".join(lines)


def _append(text: str, data: Any, repos: Any, request: Request) -> Edit:
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
        block = _block("  ", request, "  ")
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
    lines.insert(end, _block(indent, request, item_indent).rstrip("\n"))
    return Edit("\n".join(lines), "added")


def _end_of_sequence(lines: list[str], items: Any, dash_column: int) -> int:
    """The line after the last line that belongs to the last item of `items`."""
    last_line: int = items.lc.item(len(items) - 1)[0]
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


def check_hooks_skipping_commits(text: str) -> list[int]:
    """The lines of local `evaltools-check` hooks without `always_run: true`, as init once
    wrote them (with a `files:` pattern): those skip a commit that only deletes code the
    gold points into, or only changes pyproject.toml."""
    repos = _load(text).get("repos") if text.strip() else None
    lines: list[int] = []
    for entry in repos if isinstance(repos, list) else []:
        if not isinstance(entry, dict) or str(entry.get("repo", "")) != "local":
            continue
        hooks: Any = entry.get("hooks")
        for index, hook in enumerate(hooks if isinstance(hooks, list) else []):
            is_check = isinstance(hook, dict) and hook.get("id") == "evaltools-check"
            if is_check and hook.get("always_run") is not True and hasattr(hooks, "lc"):
                lines.append(hooks.lc.item(index)[0] + 1)
    return lines


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
    return [r for r in repos if not is_evaltools_entry(r)]


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
