"""Configured places that must exist: a missing one is reported where it is written, as
every other configuration error is, at its item of the `paths` or `sets` array."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from evaltools.config.model import TABLE, Config
from evaltools.fileio import UsageError, display_path

if TYPE_CHECKING:
    from evaltools.tomllocate import KeyLines

# The configuration's lists of places, by key: where each is written, and its name there.
KEYS = {
    "paths": (TABLE, "[tool.evaltools]"),
    "sets": ((*TABLE, "retrieval"), "[tool.evaltools.retrieval]"),
    "drafts": ((*TABLE, "retrieval"), "[tool.evaltools.retrieval]"),
}


def check_configured_exist(config: Config, *keys: str) -> None:
    """Every place `keys` ("paths", "sets", "drafts") of `config` name exists; else a usage
    error at the first missing one's item, naming it as written (not as resolved)."""
    for key in keys:
        places = {
            "paths": config.paths,
            "sets": config.retrieval.sets,
            "drafts": config.retrieval.drafts,
        }[key]
        for index, place in enumerate(places):
            if not place.exists():
                raise _missing(config, key, index, place)
    warn_outside_project(config, *keys)


# The retrieval table's single places, by key: whether each must be a folder.
SOURCES = {"root": True, "metas": False, "schema": False}


def check_configured_sources(config: Config, *keys: str) -> None:
    """Each of `keys` ("root", "metas", "schema") of [tool.evaltools.retrieval], when set, is
    there and of its kind (a folder for `root`, else a file); else a usage error at its
    value, as a missing `paths` item is."""
    for key in keys:
        place = getattr(config.retrieval, key)
        if place is None:
            continue
        folder = SOURCES[key]
        if place.is_dir() if folder else place.is_file():
            continue
        kind = "folder" if folder else "file"
        why = f"not a {kind}" if os.path.lexists(place) else f"no such {kind}"
        if config.path is None:
            raise UsageError(f"`{key}` names {place.as_posix()}: {why}")
        text = config.path.read_text(encoding="utf-8")
        line, column = _key_lines(text).value((*TABLE, "retrieval", key))
        raise UsageError(
            f"{display_path(config.path)}:{line}:{column}: `{key}` of "
            f"[tool.evaltools.retrieval] names {display_path(place)}: {why} (create it, or fix "
            f"`{key}`)"
        )


_WARNED: set[str] = set()


def warn_outside_project(config: Config, *keys: str) -> None:
    """A configured place outside the project (`paths = ["/"]`, `root = "/"`) makes every
    command search all below it, the whole file system at worst: said once, on stderr, at
    its item (a warning: a sibling folder of shared evals may be meant)."""
    if config.path is None:
        return
    project = os.path.realpath(config.root)
    text: str | None = None
    for key in keys:
        table, header = KEYS[key]
        places = config.paths if key == "paths" else config.retrieval.sets
        found: list[tuple[tuple[str, ...], int | None, Path]] = [
            ((*table, key), index, place) for index, place in enumerate(places)
        ]
        if key == "sets" and config.retrieval.root is not None:
            found.append(((*table, "root"), None, config.retrieval.root))
        for where, index, place in found:
            real = os.path.realpath(place)
            if real == project or real.startswith(project.rstrip(os.sep) + os.sep):
                continue
            text = config.path.read_text(encoding="utf-8") if text is None else text
            lines = _key_lines(text)
            line, column = lines.value(where) if index is None else lines.item(where, index)
            message = (
                f"{display_path(config.path)}:{line}:{column}: warning: `{where[-1]}` of "
                f"{header} names {place.as_posix()}, outside the project ({project}): "
                "everything below it is searched; name a folder of the project"
            )
            if message not in _WARNED:
                _WARNED.add(message)
                sys.stderr.write(f"evaltools: {message}\n")


def refuse_unlisted_eval_files(config: Config) -> None:
    """`paths = []` (init's "nothing here yet") while eval files have since been added: the
    gate would pass on every commit without ever checking them."""
    from evaltools.config.pyproject_setup import discover as discover_eval_files

    if config.path is None:
        return
    found = discover_eval_files(config.path.parent)
    if not found:
        return
    shown = [*found.examples, *found.sets]
    text = config.path.read_text(encoding="utf-8")
    line, column = _key_lines(text).key((*TABLE, "paths"))
    raise UsageError(
        f"{display_path(config.path)}:{line}:{column}: [tool.evaltools] names no eval files, "
        f"but there are some now ({', '.join(shown[:3])}{', ...' if len(shown) > 3 else ''}): "
        "run `evaltools init` again to add them, or list them in `paths` (examples) and "
        "[tool.evaltools.retrieval] `sets`"
    )


def _key_lines(text: str) -> KeyLines:
    from evaltools.tomllocate import KeyLines  # only for an error's place

    return KeyLines(text)


def _missing(config: Config, key: str, index: int, place: Path) -> UsageError:
    # `exists` follows links: a link to nowhere (or a loop of links) is not missing.
    why = (
        "a broken symbolic link (its target is missing or loops)"
        if os.path.lexists(place)
        else "no such file or directory"
    )
    if config.path is None:  # not from a file (a test's Config): no place to point at
        return UsageError(f"`{key}` names {place.as_posix()}: {why}")
    from evaltools.tomlio import loads

    table, header = KEYS[key]
    text = config.path.read_text(encoding="utf-8")
    written: object = loads(text)
    for name in (*table, key):
        written = written[name] if isinstance(written, dict) else None
    shown = written[index] if isinstance(written, list) else place.as_posix()
    line, column = _key_lines(text).item((*table, key), index)
    return UsageError(
        f"{display_path(config.path)}:{line}:{column}: {json.dumps(shown, ensure_ascii=False)} "
        f"in `{key}` of {header}: {why} "
        f"(create it, or remove it from `{key}`)"
    )
