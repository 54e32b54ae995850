"""The code tree that gold IDs point into: a work tree, or a git revision read in place.

Chunk ID paths are relative to `root`, which is a repository, a folder inside one, or a
folder holding repositories (`demo_repo/auth/session.py` with `demo_repo/` a repository).
A `RepoMount` maps between the two kinds of path.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from evaltools.discover import walk_files
from evaltools.fileio import display_path
from evaltools.parallel.closing import Closing
from evaltools.retrieval.sources import git


@dataclass(frozen=True)
class RepoMount:
    """ID paths `id_prefix + X` are the repository's paths `repo_prefix + X`."""

    top: Path
    id_prefix: str
    repo_prefix: str

    def to_repo(self, id_path: str) -> str:
        return self.repo_prefix + id_path[len(self.id_prefix) :]

    def to_id(self, repo_path: str) -> str | None:
        if not repo_path.startswith(self.repo_prefix):
            return None  # outside the root: not something a chunk ID can name
        return self.id_prefix + repo_path[len(self.repo_prefix) :]


class CodeTree(Closing):
    """Files under `root`, from the work tree (`rev` None) or from the commit `rev` names."""

    def __init__(self, root: Path, rev: str | None = None) -> None:
        self.root = root
        self.rev = rev
        self._mounts: dict[str, RepoMount | None] = {}
        self._commits: dict[Path, str] = {}
        self._readers: dict[Path, git.BlobReader] = {}
        self._tracked: dict[Path, frozenset[str]] = {}
        self._blob_ids: dict[Path, dict[str, str]] = {}
        self._renames: dict[tuple[Path, str | None, bool], list[git.Rename]] = {}
        self._old_listings: dict[tuple[Path, str], list[str]] = {}
        self._files: list[str] | None = None
        self._old_commits: dict[tuple[Path, str], str | None] = {}
        self._ancestors: dict[tuple[Path, str, str], bool] = {}  # asked once a pair
        self._shallow: dict[Path, bool] = {}
        self._links: dict[Path, frozenset[str]] = {}
        self._folders_below: dict[str, bool] = {}  # folder -> it resolves below the root
        self._real_root = os.path.realpath(root)
        top = git.toplevel(root) if root.is_dir() else None
        self._root_mount: RepoMount | None = None
        if top is not None:
            inside = os.path.relpath(root.resolve(), top.resolve())
            prefix = "" if inside == "." else Path(inside).as_posix() + "/"
            self._root_mount = RepoMount(top, "", prefix)
            if rev is not None:
                self._commit(self._root_mount)  # an unknown --rev is a usage error, early
        elif rev is not None and not _holds_repository(root):
            # Else every file would read as deleted at `rev`: a usage error, not findings.
            raise git.GitError(
                f"--rev {rev!r} needs a git repository, and {display_path(root)} is in none "
                "and holds none: drop --rev to check the files as they are"
            )

    def close(self) -> None:
        for reader in self._readers.values():
            reader.close()
        self._readers.clear()

    @property
    def from_git(self) -> bool:
        return self.rev is not None

    def local_path(self, id_path: str) -> Path:
        return self.root / id_path

    def mount(self, id_path: str) -> RepoMount | None:
        """The repository holding `id_path` (which need not exist any more).

        The deepest one wins: a repository nested below the root (even inside another
        repository) owns its files.
        """
        parts = id_path.split("/")[:-1]
        for depth in range(len(parts), 0, -1):
            prefix = "/".join(parts[:depth]) + "/"
            if prefix not in self._mounts:
                folder = self.root.joinpath(*parts[:depth])
                # os.path: False, not OSError, for a name too long for the file system
                found = os.path.exists(folder / ".git")  # noqa: PTH110
                self._mounts[prefix] = RepoMount(folder, prefix, "") if found else None
            mount = self._mounts[prefix]
            if mount is not None:
                return mount
        return self._root_mount

    def exists(self, id_path: str) -> bool:
        if self.rev is None:
            return os.path.isfile(self.local_path(id_path))  # noqa: PTH113 (as above)
        mount = self.mount(id_path)
        return mount is not None and mount.to_repo(id_path) in self._tracked_at_rev(mount)

    def other_form(self, id_path: str) -> str | None:
        """The file whose name is `id_path` in another Unicode normal form (`é` as one code
        point or as `e` and an accent, as macOS writes names): the two look alike in every
        message."""
        import unicodedata  # only a path that names no file gets here

        for form in ("NFC", "NFD"):
            other = unicodedata.normalize(form, id_path)
            if other != id_path and self.exists(other):
                return other
        return None

    def read_blobs(self, id_paths: Iterable[str]) -> Iterator[tuple[str, bytes | None]]:
        """Blobs at `rev`, repository by repository, each through one cat-file process."""
        by_mount: dict[RepoMount, list[str]] = {}
        for id_path in id_paths:
            mount = self.mount(id_path)
            if mount is None:
                yield id_path, None
            else:
                by_mount.setdefault(mount, []).append(id_path)
        for mount, wanted in by_mount.items():
            reader = self._reader(mount)
            commit = self._commit(mount)
            repo_paths = {mount.to_repo(p): p for p in wanted}
            for repo_path, data in reader.read_many(commit, repo_paths):
                yield repo_paths[repo_path], data

    def blob_ids(self, id_paths: Iterable[str]) -> dict[str, str]:
        """Blob ids at `rev` of those of `id_paths` that are regular files there."""
        assert self.rev is not None
        found: dict[str, str] = {}
        for id_path in id_paths:
            mount = self.mount(id_path)
            if mount is None:
                continue
            ids = self._blob_ids.get(mount.top)
            if ids is None:
                ids = self._blob_ids[mount.top] = git.blob_ids(mount.top, self._commit(mount))
            oid = ids.get(mount.to_repo(id_path))
            if oid is not None:
                found[id_path] = oid
        return found

    def files(self) -> list[str]:
        """Every file an ID could name: walked from disk, or tracked at `rev`."""
        if self._files is None:
            self._files = self._walk() if self.rev is None else self._tracked_files()
        return self._files

    def renamed(self, id_path: str, since: str | None, *, copies: bool = False) -> list[str]:
        """The existing files that git's rename detection says `id_path` became (with
        `copies`, or was copied to: see `git.rename_history`).

        `since` (the revision the gold was verified against) limits the history searched;
        an unknown one is ignored rather than trusted.
        """
        mount = self.mount(id_path)
        if mount is None:
            return []
        since_commit = self._since_commit(mount, since) if since else None
        history = self._rename_history(mount, since_commit, copies=copies)
        found: list[str] = []
        for repo_path in git.rename_targets(history, mount.to_repo(id_path)):
            new_id = mount.to_id(repo_path)
            if new_id is not None and new_id != id_path and self.exists(new_id):
                found.append(new_id)
        return found

    def renamed_from(self, id_path: str, since: str, *, copies: bool = True) -> list[str]:
        """The paths git's rename (and, with `copies`, copy) detection says became `id_path`
        since `since` (the sources of the renames that end at it): the file's lineage,
        backwards."""
        mount = self.mount(id_path)
        if mount is None:
            return []
        history = self._rename_history(mount, self._since_commit(mount, since), copies=copies)
        wanted, found = {mount.to_repo(id_path)}, []
        for rename in reversed(history):
            if rename.new in wanted and rename.old not in wanted:
                wanted.add(rename.old)
                old_id = mount.to_id(rename.old)
                if old_id is not None:
                    found.append(old_id)
        return found

    def _rename_history(
        self, mount: RepoMount, since_commit: str | None, *, copies: bool
    ) -> list[git.Rename]:
        """`git.rename_history` of the mount's repository since `since_commit`, read once."""
        key = (mount.top, since_commit, copies)
        if key not in self._renames:
            target = self._commit(mount) if self.rev is not None else None
            self._renames[key] = git.rename_history(mount.top, target, since_commit, copies=copies)
        return self._renames[key]

    def old_files(self, id_path: str, since: str) -> list[str]:
        """The files of `id_path`'s repository at the revision `since` (none if unknown)."""
        mount = self.mount(id_path)
        commit = None if mount is None else self._since_commit(mount, since)
        if mount is None or commit is None:
            return []
        key = (mount.top, commit)
        if key not in self._old_listings:
            listed = (mount.to_id(p) for p in git.list_files(mount.top, commit))
            self._old_listings[key] = [p for p in listed if p is not None]
        return self._old_listings[key]

    def read_old(self, id_path: str, since: str) -> bytes | None:
        """The file as it was at the revision `since`, None when that is not known (no
        repository, an unknown revision, no such file then)."""
        mount = self.mount(id_path)
        if mount is None or "\n" in since:
            return None
        commit = self._since_commit(mount, since)
        if commit is None:
            return None
        return self._reader(mount).read(f"{commit}:{mount.to_repo(id_path)}")

    def read_old_many(
        self, id_paths: Iterable[str], since: str
    ) -> Iterator[tuple[str, bytes | None]]:
        """`read_old` of each path, each repository's through one batch of requests."""
        by_mount: dict[tuple[RepoMount, str], list[str]] = {}
        for id_path in id_paths:
            mount = self.mount(id_path)
            commit = None if mount is None or "\n" in since else self._since_commit(mount, since)
            if mount is None or commit is None:
                yield id_path, None
            else:
                by_mount.setdefault((mount, commit), []).append(id_path)
        for (mount, commit), wanted in by_mount.items():
            repo_paths = [mount.to_repo(p) for p in wanted]
            found = dict(self._reader(mount).read_many(commit, dict.fromkeys(repo_paths)))
            yield from zip(wanted, map(found.__getitem__, repo_paths), strict=True)

    def _since_commit(self, mount: RepoMount, since: str) -> str | None:
        """The commit a record's `revision` names, asked of git once per run (every gold
        ID of a set usually carries the same one)."""
        key = (mount.top, since)
        if key not in self._old_commits:
            self._old_commits[key] = git.resolve_commit(mount.top, since)
        return self._old_commits[key]

    def outside(self, id_path: str) -> str | None:
        """Why `id_path` does not name a file below the root, or None when it does.

        A symbolic link may lead out of the root (`link -> ../elsewhere`, or to an absolute
        path): gold IDs must not resolve through it, nor candidates come from there. From
        git, links are not followed at all: a tracked link is not the file it points to.
        """
        mount = self.mount(id_path)
        if mount is not None and mount.id_prefix and not self._folder_below_root(mount.top):
            return self._escape(id_path, mount.id_prefix.rstrip("/"))
        if self.rev is None:
            # os.path, not pathlib: this runs for every file of the tree. os.path.islink:
            # False, not OSError, for a name too long for the file system.
            local = os.path.join(self.root, id_path)  # noqa: PTH118
            if not self._folder_below_root(os.path.dirname(local)):  # noqa: PTH120
                return self._escape(id_path, id_path.rpartition("/")[0])
            if os.path.islink(local) and not self._below_root(local):  # noqa: PTH114
                return self._escape(id_path, id_path)
            return None
        if mount is not None and mount.to_repo(id_path) in self._links_at_rev(mount):
            return (
                f"{id_path} is a symbolic link at {self.rev}, not a file: name the file it "
                "points to, if that is below the root"
            )
        return None

    def _below_root(self, path: Path | str) -> bool:
        real = os.path.realpath(path)
        return real == self._real_root or real.startswith(self._real_root.rstrip(os.sep) + os.sep)

    def _folder_below_root(self, folder: Path | str) -> bool:
        key = str(folder)
        if key not in self._folders_below:
            self._folders_below[key] = self._below_root(folder)
        return self._folders_below[key]

    def _escape(self, id_path: str, within: str) -> str:
        """The sentence for `id_path`, which leads out of the root through a link in `within`."""
        parts = within.split("/")
        for depth in range(1, len(parts) + 1):
            link = self.root.joinpath(*parts[:depth])
            if link.is_symlink():
                shown = "/".join(parts[:depth])
                target = link.readlink().as_posix()
                return (
                    f"{id_path} leads outside the root through the symbolic link {shown} -> "
                    f"{target}: gold IDs name files below the root"
                )
        return f"{id_path} leads outside the root: gold IDs name files below the root"

    def _links_at_rev(self, mount: RepoMount) -> frozenset[str]:
        links = self._links.get(mount.top)
        if links is None:
            links = self._links[mount.top] = frozenset(
                git.list_links(mount.top, self._commit(mount))
            )
        return links

    def history_gap(self, id_path: str, since: str | None) -> str | None:
        """Why git's history may not tell what became of `id_path`: its repository is a
        shallow clone, and the range searched (from `since`, when the clone has it) is cut;
        or `since` names no commit of it (rebased away, or of another clone)."""
        mount = self.mount(id_path)
        if mount is None:
            return None
        since_commit = self._since_commit(mount, since) if since else None
        if not self._is_shallow(mount.top):
            if not since or since_commit is not None:
                return None
            return (
                f"its `revision` {_short(since)} is not a commit in the repository "
                f"{display_path(mount.top)} (rebased away, or of another clone), so the code it "
                "was verified against cannot be read: set `revision` to the commit the gold "
                "was last verified at"
            )
        target = self._commit(mount) if self.rev is not None else "HEAD"
        if since_commit is not None:
            key = (mount.top, since_commit, target)
            if key not in self._ancestors:
                self._ancestors[key] = git.is_ancestor(mount.top, since_commit, target)
            if self._ancestors[key]:
                return None  # every commit since the verified revision is in the clone
        return (
            f"the repository {display_path(mount.top)} is a shallow clone, whose history may "
            f"hold what became of {id_path}: {git.FETCH_HISTORY}"
        )

    def lacks(self, id_path: str, revision: str) -> str | None:
        """How the repository holding `id_path` lacks the commit `revision` (rebased away
        or of another clone; before a shallow clone's edge), or None when it has it."""
        mount = self.mount(id_path)
        if mount is None or self._since_commit(mount, revision) is not None:
            return None
        if self._is_shallow(mount.top):
            return "a commit this shallow clone's history does not reach"
        return "not a commit of this repository (rebased away, or of another clone)"

    def _is_shallow(self, top: Path) -> bool:
        if top not in self._shallow:
            self._shallow[top] = git.is_shallow(top)
        return self._shallow[top]

    def _commit(self, mount: RepoMount) -> str:
        commit = self._commits.get(mount.top)
        if commit is None:
            assert self.rev is not None
            commit = git.resolve_commit(mount.top, self.rev)
            if commit is None and self._is_shallow(mount.top):
                raise git.GitError(
                    f"{self.rev!r} names no commit in {mount.top}, a shallow clone: the "
                    f"revision may be older than its history; {git.FETCH_HISTORY}"
                )
            if commit is None:
                raise git.GitError(f"{self.rev!r} names no commit in {mount.top}")
            self._commits[mount.top] = commit
        return commit

    def _reader(self, mount: RepoMount) -> git.BlobReader:
        reader = self._readers.get(mount.top)
        if reader is None:
            reader = self._readers[mount.top] = git.BlobReader(mount.top)
        return reader

    def _tracked_at_rev(self, mount: RepoMount) -> frozenset[str]:
        tracked = self._tracked.get(mount.top)
        if tracked is None:
            tracked = frozenset(git.list_files(mount.top, self._commit(mount)))
            self._tracked[mount.top] = tracked
        return tracked

    def _tracked_files(self) -> list[str]:
        mounts = [self._root_mount, *self._child_mounts()]
        found: list[str] = []
        for mount in mounts:
            if mount is None:
                continue
            for repo_path in sorted(self._tracked_at_rev(mount)):
                id_path = mount.to_id(repo_path)
                if id_path is not None:
                    found.append(id_path)
        return found

    def _child_mounts(self) -> list[RepoMount | None]:
        """Repositories directly below the root."""
        children = sorted(p.name for p in self.root.iterdir() if (p / ".git").exists())
        return [self.mount(f"{name}/x") for name in children]

    def _walk(self) -> list[str]:
        # The skip policy of every command (hidden and tool folders, .gitignore).
        return walk_files(self.root, None).names


def _holds_repository(root: Path) -> bool:
    """Whether a `.git` stands anywhere below `root` (a nested repository owns its files)."""
    for _folder, folders, files in os.walk(root):
        if ".git" in folders or ".git" in files:
            return True
        folders[:] = [f for f in folders if not f.startswith(".")]
    return False


def _short(revision: str) -> str:
    """A commit id as git abbreviates it; any other revision (a tag, a branch) whole."""
    return revision[:12] if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", revision) else revision
