"""Real git repositories with a scripted history, for the `gold mine` tests."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

_IDENTITY = ("-c", "user.name=Test", "-c", "user.email=test@example.com")
_CLEAN = ("-c", "commit.gpgsign=false", "-c", "core.autocrlf=false")


class HistoryRepo:
    """A repository whose commits get increasing, fixed dates (so `git log` order is known)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.clock = 1_700_000_000
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, data: bytes | None = None) -> str:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(
            GIT_CONFIG_NOSYSTEM="1",
            GIT_AUTHOR_DATE=f"{self.clock} +0000",
            GIT_COMMITTER_DATE=f"{self.clock} +0000",
        )
        proc = subprocess.run(
            ["git", *_IDENTITY, *_CLEAN, "-C", str(self.path), *args],
            input=data,
            capture_output=True,
            check=True,
            env=env,
        )
        return proc.stdout.decode()

    def write(self, name: str, text: str | bytes) -> None:
        path = self.path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode() if isinstance(text, str) else text)

    def commit(self, message: str, *extra: str) -> str:
        self.clock += 60
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "--allow-empty-message", *extra, "-m", message)
        return self.git("rev-parse", "HEAD").strip()

    def merge(self, branch: str, message: str) -> str:
        self.clock += 60
        self.git("merge", "-q", "--no-ff", "-m", message, branch)
        return self.git("rev-parse", "HEAD").strip()


SESSION_V1 = '''"""Sessions of logged-in users."""


class SessionStore:
    def __init__(self):
        self.sessions = {}

    def kill(self, sid):
        return self.sessions.pop(sid, None)

    def refresh(self, sid):
        """Extend a sesion."""
        return sid in self.sessions


def make_store():
    return SessionStore()
'''


def build_acceptance_repo(path: Path) -> tuple[HistoryRepo, dict[str, str]]:
    """Ten commits: a multi-file root, a typo fix, a branch merged back, a file move with
    an import change, a symbol rename, a version bump, a release tag and a `wip`."""
    repo = HistoryRepo(path)
    sha: dict[str, str] = {}
    repo.write("auth/session.py", SESSION_V1)
    repo.write("VERSION", "1.2.0\n")
    sha["add"] = repo.commit("Add session store with kill and refresh")
    repo.write("auth/session.py", SESSION_V1.replace("sesion", "session"))
    sha["typo"] = repo.commit("fix typo in refresh docstring")
    repo.git("checkout", "-q", "-b", "revoke")
    session = SESSION_V1.replace("sesion", "session")
    session = session.replace(
        '"""Sessions of logged-in users."""\n',
        '"""Sessions of logged-in users."""\nfrom storage.tokens import revoke_refresh_token\n',
    ).replace(
        "    def kill(self, sid):\n",
        "    def kill(self, sid):\n        revoke_refresh_token(sid)\n",
    )
    repo.write("auth/session.py", session)
    repo.write(
        "storage/tokens.py",
        "REVOKED = set()\n\n\ndef revoke_refresh_token(sid):\n    REVOKED.add(sid)\n",
    )
    sha["revoke"] = repo.commit("Revoke refresh tokens when a session is killed")
    repo.git("checkout", "-q", "main")
    repo.write("README.md", "# Demo\nLogging out kills the session and revokes its token.\n")
    sha["readme"] = repo.commit("Document the logout flow in the README")
    sha["merge"] = repo.merge("revoke", "Merge branch 'revoke'")
    repo.git("mv", "storage/tokens.py", "auth/tokens.py")
    session = session.replace("from storage.tokens import", "from auth.tokens import")
    repo.write("auth/session.py", session)
    sha["move"] = repo.commit("Move token storage under the auth package")
    repo.write("auth/session.py", session.replace("def kill(self", "def kill_session(self"))
    sha["rename"] = repo.commit("Rename kill to kill_session in SessionStore")
    repo.write("VERSION", "1.3.0\n")
    sha["bump"] = repo.commit("Bump version to 1.3.0")
    repo.write("CHANGELOG.md", "## 1.3.0\n- revoke tokens on logout\n")
    sha["release"] = repo.commit("v1.3.0")
    repo.write(
        "auth/tokens.py",
        "REVOKED = set()\n\n\ndef revoke_refresh_token(sid):\n    REVOKED.discard(sid)\n",
    )
    sha["wip"] = repo.commit("wip")
    return repo, sha
