from __future__ import annotations

import subprocess
import sys
import textwrap
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.retrieval.code import ts_symbols
from evaltools.retrieval.code.symbols import (
    Definition,
    UnsupportedLanguage,
    find_definitions,
    is_supported,
    suffix_of,
)


def defs(path: str, source: str) -> list[tuple[str, int, int]]:
    return [tuple(d) for d in find_definitions(path, textwrap.dedent(source).encode())]  # type: ignore[misc]


def test_python_functions_classes_methods_and_decorators() -> None:
    source = """\
    import functools


    @functools.cache
    @other(
        arg=1,
    )
    def top(a):
        return a


    class Outer:
        x = 1

        class Inner:
            def fn(self):
                def local():
                    pass
                return local

        @property
        async def prop(self):
            return 1
    """
    assert defs("m.py", source) == [
        ("top", 4, 9),
        ("Outer", 12, 23),
        ("Outer.Inner", 15, 19),
        ("Outer.Inner.fn", 16, 19),
        ("Outer.Inner.fn.local", 17, 18),
        ("Outer.prop", 21, 23),
    ]


def test_python_definitions_under_compound_statements_keep_their_scope() -> None:
    source = """\
    try:
        import fast
    except ImportError:
        def speed():
            return 0
    else:
        def speed():
            return 1
    if True:
        class A:
            pass
    while False:
        def w(): pass
    with open("x") as f:
        def v(): pass
    for i in []:
        def u(): pass
    else:
        def t(): pass
    match 1:
        case 1:
            def c(): pass
    try:
        pass
    finally:
        def fin(): pass
    """
    names = [d[0] for d in defs("m.py", source)]
    assert names == ["speed", "speed", "A", "w", "v", "u", "t", "c", "fin"]


def test_python_try_star() -> None:
    # ast before 3.11 rejects `except*`: the one parser takes it under every Python.
    source = "try:\n    pass\nexcept* ValueError:\n    def h(): pass\n"
    assert defs("m.py", source) == [("h", 4, 4)]


def test_python_that_no_interpreter_compiles_still_has_definitions() -> None:
    source = """\
    @dec
    def ok():
        pass

    class Legacy:
        def old(self):
            print "python 2"
    """
    assert defs("m.py", source) == [("ok", 1, 3), ("Legacy", 5, 7), ("Legacy.old", 6, 7)]
    assert defs("m.py", "def f():\n    return '\0'\n") == [("f", 1, 2)]
    too_deep = "x = " + "[" * 100_000 + "]" * 100_000 + "\ndef g():\n    pass\n"
    assert defs("m.py", too_deep) == [("g", 2, 3)]


def test_javascript() -> None:
    source = """\
    class A {
      #hidden() {}
      static make() {
        return new A();
      }
      handler = () => {
        return 1;
      };
    }
    const f = function* () {}, g = 1;
    const h = async (x) => {
      function inner() {}
    };
    var o = { notADefinition() {} };
    export function exported() {}
    """
    assert defs("a.mjs", source) == [
        ("A", 1, 9),
        ("A.#hidden", 2, 2),
        ("A.make", 3, 5),
        ("A.handler", 6, 8),
        ("f", 10, 10),
        ("h", 11, 13),
        ("h.inner", 12, 12),
        ("exported", 15, 15),
    ]
    assert suffix_of("x.jsx") == ".jsx" and is_supported("src/x.cjs")


def test_typescript_declarations() -> None:
    source = """\
    export class Service<T> extends Base {
      private cache = () => 1;
      get(key: string): T {
        return this.items[key];
      }
      abstract_like(): void;
      abstract_like(x?: number): void {}
    }
    export interface Shape { area(): number }
    type Id = string;
    enum Color { Red }
    namespace Outer.Inner {
      export function fn() {}
    }
    function over(a: string): void;
    function over(a: any) {}
    export const arrow = (a: number): number => {
      return a;
    };
    abstract class Abs { run() {} }
    """
    assert defs("s.ts", source) == [
        ("Service", 1, 8),
        ("Service.cache", 2, 2),
        ("Service.get", 3, 5),
        ("Service.abstract_like", 7, 7),
        ("Shape", 9, 9),
        ("Id", 10, 10),
        ("Color", 11, 11),
        ("Outer.Inner", 12, 14),
        ("Outer.Inner.fn", 13, 13),
        ("over", 16, 16),
        ("arrow", 17, 19),
        ("Abs", 20, 20),
        ("Abs.run", 20, 20),
    ]


