"""Where a name, or the nesting, says more than a body alike (the ninth benchmark group):

- a method whose class was renamed with its file, its body rewritten, follows its class
  (its siblings say so) rather than a body alike under another name elsewhere
  (jackson-core 2.13: `ParserErrorHandlingTest` became `ParserErrorHandling105Test`);
- of an enclosing pair about as alike, the one that fits the old definition (its last
  name, else its depth) is where it went: a function renamed around its inner function is
  the outer one, a method is the method and not its class (jsonschema 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_follow import repo
from tests.retrieval.gold.test_reanchor_plain import plain_copy

__all__ = ["repo"]  # the fixture

# The old class, its renamed file and class with the first two bodies rewritten, and a new
# method elsewhere whose body is the old first one's with another helper's name.
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
    assert got[gold[1]]["evidence"] == f"type renamed to `{new_cls}` with 4 of 4 siblings"


ROLE = {
    "python": (
        "docs/role.py",
        '''from docutils import nodes


def setup(app):
    app.add_role("validator", {outer}("https://json-schema.org"))


def {outer}(spec):
    """
    Docutils calls the role; it cannot be a class.
    """

    def validator(name, raw_text, text, lineno, inliner):
        """Link to the documentation of a validator."""
        if text == "$ref":
            return [nodes.reference(raw_text, text, refuri=spec + "/ref")], []
        elif text == "$dynamicRef":
            return [nodes.reference(raw_text, text, refuri=spec + "/dynamic")], []
        else:
            uri = spec + "/validation#" + text.lower()
{extra}
        return [nodes.reference(raw_text, text, refuri=uri)], []

    return validator
''',
        "            uri = uri.replace(' ', '-')",
    ),
    "typescript": (
        "docs/role.ts",
        """import {{ reference }} from "docutils";

export function setup(app: App): void {{
  app.addRole("validator", {outer}("https://json-schema.org"));
}}

export function {outer}(spec: string) {{
  function validator(name: string, rawText: string, text: string): Node[] {{
    let uri: string;
    if (text === "$ref") {{
      return [reference(rawText, text, spec + "/ref")];
    }} else if (text === "$dynamicRef") {{
      return [reference(rawText, text, spec + "/dynamic")];
    }} else {{
      uri = spec + "/validation#" + text.toLowerCase();
    }}
{extra}
    return [reference(rawText, text, uri)];
  }}

  return validator;
}}
""",
        '    uri = uri.replace(" ", "-");',
    ),
}


@pytest.mark.parametrize("language", sorted(ROLE))
def test_a_function_renamed_around_its_inner_function_is_the_outer_one(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, extra = ROLE[language]
    repo.write(path, text.format(outer="docutils_sucks", extra=""))
    old = repo.commit("old")
    gold = [chunk_id(repo, path, "docutils_sucks")]
    new = text.format(outer="docutils_does_not_allow_using_classes", extra=extra)
    repo.write(path, new)
    repo.commit("renamed, the link spelt out")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] == chunk_id(
        repo, path, "docutils_does_not_allow_using_classes"
    )


ONE_METHOD = {
    "java": (
        "src/greet/Greeter.java",
        "src/welcome/Welcomer.java",
        """package {pkg};

public class {cls} {{
    public String {method}(String name, boolean formal) {{
        StringBuilder text = new StringBuilder();
        if (formal) {{
            text.append("Good day, ").append(name).append(".");
        }} else {{
            text.append("Hi ").append(name).append("!");
        }}
        return text.toString(){tail};
    }}
}}
""",
    ),
    "python": (
        "pkg/greet/greeter.py",
        "pkg/welcome/welcomer.py",
        """class {cls}:
    def {method}(self, name, formal):
        text = []
        if formal:
            text.append("Good day, " + name + ".")
        else:
            text.append("Hi " + name + "!")
        return "".join(text){tail}
