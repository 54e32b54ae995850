"""The one store of everything `gold check` keeps between runs: where it is, whether it
can be trusted, and how it is read and written.

The store is one SQLite database (the stdlib's): one query answers a batch of keys,
writes are transactions (whole or not at all), and concurrent runs wait on its lock
rather than clobber each other. It holds key -> bytes rows (definitions, bodies,
searches, whole results: each kind under its own key prefix, its format the caller's)
and stat rows (a work-tree file's stat signature -> its blob id).

A cache decides verdicts, so a row must come from this user: every row carries a MAC of
its key and value, keyed by a secret only this user can read (`SECRET_NAME`, mode 0600,
made on first use). A row that does not check out (damaged, or written by anyone without
the secret) is a miss and is recomputed, so a row another hand wrote can never turn a
failing verdict into a pass; a database file that SQLite finds corrupt, or that is not
ours, is replaced. A folder another user could write (the folder, the database or the
secret owned by someone else, or writable by group or others: a shared
`EVALTOOLS_CACHE_DIR`, a database left mode 0666) is not used at all, as pip and mypy
refuse theirs: the run says so once on stderr and goes on uncached. The store never fails
a run: when it cannot be opened or written, the run goes on without it.

A stat names a file's content only when the file was last changed more than
`RACY_SECONDS` before it was looked at: a file rewritten within the same timestamp tick,
with the same size, would otherwise keep its old row (git's "racily clean" problem).

The folder is `.evaltools_cache/` beside the pyproject.toml that configures the run (or
the current directory), as ruff and mypy keep theirs, or `EVALTOOLS_CACHE_DIR`; it gets a
`.gitignore` of `*` when created.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
import stat
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from evaltools.blake2 import blake2b
from evaltools.parallel.closing import Closing

CACHE_DIR_ENV = "EVALTOOLS_CACHE_DIR"
FOLDER_NAME = ".evaltools_cache"
DB_NAME = "definitions.sqlite3"
SECRET_NAME = "rows.key"
SECRET_BYTES = 32
GITIGNORE = b"# Created by evaltools: the whole folder is a cache.\n*\n"
CACHEDIR_TAG = (
    b"Signature: 8a477f597d28d172789f06886806bc55\n"
    b"# This file is a cache directory tag created by evaltools.\n"
)
# The database's files: the database and SQLite's companions.
DATABASE_FILES = tuple(DB_NAME + s for s in ("", "-wal", "-shm", "-journal"))
# Every file the store keeps in its folder.
OWN_FILES = frozenset([".gitignore", "CACHEDIR.TAG", SECRET_NAME, *DATABASE_FILES])
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
_PUT_VALUES = "INSERT OR REPLACE INTO definitions VALUES (?, ?, ?)"
_PUT_STATS = "INSERT OR REPLACE INTO stats VALUES (?, ?, ?, ?)"


def cache_folder(project_root: Path) -> Path:
    """`EVALTOOLS_CACHE_DIR` when set, else `.evaltools_cache` in `project_root` (the
    folder of the pyproject.toml that configures the run, or the current directory)."""
    configured = os.environ.get(CACHE_DIR_ENV)
    return Path(configured) if configured else project_root / FOLDER_NAME


def stat_signature(st: os.stat_result) -> str:
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}:{st.st_dev}"


def row_mac(secret: bytes, *parts: str | bytes) -> int:
    """A 64-bit keyed MAC of `parts` (a signed integer: SQLite's INTEGER column)."""
    digest = blake2b(key=secret, digest_size=8)
    for part in parts:
        data = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return int.from_bytes(digest.digest(), "little", signed=True)


def untrusted(folder: Path) -> str | None:
    """Why another user could write the cache in `folder` (None: only this user can): the
    folder, the database files and the secret must be this user's, and not writable by
    group or others."""
    if not hasattr(os, "geteuid"):  # pragma: no cover - Windows: ACLs, not modes
        return None
    uid = os.geteuid()
    for name in ["", *DATABASE_FILES, SECRET_NAME]:
        path = folder / name if name else folder
        try:
            st = path.lstat()
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(st.st_mode) and name:
            return f"{path} is a symbolic link"
        if st.st_uid != uid:
            return f"{path} is owned by another user (uid {st.st_uid})"
        if st.st_mode & 0o022:
            return f"{path} is writable by other users (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


_WARNED: set[str] = set()


def _warn_once(folder: Path, why: str) -> None:
    key = str(folder)
    if key not in _WARNED:
        _WARNED.add(key)
        sys.stderr.write(f"evaltools: not using the cache: {why}; running without it\n")


def _load_secret(folder: Path) -> bytes:
    """This user's key of the rows' MACs in `folder`, made (0600) on first use by the one
    writer, whole or not at all: a run killed while making it leaves no key rather than a
    short one, which would turn the cache off for good. Two runs starting at once read the
    one that won; a short key an older version left is replaced."""
    path = folder / SECRET_NAME
    for _ in range(3):
        try:
            secret: bytes | None = path.read_bytes()
        except FileNotFoundError:
            secret = None
        if secret is not None and len(secret) == SECRET_BYTES:
            return secret
        from evaltools.atomic import MISSING, AtomicFile, FileChanged  # a first run only

        made = os.urandom(SECRET_BYTES)
        try:
            with AtomicFile(path, expect=MISSING if secret is None else secret, mode=0o600) as out:
                out.write(made)
                out.commit()
        except FileChanged:
            continue  # another run made it meanwhile: read that one
        return made
    raise OSError(f"{path} is not a key")


class CacheStore(Closing):
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

    def get_values(self, keys: Iterable[str]) -> dict[str, bytes]:
        """The stored bytes of `keys` whose rows check out (a missing or bad one is simply
        not there); decoding them is the caller's."""
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

    def put_values(
        self, values: Mapping[str, bytes], stats: Iterable[tuple[str, str, str]] = ()
    ) -> None:
        """Store `key -> bytes` and `(path, signature, blob id)` rows in one transaction."""
        stats = list(stats)
        if not values and not stats:
            return
        for _attempt in range(2):  # once more on a database replaced for being corrupt
            db = self._connect()
            if db is None:
                return
            mac = functools.partial(row_mac, self._secret)  # the secret comes with the database
            rows = [(key, mac(key, value), value) for key, value in values.items()]
            stat_rows = [(path, sig, oid, mac(path, sig, oid)) for path, sig, oid in stats]
            try:
                with db:  # one transaction: every row or none
                    db.executemany(_PUT_VALUES, rows)
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
                _warn_once(self.folder, why)
                self._disabled = True
                return None
            self._secret = _load_secret(self.folder)
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
                raise sqlite3.DatabaseError("not an evaltools cache")
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
        for name in DATABASE_FILES:
            with contextlib.suppress(OSError):
                (self.folder / name).unlink()
        with contextlib.suppress(OSError, sqlite3.Error):
            self._db = self._open()
            self._disabled = False
