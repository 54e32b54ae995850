from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import REPO
from tests.retrieval.mine_repo import HistoryRepo, build_acceptance_repo


def write_jsonl(path: Path, *records: dict[str, object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def rec(qid: str, gold: dict[str, int], kind: str = "intent") -> dict[str, object]:
    return {"qid": qid, "query": f"query {qid}", "type": kind, "gold": gold}


# --- mine ------------------------------------------------------------------------------------


def test_mine_writes_the_candidates_and_reports_the_drops(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, sha = build_acceptance_repo(tmp_path / "repo")
    out = tmp_path / "candidates.jsonl"
    assert main(["gold", "mine", "--repo", str(repo.path), "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Read 10 commits: 5 candidates, 5 dropped" in text
    assert "(merge commit 1, release 1, version bump 1, typo 1, too short 1)" in text
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["revision"] for r in written] == [
        sha[n] for n in ("rename", "move", "readme", "revoke", "add")
    ]
    assert {r["source"] for r in written} == {"git_weak"}
    assert {r["status"] for r in written} == {"draft"}
    first = out.read_bytes()
    # refuses to overwrite, then does with --force, byte for byte the same
    assert main(["gold", "mine", "--repo", str(repo.path), "-o", str(out)]) == 2
    assert "file exists; pass --force" in capsys.readouterr().err
    assert main(["gold", "mine", "--repo", str(repo.path), "-o", str(out), "--force"]) == 0
    assert out.read_bytes() == first


def test_mine_json_summary_per_type_sample_and_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _ = build_acceptance_repo(tmp_path / "repo")
    out = tmp_path / "sample.jsonl"
    argv = ["gold", "mine", "--repo", str(repo.path), "--per-type", "1", "-o", str(out)]
    assert main([*argv, "--format", "json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["candidates"] == 5
    assert summary["written"] == 2
    assert summary["written_per_type"] == {"intent": 1, "mixed": 1}
    assert summary["dropped"] == {
        "merge_commit": 1,
        "release": 1,
        "version_bump": 1,
        "typo": 1,
        "too_short": 1,
    }
    assert main(["gold", "mine", "--repo", str(repo.path), "-o", "-", "--path-prefix", "r/"]) == 0
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 5
    assert all(
        k.startswith("r/") for line in captured.out.splitlines() for k in json.loads(line)["gold"]
    )
    assert "Read 10 commits" in captured.err


def test_mine_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "o.jsonl")
    assert main(["gold", "mine", "--repo", str(tmp_path), "-o", out]) == 2
    assert "git log failed" in capsys.readouterr().err
    assert main(["gold", "mine", "--repo", str(tmp_path), "--per-type", "0", "-o", out]) == 2
    assert "--per-type must be at least 1" in capsys.readouterr().err
    assert main(["gold", "mine", "--repo", str(tmp_path), "-o", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
    assert main(["gold", "mine", "--repo", str(tmp_path), "-o", str(tmp_path / "no/o")]) == 2
    assert "no such directory" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["gold", "mine", "--repo", ".", "-o", "new/"],
        ["gold", "merge", "a.jsonl", "b.jsonl", "-o", "new/"],
        ["gold", "merge", "a.jsonl", "b.jsonl", "-o", "m.jsonl", "--conflicts", "new/"],
        ["gold", "sample", "a.jsonl", "--fraction", "0.5", "--seed", "1", "-o", "new/"],
        ["gold", "eval", "run.jsonl", "--history", "new/"],
        ["gold", "eval", "run.jsonl", "--plot", "new/"],
        ["init", "--config-file", "new/"],
        ["gold", "merge", "a.jsonl", "b.jsonl", "-o", "new/."],
    ],
)
def test_an_output_file_typed_as_a_folder_is_refused(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    option, typed = argv[-2:]
    assert f"{option} {typed}: names a folder; name the file to write" in capsys.readouterr().err
    assert not (tmp_path / "new").exists()


def test_mine_since_and_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = HistoryRepo(tmp_path / "repo")
    repo.write("a.py", "def f():\n    return 1\n")
    first = repo.commit("Add the function f to a")
    repo.write("a.py", "def f():\n    return 2\n")
    repo.commit("Make f return two instead")
    out = tmp_path / "o.jsonl"
    argv = ["gold", "mine", "--repo", str(repo.path), "-o", str(out), "--format", "json"]
    assert main([*argv, "--rev-range", f"{first}..HEAD"]) == 0
    assert json.loads(capsys.readouterr().out)["commits"] == 1
    assert main([*argv, "--since", "2100-01-01", "--force"]) == 0
    assert json.loads(capsys.readouterr().out)["commits"] == 0
    assert out.read_bytes() == b""


# --- merge -----------------------------------------------------------------------------------


def test_merge_writes_accepted_grades_conflicts_and_agreement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = write_jsonl(
        tmp_path / "ann.jsonl",
        rec("q1", {"a": 3, "b": 3}),
        rec("q2", {"c": 2}),
        rec("q3", {"d": 1, "e": 3}),
    )
    second = write_jsonl(
        tmp_path / "bob.jsonl",
        rec("q1", {"a": 3, "b": 2}),
        rec("q2", {"c": 2}),
        rec("q3", {"d": 2, "e": 1}),
    )
    merged, conflicts = tmp_path / "merged.jsonl", tmp_path / "conflicts.jsonl"
    argv = ["gold", "merge", str(first), str(second), "-o", str(merged)]
    assert main([*argv, "--conflicts", str(conflicts)]) == 1  # two queries left out
    text = capsys.readouterr().out
    # pairs (3,3) (3,2) (2,2) (1,2) (3,1): exact 2/5, within one 4/5
    assert "exact 40.0%, within one level 80.0%" in text
    assert "bob.jsonl:1:76: RG406 [error] b of 'q1' is graded 2 here and 3 in " in text
    assert "bob.jsonl:3:76: RG407 [error] e of 'q3' is graded 1 here and 3 in " in text
    assert "q3: AMBIGUOUS (rewrite or drop)" in text
    assert "e: ann.jsonl=3 bob.jsonl=1" in text
    assert "Merged 1 queries into" in text and "left out 2 for a person to decide" in text
    assert [json.loads(x)["gold"] for x in merged.read_text().splitlines()] == [{"c": 2}]
    assert [json.loads(x)["status"] for x in conflicts.read_text().splitlines()] == [
        "arbitrate",
        "ambiguous",
    ]


def test_merge_kappa_in_json_matches_the_hand_computed_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the pairs of the hand computation in tests/retrieval/gold/test_annotate.py: kappa 1/3
    first = write_jsonl(tmp_path / "a.jsonl", rec("q1", {"w": 3, "x": 3, "y": 2, "z": 1}))
    second = write_jsonl(tmp_path / "b.jsonl", rec("q1", {"w": 3, "x": 2, "y": 2, "z": 2}))
    out = tmp_path / "m.jsonl"
    argv = ["gold", "merge", str(first), str(second), "-o", str(out), "--format", "json"]
    assert main(argv) == 1  # x and z need arbitration
    agreement = json.loads(capsys.readouterr().out)["agreement"]
    assert agreement["weighted_kappa"] == pytest.approx(1 / 3, abs=1e-12)
    assert agreement == {
        "pairs": 4,
        "exact": 0.5,
        "within_one": 1.0,
        "weighted_kappa": agreement["weighted_kappa"],
        "one_annotator": 0,
    }
    assert main(["gold", "merge", str(first), str(second), "-o", str(out), "--force"]) == 1
    text = capsys.readouterr().out
    assert "linear-weighted kappa 0.333" in text
    assert "pass --conflicts FILE" in text


def test_merge_writes_no_record_with_a_grade_left_to_decide(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A grades g 2, B grades it 1; only B grades k; both give f 3. The record used to be
    # written with f alone, exit 0, as if final: g and k counted as misses in every metric.
    first = write_jsonl(
        tmp_path / "A.jsonl",
        {**rec("m1", {"a.py:1-3:f": 3, "a.py:5-9:g": 2}), "annotators": ["ann"]},
        {**rec("m2", {"a.py:1-3:f": 2}), "annotators": ["ann"]},
    )
    second = write_jsonl(
        tmp_path / "B.jsonl",
        {
            **rec("m1", {"a.py:1-3:f": 3, "a.py:5-9:g": 1, "a.py:11-12:k": 1}),
            "annotators": ["bob"],
        },
        {**rec("m2", {"a.py:1-3:f": 2}), "annotators": ["bob"]},
    )
    merged, conflicts = tmp_path / "M.jsonl", tmp_path / "C.jsonl"
    argv = ["gold", "merge", str(first), str(second), "-o", str(merged)]
    for extra in ([], ["--conflicts", str(conflicts)]):
        assert main([*argv, *extra, "--force"]) == 1
        out = capsys.readouterr().out
        out = out.replace(f"{tmp_path.as_posix()}/", "")
        assert [line.split(" is graded")[0] for line in out.splitlines()[:2]] == [
            "B.jsonl:1:94: RG406 [error] a.py:5-9:g of 'm1'",
            "B.jsonl:1:113: RG406 [error] a.py:11-12:k of 'm1'",
        ]
        assert "not graded in A.jsonl:1 (counts as 0, not relevant)" in out
        assert "left out 1 for a person to decide" in out
        assert [json.loads(x)["qid"] for x in merged.read_text().splitlines()] == ["m2"]
    assert json.loads(conflicts.read_text()) == {
        "qid": "m1",
        "query": "query m1",
        "status": "arbitrate",
        "grades": {"a.py:1-3:f": [3, 3], "a.py:5-9:g": [2, 1], "a.py:11-12:k": [None, 1]},
    }


def test_merge_refuses_bad_input_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write_jsonl(tmp_path / "a.jsonl", rec("q1", {"a": 3}))
    bad = tmp_path / "b.jsonl"
    bad.write_text('{"qid": "q1", "gold": {"a": "3"}}\nnot json\n{"qid": 1}\n[1]\n')
    out = tmp_path / "m.jsonl"
    assert main(["gold", "merge", str(good), str(bad), "-o", str(out)]) == 1
    text = capsys.readouterr().out
    assert "b.jsonl:1:29: RG401 [error]" in text
    assert "b.jsonl:2:1: IO008 [error]" in text
    assert "b.jsonl:3:9: RG401" in text and "b.jsonl:4:1: RG401" in text
    assert not out.exists()
    other = write_jsonl(tmp_path / "c.jsonl", {**rec("q1", {"a": 3}), "query": "else"})
    assert main(["gold", "merge", str(good), str(other), "-o", str(out), "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)[0]["code"] == "RG403"
    assert main(["gold", "merge", str(good), str(good), "-o", "-", "--conflicts", "-"]) == 2
    argv = ["gold", "merge", str(good), str(good), "-o", str(out), "--conflicts", str(out)]
    assert main(argv) == 2
    assert "two different files" in capsys.readouterr().err
    assert main(["gold", "merge", str(good), str(tmp_path), "-o", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"evaltools gold merge: error: {tmp_path.as_posix()} is a directory: gold merge "
        "takes two .jsonl files, one per annotator\n"
    )


# --- sample ----------------------------------------------------------------------------------


def _eval_set(path: Path, start: int, count: int) -> Path:
    kinds = ("identifier", "intent", "mixed", "intent")
    return write_jsonl(
        path,
        *(
            rec(
                f"q{i}", {f"a{i}.py:1-2:f": 3, f"b{i}.py:3-9:g": 2, f"c{i}.py:1-1": 1}, kinds[i % 4]
            )
            for i in range(start, start + count)
        ),
    )


def test_sample_is_byte_identical_per_seed_and_ranks_pairs_alike_when_the_set_grows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evals = _eval_set(tmp_path / "set.jsonl", 0, 60)
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    for out in (one, two):
        argv = ["gold", "sample", str(evals), "--fraction", "0.1", "--seed", "11", "-o", str(out)]
        assert main(argv) == 0
    assert one.read_bytes() == two.read_bytes()
    text = capsys.readouterr().out
    assert "of 180 gold pairs" in text and "seed 11" in text
    first = [json.loads(line) for line in one.read_text().splitlines()]
    assert len(first) == 18
    more = _eval_set(tmp_path / "more.jsonl", 60, 40)
    assert main(["gold", "sample", str(evals), str(more), "--seed", "11", "--format", "json"]) == 0
    summary = json.loads(capsys.readouterr().err)
    assert summary["pairs"] == 300
    assert set(summary["per_type"]) == {"identifier", "intent", "mixed"}
    assert main(["gold", "sample", str(evals), str(more), "--seed", "11"]) == 0
    captured = capsys.readouterr()
    bigger = [json.loads(line) for line in captured.out.splitlines()]
    assert len(bigger) == 30
    # the old pairs of a type are taken in the same rank order: one sample holds the other's
    for kind in ("identifier", "intent", "mixed"):
        before = {(p["qid"], p["chunk_id"]) for p in first if p["type"] == kind}
        after = {
            (p["qid"], p["chunk_id"])
            for p in bigger
            if p["type"] == kind and int(p["qid"][1:]) < 60
        }
        assert before <= after or after <= before
    assert "Sampled" in captured.err


def test_sample_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    evals = _eval_set(tmp_path / "set.jsonl", 0, 5)
    assert main(["gold", "sample", str(evals), "--seed", "1", "--fraction", "0"]) == 2
    assert "--fraction must be a share" in capsys.readouterr().err
    assert main(["gold", "sample", str(tmp_path / "none.jsonl"), "--seed", "1"]) == 2
    (tmp_path / "bad.jsonl").write_text('{"qid": "x"}\n')
    assert main(["gold", "sample", str(tmp_path / "bad.jsonl"), "--seed", "1"]) == 1
    assert main(["gold", "sample", str(tmp_path / "empty"), "--seed", "1"]) == 2
    (tmp_path / "empty").mkdir()
    assert main(["gold", "sample", str(tmp_path / "empty"), "--seed", "1"]) == 2
    assert "no eval sets (*.jsonl) under" in capsys.readouterr().err


# --- split -----------------------------------------------------------------------------------


def test_split_rewrites_in_place_reproducibly_and_stably(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evals = _eval_set(tmp_path / "set.jsonl", 0, 40)
    original = evals.read_bytes()
    copy = tmp_path / "copy" / "set.jsonl"
    copy.parent.mkdir()
    shutil.copy(evals, copy)
    assert main(["gold", "split", str(evals), "--seed", "4"]) == 0
    assert (
        "Assigned a split to 40 records and moved 0 from holdout to tune, in 1 of 1 files"
        in capsys.readouterr().out
    )
    done = evals.read_bytes()
    assert done != original
    for before, after in zip(original.splitlines(), done.splitlines(), strict=True):
        assert after.startswith(before[:-1]) and b'"split": "' in after
    # the same seed on a copy: byte-identical; a second run: nothing to do
    assert main(["gold", "split", str(copy.parent), "--seed", "4"]) == 0
    assert copy.read_bytes() == done
    capsys.readouterr()
    assert main(["gold", "split", str(evals), "--seed", "4", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["assigned"] == 0
    assert evals.read_bytes() == done
    # records added to a split set: the old ones stay where they are while the quotas grow
    evals.write_bytes(done + _eval_set(tmp_path / "new.jsonl", 40, 30).read_bytes())
    assert main(["gold", "split", str(evals), "--seed", "4"]) == 0
    assert evals.read_bytes().startswith(done)


def test_split_keeps_the_splits_of_the_projects_own_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # evals/retrieval.jsonl holds out 3 of 12 identifier, 4 of 20 intent and 1 of 8 mixed
    # queries: within one query of 20% each, so a split with any seed changes nothing (it
    # used to swap an identifier holdout query for a mixed tune one).
    evals = tmp_path / "set.jsonl"
    shutil.copy(REPO / "evals" / "retrieval.jsonl", evals)
    before = evals.read_bytes()
    for seed in ("1", "2", "7"):
        assert main(["gold", "split", str(evals), "--seed", seed]) == 0
        assert evals.read_bytes() == before
        assert "and moved 0 from holdout to tune, in 0 of 1 files" in capsys.readouterr().out


def test_split_says_what_it_moves_to_tune_and_what_only_new_queries_can_fill(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evals = tmp_path / "set.jsonl"
    tuned = [{**rec(f"t{i}", {"a.py:1-2:f": 3}), "split": "tune"} for i in range(9)]
    write_jsonl(evals, *tuned, {**rec("h0", {"a.py:1-2:f": 3}), "split": "holdout"})
    before = evals.read_bytes()
    assert main(["gold", "split", str(evals), "--seed", "1", "--holdout", "0.3"]) == 0
    out = capsys.readouterr().out
    assert evals.read_bytes() == before  # no tune query entered the holdout
    assert "  intent: 1 of 10 (10.0%); 2 holdout queries missing\n" in out
    assert "Tune queries never move into the holdout (they may have been tuned on)" in out
    argv = ["gold", "split", str(evals), "--seed", "1", "--holdout", "0.3", "--format", "json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["missing_holdout"] == {"intent": 2}
    assert summary["moved"] == 0 and summary["moved_to_tune"] == {}
    # a smaller holdout is the one case a holdout query moves, and the output says so
    write_jsonl(evals, *tuned[:5], *({**r, "split": "holdout"} for r in tuned[5:]))
    assert main(["gold", "split", str(evals), "--seed", "1", "--holdout", "0.2"]) == 0
    out = capsys.readouterr().out
    assert "moved 2 from holdout to tune" in out
    assert "intent: 2 of 9 (22.2%); 2 moved from holdout to tune, as the target asks" in out


def test_split_refuses_invalid_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    evals = tmp_path / "set.jsonl"
    evals.write_text('{"qid": "q1", "split": "train"}\n{"qid": "q2"}\n')
    before = evals.read_bytes()
    assert main(["gold", "split", str(evals), "--seed", "1"]) == 1
    assert "set.jsonl:1:24: RG404 [error] split of 'q1' is 'train'" in capsys.readouterr().out
    assert evals.read_bytes() == before
    assert main(["gold", "split", str(evals), "--seed", "1", "--holdout", "1.5"]) == 2


def test_help_lists_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gold", "split", "--help"]) == 0
    assert "--holdout" in capsys.readouterr().out


# --- inputs and outputs ----------------------------------------------------------------------


def test_an_output_that_is_an_input_is_refused_even_with_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "evals").mkdir()
    evals = _eval_set(tmp_path / "evals" / "set.jsonl", 0, 8)
    other = write_jsonl(tmp_path / "b.jsonl", rec("q1", {"a0.py:1-2:f": 3}))
    before = evals.read_bytes(), other.read_bytes()
    (tmp_path / "link.jsonl").symlink_to(evals)
    os.link(evals, tmp_path / "hard.jsonl")
    sample = ["gold", "sample", "--seed", "1", "--force"]
    merge = ["gold", "merge", str(evals), str(other), "--force"]
    for argv, option, given in [
        ([*sample, str(evals), "-o", str(evals)], "-o", evals),
        ([*sample, str(tmp_path / "evals"), "-o", str(evals)], "-o", evals),  # found in a folder
        ([*sample, str(evals), "-o", str(tmp_path / "link.jsonl")], "-o", tmp_path / "link.jsonl"),
        ([*sample, str(evals), "-o", str(tmp_path / "hard.jsonl")], "-o", tmp_path / "hard.jsonl"),
        ([*merge, "-o", str(evals)], "-o", evals),
        (
            [*merge, "-o", str(tmp_path / "m.jsonl"), "--conflicts", str(other)],
            "--conflicts",
            other,
        ),
    ]:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(
            f"evaltools gold {argv[1]}: error: {option} {given}: is also an input"
        )
        assert err.count("\n") == 1
    assert (evals.read_bytes(), other.read_bytes()) == before
    assert not (tmp_path / "m.jsonl").exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["gold", "sample", "-", "--seed", "1"],
        ["gold", "split", "-", "--seed", "1"],
        ["gold", "merge", "-", "b.jsonl", "-o", "m.jsonl"],
    ],
)
def test_stdin_is_not_supported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        f"evaltools gold {argv[1]}: error: - (stdin) is not supported here: name the .jsonl files\n"
    )


def test_split_takes_its_default_share_from_the_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    configured = _eval_set(tmp_path / "configured.jsonl", 0, 40)
    flagged = _eval_set(tmp_path / "flagged.jsonl", 0, 40)
    (tmp_path / "pyproject.toml").write_text("[tool.evaltools.retrieval]\nholdout-share = 0.5\n")
    assert main(["gold", "split", str(configured), "--seed", "4", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["holdout"] == 0.5
    assert main(["gold", "split", str(flagged), "--seed", "4", "--holdout", "0.5"]) == 0
    assert configured.read_bytes() == flagged.read_bytes()
    capsys.readouterr()
    assert main(["gold", "split", str(flagged), "--seed", "4", "--holdout", "0.3"]) == 0
    assert "target holdout 30.0%" in capsys.readouterr().out
    (tmp_path / "pyproject.toml").write_text("[tool.evaltools.retrieval]\nholdout-share = 0\n")
    assert main(["gold", "split", str(configured), "--seed", "4"]) == 2
    assert capsys.readouterr().err == (
        "evaltools gold split: error: pyproject.toml:2:17: [tool.evaltools.retrieval] "
        "holdout-share must be a number between 0 and 1, e.g. 0.2\n"
    )


def test_mine_explains_what_git_would_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = HistoryRepo(tmp_path / "empty")
    out = str(tmp_path / "o.jsonl")
    assert main(["gold", "mine", "--repo", str(empty.path), "-o", out]) == 2
    assert capsys.readouterr().err == (
        f"evaltools gold mine: error: {empty.path} has no commits yet: commit something, "
        "then mine it\n"
    )
    repo, _ = build_acceptance_repo(tmp_path / "repo")
    assert main(["gold", "mine", "--repo", str(repo.path), "--since", "garbage", "-o", out]) == 2
    assert capsys.readouterr().err == (
        "evaltools gold mine: error: --since 'garbage' is not a date git understands: write "
        "e.g. 2024-01-31 or '2 weeks ago'\n"
    )
    assert main(["gold", "mine", "--repo", str(tmp_path / "none"), "-o", out]) == 2
    assert capsys.readouterr().err == (
        f"evaltools gold mine: error: --repo {tmp_path / 'none'}: not a directory\n"
    )
    assert not Path(out).exists()
