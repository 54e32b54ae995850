"""Gold IDs across the refactors of issue 29, in every supported language: never onto a
definition that was already there under its own name at the record's revision (a twin of
another type, an identical helper in the tests), while a new home past such a twin is
still found."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy

# A type with a method long enough to be body evidence; `Alpha`/`alpha` are replaced.
TWIN = {
    "go": (
        "alpha.go",
        "package shapes\n\ntype Alpha struct {\n\tname  string\n\titems []string\n}\n\n"
        "func (s *Alpha) Render(prefix string) string {\n"
        '\tout := prefix + "alpha:" + s.name\n\tfor _, item := range s.items {\n'
        '\t\tout += "," + item\n\t}\n\treturn out\n}\n',
        "Alpha.Render",
    ),
    "python": (
        "alpha.py",
        "class Alpha:\n    def render(self, prefix):\n"
        '        out = prefix + "alpha:" + self.name\n        for item in self.items:\n'
        '            out += "," + item\n        return out\n',
        "Alpha.render",
    ),
    "typescript": (
        "alpha.ts",
        'export class Alpha {\n  name = "";\n  items: string[] = [];\n'
        "  render(prefix: string): string {\n"
        '    let out = prefix + "alpha:" + this.name;\n    for (const item of this.items) {\n'
        '      out += "," + item;\n    }\n    return out;\n  }\n}\n',
        "Alpha.render",
    ),
    "rust": (
        "alpha.rs",
        "pub struct Alpha {\n    name: String,\n    items: Vec<String>,\n}\n\nimpl Alpha {\n"
        "    pub fn render(&self, prefix: &str) -> String {\n"
        '        let mut out = format!("{}alpha:{}", prefix, self.name);\n'
        "        for item in &self.items {\n            out.push_str(item);\n        }\n"
        "        out\n    }\n}\n",
        "Alpha.render",
    ),
    "java": (
        "Alpha.java",
        "package shapes;\n\nimport java.util.List;\n\npublic class Alpha {\n"
        "    private String name;\n    private List<String> items;\n\n"
        "    public String render(String prefix) {\n"
        '        StringBuilder out = new StringBuilder(prefix + "alpha:" + name);\n'
        "        for (String item : items) {\n"
        '            out.append(",").append(item);\n        }\n'
        "        return out.toString();\n    }\n}\n",
        "Alpha.render",
    ),
}
LANGUAGES = list(TWIN)


def named(text: str, upper: str, lower: str) -> str:
    return text.replace("Alpha", upper).replace("alpha", lower)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    monkeypatch.chdir(tmp_path)
    return GitRepo(tmp_path / "code")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_removed_method_is_not_moved_onto_a_long_standing_twin(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, symbol = TWIN[language]
    repo.write(path, text)
    repo.write(named(path, "Beta", "beta"), named(text, "Beta", "beta"))
    old = repo.commit("two look-alike types")
    gold = chunk_id(repo, path, symbol)
    repo.rm(path)
    repo.commit("Alpha removed")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    item = got[gold]
    assert (item["status"], item["new_chunk_id"]) == ("missing_file", None)
    assert item["evidence"] is None
    # Still shown to a person, who decides.
    twin = chunk_id(repo, named(path, "Beta", "beta"), named(symbol, "Beta", "beta"))
    assert twin in item["candidates"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_new_home_is_found_past_a_long_standing_twin(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, symbol = TWIN[language]
    repo.write(path, text)
    repo.write(named(path, "Beta", "beta"), named(text, "Beta", "beta"))
    old = repo.commit("two look-alike types")
    gold = chunk_id(repo, path, symbol)
    repo.rm(path)
    home = named(path, "Gamma", "gamma")
    repo.write(home, named(text, "Gamma", "gamma"))
    repo.commit("Alpha becomes Gamma, in a file of its own")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    item = got[gold]
    assert item["kind"] == "relocated"
    assert item["new_chunk_id"] == chunk_id(repo, home, named(symbol, "Gamma", "gamma"))
    # A Java class is named for its file: git's rename of the file says where it went.
    if language == "java":
        assert item["evidence"] == "same name under `Gamma`, the type named for its renamed file"
    else:
        assert item["evidence"].startswith("body ")


HELPER = {
    "python": (
        "pkg/util.py",
        "tests/test_util.py",
        "def normalize(words):\n    out = []\n    for word in words:\n"
        "        out.append(word.strip().lower())\n    return sorted(set(out))\n",
    ),
    "go": (
        "util/util.go",
        "util/util_test.go",
        "func normalize(words []string) []string {\n\tout := make([]string, 0, len(words))\n"
        "\tfor _, w := range words {\n\t\tout = append(out, strings.ToLower(strings.TrimSpace(w)))"
        "\n\t}\n\treturn out\n}\n",
    ),
    "typescript": (
        "src/util.ts",
        "src/util.test.ts",
        "export function normalize(words: string[]): string[] {\n  const out: string[] = [];\n"
        "  for (const w of words) {\n    out.push(w.trim().toLowerCase());\n  }\n"
        "  return out.sort();\n}\n",
    ),
    "rust": (
        "src/util.rs",
        "tests/util.rs",
        "pub fn normalize(words: &[String]) -> Vec<String> {\n    let mut out = Vec::new();\n"
        "    for w in words {\n        out.push(w.trim().to_lowercase());\n    }\n"
        "    out.sort();\n    out\n}\n",
    ),
    "java": (
        "src/main/java/util/Util.java",
        "src/test/java/util/UtilTest.java",
        "    static List<String> normalize(List<String> words) {\n"
        "        List<String> out = new ArrayList<>();\n        for (String w : words) {\n"
        "            out.add(w.trim().toLowerCase());\n        }\n        return out;\n    }\n",
    ),
}


def helper_file(language: str, path: str, body: str) -> str:
    if language == "go":
        package = "util_test" if path.endswith("_test.go") else "util"
        return f'package {package}\n\nimport "strings"\n\n{body}'
    if language == "java":
        name = path.rpartition("/")[2].removesuffix(".java")
        return f"package util;\n\nimport java.util.*;\n\nclass {name} {{\n{body}}}\n"
    return body


def helper_and_its_copy(repo: GitRepo, language: str) -> tuple[str, str]:
    """A helper and its copy in the tests committed, then the helper removed from its file
    (not committed): the revision and the helper's gold ID."""
    source, test, body = HELPER[language]
    repo.write(source, helper_file(language, source, body))
    repo.write(test, helper_file(language, test, body))
    old = repo.commit("a helper and its copy in the tests")
    gold = chunk_id(repo, source, "Util.normalize" if language == "java" else "normalize")
    repo.write(source, helper_file(language, source, ""))
    return old, gold