""",
    ),
}


@pytest.mark.parametrize("language", sorted(ONE_METHOD))
def test_a_class_of_one_method_and_its_method_each_go_to_their_like(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A class renamed and moved with its one method renamed: the class is as alike to the
    new class as to the method; its depth says which it is."""
    path, moved, text = ONE_METHOD[language]
    repo.write(path, text.format(pkg="greet", cls="Greeter", method="greet", tail=""))
    old = repo.commit("old")
    gold = [chunk_id(repo, path, "Greeter"), chunk_id(repo, path, "Greeter.greet")]
    repo.rm(path)
    tail = ".strip()" if language == "python" else ".trim()"
    repo.write(moved, text.format(pkg="welcome", cls="Welcomer", method="welcome", tail=tail))
    repo.commit("renamed and moved")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    news = [chunk_id(repo, moved, "Welcomer"), chunk_id(repo, moved, "Welcomer.welcome")]
    assert [got[g]["new_chunk_id"] for g in gold] == news


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


SPLIT = {
    "javascript": (
        "modules/index.js",
        "modules/{name}.js",
        "underscore.js",
        """export function values(obj) {
  var _keys = keys(obj);
  var length = _keys.length;
  var values = Array(length);
  for (var i = 0; i < length; i++) {
    values[i] = obj[_keys[i]];
  }
  return values;
}
""",
        """export function pairs(obj) {
  var _keys = keys(obj);
  var length = _keys.length;
  var pairs = Array(length);
  for (var i = 0; i < length; i++) {
    pairs[i] = [_keys[i], obj[_keys[i]]];
  }
  return pairs;
}
""",
        "export {{ {name} }} from './{module}.js';\n",
    ),
    "python": (
        "pkg/index.py",
        "pkg/{name}.py",
        "bundle.py",
        """def values(obj):
    keys = list(obj)
    length = len(keys)
    result = [None] * length
    for i in range(length):
        result[i] = obj[keys[i]]
    return result
""",
        """def pairs(obj):
    keys = list(obj)
    length = len(keys)
    result = [None] * length
    for i in range(length):
        result[i] = (keys[i], obj[keys[i]])
    return result
""",
        "from pkg.{module} import {name}\n",
    ),
}


