"""A body alike under another name elsewhere, or the ID's name in its own scope (the
ninth benchmark group):

- a method whose class was renamed with its file, its body rewritten, follows its class
  (its siblings say so) rather than a body alike under another name elsewhere
  (jackson-core 2.13: `ParserErrorHandlingTest` became `ParserErrorHandling105Test`);
- but a name that kept little of the body does not outweigh the body found whole in a new
  helper (commander 8), nor a body renamed in its own file (a review's case)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_follow import repo
from tests.retrieval.gold.test_reanchor_nesting import TOTAL

__all__ = ["repo"]  # the fixture


RETYPED = {
    "java": (
        "src/errors/HandlingTest.java",
        "src/errors/Handling105Test.java",
        "src/read/NumbersTest.java",
        """package errors;

public class {cls} extends BaseTest
{{
    public void testMangledIntsBytes() throws Exception {{
{ints}
    }}

    public void testMangledFloatsBytes() throws Exception {{
{floats}
    }}

    public void testMangledIntsChars() throws Exception {{
        _testMangledNonRootInts(MODE_READER);
        _testMangledNonRootInts(MODE_READER_THROTTLED);
    }}

    public void testMangledFloatsChars() throws Exception {{
        _testMangledNonRootFloats(MODE_READER);
        _testMangledNonRootFloats(MODE_READER_THROTTLED);
    }}
}}
""",
        """package read;

public class NumbersTest extends BaseTest
{
    public void testBigDecimalsBytes() throws Exception {
        _testBigDecimals(MODE_INPUT_STREAM);
        _testBigDecimals(MODE_INPUT_STREAM_THROTTLED);
    }

    public void testBigFloatsBytes() throws Exception {
        _testBigFloats(MODE_INPUT_STREAM);
        _testBigFloats(MODE_INPUT_STREAM_THROTTLED);
        _testBigFloats(MODE_DATA_INPUT);
    }
}
""",
        ("{cls}.testMangledIntsBytes", "{cls}.testMangledFloatsBytes"),
        (
            "        _testMangledNonRootInts(MODE_INPUT_STREAM);\n"
            "        _testMangledNonRootInts(MODE_INPUT_STREAM_THROTTLED);",
            "        _testMangledNonRootFloats(MODE_INPUT_STREAM);\n"
            "        _testMangledNonRootFloats(MODE_INPUT_STREAM_THROTTLED);\n"
            "        _testMangledNonRootFloats(MODE_DATA_INPUT);",
        ),
        (
            "        _testMangledNonRootInts(MODE_DATA_INPUT);\n"
            "        _testMangledNonRootInts(MODE_INPUT_STREAM);",
            "        _testMangledNonRootFloats(MODE_DATA_INPUT);\n"
            "        _testMangledNonRootFloats(MODE_INPUT_STREAM);",
        ),
        ("HandlingTest", "Handling105Test"),
    ),
    "python": (
        "pkg/errors/handling.py",
        "pkg/errors/handling_105.py",
        "pkg/read/numbers.py",
        """from pkg.base import BaseTest, MODE_INPUT_STREAM, MODE_THROTTLED, MODE_DATA_INPUT


class {cls}(BaseTest):
    def mangled_ints_bytes(self):
{ints}

    def mangled_floats_bytes(self):
{floats}

    def mangled_ints_chars(self):
        self._mangled_non_root_ints(MODE_READER)
        self._mangled_non_root_ints(MODE_READER_THROTTLED)

    def mangled_floats_chars(self):
        self._mangled_non_root_floats(MODE_READER)
        self._mangled_non_root_floats(MODE_READER_THROTTLED)
""",
        """from pkg.base import BaseTest, MODE_INPUT_STREAM, MODE_THROTTLED, MODE_DATA_INPUT


class Numbers(BaseTest):
    def big_decimals_bytes(self):
        self._big_decimals(MODE_INPUT_STREAM)
        self._big_decimals(MODE_THROTTLED)

    def big_floats_bytes(self):
        self._big_floats(MODE_INPUT_STREAM)
        self._big_floats(MODE_THROTTLED)
        self._big_floats(MODE_DATA_INPUT)
