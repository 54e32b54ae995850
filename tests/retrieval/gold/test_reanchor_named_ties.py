"""Ties that the name or the order breaks (issue 29, with git history): a body now about
as alike to two new definitions (bstr's `trim_start_with` and `trim_end_with`, JUnit 4's
`bracketsAppendedShortValue` and `...LongValue`) goes to the most alike when it alone has
the old name (but for its spelling); same-named definitions whose bodies cannot tell them
apart (two `#[cfg]` variants, overloads) keep their order."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_successors import PATHS, Body, _file, _name
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

LANGUAGES = list(PATHS)
OLD: Body = (
    [("pos", "S.find_first(pred)"), ("start", "S.offset + pos"), ("rest", "S.slice_from(start)")],
    "rest.to_owned(start, pos)",
)
# The same function edited a little, and its mirror image: both near the old body.
SAME: Body = (
    [("pos", "S.find_first(pred)"), ("start", "S.offset + pos"), ("rest", "S.bytes_from(start)")],
    "rest.to_owned(start, pos)",
)
MIRROR: Body = (
    [("pos", "S.find_last(pred)"), ("start", "S.offset + pos"), ("rest", "S.slice_to(start)")],
    "rest.to_owned(start, pos)",
)
KEEP: Body = ([], "S.offset")


def _tied(repo: GitRepo, language: str, same: Body) -> tuple[str, str]:
    """The old revision and the gold `Strip.trim_start_with`; the work tree has it in a
    new type of a new file beside its mirror `trim_end_with` (committed)."""
    old_path, new_path, _ = PATHS[language]
    start, end = _name(language, "trim_start_with"), _name(language, "trim_end_with")
    repo.write(old_path, _file(language, old_path, {"Strip": {start: OLD, "keep": KEEP}}))
    old = repo.commit("strip")
    gold = chunk_id(repo, old_path, f"Strip.{start}")
    repo.write(old_path, _file(language, old_path, {"Strip": {"keep": KEEP}}))
    repo.write(new_path, _file(language, new_path, {"Trim": {start: same, end: MIRROR}}))
    repo.commit("moved into a trait, with its mirror")
    return old, gold


@pytest.mark.parametrize("language", LANGUAGES)
def test_of_two_bodies_about_as_alike_the_most_alike_with_the_old_name_is_the_move(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold = _tied(repo, language, SAME)
    _, new_path, _ = PATHS[language]
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    want = chunk_id(repo, new_path, f"Trim.{_name(language, 'trim_start_with')}")
    assert (code, got[gold]["new_chunk_id"]) == (1, want)
    assert got[gold]["evidence"].startswith("body 0.9")
    assert " alike and its name, the next 0." in got[gold]["evidence"]
    code, _ = gold_check(repo, tmp_path, capsys, [gold], old, "--fix")
    assert code == 0
    assert want in (tmp_path / "set.jsonl").read_text(encoding="utf-8")


# The namesake rewritten further than its mirror: the old name is no longer the most alike.
FURTHER: Body = (
    [("pos", "S.seek(pred)"), ("start", "S.base - pos"), ("rest", "S.bytes_from(start)")],
    "rest.to_owned(start, pos)",
)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_old_name_on_a_less_alike_body_breaks_no_tie(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold = _tied(repo, language, FURTHER)
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert (code, got[gold]["new_chunk_id"]) == (1, None)
    before = (tmp_path / "set.jsonl").read_bytes()
    gold_check(repo, tmp_path, capsys, [gold], old, "--fix")
    assert (tmp_path / "set.jsonl").read_bytes() == before


JUNIT3 = """\
package org.ex;

public class BaseDescriptionTest extends TestCase {
  public void testBracketsAppendedShortValue() {
    description.appendValue("foo", 3);
    assertEquals("<foo> was \\"quoted\\" and bracketed", description.toString());
  }

  public void testKeep() {
    assertTrue(true);
  }
}
"""
JUNIT4 = """\
package org.ex;

