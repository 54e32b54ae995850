"""A type moved to a file of its own, where a method became a wrapper that calls the code's
new home (arrayvec 0.7: `ArrayVec.push_unchecked` is one line in `arrayvec.rs`,
`ArrayVecImpl::push_unchecked(self, element)`, and its code is the trait's in
`arrayvec_impl.rs`): the name and the body say two places, so the ID is `hollowed` with
both listed, and `--fix` leaves it; a namesake that does not call it, or two, leave the
body's place standing."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

RUST_OLD = """pub struct ArrayVec {
    xs: Vec<u32>,
    len: usize,
}

impl ArrayVec {
    pub unsafe fn push_unchecked(&mut self, element: u32) {
        let len = self.len();
        debug_assert!(len < self.capacity());
        std::ptr::write(self.as_mut_ptr().add(len), element);
        self.set_len(len + 1);
    }

    pub fn len(&self) -> usize {
        self.len
    }
}
"""
RUST_IMPL = """pub trait ArrayVecImpl {
    fn len(&self) -> usize;

    unsafe fn push_unchecked(&mut self, element: u32) {
        let len = self.len();
        debug_assert!(len < Self::CAPACITY);
        std::ptr::write(self.as_mut_ptr().add(len), element);
        self.set_len(len + 1);
    }
}
"""
RUST_MOVED = """pub struct ArrayVec {
    xs: Vec<u32>,
    len: usize,
}

impl ArrayVec {
    pub unsafe fn push_unchecked(&mut self, element: u32) {
        {call}
    }

    pub fn len(&self) -> usize {
        self.len
    }
}
"""
JAVA_OLD = """package vec;

public class ArrayVec {
    private int[] xs = new int[8];
    private int len;

    public void pushUnchecked(int element) {
        int at = this.len;
        assert at < this.xs.length : "full";
        this.xs[at] = element;
        this.len = at + 1;
    }
{dropped}}
"""
JAVA_IMPL = """package vec.internal;

public abstract class ArrayVecImpl {
    protected int[] xs = new int[8];
    protected int len;

    public void pushUnchecked(int element) {
        int at = this.len;
        assert at < CAPACITY : "full";
        this.xs[at] = element;
        this.len = at + 1;
    }
}
"""
JAVA_MOVED = """package vec.api;

public class ArrayVec {
    private final ArrayVecImpl impl = new Impl();

    public void pushUnchecked(int element) {
        {call}
    }
}
"""
PY_OLD = """class ArrayVec:
    def __init__(self):
        self.xs = [0] * 8
        self.len = 0

    def push_unchecked(self, element):
        at = self.len
        assert at < len(self.xs), "full"
        self.xs[at] = element
        self.len = at + 1
"""
PY_IMPL = """class ArrayVecImpl:
    def push_unchecked(self, element):
        at = self.len
        assert at < self.CAPACITY, "full"
        self.xs[at] = element
        self.len = at + 1
"""
PY_MOVED = """from vec.impl import ArrayVecImpl


class ArrayVec:
    def __init__(self):
        self.xs = [0] * 8
        self.len = 0

    def push_unchecked(self, element):
        {call}
