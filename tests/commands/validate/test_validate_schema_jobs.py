"""`evaltools validate --schema` (a team's own schema) and `--jobs` (chunks in worker processes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from evaltools.parallel import processes
from evaltools.retrieval.records.validation import check_files as command
from evaltools.retrieval.records.validation import validate as validate_module
from evaltools.retrieval.records.validation.schema import default_schema, default_schema_id

GOOD = {
    "qid": "q001",
    "query": "what gets deleted when a user logs out",
    "type": "intent",
    "gold": {"demo_repo/auth/session.py:3-8:kill_session": 3},
}


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, Any]]]:
    code = main(["validate", *argv, "--format", "json"])
    out = capsys.readouterr().out
    return code, json.loads(out) if out else []


def team_schema(**extra: Any) -> dict[str, Any]:
    """Ours plus a required `owner`; nothing else allowed."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "allOf": [{"$ref": default_schema_id()}],
        "required": ["owner"],
        "properties": {
            "owner": {"type": "string", "pattern": "^@"},
            "qid": True,
            "query": True,
            "type": True,
            "gold": True,
            "split": True,
        },
        **extra,
    }


def write(path: Path, *records: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_a_team_schema_extends_ours_by_its_id(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "team.schema.json").write_text(json.dumps(team_schema(additionalProperties=False)))
    write(
        in_tmp / "set.jsonl",
        {**GOOD, "owner": "@ann"},
        {**GOOD, "qid": "q2", "owner": "ann"},
        {**GOOD, "qid": "q3"},
        {**GOOD, "qid": "q4", "owner": "@bob", "gold": {"a.py:1-2": 4}, "colour": "red"},
        {**GOOD, "qid": "q5", "owner": "@bob", "gold": {"a.py:2-1": 3.0}},
    )
    code, found = run_json(capsys, "set.jsonl", "--schema", "team.schema.json")
    assert code == 1
    assert [(f["line"], f["code"], f.get("pointer")) for f in found] == [
        (2, "RV010", "/owner"),
        (3, "RV005", "/owner"),
        (4, "RV007", "/gold/a.py:1-2"),
        (4, "RV011", "/colour"),
        (5, "RV009", "/gold/a.py:2-1"),
        (5, "RV007", "/gold/a.py:2-1"),
    ]
    messages = [f["message"] for f in found]
    assert messages[0] == "`owner` \"ann\" does not match the pattern '^@': change the value"
    assert messages[3].startswith("field `colour` is not allowed by the schema")
    assert messages[5] == "grade 3.0 is not an integer: write 3"


def test_without_the_team_schema_the_same_set_is_clean(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(in_tmp / "set.jsonl", {**GOOD, "colour": "red"}, {**GOOD, "qid": "q2"})
    assert run_json(capsys, "set.jsonl") == (0, [])


def test_the_schema_can_come_from_the_configuration(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "schemas").mkdir()
    (in_tmp / "schemas" / "team.json").write_text(json.dumps(team_schema()))
    (in_tmp / "pyproject.toml").write_text(
        '[tool.evaltools.retrieval]\nschema = "schemas/team.json"\n'
    )
    write(in_tmp / "set.jsonl", GOOD)
    code, found = run_json(capsys, "set.jsonl")
    assert code == 1
    assert [f["code"] for f in found] == ["RV005"]


def test_a_copy_of_the_default_schema_takes_the_fast_path(in_tmp: Path) -> None:
    (in_tmp / "copy.json").write_text(json.dumps(default_schema(), indent=4))
    assert command.schema_text_for(in_tmp / "copy.json") is None
    (in_tmp / "team.json").write_text(json.dumps(team_schema()))
    assert command.schema_text_for(in_tmp / "team.json") is not None


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", "cannot read schema"),
        ("[1]", "it must be an object"),
        ('{"type": 12}', "not a valid JSON Schema"),
        ('{"$ref": "https://example.invalid/nowhere.json"}', "cannot be resolved"),
        ("[" * 100_000, "is nested too deeply"),  # a RecursionError, not an internal error
    ],
)
def test_an_unusable_schema_is_a_usage_error(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], content: str, words: str
) -> None:
    (in_tmp / "bad.json").write_text(content)
    write(in_tmp / "set.jsonl", GOOD)
    assert main(["validate", "set.jsonl", "--schema", "bad.json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("evaltools validate: error:") and words in err
    assert len(err.splitlines()) == 1


def test_a_missing_schema_or_a_bad_configured_one_is_a_usage_error(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(in_tmp / "set.jsonl", GOOD)
    assert main(["validate", "set.jsonl", "--schema", "nope.json"]) == 2
    assert "no such schema file: nope.json" in capsys.readouterr().err
    (in_tmp / "schemas").mkdir()
    assert main(["validate", "set.jsonl", "--schema", "schemas"]) == 2
    assert capsys.readouterr().err == (
        "evaltools validate: error: schema schemas is not a file (a directory, device or "
        "FIFO): give the JSON Schema file\n"
    )
    (in_tmp / "pyproject.toml").write_text("[tool.evaltools.retrieval]\nschema = 3\n")
    assert main(["validate", "set.jsonl"]) == 2
    assert "schema must be a path" in capsys.readouterr().err


def test_boolean_schemas(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(in_tmp / "set.jsonl", {"anything": 1})
    (in_tmp / "yes.json").write_text("true")
    (in_tmp / "no.json").write_text("false")
    assert run_json(capsys, "set.jsonl", "--schema", "yes.json") == (0, [])
    code, found = run_json(capsys, "set.jsonl", "--schema", "no.json")
    assert code == 1 and [f["code"] for f in found] == ["RV011"]


# --- jobs -----------------------------------------------------------------------------------


def mixed_set(count: int) -> str:
    """Valid records with problems sprinkled in, qids repeated far apart (across chunks)."""
    lines = []
    for n in range(count):
        rec: dict[str, Any] = {**GOOD, "qid": f"q{n % 150}" if n % 7 == 0 else f"q{n}"}
        if n % 11 == 0:
            rec["gold"] = {"a.py:9-2:f": 3.0}
        lines.append(json.dumps(rec))
        if n % 97 == 0:
            lines.append("")
    return "\n".join(lines) + "\n"


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of a few lines and a pool for any size, so a small file exercises the workers."""
    monkeypatch.setattr(validate_module, "MIN_CHUNK_BYTES", 1500)
    monkeypatch.setattr(validate_module, "MAX_CHUNK_BYTES", 1500)


@pytest.mark.usefixtures("small_chunks")
def test_workers_find_exactly_what_one_process_finds(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (in_tmp / "a.jsonl").write_text(mixed_set(600))
    (in_tmp / "b.jsonl").write_bytes(b'\xef\xbb\xbf{"qid": "x"}\n' + mixed_set(40).encode())
    plan = validate_module.plan_file(in_tmp / "a.jsonl", jobs=2, schema_text=None)
    assert isinstance(plan, validate_module.FilePlan) and len(plan.tasks) > 20
    pools: list[int] = []
    real_map = processes.parallel_map

    def spy(func: Any, tasks: list[validate_module.ChunkTask], *, workers: int) -> Any:
        pools.append(workers)
        return real_map(func, tasks, workers=workers)

    monkeypatch.setattr(command, "parallel_map", spy)
    one = run_json(capsys, "a.jsonl", "b.jsonl", "--jobs", "1")
    two = run_json(capsys, "a.jsonl", "b.jsonl", "--jobs", "2")
    assert pools == [1, 2]
    assert one == two
    code, found = two
    assert code == 1
    repeats = [f for f in found if f["code"] == "RV004"]
    assert len(repeats) > 50
    for finding in repeats:  # every repeat names the line of the first occurrence
        first = int(finding["message"].split("first at line ")[1].split(")")[0])
        assert first < finding["line"]
        assert finding["column"] == 9
    assert {f["code"] for f in found} == {"RV002", "RV004", "RV005", "RV007", "RV009", "IO002"}


@pytest.mark.usefixtures("small_chunks")
def test_line_numbers_run_on_across_chunks(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [json.dumps({**GOOD, "qid": f"q{n}"}) for n in range(400)]
    lines[333] = "{broken"
    (in_tmp / "set.jsonl").write_text("\n".join(lines) + "\n")
    code, found = run_json(capsys, "set.jsonl", "--jobs", "2")
    assert code == 1
    assert [(f["line"], f["code"]) for f in found] == [(334, "IO008")]


def test_chunks_cover_every_line_once(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text("".join(f'{{"n": {n}, "pad": "{"x" * (n % 50)}"}}\n' for n in range(500)))
    size = path.stat().st_size
    seen: list[int] = []
    for start in range(0, size, 997):
        task = validate_module.ChunkTask(str(path), "set.jsonl", start, min(start + 997, size))
        result = validate_module.check_chunk(task)
        seen.extend(range(result.lines))
    assert len(seen) == 500


def test_an_unreadable_chunk_is_a_finding(tmp_path: Path) -> None:
    task = validate_module.ChunkTask(str(tmp_path / "gone.jsonl"), "gone.jsonl", 0, 10)
    result = validate_module.check_chunk(task)
    (finding,) = result.diagnostics
    assert (finding.code, finding.path, finding.line) == ("IO007", "gone.jsonl", 1)
    assert "cannot read the file" in finding.message
