"""Whether a cache folder can be trusted, and the key that makes its rows unforgeable.

A cache decides verdicts, so a row must come from this user: each row carries a MAC keyed
by a secret only this user can read (`SECRET_NAME`, mode 0600), and a folder another user
could write (owned by someone else, or writable by group or others) is not used at all,
as pip and mypy refuse theirs.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from evaltools.blake2 import blake2b

SECRET_NAME = "rows.key"
SECRET_BYTES = 32
# The database's files (`definition_cache.DB_NAME` and SQLite's companions).
DATABASE_FILES = tuple("definitions.sqlite3" + s for s in ("", "-wal", "-shm", "-journal"))


def load_secret(folder: Path) -> bytes:
    """This user's key of the rows' MACs in `folder`, made (0600) on first use: created
    exclusively, so two runs starting at once read the one that won."""
    path = folder / SECRET_NAME
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "wb") as out:
            out.write(os.urandom(SECRET_BYTES))
    secret = path.read_bytes()
    if len(secret) != SECRET_BYTES:  # a run that died writing it: no row can be trusted
        raise OSError(f"{path} is not a key")
    return secret


def row_mac(secret: bytes, *parts: str | bytes) -> int:
    """A 64-bit keyed MAC of `parts` (a signed integer: SQLite's INTEGER column)."""
    digest = blake2b(key=secret, digest_size=8)
    for part in parts:
        data = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return int.from_bytes(digest.digest(), "little", signed=True)


_WARNED: set[str] = set()


def untrusted(folder: Path) -> str | None:
    """Why another user could write the cache in `folder` (None: only this user can): the
    folder, the database files and the secret must be this user's, and not writable by
    group or others."""
    if not hasattr(os, "geteuid"):  # pragma: no cover - Windows: ACLs, not modes
        return None
    uid = os.geteuid()
    names = ["", *DATABASE_FILES, SECRET_NAME]
    for name in names:
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


def warn_once(folder: Path, why: str) -> None:
    key = str(folder)
    if key not in _WARNED:
        _WARNED.add(key)
        sys.stderr.write(f"evaltools: not using the cache: {why}; running without it\n")