"""
DROPPED = "".join(
    f"\n    public int drained{n}(int from) {{\n"
    f"        return Math.min(from * {n}, this.len);\n    }}\n"
    for n in range(8)
)
# language: the old file (and what stays of it, if it stays), its ID, the files after
# (the wrapper's, the code's), the call
CASES = {
    "rust": (
        (
            "src/lib.rs",
            RUST_OLD,
            "mod arrayvec;\nmod arrayvec_impl;\npub use arrayvec::ArrayVec;\n",
        ),
        "ArrayVec.push_unchecked",
        ("src/arrayvec.rs", RUST_MOVED),
        ("src/arrayvec_impl.rs", RUST_IMPL, "ArrayVecImpl.push_unchecked"),
        "ArrayVecImpl::push_unchecked(self, element)",
    ),
    "java": (
        ("src/vec/ArrayVec.java", JAVA_OLD.replace("{dropped}", DROPPED), None),
        "ArrayVec.pushUnchecked",
        ("src/vec/api/ArrayVec.java", JAVA_MOVED),
        ("src/vec/internal/ArrayVecImpl.java", JAVA_IMPL, "ArrayVecImpl.pushUnchecked"),
        "impl.pushUnchecked(element);",
    ),
    "python": (
        ("vec/__init__.py", PY_OLD, "from vec.array_vec import ArrayVec\n"),
        "ArrayVec.push_unchecked",
        ("vec/array_vec.py", PY_MOVED),
        ("vec/impl.py", PY_IMPL, "ArrayVecImpl.push_unchecked"),
        "ArrayVecImpl.push_unchecked(self, element)",
    ),
}


def _refactor(repo: GitRepo, language: str, call: str, *, twice: bool = False) -> tuple[str, str]:
    """The old ID and the revision; the work tree after the refactor, with the wrapper's
    body `call` (and a second wrapper of the name elsewhere when `twice`)."""
    (old_path, old_text, stays), name, (moved_path, moved_text), (impl_path, impl_text, _), _ = (
        CASES[language]
    )
    repo.write(old_path, old_text)
    old = repo.commit("the type and its code in one file")
    gold = chunk_id(repo, old_path, name)
    if stays is None:
        repo.rm(old_path)
    else:
        repo.write(old_path, stays)
    repo.write(moved_path, moved_text.replace("{call}", call))
    if twice:
        other = Path(moved_path)
        repo.write(str(other.with_stem(other.stem + "_copy")), moved_text.replace("{call}", call))
    repo.write(impl_path, impl_text)
    repo.commit("the code to a base of its own, the type to its own file")
    return gold, old


@pytest.mark.parametrize("language", sorted(CASES))
def test_a_name_left_calling_its_code_s_new_home_is_hollowed(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str
) -> None:
    _, name, (moved_path, _), (impl_path, _, impl_name), call = CASES[language]
    gold, old = _refactor(repo, language, call)
    wrapper = chunk_id(repo, moved_path, name)
    code, got = gold_check(repo, tmp_path, capsys, [gold], old, "--fix")
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("hollowed", None)
    assert got[gold]["candidates"] == [wrapper, chunk_id(repo, impl_path, impl_name)]
    assert f"which names `{impl_name.rpartition('.')[2]}`" in got[gold]["message"]
    assert got[gold]["fixed"] is False


@pytest.mark.parametrize("language", sorted(CASES))
def test_a_namesake_that_does_not_call_it_leaves_the_body_s_place(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str
) -> None:
    _, _, _, (impl_path, _, impl_name), call = CASES[language]
    gold, old = _refactor(
        repo, language, call.replace("ArrayVecImpl", "Other").replace("ush", "ut")
    )
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == (
        "relocated",
        chunk_id(repo, impl_path, impl_name),
    )


def test_two_namesakes_that_call_it_leave_the_body_s_place(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, _, (impl_path, _, impl_name), call = CASES["python"]
    gold, old = _refactor(repo, "python", call, twice=True)
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == (
        "relocated",
        chunk_id(repo, impl_path, impl_name),
    )


JS_BODY = """  if (comp instanceof Comparator) {
    if (comp.loose === !!options.loose) {
      return comp
    }
    comp = comp.value
  }
  this.options = options
  this.loose = !!options.loose
  this.parse(comp)
  this.value = this.operator + this.semver.version
"""
JS_FUNCTION = (
    "function Comparator(comp, options) {\n" + JS_BODY + "}\n\nmodule.exports = { Comparator }\n"
)
JS_CLASS = (
    """class Comparator {
  constructor(comp, options) {
"""
    + textwrap.indent(JS_BODY, "  ")
    + """  }

  parse(comp) {
    this.operator = comp.slice(0, 1)
  }
{methods}}

module.exports = Comparator
""".replace(
        "{methods}",
        "".join(
            f"\n  test{n}(version) {{\n    const range = new Range(this.value, this.options)\n"
            f"    return range.test(version) || version.major > {n}\n  }}\n"
            for n in range(8)
        ),
    )
)


def test_a_body_now_inside_the_name_s_own_definition_follows_the_body(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """node-semver 7: the constructor function `Comparator` became a class in a file of its
    own; the class names `constructor`, its own member, and is no wrapper."""
    repo.write("semver.js", JS_FUNCTION + "\nfunction other(a) {\n  return a\n}\n")
    old = repo.commit("a constructor function")
    gold = chunk_id(repo, "semver.js", "Comparator")
    repo.write("semver.js", "function other(a) {\n  return a\n}\n")
    repo.write("classes/comparator.js", JS_CLASS)
    repo.commit("a class of its own")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == (
        "relocated",
        chunk_id(repo, "classes/comparator.js", "Comparator.constructor"),
    )
