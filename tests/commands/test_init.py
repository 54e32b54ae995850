from __future__ import annotations

import io
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from evaltools.__main__ import main
from evaltools.config.precommit import REPO_URL, Request, add_evaltools, same_except_evaltools
from evaltools.config.precommit_hooks import hooks_yaml

ROOT = Path(__file__).resolve().parents[2]

CHECK_HOOK = (
    "    - id: evaltools-check\n"
    "      name: evaltools check\n"
    "      entry: evaltools check\n"
    "      language: system\n"
    "      pass_filenames: false\n"
    "      always_run: true\n"
)
ENTRY = "- repo: local\n  hooks:\n" + CHECK_HOOK

WITH_COMMENTS_AND_ANCHORS = """# project hooks
default_stages: &stages [pre-commit]   # keep
repos:
# formatters first
- repo: https://github.com/astral-sh/ruff-pre-commit
  rev: 'v0.6.0'   # pinned on purpose
  hooks: [{id: ruff, stages: *stages}, {id: ruff-format}]
- repo: local
  hooks:
  - id: x
    name: x
    entry: x
    language: system
# trailing comment
exclude: '^vendor/'
"""


def _run(tmp: Path, text: str | None, *args: str) -> tuple[int, str]:
    config = tmp / ".pre-commit-config.yaml"
    if text is not None:
        config.write_text(text)
    code = main(["init", "--config-file", str(config), *args])
    return code, config.read_text() if config.exists() else ""


def _safe_load(text: str) -> object:
    return YAML(typ="safe", pure=True).load(io.StringIO(text))


def test_adds_a_local_entry_keeping_comments_anchors_flow_and_quotes(tmp_path: Path) -> None:
    code, after = _run(tmp_path, WITH_COMMENTS_AND_ANCHORS)
    assert code == 0
    assert after == WITH_COMMENTS_AND_ANCHORS.replace(
        "# trailing comment", ENTRY.rstrip("\n") + "\n# trailing comment"
    )
    code, again = _run(tmp_path, None)
    assert (code, again) == (0, after)


def test_updates_the_rev_of_an_existing_remote_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        "repos:\n    -   repo: https://github.com/evaltools/evaltools/\n"
        "        rev: 'v0.0.9'  # old\n        hooks:\n            -   id: evaltools-lint\n"
    )
    code, after = _run(tmp_path, text, "--rev", "v0.2.0")
    assert code == 0
    assert after == text.replace("'v0.0.9'", "'v0.2.0'")
    assert "updated the evaltools entry: rev v0.0.9 -> v0.2.0" in capsys.readouterr().out


def test_creates_a_missing_file_and_fills_an_empty_list(tmp_path: Path) -> None:
    code, created = _run(tmp_path, None, "--hook", "evaltools-lint", "--hook", "evaltools-validate")
    assert code == 0
    assert created == (
        "# See https://pre-commit.com for more information\nrepos:\n  - repo: local\n"
        "    hooks:\n"
        "      - id: evaltools-lint\n        name: evaltools lint\n        entry: evaltools lint\n"
        "        language: system\n        files: \\.md$\n"
        "      - id: evaltools-validate\n        name: evaltools validate\n"
        "        entry: evaltools validate\n        language: system\n        files: \\.jsonl$\n"
    )
    code, filled = _run(tmp_path, "repos: []\nci:\n  autofix_prs: false\n")
    assert code == 0
    assert (
        filled
        == "repos:\n  - repo: local\n    hooks:\n"
        + "".join("  " + line + "\n" for line in CHECK_HOOK.splitlines())
        + "ci:\n  autofix_prs: false\n"
    )


