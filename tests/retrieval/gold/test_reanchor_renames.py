"""Gold IDs across the refactors of issue 29 that change names, in every language where the
construct exists: a type renamed (with its file) followed by its members, case-only renames,
uniqueness in the language's own scope, a body rewritten under a name unique in its
package, near-identical variants told apart by the one identical body; and the evidence of
every repair shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import LANGUAGES, repo

__all__ = ["repo"]  # the fixture


# A type with short members (bodies under 80 characters: no body evidence of their own).
CIRCLE = {
    "go": (
        "circle.go",
        "package shapes\n\ntype Circle struct {\n\tr float64\n}\n\n"
        "func (c *Circle) Area() float64 { return 3.14 * c.r * c.r }\n\n"
        "func (c *Circle) Scale(k float64) { c.r *= k }\n\n"
        'func (c *Circle) Name() string { return "circle" }\n',
        "Name",
    ),
    "python": (
        "circle.py",
        "class Circle:\n    def __init__(self, r):\n        self.r = r\n\n"
        "    def area(self):\n        return 3.14 * self.r * self.r\n\n"
        '    def name(self):\n        return "circle"\n',
        "name",
    ),
    "typescript": (
        "circle.ts",
        "export class Circle {\n  r = 1;\n  area(): number { return 3.14 * this.r * this.r; }\n"
        "  scale(k: number): void { this.r *= k; }\n"
        '  name(): string { return "circle"; }\n}\n',
        "name",
    ),
    "rust": (
        "circle.rs",
        "pub struct Circle {\n    r: f64,\n}\n\nimpl Circle {\n"
        "    pub fn area(&self) -> f64 { 3.14 * self.r * self.r }\n"
        "    pub fn scale(&mut self, k: f64) { self.r *= k; }\n"
        '    pub fn name(&self) -> &str { "circle" }\n}\n',
        "name",
    ),
    "java": (
        "Circle.java",
        "package shapes;\n\npublic class Circle {\n    private double r;\n\n"
        "    public double area() { return 3.14 * r * r; }\n\n"
        "    public void scale(double k) { r *= k; }\n\n"
        '    public String name() { return "circle"; }\n}\n',
        "name",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_type_renamed_with_its_file_takes_its_members_along(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, member = CIRCLE[language]
    repo.write(path, text)
    old = repo.commit("a circle")
    gold = [chunk_id(repo, path, "Circle"), chunk_id(repo, path, f"Circle.{member}")]
    new_path = path.replace("Circle", "Round").replace("circle", "round")
    repo.mv(path, new_path)
    repo.write(new_path, text.replace("Circle", "Round"))
    repo.commit("Circle is Round now")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    moved = {cid: (got[cid]["kind"], got[cid]["new_chunk_id"]) for cid in gold}
    assert moved == {
        gold[0]: ("relocated", chunk_id(repo, new_path, "Round")),
        gold[1]: ("relocated", chunk_id(repo, new_path, f"Round.{member}")),
    }
    evidence = got[gold[1]]["evidence"]
    if language == "java":  # a Java class is named for its file
        assert evidence == "same name under `Round`, the type named for its renamed file"
    else:
        assert "type renamed to `Round` with " in evidence


@pytest.mark.parametrize("language", ["go", "python"])
def test_a_type_renamed_in_place_takes_its_members_along(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, member = CIRCLE[language]
    repo.write(path, text)
    old = repo.commit("a circle")
    gold = chunk_id(repo, path, f"Circle.{member}")
    repo.write(path, text.replace("Circle", "Round"))
    repo.commit("Circle is Round now")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] == chunk_id(repo, path, f"Round.{member}")
    assert got[gold]["evidence"] == "type renamed to `Round` with 3 of 3 siblings"


# A definition renamed by case only: (file, old text, old name, new name).
CASE = {
    "go": (
        "errors.go",
        "package cli\n\ntype ExitError struct {\n\tcode int\n}\n\n"
        'func (e *ExitError) Error() string { return "exit" }\n\n'
        "func (e *ExitError) Code() int { return e.code }\n",
        "ExitError.Error",
        "exitError.Error",
    ),
    "python": (
        "client.py",
        'def getURL(base):\n    return base + "/api"\n',
        "getURL",
        "getUrl",
    ),
    "typescript": (
        "client.ts",
        'export function getURL(base: string): string {\n  return base + "/api";\n}\n',
        "getURL",
        "getUrl",
    ),
    "rust": (
        "client.rs",
        "pub struct HTTPClient {\n    url: String,\n}\n",
        "HTTPClient",
        "HttpClient",
    ),
    "java": (
        "Api.java",
        'public class Api {\n    String getURL(String base) {\n        return base + "/api";\n'
        "    }\n}\n",
        "Api.getURL",
        "Api.getUrl",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_case_only_rename_is_followed(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, before, after = CASE[language]
    repo.write(path, text)
    old = repo.commit("an exported name")
    gold = chunk_id(repo, path, before)
    repo.write(path, text.replace(before.rpartition(".")[2], after.rpartition(".")[2]))
    if language == "go":
        repo.write(path, text.replace("ExitError", "exitError"))
    repo.commit("unexported")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == (
        "relocated",
        chunk_id(repo, path, after),
    )
    assert got[gold]["evidence"].startswith("the same name but for case, body ")
    assert got[gold]["evidence"].endswith(" alike")


INT64_GO = "type Int64Flag struct {\n\tName  string\n\tValue int64\n}\n"
# Enough other flags that git sees no copy of the generated file in the new one.
STRING_GO = "".join(
    f"type {kind.title()}Flag struct {{\n\tName  string\n\tUsage string\n\tValue {kind}\n}}\n\n"
    for kind in ("string", "bool", "float64", "uint", "uint64", "duration", "rune")
)
ALTSRC_GO = "package altsrc\n\ntype Int64Flag struct {\n\tName  string\n\tValue int64\n"
ALTSRC_GO += "\tSource string\n}\n"


def split_flags(repo: GitRepo) -> tuple[str, str]:
    """`Int64Flag` moves from flag_generated.go to flag_int64.go (one field more), while
    another package defines a type of that name at both revisions; (old commit, gold)."""
    repo.write("flag_generated.go", f"package cli\n\n{INT64_GO}\n{STRING_GO}")
    repo.write("altsrc/flag.go", ALTSRC_GO)
    old = repo.commit("generated flags")
    gold = chunk_id(repo, "flag_generated.go", "Int64Flag")
    repo.write("flag_generated.go", f"package cli\n\n{STRING_GO}")
    moved = INT64_GO.replace("\tValue int64\n", "\tValue int64\n\tUsage string\n")
    repo.write("flag_int64.go", f"package cli\n\n// Int64Flag is a flag of int64.\n{moved}")
    repo.commit("one file per flag")
    return old, gold


def test_uniqueness_in_the_go_package_not_the_tree(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold = split_flags(repo)
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    new = chunk_id(repo, "flag_int64.go", "Int64Flag")
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("relocated", new)
    assert got[gold]["evidence"].startswith("body 0.")


def test_uniqueness_in_the_go_package_without_history(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, gold = split_flags(repo)
    code, got = gold_check(repo, tmp_path, capsys, [gold], None)
    assert code == 1
    new = chunk_id(repo, "flag_int64.go", "Int64Flag")
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("relocated", new)
    assert got[gold]["evidence"] == "name defined once in its package"


def test_without_history_a_python_namesake_in_the_package_is_not_enough(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Python allows one name in several modules of a package: no history, no move."""
    others = "".join(f"\n\nclass {k}Flag:\n    value = '{k}'\n" for k in ("Str", "Bool", "Float"))
    repo.write("cli/generated.py", "class Int64Flag:\n    value = 0\n" + others)
    repo.write("altsrc/flags.py", "class Int64Flag:\n    value = 1\n")
    repo.commit("flags")
    gold = chunk_id(repo, "cli/generated.py", "Int64Flag")
    repo.write("cli/generated.py", others)
    repo.write("cli/int64.py", "class Int64Flag:\n    value = 0\n    usage = ''\n")
    repo.commit("one module per flag")
    code, got = gold_check(repo, tmp_path, capsys, [gold], None)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("missing_symbol", None)
    assert got[gold]["candidates"][0] == chunk_id(repo, "cli/int64.py", "Int64Flag")


