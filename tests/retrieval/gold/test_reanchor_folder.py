"""A file moved under another folder and rewritten too much for git to pair it (moment
2.10: `test/locale/af.js` -> `src/test/locale/af.js`, every locale's test rewritten for
another framework): its IDs follow their names into the one file new since the revision
whose path is the old one with folders added at its start, or taken from it. The helper
every locale's test holds alike tells no place by its body."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# Each locale's own words, which tell its test from the others'.
MONTHS = {
    "af": "Januarie Februarie Maart April Mei Junie Julie Augustus September Oktober November",
    "hr": "sijecanj veljaca ozujak travanj svibanj lipanj srpanj kolovoz rujan listopad studeni",
}
LOCALES = tuple(MONTHS)
CASES = 11


def _old_test(suffix: str, locale: str) -> str:
    """A locale's test in the old framework: a helper alike in every locale, then cases."""
    if suffix == ".py":
        head = (
            "def equal_test(value, want, index):\n"
            "    assert parse(value) == want, f'{value} should be month {index + 1}'\n\n\n"
        )
        cases = "".join(
            f"def test_{locale}_{n}(self_check):\n"
            f"    self_check.locale = '{locale}'\n"
            f"    equal_test('{MONTHS[locale].split()[n]}', {n}, {n})\n\n\n"
            for n in range(CASES)
        )
        return head + cases
    head = (
        "function equalTest(input, mmm, i) {\n"
        "  test.equal(moment(input, mmm).month(), i, input + ' should be month ' + (i + 1));\n"
        "}\n\n"
    )
    cases = "".join(
        f"exports['{locale} {n}'] = function (test) {{\n"
        f"  moment.locale('{locale}');\n"
        f"  equalTest('{MONTHS[locale].split()[n]}', 'MMM', {n});\n"
        "};\n\n"
        for n in range(CASES)
    )
    return head + cases


def _new_test(suffix: str, locale: str) -> str:
    """The same locale's test rewritten for another framework: the helper kept whole."""
    old = _old_test(suffix, locale)
    helper = old[: old.index("\n\n") + 2]
    if suffix == ".py":
        cases = "".join(
            f"@pytest.mark.locale('{locale}')\n"
            f"def test_month_{n}(checker: Checker) -> None:\n"
            f"    equal_test('{MONTHS[locale].split()[n]}', {n}, {n})\n\n\n"
            for n in range(CASES)
        )
        return "import pytest\n\n\n" + helper + "\n" + cases
    cases = "".join(
        f"test('{locale} month {n}', function (assert) {{\n"
        f"    assert.ok(equalTest('{MONTHS[locale].split()[n]}', 'MMM', {n}));\n"
        "});\n"
        for n in range(CASES)
    )
    head = f"import {{localeModule, test}} from '../qunit';\nlocaleModule('{locale}');\n\n"
    return head + helper + cases


def _verdict(item: dict[str, Any]) -> tuple[str, str | None]:
    return item["kind"], item["new_chunk_id"]


def _not_paired_by_path(item: dict[str, Any]) -> None:
    assert item["kind"] != "renamed_file"
    assert "its file moved" not in (item["evidence"] or "")


def _helper(suffix: str) -> str:
    return "equal_test" if suffix == ".py" else "equalTest"


