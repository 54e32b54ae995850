from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaltools.retrieval.code.spans import Span
from evaltools.retrieval.gold.discipline.mine import (
    drop_reason,
    guess_type,
    is_identifier,
    mine,
    review_sample,
)
from evaltools.retrieval.sources.git import GitError
from tests.retrieval.code.test_outline import history
from tests.retrieval.mine_repo import HistoryRepo, build_acceptance_repo


def records(repo: Path, **options: object) -> list[dict[str, object]]:
    return list(mine(repo, **options).candidates)  # type: ignore[arg-type]


def test_ten_commit_history_gives_exactly_the_expected_candidates(tmp_path: Path) -> None:
    repo, sha = build_acceptance_repo(tmp_path / "repo")
    result = mine(repo.path)
    assert result.commits == 10
    assert dict(result.dropped) == {
        "merge_commit": 1,
        "typo": 1,
        "version_bump": 1,
        "release": 1,
        "too_short": 1,
    }

    def draft(name: str, query: str, kind: str, gold: dict[str, int]) -> dict[str, object]:
        return {
            "qid": f"git-{sha[name][:12]}",
            "query": query,
            "type": kind,
            "gold": gold,
            "source": "git_weak",
            "status": "draft",
            "revision": sha[name],
        }

    assert result.candidates == [
        draft(
            "rename",
            "Rename kill to kill_session in SessionStore",
            "mixed",
            {"auth/session.py:9-11:SessionStore.kill_session": 2},
        ),
        # a pure move plus an import line: no definition touched, so whole files
        draft(
            "move",
            "Move token storage under the auth package",
            "intent",
            {"auth/session.py:1-19": 1, "auth/tokens.py:1-5": 1},
        ),
        draft("readme", "Document the logout flow in the README", "intent", {"README.md:1-2": 1}),
        # two files; the import line added to session.py does not add the whole file
        draft(
            "revoke",
            "Revoke refresh tokens when a session is killed",
            "intent",
            {
                "auth/session.py:9-11:SessionStore.kill": 2,
                "storage/tokens.py:4-5:revoke_refresh_token": 2,
            },
        ),
        # a new file: every definition (blank lines between methods do not add the class,
        # its header line does); VERSION is left out because definitions were touched
        draft(
            "add",
            "Add session store with kill and refresh",
            "intent",
            {
                "auth/session.py:4-13:SessionStore": 2,
                "auth/session.py:5-6:SessionStore.__init__": 2,
                "auth/session.py:8-9:SessionStore.kill": 2,
                "auth/session.py:11-13:SessionStore.refresh": 2,
                "auth/session.py:16-17:make_store": 2,
            },
        ),
    ]
    # the incremental outlines agree with parsing every file at every commit
    reference = mine(repo.path, incremental=False)
    assert reference.candidates == result.candidates
    assert reference.dropped == result.dropped


def test_every_commit_read_is_heard_for_a_progress_line(tmp_path: Path) -> None:
    repo, _ = build_acceptance_repo(tmp_path / "repo")
    heard: list[int] = []
    result = mine(repo.path, on_commit=heard.append)
    assert heard == list(range(1, result.commits + 1))
    assert result.commits == 10


@pytest.mark.parametrize(
    ("subject", "reason"),
    [
        ("", "empty_subject"),
        ("   ", "empty_subject"),
        ("Merge branch 'hotfix' into main", "merge_subject"),
        ("Merge pull request #12 from someone/branch", "merge_subject"),
        ("Merge remote-tracking branch 'origin/main'", "merge_subject"),
        ("Merge duplicated config loaders into one", None),
        ("v1.2.3", "release"),
        ("Release 2.0.0-rc1", "release"),
        ("chore(release): 1.4.0", "release"),
        ("1.4.0", "release"),
        ("Release the lock before sleeping", None),
        ("Bump version to 1.3.0", "version_bump"),
        ("Bump requests from 2.31.0 to 2.32.0", "version_bump"),
        ("chore(deps): bump the npm group with 3 updates to v4.2", "version_bump"),
        ("Bump the retry timeout to 30 seconds", None),
        ("fix typo", "typo"),
        ("docs: fix typos in the README", "typo"),
        ("Correct spelling of occurred", "typo"),
        ("wip", "too_short"),
        ("fix tests", "too_short"),
        ("feat(auth): logout everywhere", "too_short"),
        ("Retry uploads when the storage backend times out", None),
    ],
)
def test_drop_reasons(subject: str, reason: str | None) -> None:
    assert drop_reason(subject) == reason


