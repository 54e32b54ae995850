"""`[tool.evaltools]` from pyproject.toml (searched upward): one validated model.

Every key and its type is declared here, once. An unknown key or a value of the wrong
type is a usage error (exit 2) at its line, naming the nearest valid key, as ruff does:
a misspelt `[tool.evaltools.retreival]` must not pass as "nothing to check".
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from evaltools.config.discovery import find_pyproject
from evaltools.diagnostics import Severity
from evaltools.fileio import UsageError, display_path
from evaltools.positions import line_column
from evaltools.tomlio import TomlError, explain, loads

if TYPE_CHECKING:
    from evaltools.gate import Gate

TABLE = ("tool", "evaltools")
_BARE = re.compile(r"[A-Za-z0-9_-]+")
RECORD_TYPES = ("identifier", "intent", "mixed")


class RetrievalConfig(NamedTuple):
    """`[tool.evaltools.retrieval]`; paths are resolved against the pyproject's folder."""

    sets: tuple[Path, ...] = ()
    root: Path | None = None
    metas: Path | None = None
    schema: Path | None = None
    target_mix: Mapping[str, float] | None = None
    holdout_share: float | None = None
    drafts: tuple[Path, ...] = ()  # sets (files or folders) that may hold `gold mine` drafts

    def collects_drafts(self, path: Path) -> bool:
        """Whether the set file `path` is, or lies in, one of `drafts`."""
        if not self.drafts:
            return False
        where = path.resolve()
        return any(where == d or d in where.parents for d in map(Path.resolve, self.drafts))

    @property
    def targets(self) -> dict[str, object]:
        """The configured targets in the form `Targets.from_config` takes."""
        found: dict[str, object] = {}
        if self.target_mix is not None:
            found["target-mix"] = dict(self.target_mix)
        if self.holdout_share is not None:
            found["holdout-share"] = self.holdout_share
        return found


class DupesSettings(NamedTuple):
    """`dupes = true`, or a `[tool.evaltools.dupes]` table (`enabled`, `threshold`)."""

    enabled: bool = False
    threshold: float = 0.5  # Zed's `ep --max-duplicates` Jaccard


class Config(NamedTuple):
    path: Path | None = None
    paths: tuple[Path, ...] = ()
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: Mapping[str, tuple[str, ...]] = MappingProxyType({})
    exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    retrieval: RetrievalConfig = RetrievalConfig()
    dupes: DupesSettings = DupesSettings()
    severity: Mapping[str, Severity] = MappingProxyType({})  # [tool.evaltools.severity]
    max_warnings: int | None = None  # -1 is no limit, as None is
    # `paths` or retrieval `sets` written, even as []: what `check` is to look at is
    # declared, so finding nothing there is news, not a gate that checks nothing unawares.
    declares_targets: bool = False

    @property
    def root(self) -> Path:
        return self.path.parent if self.path is not None else Path.cwd()

    @property
    def excluded(self) -> Callable[[Path], bool] | None:
        """What `discover` leaves out of the directories it walks (None: nothing)."""
        if not self.exclude:
            return None
        from evaltools.selection import Excluded

        return Excluded(self.root, self.exclude)

    def gate(self, max_warnings: int | None = None) -> Gate:
        """The severities and warning limit configured, `--max-warnings` (when given) over
        `max-warnings`."""
        from evaltools.gate import gate_from

        return gate_from(self.severity, self.max_warnings, max_warnings)

    @property
    def rules(self) -> dict[str, object]:
        """The rule selection keys that are set, in the form `selection_from` takes."""
        found: dict[str, object] = {"ignore": self.ignore}
        if self.select is not None:
            found["select"] = self.select
        if self.per_file_ignores:
            found["per-file-ignores"] = dict(self.per_file_ignores)
        return found


