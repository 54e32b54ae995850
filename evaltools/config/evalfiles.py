"""Which eval files a repository holds, told by a sniff of their first bytes, and which of
them the configuration covers: what `init` writes `paths` and `sets` from, how `check`
sorts the files below a configured place, and the tracked eval files it names when no
configured place covers them.

A file's form is its suffix, as `lint` and `convert` read it (`.md` Markdown, `.json` one
example, `.jsonl` one a line); its kind (an example, a retrieval set, something else) is
its content's.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from enum import Enum
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from evaltools import jsonio
from evaltools.catalogue.io import UNLISTED_EVAL_FILE
from evaltools.discover import SKIPPED_DIRECTORIES, NothingFound, discover, git_tracked
from evaltools.fileio import MAX_DATA_FILE_BYTES, Refused, display_path, open_input, real_path

if TYPE_CHECKING:
    from evaltools.config.model import Config
    from evaltools.diagnostics import Diagnostic

SUFFIXES = (".md", ".json", ".jsonl")

_FRONT_MATTER = re.compile(r"\A\ufeff?\+\+\+[ \t]*\r?\n")
_CURSOR_HEADING = re.compile(r"^#{1,6}[ \t]+cursor position[ \t]*$", re.IGNORECASE | re.MULTILINE)
_HEAD = 1 << 20
# Fields an example must have that no other JSON has by chance (`repository_url` and
# `revision` are common), each with a value of its type: a JSON Schema of examples names
# them too, with objects.
_EXAMPLE_KEY = re.compile(
    rb'"(?:cursor_path|cursor_position|edit_history)"\s*:\s*"|"expected_patches"\s*:\s*\['
)


class Kind(Enum):
    EXAMPLE = "example file"
    SET = "retrieval set"
    OTHER = "other"  # readable, and plainly something else (prose, a package.json)
    UNKNOWN = "unknown"  # empty, unreadable or no JSON: a broken example as much as anything


def _head(path: Path) -> bytes | None:
    try:
        with path.open("rb") as handle:
            return handle.read(_HEAD)
    except OSError:
        return None


def is_example(path: Path) -> bool:
    """A Markdown example: TOML front matter and a `## Cursor Position` heading."""
    text = (_head(path) or b"").decode("utf-8", "replace")
    return bool(_FRONT_MATTER.match(text) and _CURSOR_HEADING.search(text))


def looks_like_example(head: bytes) -> bool:
    """The first bytes of a `.json`/`.jsonl` hold an example's own field."""
    return _EXAMPLE_KEY.search(head[:_HEAD]) is not None


_SNIFF_LINE_BYTES = 1 << 20


def looks_like_retrieval_set(path: Path) -> bool:
    """A JSONL whose records have two of `qid`, `query`, `type` and `gold` (example records
    have none of them).

    The first readable record decides, so one broken first line does not turn a retrieval
    set into example records.
    """
    # A FIFO would block, a huge file take minutes: the reader that takes it says why.
    opened = open_input(path, max_bytes=MAX_DATA_FILE_BYTES)
    if isinstance(opened, Refused):
        return False
    try:
        with opened as handle:
            # Lines read to a bound: a file of one endless line is no set, and is no reason
            # to hold it whole.
            return lines_look_like_set(iter(lambda: handle.readline(_SNIFF_LINE_BYTES), b""))
    except OSError:
        return False


def lines_look_like_set(lines: Iterable[bytes]) -> bool:
    """`looks_like_retrieval_set` on lines already at hand (an editor's text)."""
    lines = iter(lines)
    for piece in itertools.islice(lines, 20):
        cut = not piece.endswith(b"\n") and len(piece) == _SNIFF_LINE_BYTES
        raw = _whole_line(piece, lines) if cut else piece
        if raw is None:
            return False  # a line without end is no set's record
        try:
            record = jsonio.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            continue
        if isinstance(record, dict):
            # Two of the required fields: a first record that lost one (`"gld"`) still makes
            # the file a set, checked and told, not other JSON passed over; a run (`qid`,
            # `results`) and an example hold at most one.
            return len(_SET_FIELDS.intersection(record)) >= 2
    return False


_SET_FIELDS = frozenset(("qid", "query", "type", "gold"))
# A record longer than the sniff's bound (a thousand gold IDs and long notes) is read on to
# its end, up to this many bounded pieces, and parsed as any other: a longer line is no set.
_LONG_LINE_PIECES = 16


def _whole_line(first: bytes, rest: Iterator[bytes]) -> bytes | None:
    """A line cut at the bound, read on to its end; None past `_LONG_LINE_PIECES` pieces."""
    pieces = [first]
    while not pieces[-1].endswith(b"\n"):
        if len(pieces) == _LONG_LINE_PIECES:
            return None
        more = next(rest, b"")
        if not more:
            break
        pieces.append(more)
    return b"".join(pieces)


def is_retrieval_set(path: Path, configured: set[Path]) -> bool:
    """A configured set (`configured` holds resolved paths), or a JSONL that looks like one."""
    return real_path(path) in configured or looks_like_retrieval_set(path)