@pytest.mark.parametrize("language", list(HELPER))
def test_a_removed_function_is_not_moved_onto_an_identical_test_helper(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold = helper_and_its_copy(repo, language)
    repo.commit("the helper removed")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["status"], got[gold]["new_chunk_id"]) == ("missing_symbol", None)


@pytest.mark.parametrize("language", list(HELPER))
def test_a_removed_function_is_not_moved_onto_a_newcomer_less_alike_than_its_standing_copy(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seen on express 4.17.1 -> 4.18.0: a test's local helper removed, its identical copy in
    the shared test utilities used instead, which also gained a helper 0.95 alike."""
    _, test, body = HELPER[language]
    old, gold = helper_and_its_copy(repo, language)
    alike = body.replace("normalize", "canonical").replace("ower", "pper")
    repo.write(test, helper_file(language, test, body + "\n" + alike))
    repo.commit("the helper removed; the tests' copy gains a look-alike")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["status"], got[gold]["new_chunk_id"], got[gold]["evidence"]) == (
        "missing_symbol",
        None,
        None,
    )
    newcomer = chunk_id(repo, test, "UtilTest.canonical" if language == "java" else "canonical")
    assert newcomer in got[gold]["candidates"]


def test_two_copies_merged_into_one_moved_file_both_follow(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A generated copy of a module (`deno/lib/`) and its source both at the revision; then
    the source moves and the copy goes: the moved definition is the copy's home too."""
    body = HELPER["typescript"][2]
    repo.write("src/util.ts", body)
    generated = "".join(f"// generated from src/util.ts ({n})\n" for n in range(30))
    repo.write("deno/lib/util.ts", generated + body)
    old = repo.commit("a module and its generated copy")
    gold = chunk_id(repo, "deno/lib/util.ts", "normalize")
    repo.mv("src/util.ts", "packages/v3/util.ts")
    repo.rm("deno/lib/util.ts")
    repo.commit("one package")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    new = chunk_id(repo, "packages/v3/util.ts", "normalize")
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("relocated", new)


# Two functions of one file whose names are then swapped: (path, first, second, prelude).
SWAPPED = {
    "python": (
        "io.py",
        'def load(path):\n    with open(path, encoding="utf-8") as handle:\n'
        '        text = handle.read()\n    return text.replace("\\r\\n", "\\n")\n',
        "def save(items, limit):\n    total = 0\n    for item in sorted(items, key=len):\n"
        '        total += item.count(",") * limit\n'
        '    return {"total": total, "size": len(items)}\n',
        "",
    ),
    "typescript": (
        "io.ts",
        "export function load(path: string): string {\n"
        '  const text = readFileSync(path, "utf-8");\n'
        '  return text.split("\\r\\n").join("\\n");\n}\n',
        "export function save(items: string[], limit: number): number {\n  let total = 0;\n"
        '  for (const item of items) {\n    total += item.split(",").length * limit;\n  }\n'
        "  return total;\n}\n",
        "",
    ),
    "go": (
        "io.go",
        "func load(path string) string {\n\tdata, _ := os.ReadFile(path)\n"
        '\treturn strings.ReplaceAll(string(data), "\\r\\n", "\\n")\n}\n',
        "func save(items []string, limit int) int {\n\ttotal := 0\n"
        '\tfor _, item := range items {\n\t\ttotal += strings.Count(item, ",") * limit\n\t}\n'
        "\treturn total\n}\n",
        'package io\n\nimport (\n\t"os"\n\t"strings"\n)\n\n',
    ),
}


@pytest.mark.parametrize("language", list(SWAPPED))
def test_two_functions_that_swap_names_are_hollowed_not_followed_by_name(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With history, a name now over another function's code (and its own code under the
    other name) is `hollowed`: `--fix` never moves the ID onto the code that took its name."""
    path, first, second, prelude = SWAPPED[language]
    repo.write(path, prelude + first + "\n\n" + second)
    old = repo.commit("two functions")
    gold = chunk_id(repo, path, "load")

    def swap(text: str) -> str:
        return text.replace("load(", "@(").replace("save(", "load(").replace("@(", "save(")

    repo.write(path, prelude + swap(first) + "\n\n" + swap(second))
    repo.commit("their names swapped")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old, "--fix")
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("hollowed", None)
    assert chunk_id(repo, path, "save") in got[gold]["candidates"]
    assert (tmp_path / "set.jsonl").read_text(encoding="utf-8").count(gold) == 1


@pytest.mark.parametrize("plain", [False, True])
@pytest.mark.parametrize("suffix", ["ts", "js"])
def test_a_bundles_copy_does_not_follow_its_source_into_a_renamed_file(
    suffix: str, plain: bool, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """markdown-it 14 dropped its `dist/` bundle and renamed `lib/*.js` to `*.mjs`: the
    bundle's copy of a helper is gone, not moved to the helper's own definition, which was
    there all along (a bundle of many modules copies none of them whole; without history,
    the set's ID of the helper shows its file renamed to the new one)."""
    body = HELPER["typescript"][2].replace(": string[]", "")
    others = "".join(
        f"function other{n}(value) {{\n  const doubled = value * {n};\n"
        f"  return doubled + {n};\n}}\n"
        for n in range(6)
    )
    repo.write(f"lib/util.{suffix}", body)
    repo.write(f"lib/other.{suffix}", others)
    repo.write(f"dist/bundle.{suffix}", others + body)
    old = repo.commit("modules and their bundle")
    copy = chunk_id(repo, f"dist/bundle.{suffix}", "normalize")
    own = chunk_id(repo, f"lib/util.{suffix}", "normalize")
    repo.mv(f"lib/util.{suffix}", f"lib/util.m{suffix}")
    repo.mv(f"lib/other.{suffix}", f"lib/other.m{suffix}")
    repo.rm(f"dist/bundle.{suffix}")
    repo.commit("ES modules, no bundle")
    root = plain_copy(repo, tmp_path) if plain else None
    code, got = gold_check(repo, tmp_path, capsys, [copy, own], old, root=root)
    assert code == 1
    assert got[copy]["new_chunk_id"] is None and got[copy]["status"] != "ok"
    assert got[own]["new_chunk_id"] == own.replace(f".{suffix}:", f".m{suffix}:")


def test_a_bundles_near_copy_does_not_follow_its_source_rewritten_as_a_module(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """markdown-it 14 rewrote `lib/parser_core.js` as `lib/parser_core.mjs`, too changed
    for git to pair them: its `Core` stood there all along under its own name, so the
    deleted bundle's copy of it did not move there, however alike."""
    body = HELPER["typescript"][2].replace(": string[]", "").replace("export ", "")
    requires = "".join(f"const dep{n} = require('./dep{n}');\n" for n in range(12))
    imports = "".join(f"import dep{n} from './dep{n}.mjs';\n" for n in range(12))
    repo.write("lib/core.js", requires + body + "module.exports = normalize;\n")
    repo.write("dist/bundle.js", "// bundled\n" + body.replace("out.sort()", "out.sort(cmp)"))
    old = repo.commit("a module and the bundle")
    copy = chunk_id(repo, "dist/bundle.js", "normalize")
    repo.rm("lib/core.js")
    repo.write("lib/core.mjs", imports + "export " + body)
    repo.rm("dist/bundle.js")
    repo.commit("ES modules, no bundle")
    changes = repo.git("diff", "-M", "--name-status", old, "HEAD").splitlines()
    assert "D\tlib/core.js" in changes  # git pairs it with nothing
    code, got = gold_check(repo, tmp_path, capsys, [copy], old)
    assert code == 1
    assert got[copy]["new_chunk_id"] is None
    assert got[copy]["candidates"] == [chunk_id(repo, "lib/core.mjs", "normalize")]


def test_a_bundles_near_copy_stays_though_git_pairs_the_module_with_another_file(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As above, and git pairs the new module with another deleted one: the module of the
    same name under another extension still counts, beside git's pairing."""
    body = HELPER["typescript"][2].replace(": string[]", "").replace("export ", "")
    requires = "".join(f"const dep{n} = require('./dep{n}');\n" for n in range(12))
    imports = "".join(f"import dep{n} from './dep{n}.mjs';\n" for n in range(12))
    repo.write("lib/core.js", requires + body + "module.exports = normalize;\n")
    repo.write("lib/compat.mjs", imports + "export function legacy(x) {\n  return x;\n}\n")
    repo.write("dist/bundle.js", "// bundled\n" + body.replace("out.sort()", "out.sort(cmp)"))
    old = repo.commit("modules and the bundle")
    copy = chunk_id(repo, "dist/bundle.js", "normalize")
    repo.rm("lib/core.js")
    repo.rm("lib/compat.mjs")
    repo.write("lib/core.mjs", imports + "export " + body)
    repo.rm("dist/bundle.js")
    repo.commit("ES modules, no bundle")
    changes = repo.git("diff", "-M", "--name-status", old, "HEAD").splitlines()
    assert any(c.startswith("R") and c.endswith("\tlib/compat.mjs\tlib/core.mjs") for c in changes)
    code, got = gold_check(repo, tmp_path, capsys, [copy], old)
    assert code == 1
    assert got[copy]["new_chunk_id"] is None


def test_a_deleted_type_stub_is_no_earlier_home_of_a_moved_function(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A C extension's `_speedups.pyi` declared `normalize`; the extension became
    `_speedups.py`, where `normalize` moved from `_native.py`: a stub defines nothing."""
    body = HELPER["python"][2]
    repo.write("pkg/_native.py", body + "\n\ndef keep(x):\n    return x\n")
    repo.write("pkg/_speedups.pyi", "def normalize(words: list[str]) -> list[str]: ...\n")
    old = repo.commit("a C extension and its stub")
    gold = chunk_id(repo, "pkg/_native.py", "normalize")
    repo.rm("pkg/_speedups.pyi")
    repo.write("pkg/_native.py", "def keep(x):\n    return x\n")
    helpers = "".join(f"def helper{n}(value):\n    return value * {n}\n\n\n" for n in range(8))
    repo.write("pkg/_speedups.py", helpers + body)
    repo.commit("the extension in Python")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] == chunk_id(repo, "pkg/_speedups.py", "normalize")
