"""`[tool.evaltools]` is one validated model: unknown keys and wrong types exit 2 at their line."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.tomllocate import KeyLines
from tests.conftest import CORPUS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def _check(in_tmp: Path, capsys: pytest.CaptureFixture[str], text: str) -> tuple[int, str]:
    (in_tmp / "pyproject.toml").write_text(text)
    (in_tmp / "evals").mkdir(exist_ok=True)
    code = main(["check"])
    captured = capsys.readouterr()
    assert captured.out == ""
    return code, captured.err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[project]\nname = "x"\n\n[tool.evaltools]\npaths = ["evals"]\nselct = ["EP1"]\n',
            "pyproject.toml:6:1: unknown key 'selct' in [tool.evaltools] (did you mean 'select'?)",
        ),
        (
            '[tool.evaltools]\npaths = ["evals"]\n\n[tool.evaltools.retreival]\nsets = ["s"]\n',
            "pyproject.toml:4:1: unknown key 'retreival' in [tool.evaltools] "
            "(did you mean 'retrieval'?)",
        ),
        (
            '[tool.evaltools]\npaths = ["evals"]\n[tool.evaltools.retrieval]\nroot = "."\n'
            'sest = ["s.jsonl"]\n',
            "pyproject.toml:5:1: unknown key 'sest' in [tool.evaltools.retrieval] "
            "(did you mean 'sets'?)",
        ),
        (
            '[tool.evaltools]\npaths = ["evals"]\n[tool.evaltools.retrieval]\n'
            "target-mix = { identifier = 3, intnt = 5 }\n",
            "pyproject.toml:4:32: unknown key 'intnt' in [tool.evaltools.retrieval.target-mix] "
            "(did you mean 'intent'?)",
        ),
        (
            '[tool.evaltools]\npaths = ["evals"]\n[tool.evaltools.retrieval.target-mix]\n'
            "identifier = 3\n\nidentifer = 2\n",
            "pyproject.toml:6:1: unknown key 'identifer' in [tool.evaltools.retrieval.target-mix] "
            "(did you mean 'identifier'?)",
        ),
        (
            '[tool.evaltools]\npaths = ["evals"]\nfrobnicate = true\n',
            "pyproject.toml:3:1: unknown key 'frobnicate' in [tool.evaltools] (valid: 'paths', "
            "'select', 'ignore', 'per-file-ignores', 'exclude', 'respect-gitignore', 'retrieval', "
            "'dupes', 'max-warnings', 'severity')",
        ),
    ],
)
def test_an_unknown_key_in_any_table_is_exit_2_at_its_line_with_the_nearest_name(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    code, err = _check(in_tmp, capsys, text)
    assert (code, err) == (2, f"evaltools check: error: {message}\n")


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        # dotted keys, under the table and from the parent table
        ('[tool.evaltools]\npaths = ["evals"]\nretrieval.sets = []\nretrieval.rot = "."\n', 4, 1),
        ('[tool]\nevaltools.paths = ["evals"]\n\nevaltools.retrieval.rot = "."\n', 4, 1),
        # an inline table
        ('[tool.evaltools]\npaths = ["evals"]\nretrieval = { sets = [], rot = "." }\n', 3, 26),
        # a key-like line inside a multi-line string or array is not a key
        (
            '[tool.other]\ntext = """\nrot = 1\n"""\n[tool.evaltools]\npaths = [\n  "evals",\n'
            ']\n"retrieval" . rot = "."\n',
            9,
            1,
        ),
    ],
)
def test_the_line_is_found_for_dotted_keys_inline_tables_and_around_strings(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], text: str, line: int, column: int
) -> None:
    code, err = _check(in_tmp, capsys, text)
    assert code == 2
    assert err == (
        f"evaltools check: error: pyproject.toml:{line}:{column}: unknown key 'rot' in "
        "[tool.evaltools.retrieval] (did you mean 'root'?)\n"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[tool.evaltools]\n\npaths = "evals"\n',
            '3:9: [tool.evaltools] paths must be a list of paths (strings), e.g. paths = ["evals"]',
        ),
        (
            '[tool.evaltools]\npaths = ["evals"]\nrespect-gitignore = "no"\n',
            "3:21: [tool.evaltools] respect-gitignore must be true or false",
        ),
        (
            '[tool.evaltools]\npaths = ["evals"]\nignore = [1]\n',
            "3:10: [tool.evaltools] ignore must be a list of rule codes, prefixes or names, e.g. "
            '["EP205"]',
        ),
        (
            '[tool.evaltools]\npaths = ["evals"]\n[tool.evaltools.per-file-ignores]\n'
            '"a/*.md" = ["EP1"]\n"b.c" = 3\n',
            '5:9: [tool.evaltools] per-file-ignores."b.c" must be a list of rule codes, prefixes '
            'or names, e.g. ["EP205"]',
        ),
        (
            '[tool.evaltools]\npaths = ["evals"]\nretrieval = 3\n',
            "3:13: [tool.evaltools.retrieval] must be a table",
        ),
        (
            '[tool.evaltools.retrieval]\nsets = ["s.jsonl"]\nmetas = false\n',
            "3:9: [tool.evaltools.retrieval] metas must be a path (a string, relative to "
            'pyproject.toml), e.g. "."',
        ),
        (
            "[tool.evaltools.retrieval]\nholdout-share = 1\n",
            "2:17: [tool.evaltools.retrieval] holdout-share must be a number between 0 and 1, "
            "e.g. 0.2",
        ),
        (
            '[tool.evaltools.retrieval]\nsets = ["s.jsonl"]\ntarget-mix = { intent = true }\n',
            "3:25: [tool.evaltools.retrieval] target-mix.intent must be a non-negative number",
        ),
    ],
)
def test_a_wrong_type_is_exit_2_at_its_line(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    code, err = _check(in_tmp, capsys, text)
    assert (code, err) == (2, f"evaltools check: error: pyproject.toml:{message}\n")


def test_every_command_reads_the_same_model(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "pyproject.toml").write_text('[tool.evaltools.retrieval]\nroot = "."\nmeta = "m"\n')
    (in_tmp / "set.jsonl").write_text("")
    expected = (
        "pyproject.toml:3:1: unknown key 'meta' in [tool.evaltools.retrieval] "
        "(did you mean 'metas'?)\n"
    )
    for argv in (["lint", "x.md"], ["validate", "set.jsonl"], ["gold", "check", "set.jsonl"]):
        assert main(argv) == 2
        assert capsys.readouterr().err == f"evaltools {' '.join(argv[:-1])}: error: {expected}"


def test_a_valid_configuration_still_passes(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        '[tool.evaltools]\npaths = ["evals"]\nignore = "EP205, EP108"\nrespect-gitignore = false\n'
        'per-file-ignores = { "evals/old/*.md" = ["EP108"] }\n'
        '[tool.evaltools.retrieval]\nsets = []\nroot = "."\nmetas = "m.jsonl"\n'
        'schema = "s.json"\ntarget-mix = { identifier = 1, intent = 1, mixed = 0 }\n'
        "holdout-share = 0.25\n"
    )
    (in_tmp / "pyproject.toml").write_text(text)
    (in_tmp / "evals").mkdir()
    shutil.copy(CORPUS / "codex-acp--add-derive.md", in_tmp / "evals")
    assert main(["check"]) == 0
    assert capsys.readouterr().out == "All checks passed: 1 file.\n"


def test_key_lines_follow_quoted_keys_and_headers_first_written() -> None:
    text = (
        "# [tool.evaltools]\n[a.'b.c']\nx = 'a\\'  # y = 1\n"
        '[a]\n"q\\u0041" = 1\n[[arr]]\nk = """x""""\nz = 2\n'
    )
    assert tomllib.loads(text)["arr"] == [{"k": 'x"', "z": 2}]  # the text is valid TOML
    lines = KeyLines(text)
    assert lines.key(("a", "b.c", "x")) == (3, 1)
    assert lines.key(("a", "b.c", "y")) == (2, 1)  # not written (a comment): its table's place
    assert lines.key(("a",)) == (4, 1)
    assert lines.key(("a", "qA")) == (5, 1)
    assert lines.value(("a", "qA")) == (5, 13)
    assert lines.key(("arr", "z")) == (8, 1)
    assert lines.key(("missing",)) == (1, 1)
    assert lines.value(("missing",)) == (1, 1)


def test_key_lines_place_each_item_of_an_array_but_not_of_a_nested_one() -> None:
    text = 'k = [\n  "a",  "é",\n  ["x", "y", "z"], "b"]\nt = { u = ["v", "w"] }\n'
    lines = KeyLines(text)
    assert lines.value(("k",)) == (1, 5)
    assert [lines.item(("k",), n) for n in range(4)] == [(2, 3), (2, 9), (3, 3), (3, 20)]
    assert lines.item(("k",), 4) == (1, 5)  # no such item: the value's place
    assert lines.item(("t", "u"), 1) == (4, 17)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[tool.evaltools]\nselect = ["EP1",\n    "XX1"]\n',
            "pyproject.toml:3:5: unknown rule selector 'XX1' in [tool.evaltools] select "
            "(`evaltools rule` lists the rules)",
        ),
        (
            '[tool.evaltools]\nignore = ["EP108,ep2"]\n',
            "pyproject.toml:2:11: unknown rule selector 'ep2' in [tool.evaltools] ignore: "
            "did you mean 'EP2'? (`evaltools rule` lists the rules)",
        ),
        (
            '[tool.evaltools]\nignore = "EP108, EP2x"\n',
            "pyproject.toml:2:10: unknown rule selector 'EP2x' in [tool.evaltools] ignore: "
            "did you mean 'EP2'? (`evaltools rule` lists the rules)",
        ),
        (
            '[tool.evaltools\nselect = ["EP1"]\n',
            "pyproject.toml:1:16: not valid TOML (Expected ']' at the end of a table "
            "declaration): fix it, or the configuration cannot be read",
        ),
        (
            '[tool.evaltools]\nselect = ["EP1"]\n# caf\xe9\n',
            "pyproject.toml:3:6: byte 0xe9 is not valid UTF-8: re-encode the file as UTF-8, "
            "or the configuration cannot be read",
        ),
    ],
)
def test_a_bad_selector_or_unreadable_configuration_is_exit_2_at_its_line_and_column(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    (in_tmp / "pyproject.toml").write_bytes(text.encode("latin-1"))
    (in_tmp / "evals").mkdir()
    assert main(["check"]) == 2
    assert capsys.readouterr().err == f"evaltools check: error: {message}\n"


def test_a_pyproject_without_the_table_is_passed_over_on_the_way_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "p1"
    (project / "evals" / "sub").mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        '[tool.evaltools]\npaths = ["evals"]\nignore = ["EP108"]\n'
    )
    # A package's own pyproject.toml below the project's, as ruff passes over one
    # without [tool.ruff]; one that only mentions evaltools is passed over too.
    (project / "evals" / "sub" / "pyproject.toml").write_text(
        '[project]\nname = "sub"  # checked by evaltools\n'
    )
    example = project / "evals" / "repo--stray-text.md"
    shutil.copyfile(CORPUS / "codex-acp--add-derive.md", example)
    with example.open("a") as handle:
        handle.write("\nstray text\n")
    monkeypatch.chdir(project / "evals" / "sub")
    assert main(["lint", "../repo--stray-text.md"]) == 0
    assert capsys.readouterr().out == "All checks passed: 1 file.\n"
    # The round trip still loses the text (RT002): check found the configured paths.
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert "repo--stray-text.md:71:1: RT002" in out and "EP108" not in out


@pytest.mark.parametrize(
    ("argv", "text", "message"),
    [
        (
            ["check"],
            '[tool.evaltools]\npaths = [\n  "evals",\n  "nonexistent",\n]\n',
            'pyproject.toml:4:3: "nonexistent" in `paths` of [tool.evaltools]: no such file '
            "or directory (create it, or remove it from `paths`)",
        ),
        (
            ["lint"],
            '[tool.evaltools]\npaths = ["evals", "./gone/"]\n',
            'pyproject.toml:2:19: "./gone/" in `paths` of [tool.evaltools]: no such file or '
            "directory (create it, or remove it from `paths`)",
        ),
        (
            ["check"],
            '[tool.evaltools]\npaths = ["evals"]\n\n[tool.evaltools.retrieval]\n'
            'sets = ["evals/set.jsonl"]\nroot = "."\n',
            'pyproject.toml:5:9: "evals/set.jsonl" in `sets` of [tool.evaltools.retrieval]: '
            "no such file or directory (create it, or remove it from `sets`)",
        ),
        (
            ["gold", "check"],
            '[tool.evaltools.retrieval]\nsets = ["evals/set.jsonl"]\nroot = "."\n',
            'pyproject.toml:2:9: "evals/set.jsonl" in `sets` of [tool.evaltools.retrieval]: '
            "no such file or directory (create it, or remove it from `sets`)",
        ),
    ],
)
def test_a_configured_path_that_does_not_exist_is_reported_at_its_item(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], argv: list[str], text: str, message: str
) -> None:
    (in_tmp / "pyproject.toml").write_text(text)
    (in_tmp / "evals").mkdir()
    assert main(argv) == 2
    assert capsys.readouterr().err == f"evaltools {' '.join(argv)}: error: {message}\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[tool.evaltools]\npaths = ["evals"]\nmax-warnings = 0\n  max-warnings = 1\n',
            "pyproject.toml:4:3: key `max-warnings` is set twice, first on line 3: delete one of "
            "the two lines, or the configuration cannot be read",
        ),
        (
            '[tool.evaltools]\npaths = ["evals"]\n[tool.evaltools.retrieval]\nroot = "."\n'
            'sets = []\n"root" = ".."\n',
            "pyproject.toml:6:1: key `root` is set twice, first on line 4: delete one of the two "
            "lines, or the configuration cannot be read",
        ),
    ],
)
def test_a_key_set_twice_in_the_configuration_names_it_and_both_lines(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    # tomllib says "Cannot overwrite a value" at the end of the second line (found by the b3
    # new-user trial); the front matter's EP003 already said it this way.
    assert _check(in_tmp, capsys, text) == (2, f"evaltools check: error: {message}\n")
    assert (in_tmp / "pyproject.toml").read_text() == text