""",
        ("{cls}.mangled_ints_bytes", "{cls}.mangled_floats_bytes"),
        (
            "        self._mangled_non_root_ints(MODE_INPUT_STREAM)\n"
            "        self._mangled_non_root_ints(MODE_THROTTLED)",
            "        self._mangled_non_root_floats(MODE_INPUT_STREAM)\n"
            "        self._mangled_non_root_floats(MODE_THROTTLED)\n"
            "        self._mangled_non_root_floats(MODE_DATA_INPUT)",
        ),
        (
            "        self._mangled_non_root_ints(MODE_DATA_INPUT)\n"
            "        self._mangled_non_root_ints(MODE_INPUT_STREAM)",
            "        self._mangled_non_root_floats(MODE_DATA_INPUT)\n"
            "        self._mangled_non_root_floats(MODE_INPUT_STREAM)",
        ),
        ("Handling", "Handling105"),
    ),
}


@pytest.mark.parametrize("language", sorted(RETYPED))
def test_a_method_follows_its_class_renamed_with_its_file_not_a_body_alike_elsewhere(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, renamed, elsewhere, text, other, names, before, after, classes = RETYPED[language]
    old_cls, new_cls = classes
    repo.write(path, text.format(cls=old_cls, ints=before[0], floats=before[1]))
    old = repo.commit("old")
    gold = [chunk_id(repo, path, name.format(cls=old_cls)) for name in names]
    repo.rm(path)
    repo.write(renamed, text.format(cls=new_cls, ints=after[0], floats=after[1]))
    repo.write(elsewhere, other)
    repo.commit("the class renamed with its file; numbers tests added")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    news = [chunk_id(repo, renamed, name.format(cls=new_cls)) for name in names]
    assert [got[g]["new_chunk_id"] for g in gold] == news
    # The floats body is nearer to the new numbers test than to its own rewrite.
    # A Java class is named for its file: the renamed file says where it went.
    assert got[gold[1]]["evidence"] == (
        f"same name under `{new_cls}`, the type named for its renamed file"
        if language == "java"
        else f"type renamed to `{new_cls}` with 4 of 4 siblings"
    )


PARSE_BODY = {
    "javascript": """    let userArgs;
    parseOptions = parseOptions || {};
    if (argv === undefined) {
      argv = process.argv;
      if (process.versions && process.versions.electron) {
        parseOptions.from = 'electron';
      }
    }
    this.rawArgs = argv.slice();
    switch (parseOptions.from) {
      case undefined:
      case 'node':
        this._scriptPath = argv[1];
        userArgs = argv.slice(2);
        break;
      case 'electron':
        userArgs = argv.slice(process.defaultApp ? 2 : 1);
        break;
      default:
        throw new Error(`unexpected parse option { from: '${parseOptions.from}' }`);
    }
    this._name = this._name || (this._scriptPath && path.basename(this._scriptPath));
""",
    "python": """        parse_options = parse_options or {}
        if argv is None:
            argv = sys.argv
            if getattr(sys, "frozen", False):
                parse_options["from"] = "frozen"
        self.raw_args = list(argv)
        source = parse_options.get("from")
        if source in (None, "node"):
            self._script_path = argv[0]
            user_args = argv[1:]
        elif source == "frozen":
            user_args = argv[1:] if sys.flags.interactive else argv
        else:
            raise ValueError(f"unexpected parse option from: {source!r}")
        self._name = self._name or os.path.basename(self._script_path or "")
""",
}

HOLLOWED = {
    "javascript": (
        "index.js",
        "lib/command.js",
        """const path = require('path');

class Command {{
  constructor(name) {{
    this._name = name || '';
    this.commands = [];
  }}

  {parse}
}}

exports.Command = Command;
""",
        "parse(argv, parseOptions) {{\n{body}    this._parseCommand([], userArgs);\n"
        "    return this;\n  }}",
        "parse(argv, parseOptions) {{\n"
        "    const userArgs = this._prepareUserArgs(argv, parseOptions);\n"
        "    this._parseCommand([], userArgs);\n    return this;\n  }}\n\n"
        "  _prepareUserArgs(argv, parseOptions) {{\n{body}    return userArgs;\n  }}",
        "const { Command } = require('./lib/command.js');\n\nexports.Command = Command;\n",
        "Command._prepareUserArgs",
    ),
    "python": (
        "cli/__init__.py",
        "cli/command.py",
        """import os
