from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.retrieval.sources.git import GitError
from evaltools.retrieval.sources.git_history import blob_id, file_changes, iter_commits, older_text
from tests.retrieval.mine_repo import HistoryRepo


def _commits(repo: HistoryRepo) -> dict[str, bytes]:
    return {c.subject: c.diff for c in iter_commits(repo.path, None, None)}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (b"a\nb\nc\n", b"a\nB\nc\nd\n"),
        (b"a\nb", b"a\nb\n"),  # the final newline added
        (b"a\nb\n", b"a\nc"),  # and removed
        (b"a\nb", b"x\nb"),  # no final newline on either side
        (b"one\n\xff\xfe latin-1 \xe9\n", b"one\n\xff\xfe latin-1 \xe8\n"),  # not UTF-8
        (b"a\r\nb\r\n", b"a\r\nc\r\n"),
        (b"", b"x\n"),
    ],
)
def test_the_older_text_is_rebuilt_byte_for_byte(tmp_path: Path, old: bytes, new: bytes) -> None:
    repo = HistoryRepo(tmp_path / "repo")
    repo.write("f.txt", old)
    repo.commit("Write the old version")
    repo.write("f.txt", new)
    repo.commit("Write the new version")
    (change,) = file_changes(_commits(repo)["Write the new version"]) or []
    assert change.old_blob == blob_id(old)
    assert change.blob == blob_id(new)
    rebuilt = older_text(new.split(b"\n"), change)
    assert rebuilt is not None
    assert b"\n".join(rebuilt) == old


def test_a_wrong_newer_text_is_never_taken_for_the_older_one(tmp_path: Path) -> None:
    repo = HistoryRepo(tmp_path / "repo")
    repo.write("f.txt", "a\nb\n")
    repo.commit("Write the old version")
    repo.write("f.txt", "a\nc\n")
    repo.commit("Write the new version")
    (change,) = file_changes(_commits(repo)["Write the new version"]) or []
    assert older_text([b"WRONG", b"c", b""], change) is None
    change.old_blob = None
    assert older_text([b"a", b"c", b""], change) is None


def test_a_file_emptied_has_no_chunks_left(tmp_path: Path) -> None:
    repo = HistoryRepo(tmp_path / "repo")
    repo.write("f.txt", "x\n" * 5)
    repo.commit("Write five lines")
    repo.write("f.txt", "")
    repo.commit("Empty the file")
    assert file_changes(_commits(repo)["Empty the file"]) == []


def test_blob_ids_match_git(tmp_path: Path) -> None:
    repo = HistoryRepo(tmp_path / "repo")
    repo.write("f.txt", "hello\n")
    assert repo.git("hash-object", "f.txt").strip() == blob_id(b"hello\n")
    assert len(blob_id(b"", 64)) == 64


def test_file_changes_skips_what_has_no_chunks() -> None:
    ones, twos, threes, zeros = "1" * 40, "2" * 40, "3" * 40, "0" * 40
    diff = "\n".join(
        [
            "",
            "diff --git a/gone.py b/gone.py",
            "deleted file mode 100644",
            f"index {ones}..{zeros}",
            "--- a/gone.py",
            "+++ /dev/null",
            "@@ -1 +0,0 @@",
            "-x = 1",
            "diff --git a/img.png b/img.png",
            f"index {ones}..{twos} 100644",
            "Binary files a/img.png and b/img.png differ",
            "diff --git a/new.py b/new.py",
            "new file mode 100644",
            f"index {zeros}..{threes}",
            "--- /dev/null",
            "+++ b/new.py",
            "@@ -0,0 +1,2 @@",
            "+a = 1",
            "+",
            "",
        ]
    ).encode()
    (change,) = file_changes(diff) or []
    assert change.path == "new.py"
    assert change.old_blob is None
    assert change.blob == "3" * 40
    assert change.hunks == [(0, 0, 1, 2)]
    assert change.removed == [[]]
    assert file_changes(b"diff --git a/x b/x\n@@ -1 +1 @@\n+only one side\n+too many\n") is None
    assert file_changes(b"") == []


def test_commits_stream_with_their_parents_and_subjects(tmp_path: Path) -> None:
    repo = HistoryRepo(tmp_path / "repo")
    repo.write("a.txt", "1\n")
    first = repo.commit("First: with a colon, and ünïcode")
    repo.commit("")
    commits = list(iter_commits(repo.path, None, None))
    assert [c.subject for c in commits] == ["", "First: with a colon, and ünïcode"]
    assert commits[0].parents == (first,)
    assert commits[1].parents == ()
    assert commits[1].diff.lstrip().startswith(b"diff --git a/a.txt b/a.txt")


def test_an_empty_repository_says_it_has_no_commits(tmp_path: Path) -> None:
    repo = HistoryRepo(tmp_path / "repo")
    with pytest.raises(GitError) as caught:
        list(iter_commits(repo.path, None, None))
    assert str(caught.value) == f"{repo.path} has no commits yet: commit something, then mine it"
    with pytest.raises(GitError, match=r"git log failed in .*: fatal: not a git repository"):
        list(iter_commits(tmp_path, None, None))


@pytest.mark.parametrize("since", ["garbage", "", "next tuesdayish soon"])
def test_a_date_git_cannot_read_is_an_error_not_zero_commits(tmp_path: Path, since: str) -> None:
    repo = HistoryRepo(tmp_path / "repo")
    repo.commit("First")
    with pytest.raises(GitError, match="is not a date git understands"):
        list(iter_commits(repo.path, since, None))


@pytest.mark.parametrize(
    ("since", "count"), [("2020-01-01", 1), ("1700000000", 1), ("2 weeks ago", 0), ("now", 0)]
)
def test_dates_git_reads_are_taken(tmp_path: Path, since: str, count: int) -> None:
    repo = HistoryRepo(tmp_path / "repo")
    repo.commit("First")  # dated 2023-11-14
    assert len(list(iter_commits(repo.path, since, None))) == count


def test_a_range_that_looks_like_an_option_is_refused(tmp_path: Path) -> None:
    repo = HistoryRepo(tmp_path / "repo")
    repo.commit("First")
    with pytest.raises(GitError, match="is not a revision range"):
        list(iter_commits(repo.path, None, "--output=/tmp/x"))
