"""Gold IDs resolve only to files below --root: a symbolic link out of it (a folder link
`link -> ../outside`, a file link to an absolute path) is reported, never followed, in the
work tree and at a revision; `--fix` rewrites nothing from there and candidates never come
from there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.commands.gold.test_gold_check import record, write_set
from tests.retrieval.gitrepo import GitRepo

SECRET_PY = "\n\ndef secret_fn():\n    return 'hidden'\n"  # secret_fn at 3-4
APP_PY = "def app_fn():\n    return 1\n"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp/outside (a repository, not below the root) and tmp/root (the root, a repository)
    holding `link -> ../outside`, `leak.py -> /abs/.../outside/secret.py`, and `alias.py ->
    app.py` (a link that stays below the root), all committed."""
    monkeypatch.chdir(tmp_path)
    outside = GitRepo(tmp_path / "outside")
    outside.write("secret.py", SECRET_PY)
    outside.commit("secret")
    repo = GitRepo(tmp_path / "root")
    repo.write("app.py", APP_PY)
    (repo.path / "link").symlink_to("../outside")
    (repo.path / "leak.py").symlink_to((outside.path / "secret.py").resolve())
    (repo.path / "alias.py").symlink_to("app.py")
    repo.commit("code and links")
    (tmp_path / "evals").mkdir()
    write_set(
        tmp_path,
        record("q1", "link/secret.py:1-2:secret_fn"),
        record("q2", "leak.py:1-2:secret_fn"),
        record("q3", "gone.py:1-2:secret_fn"),
        record("q4", "alias.py:1-2:app_fn"),
    )
    return repo.path


def _check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, object]]]:
    code = main(["gold", "check", "evals", "--root", "root", *args, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_the_work_tree_never_resolves_through_a_link_out_of_the_root(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, items = _check(capsys)
    assert code == 1
    assert [(i["qid"], i["status"], i["new_chunk_id"], i["candidates"]) for i in items] == [
        ("q1", "missing_file", None, []),
        ("q2", "missing_file", None, []),
        ("q3", "missing_file", None, []),  # secret_fn is defined only outside the root
        ("q4", "ok", None, []),  # a link that stays below the root is a file like any
    ]
    assert main(["gold", "check", "evals", "--root", "root"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(
        "RG004 [error] gold `link/secret.py:1-2:secret_fn` of q1 does not resolve "
        "(link/secret.py leads outside the root through the symbolic link link -> "
        "../outside: gold IDs name files below the root): replace it with what it became, "
        "or remove it"
    )
    absolute = (tmp_path / "outside" / "secret.py").resolve().as_posix()
    assert f"through the symbolic link leak.py -> {absolute}:" in out[1]
    assert "hidden" not in "\n".join(out) and "3-4" not in "\n".join(out)


def test_fix_rewrites_nothing_from_outside_the_root(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "evals" / "set.jsonl"
    before = path.read_bytes()
    assert main(["gold", "check", "evals", "--root", "root", "--fix"]) == 1
    assert path.read_bytes() == before
    assert capsys.readouterr().out.splitlines()[-1] == (
        "4 gold IDs in 1 file: 1 ok, 3 missing_file."
    )


def test_at_a_revision_links_are_not_followed_either(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, items = _check(capsys, "--rev", "HEAD")
    assert code == 1
    assert [(i["qid"], i["status"], i["candidates"]) for i in items] == [
        ("q1", "missing_file", []),
        ("q2", "missing_file", []),
        ("q3", "missing_file", []),
        # from git, a tracked link is a link, not a file; the file below the root is offered
        ("q4", "missing_file", ["app.py:1-2:app_fn"]),
    ]
    assert main(["gold", "check", "evals", "--root", "root", "--rev", "HEAD"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "(link/secret.py leads outside the root through the symbolic link link -> " in out[0]
    assert "(leak.py is a symbolic link at HEAD, not a file: name the file it points to" in out[1]
    assert "(alias.py is a symbolic link at HEAD, not a file" in out[3]