import sys


class Command:
    def __init__(self, name=None):
        self._name = name or ""
        self.commands = []

    {parse}
""",
        "def parse(self, argv=None, parse_options=None):\n{body}"
        "        self._parse_command([], user_args)\n        return self",
        "def parse(self, argv=None, parse_options=None):\n"
        "        user_args = self._prepare_user_args(argv, parse_options)\n"
        "        self._parse_command([], user_args)\n        return self\n\n"
        "    def _prepare_user_args(self, argv=None, parse_options=None):\n{body}"
        "        return user_args",
        "from cli.command import Command\n\n__all__ = ['Command']\n",
        "Command._prepare_user_args",
    ),
}


@pytest.mark.parametrize("language", sorted(HOLLOWED))
def test_a_body_moved_whole_into_a_helper_outweighs_its_name_kept_on_a_wrapper(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """commander 8: `Command.parse` moved from `index.js` to `lib/command.js`, its body into
    `_prepareUserArgs` and itself a few lines that call it: the body, found whole, says
    where the gold went; its name in the new module kept too little of it."""
    path, moved, text, before, after, shell, helper = HOLLOWED[language]
    body = PARSE_BODY[language]
    repo.write(path, text.format(parse=before.format(body=body)))
    old = repo.commit("old")
    gold = [chunk_id(repo, path, "Command.parse")]
    repo.write(moved, text.format(parse=after.format(body=body)))
    repo.write(path, shell)
    repo.commit("the command in its own module; parse split")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] == chunk_id(repo, moved, helper)


@pytest.mark.parametrize("language", ["python", "go"])
def test_a_body_renamed_in_place_outweighs_a_rewrite_of_its_name_in_its_package(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """(A review's case.) `compute` renamed `compute_legacy` where it stood, body
    unchanged, and a new, rewritten `compute` in a sibling module of the package: the body
    at its own lines says where the gold went."""
    if language == "python":
        path, sibling = "pkg/a.py", "pkg/b.py"
        body = TOTAL["python"][2]
        text = "def {name}(items, threshold):\n" + body + "\n\ndef keep():\n    return 1\n"
        rewrite = (
            "def compute(items, threshold):\n    total = 0\n    for item in items:\n"
            "        if item.weight > threshold:\n            total += item.weight * item.price\n"
            '    log.info("computed %s", total)\n    return total\n'
        )
        legacy = "compute_legacy"
    else:
        path, sibling = "pkg/a.go", "pkg/b.go"
        body = (
            "\ttotal := 0.0\n\tfor _, item := range items {{\n\t\tif item.Weight > threshold {{\n"
            "\t\t\ttotal += item.Weight * item.Price\n\t\t}} else {{\n"
            "\t\t\ttotal -= item.Discount\n\t\t}}\n\t}}\n\treturn math.Round(total)\n"
        )
        text = (
            "package pkg\n\nfunc {name}(items []Item, threshold float64) float64 {{\n"
            + body
            + "}}\n"
        )
        rewrite = (
            "package pkg\n\nfunc Compute(items []Item, threshold float64) float64 {\n"
            "\ttotal := 0.0\n\tfor _, item := range items {\n\t\tif item.Weight > threshold {\n"
            "\t\t\ttotal += item.Weight * item.Price\n\t\t}\n\t}\n"
            '\tlog.Printf("computed %v", total)\n\treturn total\n}\n'
        )
        legacy = "ComputeLegacy"
    name = "compute" if language == "python" else "Compute"
    repo.write(path, text.format(name=name))
    old = repo.commit("old")
    gold = [chunk_id(repo, path, name)]
    repo.write(path, text.format(name=legacy))
    # Among other functions: git pairs the sibling with no file.
    if language == "python":
        others = "".join(
            f"def other{i}(x):\n    return x * {i} + len(str(x))\n\n\n" for i in range(30)
        )
        repo.write(sibling, others + rewrite)
    else:
        others = "".join(
            f"func other{i}(x int) int {{\n\treturn x*{i} + {i}\n}}\n\n" for i in range(30)
        )
        repo.write(sibling, rewrite.replace("package pkg\n\n", "package pkg\n\n" + others))
    repo.commit("renamed in place; a rewrite beside it")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] == chunk_id(repo, path, legacy)