@pytest.mark.parametrize(
    ("subject", "kind"),
    [
        ("upload_with_retry", "identifier"),
        ("`kill_session`", "identifier"),
        ("fix: SessionStore.kill()", "identifier"),
        ("Retry upload_with_retry on timeouts", "mixed"),
        ("Make revokeToken idempotent", "mixed"),
        ("Call os.path.join once per file", "mixed"),
        ("Use std::vector in the parser", "mixed"),
        ("What gets deleted when a user logs out", "intent"),
        ("Support iOS in the README, e.g. for users", "intent"),
    ],
)
def test_guess_type(subject: str, kind: str) -> None:
    assert guess_type(subject) == kind


def test_identifier_tokens() -> None:
    assert is_identifier("`x y`")
    assert not is_identifier("(")
    assert is_identifier("_private")


def _candidate(index: int, kind: str) -> dict[str, Any]:
    gold = {"a.py:1-2": 1}
    return {
        "qid": f"git-{index}",
        "query": f"query {index}",
        "type": kind,
        "gold": gold,
        "revision": f"{index:040x}",
    }


def test_review_sample_takes_at_most_n_per_type_reproducibly() -> None:
    pool = [_candidate(i, ("intent", "mixed", "identifier")[i % 3]) for i in range(30)]
    sample = review_sample(pool, 2, seed=7)
    assert [c["type"] for c in sample].count("intent") == 2
    assert [c["type"] for c in sample].count("mixed") == 2
    assert len(sample) == 6
    assert sample == review_sample(pool, 2, seed=7)
    assert [pool.index(c) for c in sample] == sorted(pool.index(c) for c in sample)
    assert review_sample(pool, 2, seed=8) != sample
    assert review_sample(pool, 100, seed=1) == pool


def test_odd_commits_are_dropped_with_their_reason(tmp_path: Path) -> None:
    repo = HistoryRepo(tmp_path / "repo")
    repo.write("a.py", "def f():\n    return 1\n")
    repo.write("logo.png", b"\x89PNG\x00\x01")
    repo.commit("Add the first function")
    repo.commit("")  # an empty message
    repo.commit("Merge branch 'hotfix' into main")  # a squash that kept git's subject
    (repo.path / "a.py").unlink()
    repo.commit("Remove the first function again")  # only deletes: no gold
    repo.write("logo.png", b"\x89PNG\x00\x02")
    repo.commit("Replace the logo with a new one")  # binary only: no gold
    (repo.path / "link.py").symlink_to("logo.png")
    repo.commit("Link the logo under another name")  # a symlink: no gold
    result = mine(repo.path)
    assert dict(result.dropped) == {"empty_subject": 1, "merge_subject": 1, "no_gold": 3}
    assert [c["query"] for c in result.candidates] == ["Add the first function"]


def test_deletions_inside_and_between_definitions(tmp_path: Path) -> None:
    repo = HistoryRepo(tmp_path / "repo")
    three = (
        "def a():\n    x = 1\n    return x\n\n\n"
        "def b():\n    return 2\n\n\n"
        "def c():\n    return 3\n"
    )
    repo.write("m.py", three)
    repo.commit("Add three small functions")
    repo.write("m.py", three.replace("    x = 1\n", ""))
    repo.commit("Drop the temporary variable in a")
    repo.write("m.py", three.replace("    x = 1\n", "").replace("def b():\n    return 2\n\n\n", ""))
    repo.commit("Remove b which nobody calls")
    gold = [c["gold"] for c in mine(repo.path).candidates]
    # newest first: removing b between a and c touches neither, so the whole file
    assert gold[0] == {"m.py:1-6": 1}
    assert gold[1] == {"m.py:1-2:a": 2}


def test_options_since_range_prefix_and_other_languages(tmp_path: Path) -> None:
    repo = HistoryRepo(tmp_path / "repo")
    repo.write("web/app.js", "function start() {\n  return 1;\n}\n")
    first = repo.commit("Start the web application")
    repo.write("web/app.js", "function start() {\n  return 2;\n}\n")
    second = repo.commit("Start the web application twice")
    assert records(repo.path, path_prefix="demo/")[0]["gold"] == {"demo/web/app.js:1-3:start": 2}
    only = mine(repo.path, rev_range=f"{first}..{second}")
    assert [c["revision"] for c in only.candidates] == [second]
    assert mine(repo.path, since="2100-01-01").commits == 0