public class BaseDescriptionTest {
  @Test
  public void bracketsAppendedShortValue() {
    description.appendValue("foo", 3);
    assertEquals("<foo> was \\"quoted\\" and bracketed", description.toString());
  }

  @Test
  public void bracketsAppendedLongValue() {
    description.appendValue("foo", 3L);
    assertEquals("<foo> was \\"quoted\\" and bracketed", description.toString());
  }

  @Test
  public void keep() {
    assertTrue(true);
  }
}
"""


def test_a_junit3_test_goes_to_its_junit4_name_among_bodies_as_alike(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """hamcrest 2.1: `testBracketsAppendedShortValue` became `bracketsAppendedShortValue`,
    beside a new `bracketsAppendedLongValue` of almost the same body."""
    old_path = "lib-unit-test/src/main/java/org/ex/BaseDescriptionTest.java"
    new_path = "lib/src/test/java/org/ex/BaseDescriptionTest.java"
    repo.write(old_path, JUNIT3)
    old = repo.commit("junit 3")
    gold = chunk_id(repo, old_path, "BaseDescriptionTest.testBracketsAppendedShortValue")
    repo.mv(old_path, new_path)
    repo.write(new_path, JUNIT4)
    repo.commit("junit 4")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    want = chunk_id(repo, new_path, "BaseDescriptionTest.bracketsAppendedShortValue")
    assert (code, got[gold]["new_chunk_id"]) == (1, want)
    assert "its name spelled `bracketsAppendedShortValue`, the next 0." in got[gold]["evidence"]


MATCHER_TEST = """\
package org.ex;