def test_tsx() -> None:
    source = "export const View = () => <div/>;\nfunction Row() {\n  return <p/>;\n}\n"
    assert defs("v.tsx", source) == [("View", 1, 1), ("Row", 2, 4)]


def test_go_methods_strip_pointers_and_type_arguments() -> None:
    source = """\
    package store

    type Store[T any] struct {
        items map[string]T
    }

    type (
        Key string
        Alias = int
    )

    func New() *Store[int] {
        return nil
    }

    func (s *Store[T]) Get(k string) T {
        return s.items[k]
    }

    func (s Store[T]) Len() int { return 0 }

    func (e *pkg.Ext) Ext() {}

    func () Broken() {}
    """
    assert defs("store.go", source) == [
        ("Store", 3, 5),
        ("Key", 8, 8),
        ("Alias", 9, 9),
        ("New", 12, 14),
        ("Store.Get", 16, 18),
        ("Store.Len", 20, 20),
        ("Ext.Ext", 22, 22),
        ("Broken", 24, 24),  # no receiver type to qualify it with: tree-sitter recovered
    ]


def test_rust_impl_items_are_qualified_by_their_type() -> None:
    source = """\
    #[derive(Debug)]
    pub struct Point<T> { x: T }

    impl<T> Point<T> {
        pub fn new(x: T) -> Self {
            Point { x }
        }
    }

    impl std::fmt::Display for crate::geo::Point<f64> {
        fn fmt(&self, f: &mut Formatter) -> Result { Ok(()) }
    }

    impl Shape for &Circle { fn area(&self) -> f64 { 0.0 } }

    trait Shape {
        fn area(&self) -> f64;
        fn name(&self) -> &str { "shape" }
    }

    mod geo {
        pub fn dist() {}
        enum Kind { A }
        union U { a: u8 }
        type Alias = u8;
    }

    macro_rules! square { ($x:expr) => { $x * $x }; }
    """
    assert defs("lib.rs", source) == [
        ("Point", 2, 2),
        ("Point.new", 5, 7),
        ("Point.fmt", 11, 11),
        ("Circle.area", 14, 14),
        ("Shape", 16, 19),
        ("Shape.area", 17, 17),
        ("Shape.name", 18, 18),
        ("geo", 21, 26),
        ("geo.dist", 22, 22),
        ("geo.Kind", 23, 23),
        ("geo.U", 24, 24),
        ("geo.Alias", 25, 25),
        ("square", 28, 28),
    ]


def test_java() -> None:
    source = """\
    @Entity
    public class Account {
        Account() {}

        void deposit(int amount) {
            total += amount;
        }

        class Ledger { void post() {} }
        interface Listener { void changed(); }
        enum State { OPEN; boolean open() { return true; } }
        record Entry(int a) { Entry { } }
        @interface Audited {}
    }
    """
    assert defs("Account.java", source) == [
        ("Account", 1, 14),
        ("Account.Account", 3, 3),
        ("Account.deposit", 5, 7),
        ("Account.Ledger", 9, 9),
        ("Account.Ledger.post", 9, 9),
        ("Account.Listener", 10, 10),
        ("Account.Listener.changed", 10, 10),
        ("Account.State", 11, 11),
        ("Account.State.open", 11, 11),
        ("Account.Entry", 12, 12),
        ("Account.Entry.Entry", 12, 12),
        ("Account.Audited", 13, 13),
    ]


def test_a_node_ending_with_its_newline_ends_on_its_own_line() -> None:
    # tree-sitter-python's class body swallows the final newline: the span must not grow.
    assert defs("m.py", "class A:\n    print 1\n") == [("A", 1, 2)]


