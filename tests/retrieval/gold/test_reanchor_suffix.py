"""A file renamed to another extension of its language (`usage.js` -> `usage.cjs`, a test
in TypeScript now in JavaScript): its IDs follow their names into the one file of its path
but for the extension, new since (yargs 16 in a plain tree; date-fns 2.29 with git, which
saw no rename)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

STEP = "  step()\n"
# Three tests, each a line longer than the one before: one shift places their `foo`s.
TESTS = "".join(
    f"it('case {n}', function () {{\n  function foo (x) {{\n    return x + {n}\n  }}\n"
    + STEP * n
    + "  run(foo)\n})\n\n"
    for n in range(3)
)
NOOP = "function noop () {}\n\n"


@pytest.mark.parametrize(
    ("old_path", "new_path"),
    [("test/usage.js", "test/usage.cjs"), ("test/usage.ts", "test/usage.cjs")],
)
def test_a_file_under_another_extension_takes_its_ids(
    old_path: str, new_path: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write(old_path, NOOP + TESTS)
    old = repo.commit("tests")
    gold = [
        chunk_id(repo, old_path, "noop"),
        *(chunk_id(repo, old_path, "foo", n) for n in range(3)),
    ]
    repo.rm(old_path)
    repo.write(new_path, "'use strict'\n" + NOOP + TESTS)
    repo.commit("tests as CommonJS")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    want = [
        chunk_id(repo, new_path, "noop"),
        *(chunk_id(repo, new_path, "foo", n) for n in range(3)),
    ]
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
        ("relocated", w) for w in want
    ]
    suffixes = f"{old_path.rpartition('.')[2]} -> .cjs"
    assert (
        got[gold[0]]["evidence"]
        == f"same name in {new_path}, its file under another extension (.{suffixes})"
    )


def test_two_files_under_other_extensions_take_none(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("lib/usage.js", NOOP)
    old = repo.commit("lib")
    gold = [chunk_id(repo, "lib/usage.js", "noop")]
    repo.rm("lib/usage.js")
    repo.write("lib/usage.cjs", NOOP)
    repo.write("lib/usage.mjs", NOOP)
    repo.commit("two builds")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[0]]["kind"] == "missing_file"


def test_a_file_the_set_shows_was_there_is_no_new_home(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("lib/usage.js", NOOP)
    repo.write("lib/usage.ts", "function helper () {}\n\n" + NOOP)
    old = repo.commit("both")
    gold = [chunk_id(repo, "lib/usage.js", "noop"), chunk_id(repo, "lib/usage.ts", "helper")]
    repo.rm("lib/usage.js")
    repo.commit("the JavaScript one deleted")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[0]]["kind"] == "missing_file"


def locale(words: list[str], typed: bool) -> str:
    """A locale of date-fns: a table of words and `formatDistance`, first in JavaScript,
    then as TypeScript with the table retyped and the helper inlined."""
    if typed:
        table = "".join(f"  {w}: {{ one: '{w} 1', other: '{w} n' }},\n" for w in words)
        head = f"const formatDistanceLocale: FormatDistanceLocale = {{\n{table}}}\n\n"
        return head + (
            "const formatDistance: FormatDistanceFn = (token, count, options) => {\n"
            "  const tokenValue = formatDistanceLocale[token]\n"
            "  let result = count === 1 ? tokenValue.one : tokenValue.other\n"
            "  if (options?.addSuffix) {\n"
            "    result = 'in ' + result\n"
            "  }\n"
            "  return result.replace('{{count}}', String(count))\n"
            "}\n\nexport default formatDistance\n"
        )
    table = "".join(f"  {w}: {{\n    one: '{w} 1',\n    other: '{w} n'\n  }},\n" for w in words)
    return f"var formatDistanceLocale = {{\n{table}}}\n\n" + (
        "export default function formatDistance(token, count, options) {\n"
        "  options = options || {}\n"
        "  var result\n"
        "  if (typeof formatDistanceLocale[token] === 'string') {\n"
        "    result = formatDistanceLocale[token]\n"
        "  } else if (count === 1) {\n"
        "    result = formatDistanceLocale[token].one\n"
        "  } else {\n"
        "    result = formatDistanceLocale[token].other.replace('{{count}}', count)\n"
        "  }\n"
        "  if (options.addSuffix) {\n"
        "    return 'in ' + result\n"
        "  }\n"
        "  return result\n"
        "}\n"
    )


@pytest.mark.parametrize("suffixes", [(".js", ".ts"), (".jsx", ".tsx")])
def test_with_git_a_file_rewritten_under_another_extension_takes_its_ids(
    suffixes: tuple[str, str], repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """date-fns 2.29: each locale's `index.js` became `index.ts`, too rewritten for git to
    see a rename, and the bodies, rewritten alike in every locale, say no one place."""
    old_suffix, new_suffix = suffixes
    words = {
        "hu": ["perc", "ora", "nap", "het", "honap", "ev"],
        "lt": ["minute", "valanda", "diena", "savaite", "menuo", "metai"],
    }
    for lang, table in words.items():
        repo.write(f"src/locale/{lang}/index{old_suffix}", locale(table, typed=False))
    old = repo.commit("locales")
    path = f"src/locale/hu/index{old_suffix}"
    gold = [chunk_id(repo, path, "formatDistance")]
    for lang, table in words.items():
        repo.rm(f"src/locale/{lang}/index{old_suffix}")
        repo.write(f"src/locale/{lang}/index{new_suffix}", locale(table, typed=True))
    repo.commit("locales in TypeScript")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    new_path = f"src/locale/hu/index{new_suffix}"
    assert (got[gold[0]]["kind"], got[gold[0]]["new_chunk_id"]) == (
        "renamed_file",
        chunk_id(repo, new_path, "formatDistance"),
    )
    how = f"{old_suffix} -> {new_suffix}"
    assert got[gold[0]]["evidence"] == (
        f"same name in {new_path}, its file under another extension ({how})"
    )


def test_with_git_a_file_there_at_the_revision_is_no_new_home(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("lib/usage.js", NOOP)
    repo.write("lib/usage.ts", "function helper () {}\n")
    old = repo.commit("both")
    gold = [chunk_id(repo, "lib/usage.js", "noop")]
    repo.rm("lib/usage.js")
    repo.write("lib/usage.ts", "function helper () {}\n\nfunction noop () {\n  return null\n}\n")
    repo.commit("the JavaScript one deleted, a noop written in the other")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["kind"] == "missing_file"


def test_with_git_lines_of_a_file_rewritten_under_another_extension_stay_missing(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a span without a name: in a file git could not pair, its line numbers mean nothing
    words = ["perc", "ora", "nap", "het", "honap", "ev"]
    repo.write("src/locale/hu/index.js", locale(words, typed=False))
    old = repo.commit("locale")
    gold = ["src/locale/hu/index.js:3-5"]
    repo.rm("src/locale/hu/index.js")
    repo.write("src/locale/hu/index.ts", locale(words, typed=True))
    repo.commit("locale in TypeScript")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert (got[gold[0]]["kind"], got[gold[0]]["new_chunk_id"]) == ("missing_file", None)


HOOKS_JS = """import { defaults } from './defaults.js';