def test_indentation_of_the_file_is_followed(tmp_path: Path) -> None:
    text = (
        "repos:\n    -   repo: https://github.com/pre-commit/pre-commit-hooks\n"
        "        rev: v4.0.0\n        hooks:\n            -   id: trailing-whitespace\n"
    )
    code, after = _run(tmp_path, text)
    assert code == 0
    assert after.startswith(text)
    assert after[len(text) :].startswith(
        "    -   repo: local\n        hooks:\n          - id: evaltools-check\n"
        "            name: evaltools check\n"
    )


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("repos:\n  - repo: [unclosed\n", ":3:1: not valid YAML"),
        ("just a string\n", ":1:1: the file has no top-level `repos:` list"),
        ("repos: [{repo: local, hooks: []}]\n", ":1:8: `repos:` is written in flow style"),
        (
            "repos:\n- repo: local\n  hooks: [{id: evaltools-lint}]\n",
            ":3:10: the evaltools entry's `hooks:` is written in flow style ([...]): add "
            "evaltools-check by hand",
        ),
    ],
)
def test_refuses_files_it_cannot_edit_safely(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, where: str
) -> None:
    code, after = _run(tmp_path, text, "--hook", "evaltools-check")
    assert code == 2  # init cannot do what was asked: a usage error, and nothing written
    assert after == text
    err = capsys.readouterr().err
    assert where in err and err.endswith("; nothing written\n")
    assert not (tmp_path / "pyproject.toml").exists()


def test_semantic_check_catches_a_change_elsewhere() -> None:
    before = "repos:\n- repo: local\n  hooks: []\n"
    edit = add_evaltools(before, Request())
    assert same_except_evaltools(before, edit.text)
    assert not same_except_evaltools(before, edit.text.replace("hooks: []", "hooks: [1]"))
    assert not same_except_evaltools(before, "repos: [")


def test_a_crlf_file_keeps_its_line_endings(tmp_path: Path) -> None:
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_bytes(b"repos:\r\n- repo: local\r\n  hooks: []\r\n")
    assert main(["init", "--config-file", str(config)]) == 0
    data = config.read_bytes()
    assert data.startswith(b"repos:\r\n- repo: local\r\n  hooks: []\r\n- repo: local\r\n")
    assert data.count(b"\n") == data.count(b"\r\n") == 11


def test_a_file_that_is_not_utf8_is_refused_at_the_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "pc.yaml"
    config.write_bytes(b"repos:\n- repo: caf\xe9\n")
    assert main(["init", "--config-file", str(config)]) == 2
    assert capsys.readouterr().err == (
        f"evaltools init: error: {config.as_posix()}:2:12: byte 0xe9 is not valid UTF-8: "
        "re-encode the file as UTF-8; nothing written\n"
    )
    assert config.read_bytes() == b"repos:\n- repo: caf\xe9\n"


def test_a_config_file_that_cannot_be_one_is_a_usage_error(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "dir.yaml").mkdir()
    assert main(["init", "--config-file", "dir.yaml"]) == 2
    assert capsys.readouterr().err == (
        "evaltools init: error: --config-file dir.yaml is not a regular file\n"
    )
    assert main(["init", "--config-file", "missing/x.yaml"]) == 2
    assert capsys.readouterr().err == (
        "evaltools init: error: cannot create missing/x.yaml: no such directory\n"
    )


