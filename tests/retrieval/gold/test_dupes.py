"""`evaltools dupes` on retrieval sets: duplicate queries and gold sets, holdout leakage."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main

QUERIES = [
    "what gets deleted when a user logs out",
    "where is the retry backoff configured",
    "refresh token rotation scheduler",
    "parse the config file",
    "SessionStore.kill",
    "which handler renders the 404 page",
    "how are webhook signatures verified",
    "database connection pool size limit",
    "render_markdown_table",
    "who writes the audit log entries",
    "feature flag evaluation order",
    "upload size check for avatars",
    "cron expression parser",
    "where do emails get queued",
    "rate limiter for the public api",
    "git blame cache invalidation",
    "ImageResizer.thumbnail",
    "password hashing algorithm choice",
    "how does pagination cursor encoding work",
    "locale fallback when translation is missing",
]
# (index of the query reworded, the rewording, whether it keeps the same gold)
PARAPHRASES = [
    (0, "what is deleted when the user logs out", False),
    (1, "where do we configure the retry backoff", True),
    (2, "scheduler for refresh token rotation", False),
    (6, "how is a webhook signature verified", True),
    (9, "who writes audit log entries?", False),
    (13, "where are emails queued", True),
    (15, "invalidation of the git blame cache", False),
    (19, "locale fallback if a translation is missing", True),
]


def _record(qid: str, query: str, gold: str, **extra: str) -> str:
    record = {"qid": qid, "query": query, "type": "intent", "gold": {gold: 3}, **extra}
    return json.dumps(record)


def _dupes(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    rc = main(["dupes", *args, "--format", "json"])
    return rc, json.loads(capsys.readouterr().out)


def _summary(pairs: list[dict[str, Any]]) -> list[tuple[str, str, str, list[str]]]:
    return [(p["kind"], p["a"]["id"], p["b"]["id"], sorted(p["parts"])) for p in pairs]


def test_each_kind_of_planted_duplicate(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        _record("q1", "what gets deleted when a user logs out", "a.py:1-2:f", split="tune"),
        _record("q2", "What gets deleted, when a USER logs out?", "b.py:1-2:g", split="tune"),
        _record("q3", "what is deleted when the user logs out", "c.py:1-2:h", split="tune"),
        _record("q4", "where is the retry backoff configured", "d.py:1-9:k", split="tune"),
        _record("q5", "ImageResizer.thumbnail", "d.py:1-9:k", split="tune"),
        _record("q6", "cron expression parser", "e.py:1-2:m", split="tune"),
        _record("q7", "cron expression parser!", "f.py:1-2:n", split="holdout"),
        _record("q8", "password hashing algorithm choice", "e.py:1-2:m", split="holdout"),
    ]
    (in_tmp / "set.jsonl").write_text("\n".join(lines) + "\n")
    rc, pairs = _dupes(capsys, "set.jsonl")
    assert rc == 1
    assert _summary(pairs) == [
        ("exact", "q1", "q2", ["query"]),
        ("near", "q1", "q3", ["query"]),
        ("exact", "q4", "q5", ["gold"]),
        ("leak", "q6", "q7", ["query"]),
        ("leak", "q6", "q8", ["gold"]),
    ]
    assert pairs[0]["b"] == {"path": "set.jsonl", "line": 2, "id": "q2"}
    assert 0.5 <= pairs[1]["similarity"] < 1.0
    codes = {p["b"]["id"]: (p["code"], p["severity"]) for p in pairs}
    assert codes == {
        "q2": ("DU101", "error"),
        "q3": ("DU102", "warning"),
        "q5": ("DU103", "warning"),
        "q7": ("DU104", "error"),
        "q8": ("DU104", "error"),
    }


def test_text_format_names_the_qids(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        _record("t1", "cron expression parser", "e.py:1-2:m", split="tune"),
        _record("h1", "Cron expression parser.", "f.py:1-2:n", split="holdout"),
    ]
    (in_tmp / "set.jsonl").write_text("\n".join(lines) + "\n")
    assert main(["dupes", "set.jsonl"]) == 1
    out = capsys.readouterr().out
    assert "set.jsonl:2:1: DU104 [error] 'h1' is a holdout leak with set.jsonl:1 ('t1')" in out


def test_holdout_made_by_gold_split_leaks_planted_paraphrases(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [_record(f"q{i:02d}", q, f"src/m{i}.py:1-5:f{i}") for i, q in enumerate(QUERIES)]
    planted: set[tuple[str, str]] = set()
    for n, (base, text, same_gold) in enumerate(PARAPHRASES):
        gold = f"src/m{base}.py:1-5:f{base}" if same_gold else f"src/p{n}.py:1-5:g{n}"
        lines.append(_record(f"p{n}", text, gold))
        planted.add((f"q{base:02d}", f"p{n}"))
    path = in_tmp / "set.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert main(["gold", "split", "set.jsonl", "--holdout", "0.2", "--seed", "7"]) == 0
    capsys.readouterr()
    split = {r["qid"]: r["split"] for r in map(json.loads, path.read_text().splitlines())}
    assert sum(s == "holdout" for s in split.values()) == 6  # 20% of 28
    crossing = {pair for pair in planted if split[pair[0]] != split[pair[1]]}
    assert crossing  # the seed puts some paraphrase pairs on both sides

    rc, pairs = _dupes(capsys, "set.jsonl")
    assert rc == 1
    reported = {(p["a"]["id"], p["b"]["id"]): p["kind"] for p in pairs}
    assert set(reported) == planted  # every paraphrase found, nothing else
    leaks = {pair for pair, kind in reported.items() if kind == "leak"}
    assert leaks == crossing


def test_against_compares_across_sets_only(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = [
        _record("o1", "cron expression parser", "e.py:1-2:m"),
        _record("o2", "Cron expression parser", "e.py:1-2:m"),
    ]
    new = [
        _record("n1", "cron expression parser?", "x.py:1-2:z"),
        _record("n2", "upload size check for avatars", "y.py:1-2:y"),
        _record("n3", "upload size check for avatars", "y.py:1-2:y"),
    ]
    (in_tmp / "old.jsonl").write_text("\n".join(old) + "\n")
    (in_tmp / "new.jsonl").write_text("\n".join(new) + "\n")
    rc, pairs = _dupes(capsys, "new.jsonl", "--against", "old.jsonl")
    assert rc == 1
    assert _summary(pairs) == [("exact", "o1", "n1", ["query"])]


def test_unusable_set_is_a_diagnostic(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (in_tmp / "set.jsonl").write_text('{"qid": "q1", "query": "x", "gold": {"a": 1}}\n{oops\n')
    assert main(["dupes", "set.jsonl"]) == 1
    out = capsys.readouterr().out
    assert "set.jsonl:2:" in out


@pytest.mark.parametrize("against", [False, True])
def test_a_leak_is_found_behind_more_near_partners_than_are_listed(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], against: bool
) -> None:
    # Six rewordings without a split come first: the holdout query lists only its first few
    # near partners and counts the rest, and the tuning one it leaks from is among the rest.
    base = "where do we refresh the oauth token for the user account number"
    plain = [_record(f"n{i}", f"{base} {c}{c}", f"a{i}.py:1-2:f") for i, c in enumerate("abcdef")]
    tune = _record("t1", f"{base} zz", "t.py:1-2:f", split="tune")
    holdout = _record("h1", f"{base} yy", "h.py:1-2:f", split="holdout")
    if against:  # the tuning set as the reference, the holdout set checked against it
        (in_tmp / "old.jsonl").write_text("\n".join([*plain, tune]) + "\n")
        (in_tmp / "new.jsonl").write_text(holdout + "\n")
        rc, pairs = _dupes(capsys, "new.jsonl", "--against", "old.jsonl")
    else:
        (in_tmp / "set.jsonl").write_text("\n".join([*plain, tune, holdout]) + "\n")
        rc, pairs = _dupes(capsys, "set.jsonl")
    assert rc == 1
    assert [(p["a"]["id"], p["b"]["id"]) for p in pairs if p["kind"] == "leak"] == [("t1", "h1")]
    listed = [p for p in pairs if p["b"]["id"] == "h1" and p["kind"] == "near"]
    assert len(listed) == 5 and sum(p.get("more", 0) for p in listed) == 1
