"""`gold check --fix` says what it rewrote (every ID, in every format), repairs IDs that
swap spans in one run, and moves a rewritten record's `revision` to the commit its gold
now resolves at; `--format json` keeps cli.md's six statuses, with the finer `kind`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.commands.gold.test_gold_check_body_cache import HELPERS_PY
from tests.retrieval.gitrepo import GitRepo

SIX = {"ok", "moved", "renamed_file", "missing_symbol", "missing_file", "ambiguous"}
SAVE = "app/helpers.py:13-15:save_settings"
STORE = "app/config/store.py:4-6:store_settings"
LOAD = "app/helpers.py:4-10:load_settings"
TWINS = 'import os\n\nif os.name == "nt":\n    def sep():\n        return "\\\\"\nelse:\n'
TWINS += '    def sep():\n        return "/"\n'


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    return GitRepo(tmp_path / "code")


def relocate(repo: GitRepo) -> str:
    """save_settings moves to app/config/store.py as store_settings; the old commit."""
    repo.write("app/helpers.py", HELPERS_PY)
    old = repo.commit("initial")
    repo.write("app/helpers.py", HELPERS_PY.split("\n\n\ndef save_settings", maxsplit=1)[0] + "\n")
    moved = HELPERS_PY.rsplit("\n\n\n", maxsplit=1)[-1].replace("save_settings", "store_settings")
    repo.write("app/config/store.py", "import json\n\n\n" + moved)
    return old


def write(*records: Mapping[str, object]) -> Path:
    path = Path("set.jsonl")
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["gold", "check", "set.jsonl", "--root", "code", "--jobs", "1", *args])
    return code, capsys.readouterr().out


def test_every_kind_is_reported_as_one_of_the_six_statuses() -> None:
    from evaltools.retrieval.gold.reanchor.resolve import CONTRACT_STATUSES, Resolution, Status

    assert {s.value for s in CONTRACT_STATUSES} == SIX
    for status in Status:
        for gone in (False, True):
            assert Resolution(status, file_gone=gone).contract_status in CONTRACT_STATUSES


def test_a_relocated_id_is_missing_by_name_with_its_repair_first(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    old = relocate(repo)
    repo.write("app/gone.py", "x = 1\n")
    repo.commit("refactor")
    write({"qid": "q1", "gold": {SAVE: 3, LOAD: 1}, "revision": old})
    code, out = check(capsys, "--format", "json")
    assert code == 1
    found = json.loads(out)
    assert {o["status"] for o in found} <= SIX
    first = found[0]
    assert (first["status"], first["kind"], first["new_chunk_id"]) == (
        "missing_symbol",  # app/helpers.py is still there
        "relocated",
        STORE,
    )
    assert first["candidates"][0] == STORE and first["code"] == "RG009"
    # Its file gone, the same relocation is a missing file.
    repo.rm("app/helpers.py")
    repo.commit("drop helpers")
    write({"qid": "q1", "gold": {SAVE: 3}, "revision": old})
    found = json.loads(check(capsys, "--format", "json")[1])
    assert (found[0]["status"], found[0]["kind"], found[0]["new_chunk_id"]) == (
        "missing_file",
        "relocated",
        STORE,
    )


def test_fix_lists_every_rewrite_in_every_format(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    old = relocate(repo)
    repo.commit("refactor")
    record = {"qid": "q1", "gold": {SAVE: 3, LOAD: 1}, "revision": old}
    line = (
        f"set.jsonl:1:24: RG012 [info] {SAVE} -> {STORE} (relocated: its body is unchanged: "
        f"it is now {STORE}; evidence: body identical, found once)"
    )
    write(record)
    code, out = check(capsys, "--fix")
    assert code == 0
    assert line in out.splitlines()
    assert out.splitlines()[-1] == "2 gold IDs in 1 file: 1 ok, 1 relocated; 1 fixed; 1 note."
    write(record)
    found = json.loads(check(capsys, "--fix", "--format", "json")[1])
    rewritten = [o for o in found if o["fixed"]]
    assert [
        (o["chunk_id"], o["new_chunk_id"], o["code"], o["severity"], o["evidence"])
        for o in rewritten
    ] == [(SAVE, STORE, "RG012", "info", "body identical, found once")]
    write(record)
    out = check(capsys, "--fix", "--format", "github")[1]
    assert f"title=RG012 gold-id-rewritten::{SAVE} -> {STORE}" in out
    write(record)
    sarif = json.loads(check(capsys, "--fix", "--format", "sarif")[1])
    results = sarif["runs"][0]["results"]
    assert sorted(r["ruleId"] for r in results if r["level"] == "note") == ["RG012", "RG013"]


def test_fix_rewrites_ids_that_swap_spans_in_one_run(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("m.py", TWINS)
    old = repo.commit("initial")
    repo.write("m.py", "# a\n# b\n# c\n" + TWINS)
    head = repo.commit("three lines on top")
    path = write({"qid": "q1", "gold": {"m.py:7-8:sep": 3, "m.py:4-5:sep": 2}, "revision": old})
    code, out = check(capsys, "--fix")
    assert code == 0, out
    assert "would then be a gold key twice" not in out
    assert json.loads(path.read_text())["gold"] == {"m.py:10-11:sep": 3, "m.py:7-8:sep": 2}
    assert json.loads(path.read_text())["revision"] == head
    assert check(capsys)[0] == 0


def test_fix_moves_revision_so_the_next_refactor_is_followed(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """Left at the old commit, the rewritten ID's body is looked up where it did not exist
    yet: the next move reads as a missing file (RG004) instead of a relocation."""
    old = relocate(repo)
    head = repo.commit("refactor")
    untouched = {"qid": "q2", "gold": {LOAD: 2}, "revision": old, "zz": [1.50, None]}
    path = Path("set.jsonl")
    path.write_text(
        '{"revision": "'
        + old
        + '", "qid": "q1", "gold": {"'
        + SAVE
        + '": 3}, "x": {"y": 1}}\n'
        + json.dumps(untouched)
        + "\n"
    )
    code, out = check(capsys, "--fix")
    assert code == 0
    assert f"set.jsonl:1:1: RG013 [info] `revision` of q1 set to {head} (was {old})" in out
    # q2, not rewritten, resolves at HEAD as it is: its revision moves there too.
    assert f"set.jsonl:2:1: RG013 [info] `revision` of q2 set to {head} (was {old})" in out
    # Only the key and the revisions changed, byte for byte.
    assert path.read_text() == (
        '{"revision": "'
        + head
        + '", "qid": "q1", "gold": {"'
        + STORE
        + '": 3}, "x": {"y": 1}}\n'
        + json.dumps(untouched).replace(old, head)
        + "\n"
    )
    repo.git("mv", "app/config/store.py", "app/persist.py")
    repo.write("app/persist.py", repo.read("app/persist.py").replace("store_", "persist_"))
    repo.write("app/other.py", "def unrelated():\n    return 0\n")
    repo.commit("rename again")
    found = json.loads(check(capsys, "--format", "json")[1])
    assert (found[0]["kind"], found[0]["new_chunk_id"]) == (
        "relocated",
        "app/persist.py:4-6:persist_settings",
    )


def test_fix_at_rev_moves_revision_to_that_commit(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    old = relocate(repo)
    target = repo.commit("refactor")
    repo.write("app/helpers.py", "# later work\n")
    repo.commit("later")
    path = write({"qid": "q1", "gold": {SAVE: 3, LOAD: 1}, "revision": old})
    assert check(capsys, "--fix", "--rev", target)[0] == 0
    assert json.loads(path.read_text())["revision"] == target


def test_fix_in_a_changed_work_tree_keeps_revision_and_warns(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    old = relocate(repo)  # not committed: no commit holds the new IDs
    path = write({"qid": "q1", "gold": {SAVE: 3, LOAD: 1}, "revision": old})
    code, out = check(capsys, "--fix")
    assert code == 0  # a warning
    saved = json.loads(path.read_text())
    assert saved["gold"] == {STORE: 3, LOAD: 1} and saved["revision"] == old
    assert f"set.jsonl:1:1: RG014 [warning] `revision` of q1 left at {old}" in out
    assert "differ from HEAD in the work tree" in out and "commit" in out


def test_fix_of_revisions_alone_is_refused_once_when_the_file_changed(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No key to rewrite, only `revision` to move: a file edited meanwhile is still not
    written, and the run says so (once, at the file) instead of reporting the moves."""
    from evaltools.retrieval.gold import gold_check

    old = relocate(repo)
    repo.commit("refactor")
    path = write({"qid": "q2", "gold": {LOAD: 2}, "revision": old})
    real = gold_check._resolve

    def resolve_then_edit(*args: object, **kwargs: object) -> None:
        real(*args, **kwargs)  # type: ignore[arg-type]
        path.write_text(path.read_text() + "\n")

    monkeypatch.setattr(gold_check, "_resolve", resolve_then_edit)
    code, out = check(capsys, "--fix")
    assert code == 1
    refused = "set.jsonl:1:1: IO021 [error] file changed while evaltools was working on it"
    assert out.count(refused) == 1
    assert "RG013" not in out
    record = {"qid": "q2", "gold": {LOAD: 2}, "revision": old}
    assert path.read_text() == json.dumps(record) + "\n\n"