def test_unsupported_extension() -> None:
    with pytest.raises(UnsupportedLanguage, match=r"no parser for \.c files"):
        find_definitions("a/b.c", b"int main() {}")
    with pytest.raises(UnsupportedLanguage, match="extension-less"):
        find_definitions("Makefile", b"all:")
    assert not is_supported("README") and suffix_of(".bashrc") == ""


def test_parsers_are_built_once_per_language() -> None:
    find_definitions("a.go", b"package a\n")
    loaded = ts_symbols._LOADED["go"]
    find_definitions("b.go", b"package b\nfunc F() {}\n")
    assert ts_symbols._LOADED["go"] is loaded


def test_importing_symbols_does_not_import_tree_sitter() -> None:
    # The lint/check hook path imports it; the grammar loads only when a file is parsed.
    code = (
        "import sys, evaltools.retrieval.code.symbols as s\n"
        "print('tree_sitter' in sys.modules)\n"
        "s.find_definitions('a.py', b'def f(): pass')\n"
        "print('tree_sitter' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_definition_leaf() -> None:
    assert Definition("A.B.c", 1, 2).leaf == "c"
    assert Definition("top", 1, 2).leaf == "top"


# --- property: generated nested Python and TypeScript have exactly the expected spans ---------


@dataclass
class Node:
    kind: str  # "def" | "class"
    name: str
    decorators: int
    body_lines: int
    children: list[Node] = field(default_factory=list)


names = st.sampled_from(["alpha", "beta", "gamma", "delta", "run", "get"])


def nodes(depth: int) -> st.SearchStrategy[Node]:
    children = st.lists(nodes(depth - 1), max_size=3) if depth > 0 else st.just([])
    return st.builds(
        Node,
        kind=st.sampled_from(["def", "class"]),
        name=names,
        decorators=st.integers(0, 2),
        body_lines=st.integers(0, 3),
        children=children,
    )


def render_python(
    items: list[Node], indent: str, prefix: str, lines: list[str], out: list[tuple[str, int, int]]
) -> None:
    for item in items:
        lines.append("")  # a blank line between definitions
        start = len(lines) + 1
        lines.extend(f"{indent}@decorator{i}" for i in range(item.decorators))
        lines.append(f"{indent}{item.kind} {item.name}{'()' if item.kind == 'def' else ''}:")
        index = len(out)
        out.append((prefix + item.name, start, 0))
        lines.extend(f"{indent}    x = {i}" for i in range(item.body_lines))
        if not item.body_lines and not item.children:
            lines.append(f"{indent}    pass")
        render_python(item.children, indent + "    ", f"{prefix}{item.name}.", lines, out)
        out[index] = (out[index][0], start, len(lines))


@settings(max_examples=60, deadline=None)
@given(st.lists(nodes(2), min_size=1, max_size=4))
def test_python_spans_property(tree: list[Node]) -> None:
    lines: list[str] = ["import os"]
    expected: list[tuple[str, int, int]] = []
    render_python(tree, "", "", lines, expected)
    source = ("\n".join(lines) + "\n").encode()
    assert [tuple(d) for d in find_definitions("gen.py", source)] == expected


def render_ts(
    items: list[Node], indent: str, prefix: str, lines: list[str], out: list[tuple[str, int, int]]
) -> None:
    for item in items:
        start = len(lines) + 1
        index = len(out)
        out.append((prefix + item.name, start, 0))
        lines.append(f"{indent}namespace {item.name} {{")
        lines.extend(f"{indent}  const x{i} = {i};" for i in range(item.body_lines))
        render_ts(item.children, indent + "  ", f"{prefix}{item.name}.", lines, out)
        lines.append(f"{indent}}}")
        out[index] = (out[index][0], start, len(lines))


@settings(max_examples=40, deadline=None)
@given(st.lists(nodes(2), min_size=1, max_size=4))
def test_typescript_nesting_property(tree: list[Node]) -> None:
    lines: list[str] = []
    expected: list[tuple[str, int, int]] = []
    render_ts(tree, "", "", lines, expected)
    source = ("\n".join(lines) + "\n").encode()
    assert [tuple(d) for d in find_definitions("gen.ts", source)] == expected