@pytest.mark.parametrize("suffix", [".js", ".py"])
@pytest.mark.parametrize(
    "move",
    [("test/locale", "src/test/locale", "under `src/`"), ("src/test", "test", "out of `src/`")],
)
def test_a_file_moved_under_another_folder_takes_its_ids(
    suffix: str,
    move: tuple[str, str, str],
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    old_folder, new_folder, how = move
    for locale in LOCALES:
        repo.write(f"{old_folder}/{locale}{suffix}", _old_test(suffix, locale))
    old = repo.commit("locale tests")
    gold = [chunk_id(repo, f"{old_folder}/{locale}{suffix}", _helper(suffix)) for locale in LOCALES]
    for locale in LOCALES:
        repo.rm(f"{old_folder}/{locale}{suffix}")
        repo.write(f"{new_folder}/{locale}{suffix}", _new_test(suffix, locale))
    repo.commit("locale tests in another framework")
    renamed = repo.git("diff", "-M", "--name-status", old, "HEAD")
    assert "R" not in {line[0] for line in renamed.splitlines()}  # git pairs none of them
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    for locale, gold_id in zip(LOCALES, gold, strict=True):
        new_path = f"{new_folder}/{locale}{suffix}"
        assert _verdict(got[gold_id]) == (
            "renamed_file",
            chunk_id(repo, new_path, _helper(suffix)),
        )
        assert got[gold_id]["evidence"] == f"same name in {new_path}, its file moved {how}"


def test_two_files_under_other_folders_take_none(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("test/locale/af.js", _old_test(".js", "af"))
    old = repo.commit("a locale test")
    gold = [chunk_id(repo, "test/locale/af.js", "equalTest")]
    repo.rm("test/locale/af.js")
    repo.write("src/test/locale/af.js", _new_test(".js", "af"))
    repo.write("legacy/test/locale/af.js", _new_test(".js", "af"))
    repo.commit("two copies of it")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["kind"] == "copied"


def test_a_file_there_at_the_revision_is_no_new_home(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("test/locale/af.js", _old_test(".js", "af"))
    repo.write("src/test/locale/af.js", _new_test(".js", "af"))
    old = repo.commit("a locale test, and its rewrite beside it")
    gold = [chunk_id(repo, "test/locale/af.js", "equalTest")]
    repo.rm("test/locale/af.js")
    repo.commit("the old one deleted")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["kind"] == "missing_file"


def test_a_file_holding_more_of_the_old_one_leaves_it_to_a_person(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old_text = _old_test(".js", "af")
    repo.write("test/locale/af.js", old_text)
    old = repo.commit("a locale test")
    gold = [chunk_id(repo, "test/locale/af.js", "equalTest")]
    repo.rm("test/locale/af.js")
    repo.write("src/test/locale/af.js", _new_test(".js", "af"))
    # a third of the old cases kept beside the helper: more of the old file, too little
    # for git to pair them
    kept = old_text[: old_text.index("exports['af 4']")]
    repo.write("src/test/legacy.js", kept + "module.exports = {equalTest};\n" * 40)
    repo.commit("rewritten, and some kept")
    assert "R" not in {line[0] for line in repo.git("diff", "-M", "--name-status", old).split()}
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    pairing = "paired test/locale/af.js with src/test/locale/af.js, but src/test/legacy.js"
    assert pairing in got[gold[0]]["message"]  # not git, which paired nothing
    assert (got[gold[0]]["kind"], got[gold[0]]["candidates"][:2]) == (
        "ambiguous",
        [
            chunk_id(repo, "src/test/locale/af.js", "equalTest"),
            chunk_id(repo, "src/test/legacy.js", "equalTest"),
        ],
    )


def test_a_file_two_gone_files_would_take_is_the_move_of_neither(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    olds = ("test/locale/af.js", "legacy/test/locale/af.js", "test/locale/hr.js")
    for path in olds:
        repo.write(path, _old_test(".js", path.rpartition("/")[2][:2]))
    old = repo.commit("locale tests, and a copy of one")
    gold = [chunk_id(repo, "test/locale/af.js", "equalTest")]
    for path in olds:
        repo.rm(path)
    # its path ends with both af tests': either could have moved there
    repo.write("src/legacy/test/locale/af.js", _new_test(".js", "af"))
    repo.write("src/test/locale/hr.js", _new_test(".js", "hr"))
    repo.commit("rewritten under src/")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["kind"] == "copied"


RETRY = (
    "package lib\n\nfunc Retry(times int, call func() error) error {\n"
    "\tvar err error\n\tfor i := 0; i < times; i++ {\n\t\tif err = call(); err == nil {\n"
    "\t\t\treturn nil\n\t\t}\n\t}\n\treturn err\n}\n"
)
# Another package's Retry under the same path: a vendored library, its own code.
VENDORED = (
    "package lib\n\n// Retry backs off exponentially.\n"
    "func Retry(ctx context.Context, policy Policy, op Operation) (Result, error) {\n"
    "\tdelay := policy.Initial\n\tfor attempt := range policy.Attempts {\n"
    "\t\tresult, done := op.Run(ctx, attempt)\n\t\tif done {\n\t\t\treturn result, nil\n\t\t}\n"
    "\t\ttime.Sleep(delay)\n\t\tdelay = min(delay*2, policy.Max)\n\t}\n"
    "\treturn Result{}, ErrExhausted\n}\n"
)
# A test's helper, kept whole, its file's other lines rewritten (too changed for git).
FORMAT = "function format(value, width) {\n  return String(value).padStart(width, ' ');\n}\n"


def test_a_name_in_a_file_of_its_path_that_kept_none_of_its_body_is_no_move(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("internal/retry.go", RETRY)
    old = repo.commit("retry")
    gold = [chunk_id(repo, "internal/retry.go", "Retry")]
    repo.rm("internal/retry.go")
    repo.write("vendor/github.com/acme/internal/retry.go", VENDORED)
    repo.commit("retry dropped for a vendored library")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert _verdict(got[gold[0]]) == ("missing_file", None)


def test_a_file_git_paired_with_another_is_no_move_of_a_gone_one(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    helpers = FORMAT + "".join(
        f"function pad{n}(v) {{\n  return format(v, {n});\n}}\n" for n in range(9)
    )
    repo.write("x/util.js", FORMAT + "module.exports = {format};\n" * 12)
    repo.write("src/helpers.js", helpers)
    old = repo.commit("two helpers files")
    gold = [chunk_id(repo, "x/util.js", "format")]
    repo.rm("x/util.js")
    repo.mv("src/helpers.js", "lib/x/util.js")
    repo.commit("helpers moved where util was")
    status = repo.git("diff", "-M", "--name-status", "--diff-filter=R", old, "HEAD").split()
    assert status[1:] == ["src/helpers.js", "lib/x/util.js"]
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    # (the body, identical in both files then, may say what it says: not the path)
    _not_paired_by_path(got[gold[0]])


def test_a_file_of_a_repository_nested_below_is_no_move_of_a_gone_one(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("src/util.js", FORMAT + "module.exports = {format};\n")
    old = repo.commit("util")
    gold = [chunk_id(repo, "src/util.js", "format")]
    repo.rm("src/util.js")
    repo.commit("util dropped")
    nested = GitRepo(repo.path / "third_party" / "lib")
    nested.write("src/util.js", "// vendored\n" + FORMAT + "exports.format = format;\n" * 9)
    nested.commit("a library of its own")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    _not_paired_by_path(got[gold[0]])


def test_a_dropped_top_level_file_of_its_name_hides_no_definition_moved_in(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The `format` that moved into `lib/util.js` was `a/fmt.js`'s; the top-level `util.js`
    had a `format` of its own, dropped: no sign that `lib/util.js`'s stood there."""
    template = (
        "function format(template, values) {\n  let out = template;\n"
        "  for (const key of Object.keys(values)) {\n"
        "    out = out.split('{' + key + '}').join(String(values[key]));\n  }\n  return out;\n}\n"
    )
    others = "".join(f"function other{n}(x) {{\n  return x * {n} + {n};\n}}\n" for n in range(6))
    repo.write("a/fmt.js", template + others)
    repo.write("util.js", "function format(date) {\n  return new Date(date).toISOString();\n}\n")
    old = repo.commit("two formats")
    gold = [chunk_id(repo, "a/fmt.js", "format")]
    repo.rm("a/fmt.js")
    repo.rm("util.js")
    repo.write(
        "lib/util.js", "'use strict';\n\n" + template.replace("values[key]", "values[key] ?? ''")
    )
    repo.write("b/other.js", others)
    repo.commit("one format, in lib/; the rest in b/")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] == chunk_id(repo, "lib/util.js", "format")


SPLIT = {
    "format": "function format(value, width, fill) {\n  const text = String(value);\n"
    "  if (text.length >= width) return text;\n"
    "  const pad = (fill || ' ').repeat(width - text.length);\n  return pad + text;\n}\n",
    "clamp": "function clamp(value, low, high) {\n  if (value < low) return low;\n"
    "  if (value > high) return high;\n  return value;\n}\n",
    "chunk": "function chunk(items, size) {\n  const out = [];\n"
    "  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));\n"
    "  return out;\n}\n",
}

# The docs site's demo variant of `format`, more than half alike.
DEMO_FORMAT = (
    "// the docs site's demos\nfunction format(value, width) {\n  const text = String(value);\n"
    "  if (text.length >= width) return text;\n"
    "  return ' '.repeat(width - text.length) + text;\n}\n\n"
)


def test_a_variant_at_the_paths_end_yields_to_the_body_moved_whole(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`lib/utils.js` split into a module a function; the docs site's new
    `website/lib/utils.js` holds a demo variant of `format` (more than half alike) and a
    copy of `clamp`: the path says look there, the body found whole says where it went."""
    repo.write("lib/utils.js", "\n".join(SPLIT.values()) + "module.exports = {format};\n")
    old = repo.commit("utils")
    gold = [chunk_id(repo, "lib/utils.js", "format")]
    repo.rm("lib/utils.js")
    for name, body in SPLIT.items():
        repo.write(f"src/utils/{name}.js", body + f"module.exports = {name};\n")
    repo.write("website/lib/utils.js", DEMO_FORMAT + SPLIT["clamp"] + "export { format, clamp };\n")
    repo.commit("a module a function; demos for the site")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    want = chunk_id(repo, "src/utils/format.js", "format")
    assert _verdict(got[gold[0]]) == ("relocated", want)


def test_a_file_of_its_path_without_its_name_is_no_rename(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("internal/retry.go", RETRY)
    old = repo.commit("retry")
    gold = [chunk_id(repo, "internal/retry.go", "Retry")]
    repo.rm("internal/retry.go")
    repo.write("vendor/github.com/acme/internal/retry.go", VENDORED.replace("Retry", "Backoff"))
    repo.commit("retry dropped for a vendored library")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert _verdict(got[gold[0]]) == ("missing_file", None)
    assert "renamed" not in got[gold[0]]["message"]


def test_a_test_file_is_no_move_of_code_nor_code_of_a_test(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    helper = "def load(path):\n    with open(path) as handle:\n        return handle.read()\n"
    repo.write("tests/pkg/util.py", helper + "\n\ndef test_load():\n    assert load('x')\n")
    old = repo.commit("a test's helper")
    gold = [chunk_id(repo, "tests/pkg/util.py", "load")]
    repo.rm("tests/pkg/util.py")
    repo.write(
        "pkg/util.py", "import os\n\n\n" + helper.replace("path)", "path, encoding='utf-8')")
    )
    repo.commit("the tests' folder taken, the helper now code")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    _not_paired_by_path(got[gold[0]])


def test_a_deleted_package_of_a_monorepo_is_no_former_path(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`packages/legacy/src/index.js` had a `parse` of its own: deleted with its package, it
    says nothing of `src/index.js`, where `core/parse.js`'s `parse` went whole."""
    parse = (
        "function parse(input, options) {\n  const tokens = input.split(/\\s+/).filter(Boolean);\n"
        "  const out = [];\n  for (const token of tokens) {\n"
        "    if (options && options.lower) out.push(token.toLowerCase());\n"
        "    else out.push(token);\n  }\n  return out.join(' ');\n}\n"
    )
    repo.write("core/parse.js", parse + "\nmodule.exports = { parse };\n")
    legacy = "function parse(text) {\n  return JSON.parse(text);\n}\n"
    repo.write("packages/legacy/src/index.js", legacy + "module.exports = { parse };\n")
    old = repo.commit("a parser, and a legacy package")
    gold = [chunk_id(repo, "core/parse.js", "parse")]
    repo.rm("core/parse.js")
    repo.rm("packages/legacy/src/index.js")
    helpers = "".join(f"function helper{n}(x) {{ return x * {n} + 7; }}\n" for n in range(12))
    repo.write("src/index.js", helpers + parse)
    repo.commit("the parser into src/index.js; the legacy package gone")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    want = chunk_id(repo, "src/index.js", "parse")
    assert _verdict(got[gold[0]]) == ("relocated", want)


def test_a_copy_git_found_under_a_new_folder_is_still_doubted_as_git_pairs(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`lib/a.js` moved to `src/lib/a.js`, its old path a one-line re-export: git calls it a
    copy. A file holding as much of the old one, and the same `f`, splits the evidence, as
    for any pairing git made, though the path alone would also pair them."""
    module = (
        "function helperOne(x) {\n  const y = x * 2;\n  return y + 1;\n}\n\n"
        "function f(a, b) {\n  const total = a + b;\n  if (total > 10) {\n"
        "    return total - 10;\n  }\n  return total * 3;\n}\n\n"
        "function helperTwo(z) {\n  return z.map((v) => v + 1).filter((v) => v > 2);\n}\n\n"
        "module.exports = { helperOne, f, helperTwo };\n"
    )
    repo.write("lib/a.js", module)
    old = repo.commit("a module")
    gold = [chunk_id(repo, "lib/a.js", "f")]
    repo.write("src/lib/a.js", module.replace("y + 1", "y + 2"))
    repo.write("lib/a.js", "module.exports = require('../src/lib/a.js');\n")
    repo.commit("moved to src/, its old path a re-export")
    repo.write("vendor/b.js", module.replace("y + 1", "y + 2"))
    repo.commit("a vendored copy")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["kind"] == "ambiguous"
    assert "git pairs lib/a.js with src/lib/a.js" in got[gold[0]]["message"]


PAD_RIGHT = (
    "function padRight(text, width) {\n  text = String(text);\n"
    "  while (text.length < width) text = text + ' ';\n  return text;\n}\n"
)
SCALES = "".join(
    f"function scale{n}(value) {{\n  const factor = {n + 2};\n  return value * factor;\n}}\n"
    for n in range(4)
)


def test_a_pairing_one_id_earns_does_not_speak_for_another(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As above, with `padRight` kept only in the docs site's file: that file is
    `padRight`'s new home by its path, and still no home for `format` (a review's repro:
    the pairing `padRight` earned opened the file to `format`)."""
    functions = [*SPLIT.values(), SCALES, PAD_RIGHT]
    repo.write("lib/utils.js", "\n".join(functions) + "module.exports = {format};\n")
    old = repo.commit("utils")
    gold = [chunk_id(repo, "lib/utils.js", "format"), chunk_id(repo, "lib/utils.js", "padRight")]
    repo.rm("lib/utils.js")
    for name, body in [*SPLIT.items(), ("scales", SCALES)]:
        repo.write(f"src/utils/{name}.js", body + f"module.exports = {name};\n")
    site = DEMO_FORMAT + SPLIT["clamp"] + "\n" + PAD_RIGHT + "export { format, clamp, padRight };\n"
    repo.write("website/lib/utils.js", site)
    repo.commit("a module a function; demos for the site")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert _verdict(got[gold[0]]) == ("relocated", chunk_id(repo, "src/utils/format.js", "format"))
    padded = chunk_id(repo, "website/lib/utils.js", "padRight")
    assert _verdict(got[gold[1]]) == ("renamed_file", padded)
