"""The ground truth's front ends (benchmarks/refactor_truth) on small sources: each names
and spans definitions as docs/spans.md says, and as evaltools' own parser does, and prints
bodies without comments or layout. Runs the real helpers (go, cargo with Debian's syn,
node with npm's typescript, java), which the benchmark needs too."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from evaltools.retrieval.code.symbols import find_definitions

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from refactor_truth.extract import Raw, definitions, parse_helper_output, qualify

GO = """package demo

// Store holds items.
type Store[T any] struct {
	items []T
}

type (
	A int
	B string
)

func (s *Store[T]) Get(i int) T {
	type local struct{ x int }
	return s.items[i] // the item
}

func New() *Store[int] {
	return &Store[int]{}
}
"""
GO_DEFS = [
    ("Store", 4, 6),
    ("A", 9, 9),
    ("B", 10, 10),
    ("Store.Get", 13, 16),
    ("Store.Get.local", 14, 14),
    ("New", 18, 20),
]

RUST = """/// A point.
#[derive(Debug)]
pub struct Point {
    x: i32,
}

impl<T> Trait for Vec<T> {
    fn get(&self) -> i32 {
        fn inner() {}
        0
    }
}

mod tests {
    #[test]
    fn works() {}
}

macro_rules! m {
    () => {};
}

trait Shape {
    fn area(&self) -> f64;
}
"""
RUST_DEFS = [
    ("Point", 3, 5),
    ("Vec.get", 8, 11),
    ("Vec.get.inner", 9, 9),
    ("tests", 14, 17),
    ("tests.works", 16, 16),
    ("m", 19, 21),
    ("Shape", 23, 25),
    ("Shape.area", 24, 24),
]

TS = """export interface Opts {
  a: number;
}

export class Box<T> {
  value: T;
  handler = () => {
    return 1;
  };
  constructor(v: T) {
    this.value = v;
  }
  get size(): number {
    return 1;
  }
}

export const make = (x: number) => {
  function helper() {}
  return x;
};

function over(a: string): string;
function over(a: any): any {
  return a;
}

namespace NS {
  export type Alias = string;
}
enum Color { Red }
"""
TS_DEFS = [
    ("Opts", 1, 3),
    ("Box", 5, 16),
    ("Box.handler", 7, 9),
    ("Box.constructor", 10, 12),
    ("Box.size", 13, 15),
    ("make", 18, 21),
    ("make.helper", 19, 19),
    ("over", 24, 26),
    ("NS", 28, 30),
    ("NS.Alias", 29, 29),
    ("Color", 31, 31),
]

JS = """const a = function () {
  return 1;
}, b = 2;

module.exports = { c() {} };

class K {
  m() {}
}
"""
JS_DEFS = [("a", 1, 3), ("K", 7, 9), ("K.m", 8, 8)]

JAVA = """package x;

/** doc */
@Deprecated
public class A {
  // c
  @Override
  public String toString() {
    return "a";
  }

  A(int x) { this.x = x; }

  void run() {
    Runnable r = new Runnable() {
      public void run() { }
    };
  }

  interface I { void g(); }
}
"""
JAVA_DEFS = [
    ("A", 4, 21),
    ("A.toString", 7, 10),
    ("A.A", 12, 12),
    ("A.run", 14, 18),
    ("A.run.run", 16, 16),
    ("A.I", 20, 20),
    ("A.I.g", 20, 20),
]

PYTHON = """import functools


class C:
    @functools.cache
    def f(self):
        def g():
            return 1
        # trailing comment

        return g


async def h():
    pass
