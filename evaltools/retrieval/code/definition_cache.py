"""A content-addressed cache of the definitions `gold check` parses, kept between runs.

Parsing is nearly all of a gold check's work, and most files do not change between two
runs. An entry is keyed by what decides the definitions of a file: its content (the git
blob id: read from `git ls-tree` at `--rev`, computed from the bytes in a work tree),
its grammar, and the versions of the parser, the grammar and evaltools' span conventions
(`symbols.SPANS_VERSION`). A new parser or convention therefore never meets an old entry.

In a work tree a second table maps a file's (path, size, mtime, ctime, inode, device) to
its blob id, so a warm run stats files instead of reading and hashing them. Only files
last changed more than `RACY_SECONDS` before they were looked at get such a row: a file
rewritten within the same timestamp tick, with the same size, would otherwise keep its
old row (git's "racily clean" problem).

The store is one SQLite database (the stdlib's): one query answers a batch of keys,
writes are transactions (whole or not at all), and concurrent runs wait on its lock
rather than clobber each other. Every row carries a MAC of its key and value, keyed by a
secret only this user can read (`SECRET_NAME`, mode 0600, made on first use): a row that
does not check out (damaged, or written by anyone without the secret), or does not
decode, is a miss and is recomputed, so a row another hand wrote can never turn a failing
verdict into a pass; a database file that SQLite finds corrupt, or that is not ours, is
replaced. A cache another user could write (the folder, the database or the secret owned
by someone else, or writable by group or others: a shared `EVALTOOLS_CACHE_DIR`, a
database left mode 0666) is not used at all, as pip and mypy refuse theirs: the run says
so once on stderr and goes on uncached. The cache never fails a run: when it cannot be
opened or written, the run goes on without it.

The folder is `.evaltools_cache/` beside the pyproject.toml that configures the run (or
the current directory), as ruff and mypy keep theirs, or `EVALTOOLS_CACHE_DIR`; it gets a
`.gitignore` of `*` when created.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sqlite3
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from evaltools.blake2 import blake2b
from evaltools.retrieval.code.cache_trust import (
    load_secret,
    row_mac,
    untrusted,
    warn_once,
)
from evaltools.retrieval.code.grammars import GRAMMARS
from evaltools.retrieval.code.parsing import ParsedFile
from evaltools.retrieval.code.spans import Definition
from evaltools.retrieval.code.symbols import SPANS_VERSION
from evaltools.retrieval.sources.closing import Closing

CACHE_DIR_ENV = "EVALTOOLS_CACHE_DIR"
FOLDER_NAME = ".evaltools_cache"
DB_NAME = "definitions.sqlite3"
GITIGNORE = b"# Created by evaltools: the whole folder is a cache.\n*\n"
CACHEDIR_TAG = (
    b"Signature: 8a477f597d28d172789f06886806bc55\n"
    b"# This file is a cache directory tag created by evaltools.\n"
)
# The layout of the database; a file with another one (or another application's) is
# replaced, never read.
SCHEMA_VERSION = 2  # 2: rows carry a keyed MAC, not a CRC anyone can recompute
APPLICATION_ID = 0x45564C54  # "EVLT"
RACY_SECONDS = 2
# How long a run waits for another run's write to finish before it skips its own.
BUSY_SECONDS = 10.0
# Keys per query, below SQLite's oldest limit of 999 bound parameters.
BATCH = 500

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS definitions"
    " (key TEXT PRIMARY KEY, crc INTEGER NOT NULL, value BLOB NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS stats"
    " (path TEXT PRIMARY KEY, sig TEXT NOT NULL, oid TEXT NOT NULL, crc INTEGER NOT NULL)"
    " WITHOUT ROWID",
)
_PUT_DEFINITIONS = "INSERT OR REPLACE INTO definitions VALUES (?, ?, ?)"
_PUT_STATS = "INSERT OR REPLACE INTO stats VALUES (?, ?, ?, ?)"


def cache_folder(project_root: Path) -> Path:
    """`EVALTOOLS_CACHE_DIR` when set, else `.evaltools_cache` in `project_root` (the
    folder of the pyproject.toml that configures the run, or the current directory)."""
    configured = os.environ.get(CACHE_DIR_ENV)
    return Path(configured) if configured else project_root / FOLDER_NAME


def blob_id(data: bytes) -> str:
    """The id git gives these bytes as a blob (SHA-1 object format)."""
    import hashlib  # not at the top: loading OpenSSL costs a cached `gold check` ~5 ms

    digest = hashlib.sha1(b"blob %d\0" % len(data), usedforsecurity=False)
    digest.update(data)
    return digest.hexdigest()


_TAGS: dict[str, str] = {}


def version_tag(grammar: str) -> str:
    """A short digest of everything besides the content that decides a file's definitions:
    the span conventions, the grammar, and the installed tree-sitter and grammar packages."""
    tag = _TAGS.get(grammar)
    if tag is None:
        parts = [f"spans {SPANS_VERSION}", f"grammar {grammar}"]
        parts += [_installed("tree_sitter"), _installed(GRAMMARS[grammar][0])]
        text = "\n".join(parts).encode()
        tag = _TAGS[grammar] = blake2b(text, digest_size=8).hexdigest()
    return tag


_INSTALLED: dict[str, str] = {}
_LISTINGS: dict[Path, list[str]] = {}


def _installed(module: str) -> str:
    """What identifies the installed package `module`: its dist-info folder (name and
    version) and its compiled files (name, size, time), found without importing it, which
    would cost a warm run more than its lookups (importlib.metadata costs as much).
    Asked once per module and site folder per run: every grammar's tag names tree_sitter."""
    found = _INSTALLED.get(module)
    if found is None:
        found = _INSTALLED[module] = _find_installed(module)
    return found


