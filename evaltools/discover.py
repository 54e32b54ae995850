"""Finding the files a command works on: named paths, directories walked, git's ignore
rules and tracked files; an output that would overwrite an input refused (reading them:
`evaltools.fileio`)."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from evaltools.fileio import UsageError, display_path, open_folder, real_path

# Never searched: version control and tool folders that are not hidden (hidden folders,
# `.git`, `.svn`, `.venv`, `.tox`, editor settings, are all skipped by their dot).
SKIPPED_DIRECTORIES = frozenset({"venv", "node_modules", "__pycache__"})


class NothingFound(UsageError):
    """A search found no file to work on: an error, never a pass over nothing."""


class Walk(NamedTuple):
    """What `walk_files` found below a directory: the matching names (POSIX paths
    relative to it, sorted), and how many files it left out for their suffix and because
    git ignores them."""

    names: list[str]
    others: int
    ignored: int


def discover(
    paths: Iterable[Path],
    suffixes: tuple[str, ...],
    *,
    respect_gitignore: bool = True,
    exclude: Path | None = None,
    what: str = "files",
    hint: str = "",
    excluded: Callable[[Path], bool] | None = None,
) -> list[Path]:
    """The files a command sees: paths named directly as given (whatever their name, and
    `-`), and for each directory the files below it ending in one of `suffixes`, sorted.
    A file reached twice (named twice, or named and found in a directory also named) is
    taken once, at its first place and under its first name, by its real path (as ruff).

    One skip policy for every command: hidden files and folders (`.git`, `.svn`, `.venv`,
    `.drafts`, ...), `venv`, `node_modules` and `__pycache__` are never entered, and files
    git ignores are left out (as ruff and black do) unless `respect_gitignore` is False.
    A file named directly is always included, a directory named directly is searched even
    if git ignores it (its own ignore rules still apply below it), and nothing below
    `exclude` (a command's output, which may live below a source directory) is searched.
    A file found in a directory is left out when `excluded` says so (the configuration's
    `exclude` globs); a file named directly is taken all the same, as ruff takes it.
    No file at all is a `NothingFound` error naming what was searched (`what`, `hint`).
    """
    found: dict[str, Path] = {}
    searched: list[Path] = []
    others = ignored = left_out = 0
    for path in paths:
        if str(path) != "-" and path.is_dir() and path.suffix not in suffixes:
            searched.append(path)
            walk = walk_files(path, suffixes, respect_gitignore=respect_gitignore, exclude=exclude)
            left_out += _take_walked(found, path, walk.names, excluded)
            others += walk.others
            ignored += walk.ignored
        else:
            found.setdefault("-" if str(path) == "-" else str(real_path(path)), path)
    if not found:
        if left_out:
            noun = "file" if left_out == 1 else "files"
            hint = "; ".join(filter(None, [f"{left_out} {noun} left out by `exclude`", hint]))
        raise NothingFound(
            _nothing_found(what, suffixes, searched, Walk([], others, ignored), hint)
        )
    return list(found.values())


def _take_walked(
    found: dict[str, Path],
    directory: Path,
    names: list[str],
    excluded: Callable[[Path], bool] | None,
) -> int:
    """Add the files walked below `directory` to `found`, by real path (the first place of
    a file stays); return how many `excluded` left out."""
    left_out = 0
    # One realpath per directory: the walk enters no linked directory, so below it
    # only a linked file needs resolving (a conversion may list millions).
    real = os.path.realpath(directory)
    for name in names:
        file = directory / name
        if excluded is not None and excluded(file):
            left_out += 1
            continue
        # os.path.islink: False, not an error, for a path past PATH_MAX.
        linked = os.path.islink(file)  # noqa: PTH114
        key = str(real_path(file)) if linked else f"{real}{os.sep}{name}"
        found.setdefault(key, file)
    return left_out


def _nothing_found(
    what: str, suffixes: tuple[str, ...], searched: list[Path], left_out: Walk, hint: str
) -> str:
    patterns = ", ".join(f"*{s}" for s in suffixes)
    where = ", ".join(f"{display_path(p).rstrip('/')}/" for p in searched) or "the given paths"
    notes = []
    if left_out.ignored:
        kinds = "/".join(suffixes)
        noun = "file" if left_out.ignored == 1 else "files"
        notes.append(
            f"{left_out.ignored} {kinds} {noun} ignored by .gitignore; "
            "pass --no-respect-gitignore to take them"
        )
    if left_out.others:
        noun = "file" if left_out.others == 1 else "files"
        notes.append(f"{left_out.others} {noun} with other suffixes")
    if hint:
        notes.append(hint)
    tail = f" ({'; '.join(notes)})" if notes else ""
    return f"no {what} ({patterns}) under {where}{tail}"


def walk_files(
    root: Path,
    suffixes: tuple[str, ...] | None,
    *,
    respect_gitignore: bool = True,
    exclude: Path | None = None,
) -> Walk:
    """The files below `root` (POSIX paths relative to it, sorted) ending in one of
    `suffixes` (any file for None), by the skip policy of `discover`; and how many other
    files it left out for their suffix or because git ignores them."""
    excluded = os.path.realpath(exclude) if exclude is not None else None
    if excluded is not None and os.path.realpath(root) == excluded:
        # Converting a directory into itself: the listing is taken before anything is
        # written, so the outputs are not read back; only outputs below it would be.
        excluded = None
    matching: list[str] = []
    others = 0
    for dirpath, dirnames, filenames in _walk(os.fspath(root), matching):
        dirnames[:] = sorted(
            d for d in dirnames if not d.startswith(".") and d not in SKIPPED_DIRECTORIES
        )
        # One realpath per directory, not per file: a conversion may list millions.
        real = os.path.realpath(dirpath) if excluded is not None else ""
        if excluded is not None and _is_within(real, excluded):
            dirnames[:] = []
            continue
        relative = os.path.relpath(dirpath, root)
        prefix = "" if relative == "." else Path(relative).as_posix() + "/"
        for name in sorted(filenames):
            if name.startswith("."):
                continue
            if excluded is not None and f"{real}{os.sep}{name}" == excluded:
                continue
            if suffixes is None or name.endswith(suffixes):
                matching.append(prefix + name)
            else:
                others += 1
    if not (respect_gitignore and matching):
        return Walk(matching, others, 0)
    ignored = git_ignored(root, matching)
    return Walk([name for name in matching if name not in ignored], others, len(ignored))


def _walk(root: str, unreadable: list[str]) -> Iterator[tuple[str, list[str], list[str]]]:
    """`os.walk(root)`, and below a folder whose path is past PATH_MAX (which os.walk
    passes over without a word), `os.fwalk` from a descriptor of it. A folder that cannot
    be listed at all is added to `unreadable` (relative to `root`), so that the command
    reports it (IO007) as a file it could not read: the gate never passes over a file it
    did not see."""
    errors: list[OSError] = []
    yield from os.walk(root, onerror=errors.append)
    while errors:
        error = errors.pop(0)
        folder = os.fsdecode(error.filename or "")
        if not folder:
            continue
        if error.errno != errno.ENAMETOOLONG:
            unreadable.append(Path(os.path.relpath(folder, root)).as_posix())
            continue
        parent, _, name = folder.rpartition("/")
        try:
            fd = open_folder(parent or ".")
        except OSError:
            unreadable.append(Path(os.path.relpath(folder, root)).as_posix())
            continue
        try:
            below: list[OSError] = []
            for dirpath, dirnames, filenames, _ in os.fwalk(name, dir_fd=fd, onerror=below.append):
                yield f"{parent}/{dirpath}", dirnames, filenames
            for failed in below:  # relative to `parent`, the descriptor's folder
                shown = f"{parent}/{os.fsdecode(failed.filename or name)}"
                unreadable.append(Path(os.path.relpath(shown, root)).as_posix())
        finally:
            os.close(fd)


def _is_within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def git_ignored(root: Path, names: list[str]) -> frozenset[str]:
    """Which of `names` (relative to the directory `root`) git ignores: one `git
    check-ignore` for all of them. Outside a work tree, or without git, none.

    A `root` git ignores itself (named on the command line: taken, as ruff takes it) is
    asked about as the top of its own work tree: git would otherwise answer "ignored"
    for every file below it, for the folder's sake, and hide the rules below it."""
    top = ["-C", str(root)]
    index: list[str] = []
    if _git(top, ["check-ignore", "-q", "."]) is not None:
        git_dir = _git(top, ["rev-parse", "--absolute-git-dir"]) or b""
        top = [*top, f"--git-dir={os.fsdecode(git_dir.strip())}", "--work-tree=."]
        # The index names files from the real top, not from this one.
        index = ["--no-index"]
    listed = "\0".join(names).encode("utf-8", "surrogateescape") + b"\0"
    out = _git(top, ["check-ignore", *index, "--stdin", "-z"], listed)
    if out is None:
        return frozenset()
    return frozenset(item.decode("utf-8", "surrogateescape") for item in out.split(b"\0") if item)


def git_tracked(root: Path) -> list[str] | None:
    """The files git's index holds below the directory `root` (POSIX paths relative to it),
    from one `git ls-files`; None outside a work tree, or without git."""
    out = _git(["-C", str(root)], ["ls-files", "-z"])
    if out is None:
        return None
    return [item.decode("utf-8", "surrogateescape") for item in out.split(b"\0") if item]


def _git(where: list[str], args: list[str], stdin: bytes = b"") -> bytes | None:
    """git's standard output, or None when it fails (for check-ignore: nothing ignored,
    or not a work tree) or there is no git at all."""
    import subprocess  # not at the top: the lint hook names files and never walks

    try:
        done = subprocess.run(["git", *where, *args], input=stdin, capture_output=True, check=False)
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def check_paths_exist(paths: Iterable[Path], *, stdin: bool = True) -> None:
    """Every path exists; `-` is standard input, where the command reads it (`stdin`)."""
    paths = list(paths)
    if not stdin and any(str(p) == "-" for p in paths):
        raise UsageError("this command does not read standard input (`-`): name the files")
    missing = [p for p in paths if str(p) != "-" and not p.exists()]
    if missing:
        names = ", ".join(p.as_posix() for p in missing)
        # `exists` follows links: a link to nowhere (or a loop of links) is not missing.
        if all(os.path.lexists(p) for p in missing):
            raise UsageError(f"broken symbolic link (its target is missing or loops): {names}")
        raise UsageError(f"no such file or directory: {names}")


def refuse_input_as_output(path: Path, inputs: Iterable[Path], option: str) -> None:
    """Refuse an output that is also an input: it is written before the command ends, so
    the input would be lost (or, appended to, corrupted)."""
    same = next((source for source in inputs if same_file(source, path)), None)
    if same is not None:
        raise UsageError(
            f"{option} {path}: is also an input ({same}); write the output to another file"
        )


def same_file(one: Path, other: Path) -> bool:
    """The same file, by inode: through links, `..` and other spellings alike."""
    try:
        return one.samefile(other)
    except (OSError, ValueError):
        # Either one missing (an output yet to be written): the same place is the same file.
        return real_path(one) == real_path(other)