def split_sets(files: list[Path], configured: list[Path]) -> tuple[list[Path], list[Path]]:
    """(the other files, the retrieval sets) among `files`: a `.jsonl` is a set when it is
    one of the `configured` sets or looks like one; everything else is left to the caller."""
    known = {real_path(p) for p in configured}
    others: list[Path] = []
    sets: list[Path] = []
    for path in files:
        is_set = path.suffix == ".jsonl" and is_retrieval_set(path, known)
        (sets if is_set else others).append(path)
    return others, sets


def discover_sets(
    paths: Iterable[Path],
    *,
    respect_gitignore: bool = True,
    excluded: Callable[[Path], bool] | None = None,
) -> list[Path]:
    """The retrieval sets the retrieval commands read: `.jsonl` files named (and `-`) as
    given, and those found in the directories named but a file of example records beside
    them (`lint`'s and `convert`'s, as `check` sorts it), which is no set to report on."""
    paths = list(paths)
    found = discover(
        paths,
        (".jsonl",),
        respect_gitignore=respect_gitignore,
        what="eval sets",
        excluded=excluded,
    )
    named = {str(p) for p in paths}
    sets = [p for p in found if str(p) in named or kind(p) is not Kind.EXAMPLE]
    if not sets:
        shown = ", ".join(display_path(p) for p in found[:3]) + (", ..." if len(found) > 3 else "")
        raise NothingFound(
            f"no retrieval sets: {shown} {'holds' if len(found) == 1 else 'hold'} example "
            "records (`lint` and `convert` read them); name a file to read it as a set"
        )
    return sets


def kind(path: Path) -> Kind:
    """What `path` holds, from its suffix and its first bytes (not a parse of all of it)."""
    if not path.is_file():
        return Kind.UNKNOWN  # a FIFO would block; its reader says what it is instead
    if path.suffix == ".md":
        return Kind.EXAMPLE if is_example(path) else Kind.OTHER
    if path.suffix == ".jsonl" and looks_like_retrieval_set(path):
        return Kind.SET
    head = _head(path)
    if head is None or not head.strip():
        return Kind.UNKNOWN
    if looks_like_example(head):
        return Kind.EXAMPLE
    return Kind.OTHER if head.lstrip()[:1] in (b"{", b"[") else Kind.UNKNOWN


def _places(config: Config) -> list[str]:
    """The configured `paths` and `sets`, as POSIX paths relative to the configuration."""
    return [_relative(config, p) for p in (*config.paths, *config.retrieval.sets)]


def _relative(config: Config, place: Path) -> str:
    return Path(os.path.relpath(place, config.root)).as_posix()


def uncovered(config: Config, names: list[str]) -> list[str]:
    """Those of `names` (POSIX paths relative to the configuration's folder) that no
    configured path or set covers and `exclude` does not name."""
    places = _places(config)
    excluded = config.excluded

    def covered(name: str) -> bool:
        return any(p in (".", name) or name.startswith(p + "/") for p in places)

    return [
        name
        for name in names
        if not covered(name) and not (excluded is not None and excluded(config.root / name))
    ]


def unlisted_message(config: Config, name: str, found: Kind, count: int = 1) -> str:
    """What a tracked eval file outside the configuration is, and the line that adds it;
    with a `count` above 1, what the `count` example files of folder `name` are."""
    if found is Kind.SET:
        key, table, places = "sets", "[tool.evaltools.retrieval]", config.retrieval.sets
        place = name
    else:
        key, table, places = "paths", "[tool.evaltools]", config.paths
        parent = PurePosixPath(name).parent.as_posix()
        place = name if parent == "." or count > 1 else parent
    written = [_relative(config, p) for p in places]
    line = f"{key} = {json.dumps([*written, place], ensure_ascii=False)}"
    what = f"{found.value} not checked: no configured place covers it"
    if count > 1:
        what = f"{count} {found.value}s not checked: no configured place covers them"
    return (
        f"{what}; add {json.dumps(place, ensure_ascii=False)} to `{key}` in {table} ({line}), "
        f"or {json.dumps(name, ensure_ascii=False)} to `exclude`"
    )


def unlisted(config: Config, checked: Iterable[Path] = ()) -> list[Diagnostic]:
    """A warning at each example file or retrieval set git tracks below the configuration's
    folder that the configuration leaves out; nothing outside a git work tree. A file that is
    among `checked` (resolved: the target of a link below a configured place) is checked.

    One `git ls-files` and a sniff of the first bytes of each candidate left over."""
    if config.path is None:
        return []
    tracked = git_tracked(config.root)
    if not tracked:
        return []
    candidates = [
        name
        for name in tracked
        if name.endswith(SUFFIXES)
        # What no search would find anyway, under a configured place or not.
        and not any(part.startswith(".") or part in SKIPPED_DIRECTORIES for part in name.split("/"))
    ]
    from evaltools.diagnostics import make

    found: list[Diagnostic] = []
    seen = {real_path(p) for p in checked}
    for name in uncovered(config, candidates):
        path = config.root / name
        if real_path(path) in seen:
            continue
        what = kind(path)
        if what in (Kind.EXAMPLE, Kind.SET):
            message = unlisted_message(config, name, what)
            found.append(make(UNLISTED_EVAL_FILE, display_path(path), 1, 1, message))
    return found