def _find_installed(module: str) -> str:
    for entry in sys.path:
        folder = Path(entry or ".") / module
        if not (folder / "__init__.py").is_file():
            continue
        found = [str(folder)]
        prefix = module.lower() + "-"
        with contextlib.suppress(OSError):
            names = _LISTINGS.get(folder.parent)
            if names is None:
                names = _LISTINGS[folder.parent] = [item.name for item in folder.parent.iterdir()]
            found += sorted(
                name
                for name in names
                if name.lower().startswith(prefix) and name.endswith(".dist-info")
            )
            for item in sorted(os.scandir(folder), key=lambda item: item.name):
                if item.name.endswith((".so", ".pyd", ".dylib")):
                    st = item.stat()
                    found.append(f"{item.name} {st.st_size} {st.st_mtime_ns}")
        return " ".join(found)
    return f"{module} not found"


def entry_key(grammar: str, oid: str) -> str:
    return f"{version_tag(grammar)}:{oid}"


def stat_signature(st: os.stat_result) -> str:
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}:{st.st_dev}"


def encode(parsed: ParsedFile) -> bytes:
    rows = [[d.name, d.start, d.end] for d in parsed.definitions]
    return json.dumps([parsed.line_count, rows], separators=(",", ":")).encode()


def decode(value: bytes) -> ParsedFile | None:
    """The entry, or None when it is not one this version wrote (then it is recomputed)."""
    try:
        line_count, rows = json.loads(value)
        # A warm gold check decodes every referenced file's entry: one plain loop checks
        # the rows before any Definition is built.
        for name, start, end in rows:
            if not (isinstance(name, str) and isinstance(start, int) and isinstance(end, int)):
                return None
    except (ValueError, TypeError):
        return None
    if not isinstance(line_count, int):
        return None
    return ParsedFile(tuple(map(Definition._make, rows)), line_count)