@pytest.mark.parametrize("language", sorted(SPLIT))
def test_of_copies_alike_the_one_in_a_file_named_for_it_is_its_home(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """underscore 1.11: `modules/index.js` split into a file a function, beside a bundle
    that holds them all: of the two identical bodies, the file of its name is its home."""
    path, home, bundle, values, pairs = SPLIT[language][:5]
    shell = SPLIT[language][5]
    repo.write(path, values + "\n\n" + pairs)
    old = repo.commit("old")
    gold = [chunk_id(repo, path, "values"), chunk_id(repo, path, "pairs")]
    # A private helper's module is named with a `_` (underscore's `_createEscaper.js`).
    homes = {"values": home.format(name="_values"), "pairs": home.format(name="pairs")}
    repo.write(homes["values"], values)
    repo.write(homes["pairs"], pairs)
    # Built with the rest of the library: git pairs it with no file.
    rest = "".join(values.replace("values", f"other{i}") + "\n\n" for i in range(8))
    repo.write(bundle, rest + values + "\n\n" + pairs)
    modules = {name: home.rpartition("/")[2].partition(".")[0] for name, home in homes.items()}
    repo.write(path, "".join(shell.format(name=n, module=m) for n, m in modules.items()))
    repo.commit("a module a function, and a bundle")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    news = [chunk_id(repo, homes[n], n) for n in ("values", "pairs")]
    assert [got[g]["new_chunk_id"] for g in gold] == news
    # (git pairs the old file with one of the new ones, which names the other.)
    assert got[gold[0]]["evidence"] == "body identical, the only one in a file of its name"


AT_HOME = {
    "java": (
        "src/failing/HandlingTest.java",
        "src/failing/Handling105Test.java",
        "src/read/HandlingTest.java",
        """package {pkg};

public class {cls} extends BaseTest
{{
    public void testMangledInts() throws Exception {{
        _testMangled{helper}(MODE_INPUT_STREAM);
        _testMangled{helper}(MODE_INPUT_STREAM_THROTTLED);
    }}

    public void testMangledFloats() throws Exception {{
        _testMangledFloats{helper}(MODE_INPUT_STREAM);
        _testMangledFloats{helper}(MODE_DATA_INPUT);
    }}
}}
""",
        "{cls}.testMangledInts",
        "{cls}.testMangledFloats",
    ),
    "python": (
        "tests/failing/test_handling.py",
        "tests/failing/test_handling_105.py",
        "tests/read/test_handling.py",
        """from tests.base import BaseTest  # {pkg}


class {cls}(BaseTest):
    def test_mangled_ints(self):
        self._mangled{helper}(MODE_INPUT_STREAM)
        self._mangled{helper}(MODE_INPUT_STREAM_THROTTLED)

    def test_mangled_floats(self):
        self._mangled_floats{helper}(MODE_INPUT_STREAM)
        self._mangled_floats{helper}(MODE_DATA_INPUT)
""",
        "{cls}.test_mangled_ints",
        "{cls}.test_mangled_floats",
    ),
}


@pytest.mark.parametrize("language", sorted(AT_HOME))
def test_plain_a_class_renamed_at_home_leaves_its_methods_to_a_person(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """jackson-core 2.13, in a plain tree: `failing/ParserErrorHandlingTest` became
    `ParserErrorHandling105Test` in its package, while `read/ParserErrorHandlingTest`,
    there all along, holds the same test names. Without history either may be the new
    home: both are candidates, nothing is rewritten."""
    path, renamed, other, text, ints, floats = AT_HOME[language]
    cls = "HandlingTest" if language == "java" else "TestHandling"
    new_cls = "Handling105Test" if language == "java" else "TestHandling105"
    repo.write(path, text.format(pkg="failing", cls=cls, helper="NonRoot"))
    repo.write(other, text.format(pkg="read", cls=cls, helper=""))
    repo.commit("old")
    gold = [chunk_id(repo, path, name.format(cls=cls)) for name in (ints, floats)]
    repo.rm(path)
    repo.write(renamed, text.format(pkg="failing", cls=new_cls, helper="NonRoot"))
    repo.commit("renamed at home")
    code, got = gold_check(repo, tmp_path, capsys, gold, None, root=plain_copy(repo, tmp_path))
    assert code == 1
    for gold_id, name in zip(gold, (ints, floats), strict=True):
        assert got[gold_id]["new_chunk_id"] is None
        assert {chunk_id(repo, renamed, name.format(cls=new_cls))} | {
            chunk_id(repo, other, name.format(cls=cls))
        } <= set(got[gold_id]["candidates"])


TOTAL = {
    "python": (
        "src/pricing.py",
        "def compute_total(items, threshold):\n{body}",
        "    total = 0\n    for item in items:\n        if item.weight > threshold:\n"
        "            total += item.weight * item.price\n        else:\n"
        "            total -= item.discount\n    return round(total, 2)\n",
        "class Calculator:\n    def run(self, items, threshold):\n{body}",
        "Calculator.run",
    ),
    "java": (
        "src/p/Pricing.java",
        "package p;\n\npublic class Pricing {{\n"
        "    public double computeTotal(List<Item> items, double threshold) {{\n{body}    }}\n}}\n",
        "        double total = 0;\n        for (Item item : items) {\n"
        "            if (item.weight > threshold) {\n"
        "                total += item.weight * item.price;\n            } else {\n"
        "                total -= item.discount;\n            }\n        }\n"
        "        return Math.round(total * 100) / 100.0;\n",
        "package p;\n\npublic class Calculator {{\n"
        "    public double run(List<Item> items, double threshold) {{\n{body}    }}\n}}\n",
        "Calculator.run",
    ),
}


@pytest.mark.parametrize("language", sorted(TOTAL))
def test_a_function_moved_into_a_new_class_of_one_method_is_the_method(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """(A review's case.) The class holds nothing but the method, so both are about as
    alike; the method, more alike, is where the function went, not its class."""
    path, before, body, after, method = TOTAL[language]
    repo.write(path, before.format(body=body))
    old = repo.commit("old")
    name = "compute_total" if language == "python" else "Pricing.computeTotal"
    gold = [chunk_id(repo, path, name)]
    moved = path.replace("Pricing", "Calculator").replace("pricing", "calc")
    repo.rm(path)
    indented = "".join(
        f"    {line}\n" if language == "python" else f"{line}\n" for line in body.splitlines()
    )
    repo.write(moved, after.format(body=indented))
    repo.commit("a class of one method")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] == chunk_id(repo, moved, method)


LITERAL = "'" + "ab" * 600 + "'"


@pytest.mark.parametrize("language", ["python", "javascript"])
def test_a_long_literal_leaves_the_rest_of_a_body_as_evidence(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """(A review's case.) A method with a 1,200-character literal renamed in place, body
    unchanged, while an unrelated class of its name elsewhere gains its old method name:
    the rest of the body still finds it; the name alone would not."""
    if language == "python":
        path, other = "src/jobs/export.py", "src/web/views.py"
        text = (
            "class Handler:\n    def {name}(self):\n"
            "        table = " + LITERAL + "\n"
            "        out = []\n        for item in self.items:\n"
            "            if item.key in table:\n"
            "                out.append(item.value * self.scale)\n"
            "        return out\n\n    def keep(self):\n        return 1\n"
        )
        stranger = (
            "class Handler:\n    def get(self):\n        return 1\n\n    def run(self):\n"
            "        self.start()\n        self.serve_forever()\n        self.wait()\n"
            "        self.stop()\n        return self.code\n"
        )
    else:
        path, other = "src/jobs/export.js", "src/web/views.js"
        text = (
            "class Handler {{\n  {name}() {{\n    const table = " + LITERAL + ";\n"
            "    const out = [];\n    for (const item of this.items) {{\n"
            "      if (table.includes(item.key)) {{\n        out.push(item.value * this.scale);\n"
            "      }}\n    }}\n    return out;\n  }}\n\n  keep() {{\n    return 1;\n  }}\n}}\n"
        )
        stranger = (
            "class Handler {\n  get() {\n    return 1;\n  }\n\n  run() {\n    this.start();\n"
            "    this.serveForever();\n    this.wait();\n    this.stop();\n    return this.code;\n"
            "  }\n}\n"
        )
    repo.write(path, text.format(name="run"))
    old = repo.commit("old")
    gold = [chunk_id(repo, path, "Handler.run")]
    repo.write(path, text.format(name="execute"))
    repo.write(other, stranger)
    repo.commit("renamed in place; a stranger of its old name")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] == chunk_id(repo, path, "Handler.execute")


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


COPIED = {
    "python": (
        "src/helpers.py",
        "class Helpers:\n    def compute_total(self, items):\n{body}",
        "        total = 0\n        for item in items:\n            if item.weight > 3:\n"
        "                total += item.weight * item.price\n            else:\n"
        "                total -= item.discount\n        return round(total, 2)\n",
        ("src/cart.py", "class Cart:\n    def _sum(self, items):\n{body}", "Cart._sum"),
        ("src/orders.py", "class Invoice:\n    def _sum(self, items):\n{body}", "Invoice._sum"),
        "Helpers.compute_total",
    ),
    "java": (
        "src/p/Helpers.java",
        "package p;\n\npublic class Helpers {{\n    double computeTotal(List<Item> items) {{\n"
        "{body}    }}\n}}\n",
        "        double total = 0;\n        for (Item item : items) {\n"
        "            if (item.weight > 3) {\n                total += item.weight * item.price;\n"
        "            } else {\n                total -= item.discount;\n            }\n        }\n"
        "        return total;\n",
        (
            "src/p/Cart.java",
            "package p;\n\npublic class Cart {{\n"
            "    double sum(List<Item> items) {{\n{body}    }}\n}}\n",
            "Cart.sum",
        ),
        (
            "src/q/Orders.java",
            "package q;\n\nclass Invoice {{\n"
            "    double sum(List<Item> items) {{\n{body}    }}\n}}\n",
            "Invoice.sum",
        ),
        "Helpers.computeTotal",
    ),
}


@pytest.mark.parametrize("language", sorted(COPIED))
def test_copies_under_other_names_stay_copies_whatever_their_files_are_named(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """(A review's case.) A method deleted and pasted into two classes under another name,
    one of them in a file named for its class: both copies are candidates, neither wins."""
    path, text, body, first, second, name = COPIED[language]
    repo.write(path, text.format(body=body))
    repo.write("src/keep.txt", "kept\n")
    old = repo.commit("old")
    gold = [chunk_id(repo, path, name)]
    repo.rm(path)
    for copy_path, copy_text, _ in (first, second):
        repo.write(copy_path, copy_text.format(body=body))
    repo.commit("copied twice")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] is None
    copies = {chunk_id(repo, p, n) for p, _, n in (first, second)}
    assert copies <= set(got[gold[0]]["candidates"])