export class Hooks {
  constructor(options) {
    this.options = options || defaults;
  }

  preprocess(markdown) {
    return markdown;
  }

  postprocess(html) {
    return html;
  }
}
"""
# marked 6: each source file rewritten in TypeScript, too much for git to pair it, and each
# class renamed with a leading underscore.
HOOKS_TS = """import { _defaults } from './defaults.ts';
import type { MarkedOptions } from './MarkedOptions.ts';

export class _Hooks {
  options: MarkedOptions;

  constructor(options?: MarkedOptions) {
    this.options = options || _defaults;
  }

  /**
   * Process markdown before marked
   */
  preprocess(markdown: string) {
    return markdown;
  }

  /**
   * Process HTML after marked is finished
   */
  postprocess(html: string) {
    return html;
  }
}
"""


def test_a_type_renamed_in_a_file_under_another_extension_is_followed(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("src/Hooks.js", HOOKS_JS)
    old = repo.commit("hooks")
    gold = [chunk_id(repo, "src/Hooks.js", "Hooks.constructor")]
    repo.rm("src/Hooks.js")
    repo.write("src/Hooks.ts", HOOKS_TS)
    repo.commit("Migrate to TypeScript")
    changes = repo.git("log", "-M", "--name-status", "--format=", "-1").split()
    assert changes == ["D", "src/Hooks.js", "A", "src/Hooks.ts"]  # git saw no rename
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    item = got[gold[0]]
    want = chunk_id(repo, "src/Hooks.ts", "_Hooks.constructor")
    assert (item["kind"], item["new_chunk_id"]) == ("relocated", want)
    assert item["evidence"].startswith("the same name spelled otherwise, body")
