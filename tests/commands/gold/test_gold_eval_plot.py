"""`gold eval --history FILE --plot SVG`: nDCG by query type over the recorded runs."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from tests.commands.gold.test_gold_eval import cid, record, write_set, write_trec

SVG = "{http://www.w3.org/2000/svg}"


def entry(run: str, ndcg: dict[str, float], revision: str | None = None, k: int = 10) -> str:
    groups: list[dict[str, Any]] = [
        {"type": t, "split": "all", "n": 40, "metrics": {"ndcg": v, "recall": 0.5}}
        for t, v in ndcg.items()
    ]
    # The whole set on one split is in the history too: the plot draws it as its own line.
    groups.append({"type": "all", "split": "tune", "n": 30, "metrics": {"ndcg": 0.01}})
    line = {"run": run, "k": k, "set_digest": "0" * 64, "revision": revision, "groups": groups}
    return json.dumps(line) + "\n"


def plot(tmp: Path, capsys: pytest.CaptureFixture[str], history: str) -> tuple[int, str]:
    (tmp / "history.jsonl").write_text(history, encoding="utf-8")
    args = ["gold", "eval", "--history", str(tmp / "history.jsonl"), "--plot", str(tmp / "p.svg")]
    code = main(args)
    return code, capsys.readouterr().err


def polylines(root: ET.Element) -> dict[str, list[tuple[float, float]]]:
    found = {}
    for line in root.iter(f"{SVG}polyline"):
        pairs = [p.split(",") for p in line.attrib["points"].split()]
        found[line.attrib["data-series"]] = [(float(x), float(y)) for x, y in pairs]
    return found


def gridline_y(root: ET.Element, value: str) -> float:
    for line in root.iter(f"{SVG}line"):
        if line.attrib.get("data-value") == value:
            return float(line.attrib["y1"])
    raise AssertionError(f"no gridline at {value}")


def test_one_line_per_type_with_values_at_their_coordinates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = (
        entry("bm25.txt", {"all": 0.5, "intent": 0.25, "symbol": 1.0}, "a1b2c3d4e5f6" * 3)
        + entry("dense.txt", {"all": 0.75, "intent": 0.0, "symbol": 0.9})
        + entry("hybrid.txt", {"all": 0.625, "intent": 0.375, "symbol": 0.875})
    )
    assert plot(tmp_path, capsys, history) == (0, "")
    root = ET.parse(tmp_path / "p.svg").getroot()
    assert root.tag == f"{SVG}svg"
    lines = polylines(root)
    assert list(lines) == ["all", "intent", "symbol", "tune (all types)"]
    assert all(len(points) == 3 for points in lines.values())
    y0, y1 = gridline_y(root, "0.0"), gridline_y(root, "1.0")
    assert y1 < y0  # 1 is up
    for name, values in [("all", [0.5, 0.75, 0.625]), ("intent", [0.25, 0.0, 0.375])]:
        ys = [y for _, y in lines[name]]
        assert ys == pytest.approx([y0 + v * (y1 - y0) for v in values], abs=0.06)
    xs = [x for x, _ in lines["all"]]
    assert xs[0] < xs[1] < xs[2]
    assert [x for x, _ in lines["symbol"]] == xs  # runs share their x across types
    labels = ["".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == "run"]
    assert labels[0].endswith("bm25.txt @ a1b2c3d") and labels[1].endswith("dense.txt")
    legend = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "legend"]
    assert legend == ["all", "intent", "symbol", "tune (all types)"]
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "nDCG@10 by query type: history.jsonl, 3 runs"


def test_a_type_missing_from_a_run_has_no_point_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = entry("r1", {"all": 0.5}) + entry("r2", {"all": 0.6, "bug<&>": 0.2})
    assert plot(tmp_path, capsys, history)[0] == 0
    lines = polylines(ET.parse(tmp_path / "p.svg").getroot())
    assert [len(lines["all"]), len(lines["bug<&>"])] == [2, 1]
    assert lines["bug<&>"][0][0] == lines["all"][1][0]


def test_one_run_draws_a_marker_per_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert plot(tmp_path, capsys, entry("only.txt", {"all": 1.0, "intent": 1.0}))[0] == 0
    root = ET.parse(tmp_path / "p.svg").getroot()
    assert [len(points) for points in polylines(root).values()] == [1, 1, 1]  # and tune
    assert len(list(root.iter(f"{SVG}circle"))) == 3


def test_empty_history_draws_empty_axes_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert plot(tmp_path, capsys, "") == (0, "")
    root = ET.parse(tmp_path / "p.svg").getroot()
    assert polylines(root) == {}
    assert "no runs in history.jsonl yet" in ["".join(t.itertext()) for t in root.iter()]


def test_scoring_appends_then_draws_the_whole_history(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_set(tmp_path, [record("q1", {cid(1): 3}), record("q2", {cid(2): 3}, kind="identifier")])
    good = write_trec(tmp_path, "good.txt", [("q1", cid(1), 1.0), ("q2", cid(2), 1.0)])
    half = write_trec(tmp_path, "half.txt", [("q1", cid(1), 1.0)])
    history, svg = tmp_path / "h.jsonl", tmp_path / "out.svg"
    for run in (good, half):
        args = ["gold", "eval", str(run), "--set", str(tmp_path / "set.jsonl")]
        args += ["--metas", str(tmp_path / "metas.jsonl"), "--history", str(history)]
        assert main([*args, "--plot", str(svg)]) == 0
    lines = polylines(ET.parse(svg).getroot())
    assert {name: len(points) for name, points in lines.items()} == {
        "all": 2,
        "intent": 2,
        "identifier": 2,
        "tune (all types)": 2,
    }
    root = ET.parse(svg).getroot()
    y0, y1 = gridline_y(root, "0.0"), gridline_y(root, "1.0")
    assert [y for _, y in lines["identifier"]] == pytest.approx([y1, y0])
    assert [y for _, y in lines["all"]] == pytest.approx([y1, (y0 + y1) / 2], abs=0.06)


def test_plot_without_history_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = write_trec(tmp_path, "run.txt", [("q1", cid(1), 1.0)])
    assert main(["gold", "eval", str(run), "--plot", str(tmp_path / "p.svg")]) == 2
    assert "--plot draws the runs recorded in a --history file" in capsys.readouterr().err
    assert not (tmp_path / "p.svg").exists()


def test_no_run_and_no_plot_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gold", "eval", "--history", "h.jsonl"]) == 2
    assert "needs at least one RUN" in capsys.readouterr().err


def test_missing_history_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--history", str(tmp_path / "none.jsonl"), "--plot", str(tmp_path / "p.svg")]
    assert main(["gold", "eval", *args]) == 2
    assert "cannot read --history" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("bad", "where"),
    [
        ('{"run": "r", "k": 10, "revision": null, "groups": []}\n', "2:1: RG503"),
        ('{"run": "r", "k": 0, "revision": null, "groups": []}\n', "2:1: RG503"),
        ("[1, 2]\n", "2:1: RG503"),
        (
            '{"run": "r", "k": 10, "groups": [{"type": "all", "split": "all", "metrics": '
            '{"ndcg": 1.5}}]}\n',
            "2:1: RG503",
        ),
        ('{"run": "r", "k": 10,\n', "2:22: IO008"),
        (b"\xff\n".decode("latin-1"), "2:1: IO00"),
    ],
)
def test_bad_history_line_is_a_diagnostic_and_no_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: str, where: str
) -> None:
    history = tmp_path / "history.jsonl"
    history.write_bytes((entry("ok", {"all": 0.5}) + bad).encode("latin-1"))
    svg = tmp_path / "p.svg"
    svg.write_text("old", encoding="utf-8")
    assert main(["gold", "eval", "--history", str(history), "--plot", str(svg)]) == 1
    err = capsys.readouterr().err
    assert f"history.jsonl:{where}" in err
    assert "Traceback" not in err and "fix or delete" in err
    assert svg.read_text(encoding="utf-8") == "old"


def test_plot_replaces_the_old_picture_atomically(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert plot(tmp_path, capsys, "")[0] == 0
    old = (tmp_path / "p.svg").read_text(encoding="utf-8")
    assert plot(tmp_path, capsys, entry("r", {"all": 0.5}))[0] == 0
    new = (tmp_path / "p.svg").read_text(encoding="utf-8")
    assert new.startswith("<svg ") and new != old
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_unwritable_plot_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = tmp_path / "history.jsonl"
    history.write_text(entry("r", {"all": 0.5}), encoding="utf-8")
    svg = tmp_path / "no" / "such" / "dir" / "p.svg"
    assert main(["gold", "eval", "--history", str(history), "--plot", str(svg)]) == 2
    assert f"--plot {svg}: no such directory {svg.parent}" in capsys.readouterr().err
    assert not svg.parent.exists()