def test_an_unknown_hook_is_a_usage_error_naming_the_valid_ones(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for hook, hint in (
        ("evaltools-chek", " (did you mean 'evaltools-check'?)"),
        ("nonsense", ";"),
    ):
        assert main(["init", "--hook", "evaltools-lint", "--hook", hook]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"evaltools init: error: unknown hook {hook!r}{hint}")
        assert err.endswith(
            "the hooks are: evaltools-check, evaltools-lint, evaltools-roundtrip, "
            "evaltools-roundtrip-fix, evaltools-validate, evaltools-gold-check\n"
        )
    assert sorted(p.name for p in in_tmp.iterdir()) == []


def test_hook_adds_to_an_existing_entry_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, first = _run(tmp_path, None)
    assert code == 0
    code, second = _run(tmp_path, None, "--hook", "evaltools-roundtrip-fix")
    assert code == 0
    assert second == first + (
        "      - id: evaltools-roundtrip-fix\n        name: evaltools roundtrip --fix\n"
        "        entry: evaltools roundtrip --fix\n        language: system\n"
        "        files: \\.md$\n"
    )
    assert "updated the evaltools entry: added evaltools-roundtrip-fix" in capsys.readouterr().out
    code, third = _run(tmp_path, None, "--hook", "evaltools-roundtrip-fix")
    assert (code, third) == (0, second)
    assert "already there; nothing to do" in capsys.readouterr().out
    remote = f"repos:\n- repo: {REPO_URL}\n  rev: v1\n  hooks:\n  - id: evaltools-lint\n"
    code, after = _run(tmp_path, remote, "--hook", "evaltools-validate")
    assert (code, after) == (0, remote + "  - id: evaltools-validate\n")


@pytest.mark.parametrize(
    "rev",
    [
        *("{v1}", "v1 # c", "!!python/object:os.system", "yes", "1.0", "it's", '"q"', "v1"),
        *("v1\u2028x", "v1\u2029x", "v1\x85x", "v1\tx", "v1\x1bx"),  # breaks YAML reads
    ],
)
def test_rev_and_url_are_written_as_yaml_strings(tmp_path: Path, rev: str) -> None:
    url = "https://example.com/x #y"
    code, created = _run(tmp_path, None, "--remote", url, "--rev", rev)
    assert code == 0
    loaded = _safe_load(created)
    assert loaded == {"repos": [{"repo": url, "rev": rev, "hooks": [{"id": "evaltools-check"}]}]}
    # Moving an existing entry, whatever quoting the file used.
    for old in ("v0", "'v0'", '"v0"'):
        text = f"repos:\n- repo: {REPO_URL}\n  rev: {old}   # pinned\n  hooks:\n  - id: x\n"
        code, after = _run(tmp_path, text, "--rev", rev)
        assert code == 0
        assert after.endswith("   # pinned\n  hooks:\n  - id: x\n")
        assert _safe_load(after) == {
            "repos": [{"repo": REPO_URL, "rev": rev, "hooks": [{"id": "x"}]}]
        }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rev", "v1"], "--rev pins a remote entry: give --remote URL too"),
        (["--remote", "https://x"], "--remote needs --rev"),
        (["--remote", "https://x", "--rev", "a\nb"], "--rev must be one non-empty line"),
    ],
)
def test_rev_and_remote_go_together(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["init", *args]) == 2
    assert capsys.readouterr().err.startswith(f"evaltools init: error: {message}")
    assert not (in_tmp / ".pre-commit-config.yaml").exists()


def test_a_local_entry_is_not_switched_to_remote_silently(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, local = _run(tmp_path, None)
    code, after = _run(tmp_path, None, "--remote", "https://x", "--rev", "v1")
    assert (code, after) == (2, local)
    assert "the evaltools entry is `repo: local`" in capsys.readouterr().err


def test_the_hooks_file_is_generated_from_the_one_list() -> None:
    assert (ROOT / ".pre-commit-hooks.yaml").read_text() == hooks_yaml()


def test_a_path_without_this_evaltools_is_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert _run(tmp_path, None)[0] == 0
    assert "warning: no `evaltools` on PATH, so the hook cannot run it" in capsys.readouterr().err
    other = tmp_path / "other-bin"
    other.mkdir()
    (other / "evaltools").write_text("#!/somewhere/else/python\n")
    (other / "evaltools").chmod(0o755)
    monkeypatch.setenv("PATH", str(other))
    assert _run(tmp_path, None)[0] == 0
    assert f"warning: the hook will run {other / 'evaltools'}, not the evaltools" in (
        capsys.readouterr().err
    )


def test_a_check_hook_that_skips_commits_is_pointed_at(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # What init wrote before the hook ran on every commit: kept as it is, but said.
    old = ENTRY.replace(
        "      always_run: true\n",
        "      files: \\.(md|json|jsonl|py|pyi|js|jsx|mjs|ts|tsx|go|rs|java)$\n",
    )
    text = "repos:\n" + old
    code, after = _run(tmp_path, text)
    assert (code, after) == (0, text)
    err = capsys.readouterr().err
    assert f"warning: {(tmp_path / '.pre-commit-config.yaml').as_posix()}:4: the " in err
    assert "evaltools-check hook has no `always_run: true`: add it" in err
    _run(tmp_path, "repos:\n" + ENTRY)
    assert "always_run" not in capsys.readouterr().err
