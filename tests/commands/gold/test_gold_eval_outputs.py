"""`gold eval --history FILE --plot SVG` write nothing over an input or a stranger's file,
and nothing at all unless the whole command succeeds."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.atomic import WriteFailed
from tests.commands.gold.test_gold_eval import cid, record, write_set, write_trec
from tests.commands.gold.test_gold_eval_plot import entry

USAGE = "evaltools gold eval: error: "


@pytest.fixture
def work(in_tmp: Path) -> Path:
    """A valid set (gold checked against metas), a run scoring it, a one-run history."""
    write_set(in_tmp, [record("q1", {cid(1): 3}), record("q2", {cid(2): 3}, kind="identifier")])
    write_trec(in_tmp, "run.trec", [("q1", cid(1), 2.0), ("q2", cid(2), 1.0)])
    (in_tmp / "hist.jsonl").write_text(entry("old.trec", {"all": 0.5}), encoding="utf-8")
    (in_tmp / "NOTES.md").write_text("my notes\n", encoding="utf-8")
    return in_tmp


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def score(*extra: str) -> int:
    args = ["gold", "eval", "run.trec", "--set", "set.jsonl", "--metas", "metas.jsonl"]
    return main([*args, "--history", "hist.jsonl", *extra])


def draw(*extra: str) -> int:
    return main(["gold", "eval", "--set", "set.jsonl", "--history", "hist.jsonl", *extra])


PLOT_INPUTS = [
    ("hist.jsonl", "hist.jsonl"),
    ("set.jsonl", "set.jsonl"),
    ("run.trec", "run.trec"),
    ("hard.jsonl", "set.jsonl"),  # a hard link to the set
    ("soft.jsonl", "hist.jsonl"),  # a symbolic link to the history
]


@pytest.mark.parametrize(
    ("command", "plot", "shown"),
    # Redrawing the history alone reads no run.
    [(score, p, s) for p, s in PLOT_INPUTS] + [(draw, p, s) for p, s in PLOT_INPUTS[:2]],
)
def test_plot_that_is_an_input_refuses_and_writes_nothing(
    work: Path,
    capsys: pytest.CaptureFixture[str],
    command: Callable[..., int],
    plot: str,
    shown: str,
) -> None:
    os.link(work / "set.jsonl", work / "hard.jsonl")
    (work / "soft.jsonl").symlink_to("hist.jsonl")
    before = snapshot(work)
    assert command("--plot", plot) == 2
    assert capsys.readouterr() == (
        "",
        f"{USAGE}--plot {plot}: is also an input ({shown}); write the output to another file\n",
    )
    assert snapshot(work) == before


def test_plot_into_a_history_not_written_yet_refuses(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(work)
    args = ["gold", "eval", "run.trec", "--set", "set.jsonl", "--metas", "metas.jsonl"]
    elsewhere = f"../{work.name}/new.jsonl"  # the same place, spelt another way
    assert main([*args, "--history", "new.jsonl", "--plot", elsewhere]) == 2
    assert capsys.readouterr() == (
        "",
        f"{USAGE}--plot {elsewhere}: is also an input (new.jsonl); write the output to "
        "another file\n",
    )
    assert snapshot(work) == before


@pytest.mark.parametrize("content", [b"my notes\n", b'<svg xmlns="http://www.w3.org/2000/svg">\n'])
def test_plot_over_a_file_it_did_not_draw_refuses(
    work: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    (work / "NOTES.md").write_bytes(content)
    before = snapshot(work)
    assert score("--plot", "NOTES.md") == 2
    assert capsys.readouterr() == (
        "",
        f"{USAGE}--plot NOTES.md: file exists and is not a chart `gold eval --plot` drew; "
        "delete it or name another file\n",
    )
    assert snapshot(work) == before


def test_plot_replaces_the_chart_it_drew(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert draw("--plot", "p.svg") == 0
    first = (work / "p.svg").read_bytes()
    assert first.startswith(b'<svg xmlns="http://www.w3.org/2000/svg" data-generator=')
    assert score("--plot", "p.svg") == 0
    assert (work / "p.svg").read_bytes() != first
    assert b"2 runs" in (work / "p.svg").read_bytes()
    assert [p.name for p in work.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize(
    ("history", "shown"),
    [
        ("set.jsonl", "set.jsonl"),
        ("run.trec", "run.trec"),
        ("base.trec", "base.trec"),
        ("soft.jsonl", "set.jsonl"),  # a symbolic link to the set
    ],
)
def test_history_that_is_an_input_refuses_and_writes_nothing(
    work: Path, capsys: pytest.CaptureFixture[str], history: str, shown: str
) -> None:
    write_trec(work, "base.trec", [("q1", cid(1), 1.0)])
    (work / "soft.jsonl").symlink_to("set.jsonl")
    before = snapshot(work)
    args = ["gold", "eval", "run.trec", "--set", "set.jsonl", "--metas", "metas.jsonl"]
    args += ["--baseline", "base.trec", "--history", history, "--plot", "p.svg"]
    assert main(args) == 2
    assert capsys.readouterr() == (
        "",
        f"{USAGE}--history {history}: is also an input ({shown}); write the output to "
        "another file\n",
    )
    assert snapshot(work) == before


def test_history_that_is_not_one_refuses_and_writes_nothing(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / "notes.txt").write_text("Meeting notes\n- ship it\n", encoding="utf-8")
    (work / "copy.jsonl").write_bytes((work / "set.jsonl").read_bytes())
    before = snapshot(work)
    args = ["gold", "eval", "run.trec", "--set", "set.jsonl", "--metas", "metas.jsonl"]
    assert main([*args, "--history", "notes.txt", "--plot", "p.svg"]) == 1
    invalid = "IO008 [error] not valid JSON (expecting value): fix the syntax at this column"
    assert capsys.readouterr() == (
        "",
        f"notes.txt:1:1: {invalid}\n"
        f"notes.txt:2:1: {invalid}\n"
        "gold eval: 2 unreadable line(s) in notes.txt: it is not a history `gold eval "
        "--history` wrote; fix or delete them, or name another --history file (nothing was "
        "written)\n",
    )
    assert main([*args, "--history", "copy.jsonl"]) == 1
    shape = (
        'RG503 [error] a history line is {"run": ..., "k": ..., "revision": ..., "groups": '
        '[{"type": ..., "split": ..., "metrics": {"ndcg": ...}}]} as `gold eval --history` '
        "writes it: this line has no string `run`; fix or delete the line"
    )
    assert capsys.readouterr().err.splitlines()[:2] == [
        f"copy.jsonl:1:1: {shape}",
        f"copy.jsonl:2:1: {shape}",
    ]
    assert snapshot(work) == before


def test_history_without_a_final_newline_gets_one_before_the_new_line(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = entry("old.trec", {"all": 0.5}).rstrip("\n").encode()
    (work / "hist.jsonl").write_bytes(old)
    assert score() == 0
    data = (work / "hist.jsonl").read_bytes()
    assert data.startswith(old + b"\n{")
    assert [json.loads(line)["run"] for line in data.splitlines()] == ["old.trec", "run.trec"]
    assert data.endswith(b"\n")


def test_plot_into_a_missing_folder_records_nothing(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(work)
    assert score("--plot", "charts/ndcg.svg") == 2
    assert capsys.readouterr() == ("", f"{USAGE}--plot charts/ndcg.svg: no such directory charts\n")
    assert snapshot(work) == before
    (work / "charts").mkdir()
    assert score("--plot", "charts/ndcg.svg") == 0
    runs = [json.loads(line)["run"] for line in (work / "hist.jsonl").read_text().splitlines()]
    assert runs == ["old.trec", "run.trec"]


def test_a_refused_evaluation_writes_neither_history_nor_plot(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_trec(work, "run.trec", [("q1", cid(1), float("nan"))])
    before = snapshot(work)
    assert score("--plot", "p.svg") == 1
    assert snapshot(work) == before


def test_a_plot_that_cannot_be_written_leaves_the_history_as_it_was(
    work: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from evaltools.atomic import Expect, WriteSet

    real = WriteSet.add

    def failing(files: WriteSet, path: Path, data: bytes, *, expect: Expect = None) -> None:
        if path.suffix == ".svg":
            raise WriteFailed(path, "no space left on device")
        real(files, path, data, expect=expect)

    monkeypatch.setattr(WriteSet, "add", failing)
    before = snapshot(work)
    assert score("--plot", "p.svg") == 2
    assert capsys.readouterr() == (
        "",
        f"{USAGE}cannot write --plot p.svg: no space left on device\n",
    )
    assert snapshot(work) == before