"""
PYTHON_DEFS = [("C", 4, 11), ("C.f", 5, 11), ("C.f.g", 7, 8), ("h", 14, 15)]

CASES = [
    ("go", "demo.go", GO, GO_DEFS),
    ("rust", "lib.rs", RUST, RUST_DEFS),
    ("ts", "box.ts", TS, TS_DEFS),
    ("ts", "k.js", JS, JS_DEFS),
    ("java", "A.java", JAVA, JAVA_DEFS),
    ("python", "c.py", PYTHON, PYTHON_DEFS),
]


@pytest.mark.parametrize(("language", "name", "source", "expected"), CASES)
def test_definitions_are_named_and_spanned_as_evaltools_does(
    tmp_path: Path, language: str, name: str, source: str, expected: list[tuple[str, int, int]]
) -> None:
    (tmp_path / name).write_text(source, encoding="utf-8")
    found, refused = definitions(tmp_path, language)
    assert refused == []
    assert [(d.path, d.name, d.start, d.end) for d in found] == [(name, *e) for e in expected]
    theirs = find_definitions(name, source.encode())
    assert sorted((d.name, d.start, d.end) for d in theirs) == sorted(expected)


# The same definition renamed, reformatted and commented differently in each language.
SAME_BODY = [
    (
        "go",
        "a.go",
        "package a\n\nfunc Foo() int { return 1 } // one\n",
        "package a\n\n// one\nfunc Bar() int {\n\treturn 1\n}\n",
    ),
    (
        "rust",
        "a.rs",
        "/// one\nfn foo() -> i32 { 1 }\n",
        "fn bar() -> i32 {\n    // one\n    1\n}\n",
    ),
    (
        "ts",
        "a.ts",
        "function foo(): number { return 1; } // one\n",
        "/** one */\nfunction bar(): number {\n  return 1;\n}\n",
    ),
    (
        "java",
        "A.java",
        "class A { int foo() { return 1; } }\n",
        "class A {\n  /** one */\n  int bar() {\n    return 1; // one\n  }\n}\n",
    ),
    (
        "python",
        "a.py",
        "def foo():\n    return 1  # one\n",
        "def bar():\n    # one\n    return (1)\n",
    ),
]


@pytest.mark.parametrize(("language", "name", "before", "after"), SAME_BODY)
def test_bodies_ignore_the_name_comments_and_layout(
    tmp_path: Path, language: str, name: str, before: str, after: str
) -> None:
    for folder, text in (("before", before), ("after", after)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / name).write_text(text, encoding="utf-8")
    found, _ = definitions(tmp_path, language)  # one run of the helper for both
    last = {d.path: d.body for d in found}
    bodies = [last[f"before/{name}"], last[f"after/{name}"]]
    assert bodies[0] == bodies[1]
    assert "_" in bodies[0]


def test_a_file_the_front_end_refuses_is_reported_not_dropped(tmp_path: Path) -> None:
    (tmp_path / "ok.go").write_text("package a\n\nfunc F() {}\n", encoding="utf-8")
    (tmp_path / "bad.go").write_text("package a\n\nfunc (\n", encoding="utf-8")
    found, refused = definitions(tmp_path, "go")
    assert refused == ["bad.go"]
    assert [d.chunk_id for d in found] == ["ok.go:3-3:F"]


def test_helper_output_is_qualified_by_nesting_and_impl_scopes_are_not_definitions() -> None:
    lines = [
        '{"path":"a.rs","name":"S","def":false,"sl":1,"sc":0,"el":5,"ec":1,"body":"impl S {}"}',
        '{"path":"a.rs","name":"f","def":true,"sl":2,"sc":4,"el":2,"ec":14,"body":"fn f() {}"}',
        '{"path":"a.rs","name":"g","def":true,"sl":3,"sc":4,"el":4,"ec":5,"body":"fn g() { g() }"}',
        '{"path":"a.rs","name":"h","def":true,"sl":6,"sc":0,"el":6,"ec":9,"body":"fn h() {}"}',
        '{"path":"b.rs","error":"expected item"}',
    ]
    found, refused = parse_helper_output("\n".join(lines))
    assert [(d.name, d.start, d.end) for d in found] == [
        ("S.f", 2, 2),
        ("S.g", 3, 4),
        ("h", 6, 6),
    ]
    assert found[1].body == ("fn", "_", "(", ")", "{", "_", "(", ")", "}")
    assert refused == ["b.rs"]


def test_a_line_separator_inside_a_body_does_not_split_the_row() -> None:
    body = 'const s = "a\u2028b\u0085c";'
    row = {"path": "a.js", "name": "s", "def": True, "sl": 1, "sc": 0, "el": 1, "ec": 20}
    found, refused = parse_helper_output(json.dumps(row | {"body": body}, ensure_ascii=False))
    assert [(d.name, d.start, d.end) for d in found] == [("s", 1, 1)]
    assert refused == []


def test_two_items_on_one_line_are_siblings_not_nested() -> None:
    items = [
        Raw("a.go", "A", True, (1, 1), (1, 10), "func A() {}"),
        Raw("a.go", "B", True, (1, 10), (1, 20), "func B() {}"),
    ]
    assert [d.name for d in qualify(items)] == ["A", "B"]
