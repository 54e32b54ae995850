"""Drafts and misspelt fields in a configured retrieval set: a record `gold mine` wrote is an
error until reviewed (unless its set collects drafts), `"splt"` is a warning that names
`split`, and every other unknown field is kept as it is, by `check --fix` too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.retrieval.records.validation.fast_check import record_is_clean
from evaltools.retrieval.records.validation.fields import FIELDS, misspelt
from evaltools.retrieval.records.validation.schema import default_schema
from evaltools.retrieval.records.validation.validate import Checker
from tests.commands.test_check import CODE, PYPROJECT
from tests.retrieval.gitrepo import GitRepo

GOOD = (
    '{"qid": "q1", "query": "add one to x", "type": "intent", "gold": {"src/mod.py:5-6:target": 3}}'
)
SET = "evals/retrieval.jsonl"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    """A configured project in a git repository, with one clean record."""
    monkeypatch.setenv("EVALTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    repo = GitRepo(tmp_path / "project")
    monkeypatch.chdir(repo.path)
    repo.write("pyproject.toml", PYPROJECT)
    repo.write("src/mod.py", CODE)
    repo.write(SET, GOOD + "\n")
    repo.commit("initial")
    return repo


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    code = main([*args])
    return code, capsys.readouterr().out.splitlines()


def mined(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> str:
    """The one draft `gold mine` writes for a real commit, as it writes it."""
    repo.write("src/mod.py", CODE.replace("x + 1", "x + 2"))
    repo.commit("make target add two instead of one")
    out = repo.path.parent / "mined.jsonl"
    assert main(["gold", "mine", "--repo", ".", "-o", str(out)]) == 0
    capsys.readouterr()
    line = out.read_text()
    assert line.count("\n") == 1 and '"status": "draft"' in line, line
    return line


def test_a_mined_draft_appended_to_a_configured_set_fails_check_and_validate(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    draft = mined(repo, capsys)
    before = GOOD + "\n" + draft
    repo.write(SET, before)
    column = draft.index('"draft"') + 1
    where = f"{SET}:2:{column}: RV013 [error] the record is a draft"
    for args in (["check"], ["check", "--fix"], ["validate", SET]):
        code, out = run(capsys, *args)
        assert code == 1, (args, out)
        assert [line for line in out if " RV013 " in line] == [
            line for line in out if line.startswith(where)
        ], out
        assert any(line.startswith(where) for line in out), out
        assert repo.read(SET) == before  # reported, never rewritten
    # Reviewed: `status` removed, the rest (source, revision) kept.
    reviewed = json.loads(draft)
    del reviewed["status"]
    repo.write(SET, GOOD + "\n" + json.dumps(reviewed) + "\n")
    assert run(capsys, "check")[0] == 0


def test_a_set_listed_in_drafts_may_hold_them_and_no_other(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    draft = mined(repo, capsys)
    repo.write("evals/mined.jsonl", draft)
    repo.write(
        "pyproject.toml",
        PYPROJECT.replace(
            'sets = ["evals/retrieval.jsonl"]',
            'sets = ["evals/retrieval.jsonl", "evals/mined.jsonl"]\ndrafts = ["evals/mined.jsonl"]',
        ),
    )
    code, out = run(capsys, "check")
    assert code == 0, out
    assert run(capsys, "validate", "evals")[0] == 0
    # The same draft in the set that does not collect drafts is still an error.
    repo.write(SET, GOOD + "\n" + draft)
    code, out = run(capsys, "validate", "evals")
    assert code == 1
    column = draft.index('"draft"') + 1
    assert [line.split(": ")[0] for line in out if " RV013 " in line] == [f"{SET}:2:{column}"]


@pytest.mark.parametrize(
    ("drafts", "message"),
    [
        (
            '["evals/mine.jsonl"]',
            'pyproject.toml:7:11: "evals/mine.jsonl" in `drafts` of [tool.evaltools.retrieval]: '
            "no such file or directory",
        ),
        (
            '"evals/mined.jsonl"',
            "pyproject.toml:7:10: [tool.evaltools.retrieval] drafts must be a list of paths",
        ),
    ],
)
def test_drafts_is_validated_strictly(
    repo: GitRepo,
    capsys: pytest.CaptureFixture[str],
    drafts: str,
    message: str,
) -> None:
    repo.write("evals/mined.jsonl", GOOD + "\n")
    repo.write("pyproject.toml", PYPROJECT + f"drafts = {drafts}\n")
    assert main(["check"]) == 2
    assert message in capsys.readouterr().err


def test_a_misspelt_field_is_a_warning_at_its_key_and_others_are_kept_by_fix(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    # Stale gold (target moved from 1-2 to 5-6) beside unknown fields, one of them misspelt.
    line = (
        '{"qid": "q1", "query": "add one to x", "type": "intent", '
        '"gold": {"src/mod.py:1-2:target": 3}, "splt": "holdout", '
        '"difficulty": {"level": 2.50, "why": null}, "id": "x-1"}\n'
    )
    repo.write(SET, line)
    column = line.index('"splt"') + 1
    code, out = run(capsys, "check", "--fix")
    assert code == 0, out  # a warning
    assert f"{SET}:1:{column}: RV014 [warning] unknown field \"splt\" (did you mean 'split'?)" in (
        "\n".join(out)
    )
    assert [x for x in out if (" RV014 " in x and "difficulty" in x) or "'qid'" in x] == []
    # Only the key changed, byte for byte: the unknown fields are kept as written.
    assert repo.read(SET) == line.replace("src/mod.py:1-2:target", "src/mod.py:5-6:target")


def test_close_names_and_the_fast_check_agree() -> None:
    assert tuple(default_schema()["properties"]) == FIELDS
    assert misspelt("splt") == "split"
    assert misspelt("spilt") == "split"
    assert misspelt("Revison") == "revision"
    assert misspelt("annotator") == "annotators"
    for far in ("difficulty", "source_url", "version", "tags", "split"):
        assert misspelt(far) is None, far
    base = json.loads(GOOD)
    checker, drafts = Checker(), Checker(drafts=True)
    for extra, clean, clean_in_drafts in (
        ({"splt": "tune"}, False, False),
        ({"splt": "tune", "split": "tune"}, True, True),  # both there: not a typo of it
        ({"status": "draft"}, False, True),
        ({"status": "reviewed", "difficulty": 3}, True, True),
    ):
        value = {**base, **extra}
        assert record_is_clean(value) is clean and checker.is_clean(value) is clean, extra
        assert drafts.is_clean(value) is clean_in_drafts, extra
        assert (checker.explain(value) == []) is clean, extra
        assert (drafts.explain(value) == []) is clean_in_drafts, extra


def test_a_teams_schema_names_its_own_fields_and_forbids_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    schema: dict[str, object] = {
        "$ref": "https://evaltools.invalid/schemas/retrieval-record.schema.json",
        "properties": {"difficulty": {"type": "integer"}},
    }
    Path("schema.json").write_text(json.dumps(schema))
    line = GOOD[:-1] + ', "dificulty": 2, "splt": "tune", "reviewer": "ann"}\n'
    Path("set.jsonl").write_text(line)
    code, out = run(capsys, "validate", "set.jsonl", "--schema", "schema.json")
    assert code == 0
    assert [x.split(" (did")[0] for x in out[:-1]] == [
        f"set.jsonl:1:{line.index(name) + 1}: RV014 [warning] unknown field {name}"
        for name in ('"dificulty"', '"splt"')
    ]
    # A schema that forbids unknown fields says so itself (RV011), once per field.
    schema["properties"] = {name: {} for name in [*FIELDS, "difficulty"]}
    schema["additionalProperties"] = False
    Path("schema.json").write_text(json.dumps(schema))
    code, out = run(capsys, "validate", "set.jsonl", "--schema", "schema.json")
    assert code == 1
    assert [x.split(": ")[1].split(" ")[0] for x in out[:-1]] == ["RV011"] * 3, out