public class BaseMatcherTest {
  public void NAME() {
    Matcher<Object> someMatcher = new BaseMatcher<Object>() {
      public boolean matches(Object item) {
        throw new UnsupportedOperationException();
      }
    };
    assertEquals("SOME DESCRIPTION", someMatcher.toString());
  }
}
"""


def test_a_method_nested_in_a_renamed_junit3_test_follows_it(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """hamcrest 2.1: `testDescribesItself.matches` (an anonymous class's method in a test)
    -> `describesItself.matches`, the file moved from the unit-test module's `src/main`."""
    old_path = "lib-unit-test/src/main/java/org/ex/BaseMatcherTest.java"
    new_path = "lib/src/test/java/org/ex/BaseMatcherTest.java"
    repo.write(old_path, MATCHER_TEST.replace("NAME", "testDescribesItself"))
    old = repo.commit("junit 3")
    gold = chunk_id(repo, old_path, "BaseMatcherTest.testDescribesItself.matches")
    repo.mv(old_path, new_path)
    text = MATCHER_TEST.replace("NAME", "describesItself").replace(
        "  public void", "  @Test\n  public void"
    )
    repo.write(new_path, text)
    repo.commit("junit 4")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    want = chunk_id(repo, new_path, "BaseMatcherTest.describesItself.matches")
    assert (code, got[gold]["new_chunk_id"]) == (1, want)
    assert got[gold]["evidence"] == "the same name spelled otherwise, body 1.00 alike"


# Same-named definitions whose bodies differ by a token, all edited alike (a parameter
# renamed) and shifted by a definition added above: (path, the old text, the new text,
# the name). bstr's `Imp::new` `#[cfg]` variants, Java overloads, Python's conditional defs.
VARIANTS = {
    "rust": (
        "src/cow.rs",
        "pub struct Imp(u8);\n\nimpl Imp {\n"
        '    #[cfg(feature = "std")]\n    pub fn new(bytes: &BStr) -> Imp {\n'
        "        Imp::wrap(Cow::Borrowed(bytes), 0)\n    }\n\n"
        '    #[cfg(not(feature = "std"))]\n    pub fn new(bytes: &BStr) -> Imp {\n'
        "        Imp::wrap(bytes, 0)\n    }\n}\n",
        "Imp.new",
    ),
    "java": (
        "src/main/java/org/ex/Matchers.java",
        "package org.ex;\n\npublic class Matchers {\n"
        "  public static Matcher anything(int x) {\n    return new IsAnything(x, 0);\n  }\n\n"
        "  public static Matcher anything(long x) {\n    return new IsAnything(x, 0);\n  }\n}\n",
        "Matchers.anything",
    ),
    "python": (
        "pkg/compat.py",
        "import sys\n\nif sys.version_info >= (3,):\n\n"
        "    def size(x: int) -> int:\n        return run(x, 0)\n\nelse:\n\n"
        "    def size(x: long) -> int:\n        return run(x, 0)\n",
        "size",
    ),
}
SHIFT = {
    "rust": ("impl Imp {\n", "impl Imp {\n    pub fn other() -> u8 {\n        0\n    }\n\n"),
    "java": ("public class Matchers {\n", "public class Matchers {\n  static int other;\n\n"),
    "python": ("import sys\n", "import sys\n\nOTHER = 1\n"),
}
RENAME = {"rust": ("bytes", "data"), "java": ("x", "value"), "python": ("x", "value")}


@pytest.mark.parametrize("language", list(VARIANTS))
def test_same_named_variants_the_body_cannot_tell_apart_keep_their_order(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, name = VARIANTS[language]
    repo.write(path, text)
    old = repo.commit("variants")
    gold = chunk_id(repo, path, name, nth=1)
    old_param, new_param = RENAME[language]
    new = text.replace(*SHIFT[language]).replace(f"({old_param}", f"({new_param}")
    repo.write(path, new.replace(f"{old_param},", f"{new_param},").replace("&BStr", "&[u8]"))
    repo.commit("edited, shifted")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    want = chunk_id(repo, path, name, nth=1)
    assert (code, got[gold]["new_chunk_id"]) == (1, want)
    leaf = name.rpartition(".")[2]
    assert got[gold]["evidence"] == f"the 2nd of 2 `{leaf}` then and now, bodies in order"
    # One variant more now: the order says nothing, and nothing is rewritten.
    repo.write(path, repo.read(path).replace(*EXTRA[language]))
    repo.commit("a third variant")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert (code, got[gold]["status"], got[gold]["new_chunk_id"]) == (1, "ambiguous", None)


EXTRA = {
    "rust": (
        "impl Imp {\n",
        "impl Imp {\n    #[cfg(test)]\n    pub fn new(data: &[u8]) -> Imp {\n"
        "        Imp::wrap(data, 1)\n    }\n\n",
    ),
    "java": (
        "  static int other;\n",
        "  static int other;\n\n  public static Matcher anything(short value) {\n"
        "    return new IsAnything(value, 1);\n  }\n",
    ),
    "python": (
        "else:\n",
        "elif sys.version_info >= (2, 7):\n\n    def size(value: int) -> int:\n"
        "        return run(value, 1)\n\nelse:\n",
    ),
}


OVERLOADS_OLD = """\
package org.ex;

public class Failure {
  public Failure(String message) {
    this(message, false, null, null);
  }

  public Failure(String message, Throwable t) {
    this(message, false, t, null);
  }
}
"""
OVERLOADS_NEW = """\
package org.ex;

public class Failure {
  static int other;

  public Failure(String message) {
    this(message, false, null, null);
  }

  public Failure(String message, Throwable e) {
    this(message, false, null, null);
    initCause(e);
  }
}
"""


def test_an_overload_whose_body_now_resembles_its_neighbours_is_left_to_a_person(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """junit4 4.12: `AssumptionViolatedException(String, Throwable)` rewritten to call
    `initCause`: its old body is now nearer the `(String)` overload's; the order is no
    evidence against that, and nothing is rewritten."""
    path = "src/main/java/org/ex/Failure.java"
    repo.write(path, OVERLOADS_OLD)
    old = repo.commit("overloads")
    gold = chunk_id(repo, path, "Failure.Failure", nth=1)
    repo.write(path, OVERLOADS_NEW)
    repo.commit("rewritten")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert (code, got[gold]["status"], got[gold]["new_chunk_id"]) == (1, "ambiguous", None)