class DefinitionCache(Closing):
    """The database in `folder`, opened on first use; disabled for the run if it cannot be."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._db: sqlite3.Connection | None = None
        self._disabled = False
        self._secret = b""

    def mac(self, *parts: str | bytes) -> int:
        """The MAC a row of `parts` must carry in this cache (0 when it cannot be opened)."""
        self._connect()
        return row_mac(self._secret, *parts) if self._secret else 0

    def close(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None

    def get(self, keys: Iterable[str]) -> dict[str, ParsedFile]:
        """The entries found for `keys` (a missing or bad one is simply not there)."""
        found: dict[str, ParsedFile] = {}
        for key, value in self.get_values(keys).items():
            parsed = decode(value)
            if parsed is not None:
                found[key] = parsed
        return found

    def get_values(self, keys: Iterable[str]) -> dict[str, bytes]:
        """The stored bytes of `keys` whose rows check out; decoding them is the caller's
        (other derived data, such as `gold.bodies`, is kept here under its own keys)."""
        found: dict[str, bytes] = {}
        sql = "SELECT key, crc, value FROM definitions WHERE key IN "
        for key, crc, value in self._select(sql, list(dict.fromkeys(keys))):
            if not (isinstance(key, str) and isinstance(value, bytes)):
                continue  # not a row this module wrote
            if crc == row_mac(self._secret, key, value):
                found[key] = value
        return found

    def oids_by_stat(self, signatures: Mapping[str, str]) -> dict[str, str]:
        """Path -> blob id for the paths whose recorded signature is still theirs."""
        found: dict[str, str] = {}
        sql = "SELECT path, sig, oid, crc FROM stats WHERE path IN "
        for path, sig, oid, crc in self._select(sql, list(signatures)):
            if not all(isinstance(text, str) for text in (path, sig, oid)):
                continue
            if sig == signatures.get(path) and crc == row_mac(self._secret, path, sig, oid):
                found[path] = oid
        return found

    def put(
        self,
        entries: Mapping[str, ParsedFile],
        stats: Iterable[tuple[str, str, str]] = (),
    ) -> None:
        """Store `key -> parsed` and `(path, signature, blob id)` rows in one transaction."""
        self.put_values({key: encode(parsed) for key, parsed in entries.items()}, stats)

    def put_values(
        self, values: Mapping[str, bytes], stats: Iterable[tuple[str, str, str]] = ()
    ) -> None:
        """Store `key -> bytes` (see `get_values`) and stat rows in one transaction."""
        stats = list(stats)
        if not values and not stats:
            return
        for _attempt in range(2):  # once more on a database replaced for being corrupt
            db = self._connect()
            if db is None:
                return
            mac = functools.partial(row_mac, self._secret)  # the secret comes with the database
            definitions = [(key, mac(key, value), value) for key, value in values.items()]
            stat_rows = [(path, sig, oid, mac(path, sig, oid)) for path, sig, oid in stats]
            try:
                with db:  # one transaction: every row or none
                    db.executemany(_PUT_DEFINITIONS, definitions)
                    db.executemany(_PUT_STATS, stat_rows)
                return
            except sqlite3.OperationalError:
                return  # locked past BUSY_SECONDS, read-only, disk full: skip, stay correct
            except sqlite3.DatabaseError:
                self._replace()

    def _select(self, sql: str, keys: list[str]) -> list[tuple[Any, ...]]:
        found: list[tuple[Any, ...]] = []
        db = self._connect() if keys else None
        if db is None:
            return found
        try:
            for start in range(0, len(keys), BATCH):
                batch = keys[start : start + BATCH]
                found.extend(db.execute(sql + f"({','.join('?' * len(batch))})", batch))
        except sqlite3.OperationalError:
            return []
        except sqlite3.DatabaseError:
            self._replace()
            return []
        return found

    def _connect(self) -> sqlite3.Connection | None:
        if self._db is not None or self._disabled:
            return self._db
        try:
            self._make_folder()
            why = untrusted(self.folder)
            if why is not None:
                warn_once(self.folder, why)
                self._disabled = True
                return None
            self._secret = load_secret(self.folder)
            self._db = self._open()
        except (OSError, sqlite3.OperationalError):
            self._disabled = True  # no folder or no database: run without the cache
        except sqlite3.DatabaseError:
            self._replace()
        return self._db

    def _make_folder(self) -> None:
        # 0o755 (less what the umask takes), so a group-writable umask does not make a
        # folder `untrusted` refuses.
        self.folder.mkdir(mode=0o755, parents=True, exist_ok=True)
        for name, content in ((".gitignore", GITIGNORE), ("CACHEDIR.TAG", CACHEDIR_TAG)):
            # Created, never rewritten: exclusive creation lets one of two concurrent runs
            # write it, and a failure only leaves the folder without it.
            with contextlib.suppress(OSError), (self.folder / name).open("xb") as out:
                out.write(content)

    def _open(self) -> sqlite3.Connection:
        with contextlib.suppress(FileExistsError):
            # Made here, not by SQLite, so that its mode (and the log's, which SQLite copies)
            # leaves out group and other write whatever the umask.
            os.close(os.open(self.folder / DB_NAME, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        db = sqlite3.connect(self.folder / DB_NAME, timeout=BUSY_SECONDS, isolation_level=None)
        try:
            application = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if application == 0 and version == 0:
                self._create(db)
            elif (application, version) != (APPLICATION_ID, SCHEMA_VERSION):
                raise sqlite3.DatabaseError("not an evaltools definition cache")
            # A write-ahead log: runs read while another writes; NORMAL cannot corrupt it.
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
        except BaseException:
            db.close()
            raise
        db.isolation_level = "IMMEDIATE"  # a write takes the lock first, waiting for it
        return db

    def _create(self, db: sqlite3.Connection) -> None:
        db.execute("BEGIN IMMEDIATE")  # another run may be creating it at the same time
        try:
            if db.execute("PRAGMA application_id").fetchone()[0] == 0:
                for statement in _SCHEMA:
                    db.execute(statement)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _replace(self) -> None:
        """Start over with an empty database: the file is corrupt or not ours."""
        self.close()
        if self._disabled:
            return
        self._disabled = True  # unless the new one opens
        for suffix in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(OSError):
                (self.folder / (DB_NAME + suffix)).unlink()
        with contextlib.suppress(OSError, sqlite3.Error):
            self._db = self._open()
            self._disabled = False