def test_unparsable_files_fall_back_to_whole_files(tmp_path: Path) -> None:
    repo = HistoryRepo(tmp_path / "repo")
    repo.write("m.py", "def f():\n    return 1\n")
    repo.commit("Add a function that returns one")

    def broken(path: str, source: bytes) -> Sequence[Span]:
        raise ValueError("no parser")

    result = mine(repo.path, find_definitions=broken)
    assert result.candidates[0]["gold"] == {"m.py:1-2": 1}
    assert result.unparsed_files == 1


def test_git_errors(tmp_path: Path) -> None:
    with pytest.raises(GitError, match="not a directory"):
        mine(tmp_path / "nowhere")
    with pytest.raises(GitError, match=r"git log failed .* not a git repository"):
        mine(tmp_path)
    repo = HistoryRepo(tmp_path / "repo")
    repo.write("a.py", "x = 1\n")
    repo.commit("Add a module with one constant")
    with pytest.raises(GitError, match="not a revision range"):
        mine(repo.path, rev_range="--all")
    with pytest.raises(GitError, match=r"unknown revision|bad revision|ambiguous"):
        mine(repo.path, rev_range="nope..HEAD")


def test_files_without_final_newline_and_renames_with_edits(tmp_path: Path) -> None:
    repo = HistoryRepo(tmp_path / "repo")
    repo.write("a.py", "def f():\n    return 1")
    repo.commit("Add f without a final newline")
    repo.write("a.py", "def f():\n    return 1\n\n\ndef g():\n    return 2")
    repo.commit("Add g after f in the same module")
    repo.git("mv", "a.py", "b.py")
    repo.write("b.py", "def f():\n    return 1\n\n\ndef g():\n    return 3\n")
    repo.commit("Move the module and make g return three")
    fast = mine(repo.path)
    assert [c["gold"] for c in fast.candidates] == [
        {"b.py:5-6:g": 2},
        {"a.py:1-2:f": 2, "a.py:5-6:g": 2},
        {"a.py:1-2:f": 2},
    ]
    assert mine(repo.path, incremental=False).candidates == fast.candidates


def _fast_import(repo: HistoryRepo, versions: list[list[str]], names: list[str]) -> None:
    """One commit per version of each module (fast-import: no process per commit)."""
    stream: list[bytes] = []
    for mark, (lines, name) in enumerate(zip(versions, names, strict=True), start=1):
        data = ("\n".join(lines) + "\n").encode()
        message = f"Change the module {name} step {mark}".encode()
        stream += [
            b"commit refs/heads/main\n",
            b"mark :%d\n" % mark,
            b"committer T <t@example.com> %d +0000\n" % (1_700_000_000 + mark * 60),
            b"data %d\n%s\n" % (len(message), message),
        ]
        if mark > 1:
            stream.append(b"from :%d\n" % (mark - 1))
        stream.append(b"M 100644 inline %s\ndata %d\n%s\n" % (name.encode(), len(data), data))
    repo.git("fast-import", "--quiet", data=b"".join(stream))


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(history(), min_size=1, max_size=3), st.randoms(use_true_random=False))
def test_incremental_mining_agrees_with_parsing_every_version(
    tmp_path_factory: pytest.TempPathFactory,
    histories: list[list[list[str]]],
    rng: random.Random,
) -> None:
    """Several modules' histories interleaved in one repository, mined both ways."""
    steps = [(i, v) for i, versions in enumerate(histories) for v in versions]
    rng.shuffle(steps)  # the modules' histories interleave
    order: dict[int, int] = {}
    versions, names = [], []
    for module, _ in steps:
        position = order.get(module, 0)
        order[module] = position + 1
        versions.append(histories[module][position])
        names.append(f"pkg/m{module}.py")
    repo = HistoryRepo(tmp_path_factory.mktemp("hist") / "repo")
    _fast_import(repo, versions, names)
    fast = mine(repo.path)
    reference = mine(repo.path, incremental=False)
    assert [json.dumps(c) for c in fast.candidates] == [json.dumps(c) for c in reference.candidates]
