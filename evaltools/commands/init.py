"""`evaltools init`: a pre-commit setup that works on the spot, offline.

It adds a `repo: local` entry running the installed evaltools to `.pre-commit-config.yaml`
(or, with `--remote URL --rev REV`, the `repo:` form), and creates or completes
`[tool.evaltools]` in the pyproject.toml next to it from the examples and retrieval sets
the repository holds. What is there is kept: comments, layout, keys already set.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from evaltools.atomic import MISSING, WriteError, atomic_write
from evaltools.config.precommit import (
    DEFAULT_HOOKS,
    ConfigEditError,
    Request,
    add_evaltools,
    check_hooks_skipping_commits,
    same_except_evaltools,
)
from evaltools.config.pyproject_setup import TEMPLATE_ADDED
from evaltools.fileio import UsageError, display_path
from evaltools.positions import line_column
from evaltools.tomlio import TomlError, explain, loads

if TYPE_CHECKING:
    from evaltools.config.precommit_hooks import Hook
    from evaltools.config.pyproject_setup import Completion, Found


def run(
    config_file: Path | None, rev: str | None, hooks: list[str], remote: str | None = None
) -> int:
    _check_hooks(hooks)
    for flag, value in (("--rev", rev), ("--remote", remote)):
        if value is not None and (not value.strip() or any(c in value for c in "\r\n")):
            raise UsageError(f"{flag} must be one non-empty line")
    if remote is not None and rev is None:
        raise UsageError("--remote needs --rev: the tag or commit of that repository to pin")
    config_file, top = _places(config_file)
    pyproject = config_file.parent / "pyproject.toml"
    # Both files are read before either is written: an unreadable one stops init whole.
    read, completion, found = _plan_pyproject(pyproject)
    wanted = tuple(dict.fromkeys(hooks))
    files, unnarrowed = _narrowed(wanted or DEFAULT_HOOKS, (read, completion), pyproject.parent)
    code = _edit_precommit(config_file, Request(wanted, remote, rev, files))
    if code != 0:
        return code
    _complete_pyproject(pyproject, read, completion)
    _say_unlisted(pyproject, read if completion.text is None else completion.text, found)
    for hook in unnarrowed:
        sys.stdout.write(
            f"{display_path(config_file)}: {hook.id} runs on every file matching "
            f"`{hook.files}`: [tool.evaltools] `{hook.scope}` names no place in the repository "
            "to narrow its `files:` to; narrow it by hand to where your evals live\n"
        )
    if remote is None:
        _warn_unless_on_path()
    if top is None:
        sys.stderr.write(
            "evaltools init: warning: not in a git repository, and pre-commit needs one: "
            "run `git init` here (or run init in your repository) before `pre-commit install`\n"
        )
    else:
        sys.stdout.write("run `pre-commit install` to run the hooks on each commit\n")
    return 0


def _places(config_file: Path | None) -> tuple[Path, Path | None]:
    """The pre-commit configuration to edit, and the top level of the repository it is in.

    pre-commit reads its configuration at the repository's top level and runs the hooks
    there, so that is where init writes, wherever in the repository it is run; the
    pyproject.toml beside it is the one `evaltools check` finds from there (not the
    nearest one above the working directory, which may be a package's own).
    """
    from evaltools.retrieval.sources.git import toplevel

    if config_file is not None:
        folder = config_file.parent
        return config_file, toplevel(folder) if folder.is_dir() else None
    top = toplevel(Path.cwd())
    if top is None:
        return Path(".pre-commit-config.yaml"), None
    if top.resolve() != Path.cwd().resolve():
        sys.stdout.write(
            f"the repository's top level is {top.as_posix()}: writing there, where "
            "pre-commit reads its configuration\n"
        )
    return top / ".pre-commit-config.yaml", top


def _narrowed(
    hooks: tuple[str, ...], completion: tuple[bytes | None, Completion], base: Path
) -> tuple[dict[str, str], list[Hook]]:
    """Each per-file hook's `files:` narrowed to what [tool.evaltools] configures once
    completed, and the hooks left unnarrowed for want of a configured place."""
    from evaltools.config.precommit_hooks import BY_ID, narrowed

    read, result = completion
    text = result.text if result.text is not None else (read or b"").decode("utf-8")
    try:
        table = loads(text).get("tool", {}).get("evaltools", {})
        sets = table.get("retrieval", {}).get("sets", [])
        places = {"paths": table.get("paths", []), "sets": sets}
    except (TomlError, AttributeError):  # a form init left alone, and says so
        places = {"paths": [], "sets": []}
    files: dict[str, str] = {}
    left: list[Hook] = []
    for hook in (BY_ID[h] for h in hooks if BY_ID[h].scope is not None):
        configured = places.get(hook.scope or "")
        if isinstance(configured, list) and all(isinstance(p, str) for p in configured):
            pattern = narrowed(hook, configured, base)
            if pattern is not None:
                files[hook.id] = pattern
                continue
        left.append(hook)
    return files, left


def _check_hooks(hooks: list[str]) -> None:
    from evaltools.config.precommit_hooks import HOOK_IDS
    from evaltools.config.schema import closest

    for hook in hooks:
        if hook not in HOOK_IDS:
            close = closest(hook, HOOK_IDS)
            hint = f" (did you mean {close!r}?)" if close else ""
            raise UsageError(f"unknown hook {hook!r}{hint}; the hooks are: {', '.join(HOOK_IDS)}")


def _edit_precommit(config_file: Path, request: Request) -> int:
    shown = display_path(config_file)
    try:
        before = _read(config_file)
        read = None if before is None else before.encode("utf-8")
        # The edit is made on LF text; a CRLF file gets its line endings back.
        crlf = before is not None and "\r\n" in before and "\n" not in before.replace("\r\n", "")
        if before is not None and crlf:
            before = before.replace("\r\n", "\n")
        edit = add_evaltools(before, request)
    except ConfigEditError as exc:
        raise UsageError(f"{shown}:{exc.line}:{exc.column}: {exc}; nothing written") from exc
    for line in check_hooks_skipping_commits(edit.text):
        sys.stderr.write(
            f"evaltools init: warning: {shown}:{line}: the evaltools-check hook has no "
            "`always_run: true`: add it, or a commit that only deletes code the gold points "
            "into (or only changes pyproject.toml) skips the check\n"
        )
    if edit.action == "unchanged":
        sys.stdout.write(f"{shown}: the evaltools entry is already there; nothing to do\n")
        return 0
    if not same_except_evaltools(before, edit.text):
        sys.stdout.write(
            f"{shown}: the edit would change more than the evaltools entry; file left "
            "unchanged (please add the entry by hand)\n"
        )
        return 1
    text = edit.text.replace("\n", "\r\n") if crlf else edit.text
    if not _write(config_file, text, expect=read):
        return 1
    form = "local" if request.remote is None else f"{request.remote} at {request.rev}"
    hooks = ", ".join(request.hooks or ("evaltools-check",))
    what = {
        "created": f"created with evaltools ({form}; hooks: {hooks})",
        "added": f"added evaltools ({form}; hooks: {hooks})",
        "updated": "updated the evaltools entry: " + "; ".join(edit.changes),
    }[edit.action]
    sys.stdout.write(f"{shown}: {what}\n")
    return 0


def _plan_pyproject(pyproject: Path) -> tuple[bytes | None, Completion, Found]:
    """What pyproject.toml holds, what init would add and the eval files it found; a usage
    error if it cannot be read."""
    from evaltools.config.pyproject_setup import complete, discover

    shown = display_path(pyproject)
    if pyproject.exists() and not pyproject.is_file():
        raise UsageError(f"{shown} is not a regular file")
    read = pyproject.read_bytes() if pyproject.exists() else None
    try:
        text = None if read is None else read.decode("utf-8")
    except UnicodeDecodeError as exc:
        assert read is not None
        line, column = line_column(read, exc.start)
        raise UsageError(
            f"{shown}:{line}:{column}: byte 0x{read[exc.start]:02x} is not valid UTF-8: "
            "re-encode the file as UTF-8; nothing written"
        ) from exc
    found = discover(pyproject.parent)
    try:
        result = complete(text, found)
    except TomlError as exc:
        line, column, what, fix = explain(exc, text or "")
        raise UsageError(f"{shown}:{line}:{column}: {what}: {fix}; nothing written") from exc
    if result.refused is not None:
        # A table init cannot extend safely stops it whole, as a file it cannot read does:
        # a pre-commit hook written without its configuration would fail every commit.
        from evaltools.tomllocate import KeyLines

        line, column = KeyLines(text or "").key(result.refused_at)
        raise UsageError(f"{shown}:{line}:{column}: {result.refused}; nothing written")
    return read, result, found


def _complete_pyproject(pyproject: Path, read: bytes | None, result: Completion) -> None:
    shown = display_path(pyproject)
    if result.text is None:
        sys.stdout.write(f"{shown}: [tool.evaltools] already set; nothing to add\n")
    elif not _write(pyproject, result.text, expect=read):
        return
    elif result.added == [TEMPLATE_ADDED]:
        sys.stdout.write(
            f"{shown}: found no example files or retrieval sets; wrote [tool.evaltools] with "
            "`paths = []` and a commented template to fill in (until then `evaltools check` "
            "passes, saying there is nothing to check)\n"
        )
    else:
        sys.stdout.write(f"{shown}: added " + ", ".join(result.added) + "\n")


def _say_unlisted(pyproject: Path, written: bytes | str | None, found: Found) -> None:
    """The eval files found that the configuration, whose keys init never changes once set,
    leaves out: `check` would not check them (it warns, IO030), so init says so too."""
    from evaltools.config.evalfiles import Kind, uncovered, unlisted_message
    from evaltools.config.model import parse_config

    if written is None:
        return
    text = written if isinstance(written, str) else written.decode("utf-8")
    try:
        config = parse_config(pyproject, text)
    except UsageError:
        return  # every command (`check` first) reports the configuration itself
    kinds = dict.fromkeys(found.example_files, Kind.EXAMPLE) | dict.fromkeys(found.sets, Kind.SET)
    # The example files of one folder on one line (a conversion's output folder holds many).
    folders: dict[str, list[str]] = {}
    for name in uncovered(config, list(kinds)):
        parent = PurePosixPath(name).parent.as_posix()
        key = name if kinds[name] is Kind.SET or parent == "." else parent
        folders.setdefault(key, []).append(name)
    for key, names in folders.items():
        name, count = (names[0], 1) if len(names) == 1 else (key, len(names))
        message = unlisted_message(config, name, kinds[names[0]], count)
        shown = display_path(pyproject.parent / name) + ("/" if count > 1 else "")
        sys.stderr.write(f"evaltools init: warning: {shown}: {message}\n")


def _warn_unless_on_path() -> None:
    """The local hook runs `evaltools` from PATH: say so when that is not this one."""
    found = shutil.which("evaltools")
    here = Path(sys.executable).parent
    if found is None:
        sys.stderr.write(
            "evaltools init: warning: no `evaltools` on PATH, so the hook cannot run it: "
            f"add {here.as_posix()} to PATH or install evaltools where pre-commit runs\n"
        )
    elif not _same_install(Path(found)):
        sys.stderr.write(
            f"evaltools init: warning: the hook will run {found}, not the evaltools running "
            f"init (in {here.as_posix()})\n"
        )


def _same_install(script: Path) -> bool:
    """Whether the `evaltools` script found runs with this interpreter's environment."""
    here = Path(sys.executable).absolute().parent
    try:
        with script.open("rb") as handle:
            first = handle.readline(1024)
    except OSError:
        return False
    if first.startswith(b"#!") and first[2:].split():
        # Compared unresolved: two venvs of one Python share the resolved interpreter.
        interpreter = Path(first[2:].split()[0].decode("utf-8", "replace"))
        return interpreter.absolute().parent == here
    return script.absolute().parent == here  # a launcher without a shebang (Windows)


def _write(path: Path, text: str, *, expect: bytes | None) -> bool:
    """Write `text` over what was read as `expect` (None: no file, and none created since);
    say why not and return False if it fails."""
    try:
        atomic_write(path, text.encode("utf-8"), expect=MISSING if expect is None else expect)
    except WriteError as error:
        sys.stdout.write(f"{display_path(path)}: not written: {error.reason}\n")
        return False
    return True


def _read(config_file: Path) -> str | None:
    """The file's text, None when there is none yet; a usage error when it is not a file."""
    if not config_file.exists():
        if not config_file.parent.is_dir():
            raise UsageError(f"cannot create {display_path(config_file)}: no such directory")
        return None
    if not config_file.is_file():
        raise UsageError(f"--config-file {display_path(config_file)} is not a regular file")
    data = config_file.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = line_column(data, exc.start)
        raise ConfigEditError(
            f"byte 0x{data[exc.start]:02x} is not valid UTF-8: re-encode the file as UTF-8",
            line,
            column,
        ) from exc