# A short function moved to another file of its package and rewritten (1 line to 6).
CLAMP = {
    "go": (
        "util.go",
        "math.go",
        "package num\n\n",
        "func clamp(v, lo, hi int) int { return min(max(v, lo), hi) }\n",
        "func clamp(v, lo, hi int) int {\n\tif v < lo {\n\t\treturn lo\n\t}\n\tif v > hi {\n"
        "\t\treturn hi\n\t}\n\treturn v\n}\n",
    ),
    "python": (
        "num/util.py",
        "num/mathx.py",
        "",
        "def clamp(v, lo, hi):\n    return min(max(v, lo), hi)\n",
        "def clamp(v, lo, hi):\n    if v < lo:\n        return lo\n    if v > hi:\n"
        "        return hi\n    return v\n",
    ),
}


@pytest.mark.parametrize("language", list(CLAMP))
def test_a_body_rewritten_under_a_name_unique_in_its_package(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, other, header, before, after = CLAMP[language]
    keep = "def double(v):\n    return 2 * v\n" if language == "python" else ""
    keep = keep or "func double(v int) int { return 2 * v }\n"
    repo.write(path, f"{header}{keep}\n\n{before}")
    repo.write("other/num.py" if language == "python" else "other/num.go", header + keep)
    old = repo.commit("clamp")
    gold = chunk_id(repo, path, "clamp")
    repo.write(path, header + keep)
    repo.write(other, f"{header}{after}")
    repo.commit("clamp moved and spelled out")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == (
        "relocated",
        chunk_id(repo, other, "clamp"),
    )
    assert got[gold]["evidence"].endswith("alike, its name unique in the package")


# Two near-identical variants of one definition (build or platform variants, overloads).
VARIANTS = {
    "rust": (
        "paths.rs",
        '#[cfg(unix)]\npub fn home_dir() -> Option<String> {\n    std::env::var("HOME").ok()\n}\n\n'
        "#[cfg(windows)]\npub fn home_dir() -> Option<String> {\n"
        '    std::env::var("USERPROFILE").ok()\n}\n',
        "home_dir",
    ),
    "python": (
        "paths.py",
        'import os\nimport sys\n\nif sys.platform != "win32":\n    def home_dir():\n'
        '        return os.environ.get("HOME")\nelse:\n    def home_dir():\n'
        '        return os.environ.get("USERPROFILE")\n',
        "home_dir",
    ),
    "java": (
        "Paths.java",
        "public class Paths {\n    public static String join(String a, String b) {\n"
        '        return a + "/" + b;\n    }\n\n    public static String join(String a, int b) {\n'
        '        return a + "/" + b;\n    }\n}\n',
        "Paths.join",
    ),
}


@pytest.mark.parametrize("language", list(VARIANTS))
def test_the_one_identical_variant_is_picked(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, symbol = VARIANTS[language]
    repo.write(path, text)
    old = repo.commit("two variants")
    gold = [chunk_id(repo, path, symbol, 0), chunk_id(repo, path, symbol, 1)]
    comment = "# paths\n" if language == "python" else "// paths\n"
    repo.write(path, comment + text)
    repo.commit("shifted by a line")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
        ("moved", chunk_id(repo, path, symbol, 0)),
        ("moved", chunk_id(repo, path, symbol, 1)),
    ]
    assert got[gold[0]]["evidence"] == "the only body identical among namesakes"


def test_fix_rewrites_and_shows_the_evidence(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, before, after = CASE["go"]
    repo.write(path, text)
    old = repo.commit("exported")
    gold = chunk_id(repo, path, before)
    repo.write(path, text.replace("ExitError", "exitError"))
    head = repo.commit("unexported")
    eval_set = tmp_path / "set.jsonl"
    record = f'{{"qid": "q1", "gold": {{"{gold}": 3}}, "revision": "{old}"}}\n'
    eval_set.write_text(record, encoding="utf-8")
    argv = ["gold", "check", "set.jsonl", "--root", "code", "--no-cache"]
    assert main(argv) == 1
    new = chunk_id(repo, path, after)
    assert capsys.readouterr().out.splitlines()[0] == (
        f"set.jsonl:1:24: RG009 [error] gold `{gold}` of q1 is stale (it is now {new}; "
        "evidence: the same name but for case, body 0.94 alike): run `evaltools gold check "
        f"set.jsonl --root code --fix` to rewrite it to `{new}`"
    )
    assert main([*argv, "--fix"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == (
        f"set.jsonl:1:24: RG012 [info] {gold} -> {new} (relocated: it is now {new}; "
        "evidence: the same name but for case, body 0.94 alike)"
    )
    assert eval_set.read_text(encoding="utf-8") == record.replace(gold, new).replace(old, head)


def value_type(kind: str, parse: str) -> str:
    name = f"{kind}Value"
    return (
        f'package cli\n\nimport "strconv"\n\ntype {name} struct {{\n\tv *{kind}\n}}\n\n'
        f"func (x *{name}) Set(s string) error {{\n\tv, err := strconv.{parse}(s, 64)\n"
        f"\tif err != nil {{\n\t\treturn err\n\t}}\n\t*x.v = {kind}(v)\n\treturn nil\n}}\n\n"
        f"func (x *{name}) Get() any {{ return *x.v }}\n\n"
        f"func (x *{name}) String() string {{ return strconv.Quote(x.Get()) }}\n"
    )


def test_a_type_removed_does_not_follow_another_types_rename(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """uint64Value is removed while float64Value becomes floatValue in a renamed file: their
    members look alike, but floatValue is float64Value's new name, not uint64Value's."""
    repo.write("flag_uint64.go", value_type("uint64", "ParseUint"))
    repo.write("flag_float64.go", value_type("float64", "ParseFloat"))
    old = repo.commit("two value types")
    gold = chunk_id(repo, "flag_uint64.go", "uint64Value.Get")
    repo.rm("flag_uint64.go")
    repo.mv("flag_float64.go", "flag_float.go")
    repo.write(
        "flag_float.go", value_type("float64", "ParseFloat").replace("float64Value", "floatValue")
    )
    repo.commit("uint64 gone, float64Value is floatValue")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["status"], got[gold]["new_chunk_id"]) == ("missing_file", None)


def test_a_name_that_was_in_the_package_twice_claims_no_newcomer(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two scripts' `main` at the revision, both gone: a new script's `main` is neither's."""
    repo.write("scripts/a.py", "def main():\n    print('a')\n")
    repo.write("scripts/b.py", "def main():\n    print('b')\n")
    old = repo.commit("two scripts")
    gold = chunk_id(repo, "scripts/a.py", "main")
    repo.rm("scripts/a.py")
    repo.rm("scripts/b.py")
    repo.write("scripts/c.py", "import sys\n\n\ndef main():\n    sys.exit(run(sys.argv))\n")
    repo.commit("a and b gone, c new")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["status"], got[gold]["new_chunk_id"]) == ("missing_file", None)


OVERLOADS = {
    "java": (
        "Paths.java",
        "public class Paths {\n    public static String join(String a, String b) {\n"
        '        return a + "/" + b;\n    }\n\n    public static String join(String a, int b) {\n'
        '        String s = String.valueOf(b);\n        return a + "/" + s;\n    }\n}\n',
        "Paths.join",
        "// paths\n",
    ),
    "python": (
        "paths.py",
        'import sys\n\nif sys.platform != "win32":\n    def home_dir():\n'
        '        home = "~"\n        return home\nelse:\n    def home_dir():\n'
        '        import os\n\n        return os.environ["USERPROFILE"]\n',
        "home_dir",
        "# paths\n",
    ),
}


@pytest.mark.parametrize("language", list(OVERLOADS))
def test_without_history_namesakes_shifted_together_are_told_apart_by_length(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, symbol, comment = OVERLOADS[language]
    repo.write(path, text)
    repo.commit("two namesakes")
    gold = [chunk_id(repo, path, symbol, 0), chunk_id(repo, path, symbol, 1)]
    repo.write(path, comment + text)
    repo.commit("shifted by a line")
    code, got = gold_check(repo, tmp_path, capsys, gold, None)
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"], got[g]["evidence"]) for g in gold] == [
        ("moved", chunk_id(repo, path, symbol, 0), "the only namesake as long"),
        ("moved", chunk_id(repo, path, symbol, 1), "the only namesake as long"),
    ]


# A short function (no body evidence of its own) renamed where it stands: same file, same
# lines, the same body; the old name gone and the new one not there before.
IN_PLACE = {
    "go": ("io.go", "package io\n\nfunc Load(p string) string {\n\treturn read(p)\n}\n", "Load"),
    "python": ("io.py", "def load(path):\n    return read(path)\n", "load"),
    "typescript": ("io.ts", "export function load(p: string) {\n  return read(p);\n}\n", "load"),
    "rust": ("io.rs", "pub fn load(p: &str) -> String {\n    read(p)\n}\n", "load"),
    "java": (
        "Io.java",
        "package io;\n\nclass Io {\n"
        "    String load(String p) {\n        return read(p);\n    }\n}\n",
        "load",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_short_function_renamed_in_place_is_followed(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, name = IN_PLACE[language]
    repo.write(path, text + ("\n" if language != "java" else ""))
    old = repo.commit("load")
    qualified = "Io.load" if language == "java" else name
    gold = [chunk_id(repo, path, qualified)]
    renamed = name + "Text" if language == "go" else name + "_text"
    repo.write(path, (text + ("\n" if language != "java" else "")).replace(name, renamed))
    repo.commit("renamed")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    new = chunk_id(repo, path, qualified.replace(name, renamed))
    assert (got[gold[0]]["kind"], got[gold[0]]["new_chunk_id"]) == ("relocated", new)
    assert "at its own lines" in got[gold[0]]["evidence"]


def test_a_short_body_at_the_same_lines_under_a_name_that_was_there_is_not_taken(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write(
        "io.py", "def load(path):\n    return read(path)\n\n\ndef other(path):\n    return 1\n"
    )
    old = repo.commit("two")
    gold = [chunk_id(repo, "io.py", "load")]
    # `other` existed at the revision: it took load's lines, it is not load renamed.
    repo.write("io.py", "def other(path):\n    return read(path)\n")
    repo.commit("load removed, other rewritten")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] is None