class _Invalid(Exception):
    """A value of the wrong type or range: `message` says what the key must be."""

    def __init__(self, message: str, path: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.path = path  # below the key being checked, when the fault is deeper


class _UnknownSelector(Exception):
    """Item `index` of a list of rule selectors (`path` below the key) names no rule."""

    def __init__(self, selector: str, index: int, path: tuple[str, ...] = ()) -> None:
        super().__init__(selector)
        self.selector = selector
        self.index = index
        self.path = path


Check = Callable[[object], Any]


def _strings(example: str) -> Check:
    def check(value: object) -> tuple[str, ...]:
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(value)
        raise _Invalid(f"must be a list of paths (strings), e.g. {example}")

    return check


def _codes(value: object) -> tuple[str, ...]:
    # A comma-separated string is accepted too, as on the command line; so is an item.
    if isinstance(value, str):
        items = [value]
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        items = value
    else:
        raise _Invalid('must be a list of rule codes, prefixes or names, e.g. ["EP205"]')
    from evaltools.catalogue import RULES  # only for a configuration that selects rules

    codes: list[str] = []
    for index, item in enumerate(items):
        for part in item.split(","):
            selector = part.strip()
            if not selector:
                continue
            if not RULES.is_selector(selector):
                raise _UnknownSelector(selector, index if isinstance(value, list) else -1)
            codes.append(selector)
    return tuple(codes)


def _string(value: object) -> str:
    if isinstance(value, str):
        return value
    raise _Invalid('must be a path (a string, relative to pyproject.toml), e.g. "."')


def _boolean(value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise _Invalid("must be true or false")


def _number(value: object) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


def _max_warnings(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= -1:
        return value
    raise _Invalid("must be a whole number of warnings that still pass, e.g. 0 (-1: no limit)")


def _share(value: object) -> float:
    # Strictly inside: `gold split` cannot make no holdout, `gold stats` cannot target all.
    number = _number(value)
    if number is None or not 0 < number < 1:
        raise _Invalid("must be a number between 0 and 1, e.g. 0.2")
    return number


def _per_file_ignores(value: object) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise _Invalid('must be a table of glob = [codes], e.g. { "evals/old/*.md" = ["EP108"] }')
    out: dict[str, tuple[str, ...]] = {}
    for glob, codes in value.items():
        try:
            out[glob] = _codes(codes)
        except _Invalid as exc:
            raise _Invalid(str(exc), (glob,)) from None
        except _UnknownSelector as exc:
            raise _UnknownSelector(exc.selector, exc.index, (glob,)) from None
    return out


def _target_mix(value: object) -> dict[str, float]:
    if not isinstance(value, dict):
        raise _Invalid("must be a table, e.g. { identifier = 3, intent = 5, mixed = 2 }")
    _reject_unknown(value, RECORD_TYPES)
    out: dict[str, float] = {}
    for kind, weight in value.items():
        number = _number(weight)
        if number is None or number < 0:
            raise _Invalid("must be a non-negative number", (kind,))
        out[kind] = number
    if not sum(out.values()) > 0:
        raise _Invalid("must not be all zeros")
    return out


def _threshold(value: object) -> float:
    number = _number(value)
    if number is None or not 0 < number <= 1:
        raise _Invalid("must be a number above 0 and at most 1, e.g. 0.5")
    return number


DUPES: dict[str, Check] = {"enabled": _boolean, "threshold": _threshold}


def _dupes(value: object) -> object:
    if isinstance(value, (bool, dict)):
        return value  # a table is checked against DUPES
    raise _Invalid("must be true, false or a table with `enabled` and `threshold`")


RETRIEVAL: dict[str, Check] = {
    "sets": _strings('sets = ["evals/retrieval.jsonl"]'),
    "root": _string,
    "metas": _string,
    "schema": _string,
    "target-mix": _target_mix,
    "holdout-share": _share,
    "drafts": _strings('drafts = ["evals/mined.jsonl"]'),
}

TOP: dict[str, Check] = {
    "paths": _strings('paths = ["evals"]'),
    "select": _codes,
    "ignore": _codes,
    "per-file-ignores": _per_file_ignores,
    "exclude": _strings('exclude = ["evals/README.md", "**/drafts/*"]'),
    "respect-gitignore": _boolean,
    "retrieval": lambda value: value,  # a table of its own, checked against RETRIEVAL
    "dupes": _dupes,
    "max-warnings": _max_warnings,
    "severity": lambda value: value,  # rule selector = severity, checked by config.severity
}


class _Unknown(Exception):
    def __init__(self, key: str, valid: tuple[str, ...]) -> None:
        super().__init__(key)
        self.key = key
        self.valid = valid


def _reject_unknown(table: Mapping[str, object], valid: tuple[str, ...]) -> None:
    for key in table:
        if key not in valid:
            raise _Unknown(key, valid)


def closest(word: str, valid: tuple[str, ...]) -> str | None:
    """The valid name `word` most likely misspells, if any is close."""
    import difflib  # only for a misspelled key: every command loads the configuration

    close = difflib.get_close_matches(word, valid, n=1, cutoff=0.6)
    return close[0] if close else None


def nearest(word: str, valid: tuple[str, ...]) -> str:
    """` (did you mean 'x'?)`, or the list of valid names when none is close."""
    close = closest(word, valid)
    if close is not None:
        return f" (did you mean '{close}'?)"
    return " (valid: " + ", ".join(f"'{v}'" for v in valid) + ")"


def _dotted(path: tuple[str, ...]) -> str:
    """A key path as TOML writes it: bare where it can be, quoted where it must."""
    return ".".join(k if _BARE.fullmatch(k) else json.dumps(k, ensure_ascii=False) for k in path)


def _header(path: tuple[str, ...]) -> str:
    return "[" + _dotted(path) + "]"


class _Validator:
    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.text = text
        self._lines: Any = None

    def fail(
        self, where: tuple[str, ...], message: str, place: str = "key", item: int = -1
    ) -> UsageError:
        """A usage error at `where`: its key, its value, or item `item` of its array."""
        from evaltools.tomllocate import KeyLines

        if self._lines is None:
            self._lines = KeyLines(self.text)
        if item >= 0:
            line, column = self._lines.item(where, item)
        elif place == "value":
            line, column = self._lines.value(where)
        else:
            line, column = self._lines.key(where)
        return UsageError(f"{display_path(self.path)}:{line}:{column}: {message}")

    def table(
        self, where: tuple[str, ...], value: object, schema: Mapping[str, Check]
    ) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"{_header(where)} must be a table", "value")
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key not in schema:
                raise self.fail(
                    (*where, key),
                    f"unknown key '{key}' in {_header(where)}{nearest(key, tuple(schema))}",
                )
            try:
                out[key] = schema[key](item)
            except _Invalid as exc:
                inner = (key, *exc.path)
                raise self.fail(
                    (*where, *inner), f"{_header(where)} {_dotted(inner)} {exc}", "value"
                ) from None
            except _UnknownSelector as exc:
                from evaltools.catalogue import RULES

                inner = (key, *exc.path)
                where_named = f" in {_header(where)} {_dotted(inner)}"
                message = RULES.unknown(exc.selector, "rule selector", where_named)
                raise self.fail((*where, *inner), message, "value", exc.index) from None
            except _Unknown as exc:
                inner = (*where, key)
                raise self.fail(
                    (*inner, exc.key),
                    f"unknown key '{exc.key}' in {_header(inner)}{nearest(exc.key, exc.valid)}",
                ) from None
        return out


def parse_config(path: Path, text: str) -> Config:
    """The model of `text` (the contents of `path`); a UsageError at the first fault."""
    try:
        data = loads(text)
    except TomlError as exc:
        line, column, what, fix = explain(exc, text)
        raise UsageError(
            f"{display_path(path)}:{line}:{column}: {what}: {fix}, or the configuration "
            "cannot be read"
        ) from exc
    tool = data.get("tool", {})
    checker = _Validator(path, text)
    if not isinstance(tool, dict):
        raise checker.fail(
            ("tool",), "`tool` must be a table ([tool.evaltools] lives in it)", "value"
        )
    if "evaltools" not in tool:
        return Config(path)
    top = checker.table(TABLE, tool["evaltools"], TOP)
    retrieval = checker.table((*TABLE, "retrieval"), top.get("retrieval", {}), RETRIEVAL)
    dupes_value = top.get("dupes", False)
    if isinstance(dupes_value, bool):
        dupes = DupesSettings(enabled=dupes_value)
    else:
        table = checker.table((*TABLE, "dupes"), dupes_value, DUPES)
        dupes = DupesSettings(table.get("enabled", True), table.get("threshold", 0.5))
    severity: Mapping[str, Severity] = {}
    if "severity" in top:
        from evaltools.config.severity import severities

        severity = severities(top["severity"], checker.fail)
    base = path.parent

    def at(value: str | None) -> Path | None:
        return None if value is None else base / value

    return Config(
        path,
        paths=tuple(base / p for p in top.get("paths", ())),
        select=top.get("select"),
        ignore=top.get("ignore", ()),
        per_file_ignores=top.get("per-file-ignores", {}),
        exclude=top.get("exclude", ()),
        respect_gitignore=top.get("respect-gitignore", True),
        retrieval=RetrievalConfig(
            sets=tuple(base / s for s in retrieval.get("sets", ())),
            root=at(retrieval.get("root")),
            metas=at(retrieval.get("metas")),
            schema=at(retrieval.get("schema")),
            target_mix=retrieval.get("target-mix"),
            holdout_share=retrieval.get("holdout-share"),
            drafts=tuple(base / d for d in retrieval.get("drafts", ())),
        ),
        dupes=dupes,
        severity=severity,
        max_warnings=top.get("max-warnings"),
        declares_targets="paths" in top or "sets" in retrieval,
    )


def load_config(explicit: Path | None = None, start: Path | None = None) -> Config:
    path = explicit if explicit is not None else find_pyproject(start or Path.cwd())
    if path is None:
        return Config()
    if not path.is_file():  # a directory, a missing file, or a FIFO that would block
        raise UsageError(f"cannot read configuration {path}: not a file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read configuration {path}: {exc.strerror or exc}") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = line_column(data, exc.start)
        raise UsageError(
            f"{display_path(path)}:{line}:{column}: byte 0x{data[exc.start]:02x} is not valid "
            "UTF-8: re-encode the file as UTF-8, or the configuration cannot be read"
        ) from exc
    return parse_config(path, text)
