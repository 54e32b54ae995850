"""`gold eval --history`: the revision of the code (--root's repository, not the set's), the
date and --label; `--plot`: labelled x axis, a band per interval, tune and holdout apart."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.commands.gold.test_gold_eval import record, write_trec
from tests.commands.gold.test_gold_eval_plot import SVG, gridline_y, polylines
from tests.retrieval.gitrepo import SESSION_PY, GitRepo

KILL = "demo_repo/auth/session.py:4-6:kill_session"
REVOKE = "demo_repo/auth/session.py:18-19:revoke_token"


def _code_and_set(tmp: Path) -> tuple[GitRepo, GitRepo]:
    """The code in one repository below code/, the set in another (as a team keeps them)."""
    code = GitRepo(tmp / "code" / "demo_repo")
    code.write("auth/session.py", SESSION_PY)
    code.commit("code")
    sets = GitRepo(tmp / "sets")
    records = [
        record(f"q{n}", {KILL if n % 2 else REVOKE: 3}, split="tune" if n % 3 else "holdout")
        for n in range(12)
    ]
    sets.write("set.jsonl", "".join(json.dumps(r) + "\n" for r in records))
    sets.commit("set")
    return code, sets


def _eval(tmp: Path, run: Path, *extra: str) -> int:
    args = ["gold", "eval", str(run), "--set", str(tmp / "sets" / "set.jsonl")]
    args += ["--root", str(tmp / "code"), "--history", str(tmp / "h.jsonl"), *extra]
    return main(args)


def test_history_records_the_code_revision_the_date_and_the_label(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, sets = _code_and_set(tmp_path)
    assert code.head() != sets.head()
    run = write_trec(tmp_path, "run.jsonl", [("q1", KILL, 1.0), ("q2", REVOKE, 1.0)])
    assert _eval(tmp_path, run, "--label", "nightly-41") == 0
    code.write("README", "newer code\n")
    code.commit("newer")
    assert _eval(tmp_path, run) == 0
    capsys.readouterr()
    first, second = map(json.loads, (tmp_path / "h.jsonl").read_text().splitlines())
    assert first["revision"] != second["revision"] == code.head()
    assert first["label"] == "nightly-41" and "label" not in second
    for line in (first, second):
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", line["date"])
        overall = next(g for g in line["groups"] if (g["type"], g["split"]) == ("all", "all"))
        lo, hi = overall["ci"]["ndcg"]
        assert 0 <= lo <= overall["metrics"]["ndcg"] <= hi <= 1
        assert {g["split"] for g in line["groups"]} == {"all", "tune", "holdout"}


def test_chart_labels_runs_draws_bands_and_shows_tune_and_holdout_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = _code_and_set(tmp_path)
    good = write_trec(
        tmp_path, "run.jsonl", [(f"q{n}", KILL if n % 2 else REVOKE, 1.0) for n in range(12)]
    )
    assert _eval(tmp_path, good, "--label", "nightly-41") == 0
    half = write_trec(tmp_path, "run.jsonl", [(f"q{n}", KILL, 1.0) for n in range(12)])
    svg = tmp_path / "chart.svg"
    assert _eval(tmp_path, half, "--label", "nightly-42", "--plot", str(svg)) == 0
    capsys.readouterr()
    root = ET.parse(svg).getroot()
    lines = polylines(root)
    assert list(lines) == ["all", "intent", "tune (all types)", "holdout (all types)"]
    dashes = {
        line.attrib["data-series"]: line.attrib.get("stroke-dasharray", "")
        for line in root.iter(f"{SVG}polyline")
    }
    assert dashes["tune (all types)"] == "" and dashes["holdout (all types)"] != ""
    colours = {
        line.attrib["data-series"]: line.attrib["stroke"] for line in root.iter(f"{SVG}polyline")
    }
    assert colours["tune (all types)"] != colours["holdout (all types)"]
    # A band per series, drawn behind the lines, spanning each run's interval.
    bands = {b.attrib["data-series"]: b for b in root.iter(f"{SVG}polygon")}
    assert set(bands) == set(lines)
    children = list(root)
    assert max(map(children.index, bands.values())) < min(
        children.index(line) for line in root.iter(f"{SVG}polyline")
    )
    history = [json.loads(line) for line in (tmp_path / "h.jsonl").read_text().splitlines()]
    top = [float(p.split(",")[1]) for p in bands["all"].attrib["points"].split()][
        :2
    ]  # along the highs, run by run
    highs = [
        next(g for g in h["groups"] if g["type"] == g["split"] == "all")["ci"]["ndcg"][1]
        for h in history
    ]
    y0, y1 = gridline_y(root, "0.0"), gridline_y(root, "1.0")
    assert top == pytest.approx([y0 + v * (y1 - y0) for v in highs], abs=0.06)
    # The x axis: label, date and the code's revision of each run, and what it reads.
    labels = ["".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == "run"]
    for label, name, line in zip(labels, ["nightly-41", "nightly-42"], history, strict=True):
        date = line["date"][:16].replace("T", " ")
        assert label.endswith(f"{name} {date} @ {code.head()[:7]}")
    axis = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "x-axis"]
    assert axis == ["run (label or file, date UTC, @ revision); bands: 95% intervals"]
