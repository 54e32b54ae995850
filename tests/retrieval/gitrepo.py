"""Real git repositories in temporary folders, for the gold check tests."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

_IDENTITY = (
    "-c",
    "user.name=Test",
    "-c",
    "user.email=test@example.com",
    "-c",
    "commit.gpgsign=false",
    "-c",
    "init.defaultBranch=main",
)


class GitRepo:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q")

    def git(self, *args: str) -> str:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        proc = subprocess.run(
            ["git", *_IDENTITY, "-C", str(self.path), *args],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
        return proc.stdout

    def write(self, name: str, text: str) -> Path:
        path = self.path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def read(self, name: str) -> str:
        return (self.path / name).read_text(encoding="utf-8")

    def commit(self, message: str = "change") -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.head()

    def head(self) -> str:
        return self.git("rev-parse", "HEAD").strip()

    def mv(self, old: str, new: str) -> None:
        (self.path / new).parent.mkdir(parents=True, exist_ok=True)
        self.git("mv", old, new)

    def rm(self, name: str) -> None:
        self.git("rm", "-q", name)


# A Go file with a method and a function: the gold check cache tests' tree.
GO = """\
package store

type Store struct {
\titems map[string]int
}

func (s *Store) Get(key string) int {
\treturn s.items[key]
}

func Helper(a int) int {
\treturn a
}
"""


SESSION_PY = '''\
import os


def kill_session(sid):
    """Remove the session file."""
    return os.remove(sid)


class SessionStore:
    def __init__(self):
        self.items = {}

    @staticmethod
    def kill(key):
        return key


def revoke_token(token):
    return token
'''
