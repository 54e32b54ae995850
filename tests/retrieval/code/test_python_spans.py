"""Python spans come from one parser, whatever interpreter runs the tool (docs/spans.md).

They used to come from `ast`, and from tree-sitter when `ast` rejected the file: under
Python 3.11 a `type Alias = int` line (3.12 syntax) sent the file to the other parser, which
ended a method followed by a comment one line later, and the file's gold IDs moved.
"""

from __future__ import annotations

import ast
import random
import subprocess
import sys
import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.retrieval.code.symbols import find_definitions

METHOD_THEN_COMMENT = """\
class Service:
    def run(self):
        return 1
        # a comment indented like the body

    # a comment of the class
    def stop(self):
        pass
    # trailing comment
"""


def spans(source: str) -> list[tuple[str, int, int]]:
    return [tuple(d) for d in find_definitions("m.py", textwrap.dedent(source).encode())]  # type: ignore[misc]


def test_a_type_alias_line_moves_no_span() -> None:
    plain = spans(METHOD_THEN_COMMENT)
    assert plain == [("Service", 1, 8), ("Service.run", 2, 3), ("Service.stop", 7, 8)]
    with_alias = spans("type Alias = int\n" + METHOD_THEN_COMMENT)
    assert with_alias == [(name, start + 1, end + 1) for name, start, end in plain]


def test_the_python_symbol_table_never_calls_ast() -> None:
    # In a child process: pytest itself needs `ast` while it reports.
    code = (
        "import ast, sys\n"
        "def refuse(*args, **kwargs):\n"
        "    raise SystemExit('ast.parse called: it depends on the interpreter')\n"
        "ast.parse = refuse\n"
        "from evaltools.retrieval.code.symbols import find_definitions\n"
        "source = sys.stdin.buffer.read()\n"
        "print([tuple(d) for d in find_definitions('m.py', source)])\n"
    )
    source = "type Alias = int\n\n@dec\ndef f[T](x: T) -> T:\n    return x\n    # c\n"
    out = subprocess.run(
        [sys.executable, "-c", code], input=source, capture_output=True, text=True, check=False
    )
    assert (out.returncode, out.stderr, out.stdout) == (0, "", "[('f', 3, 5)]\n")


def test_the_span_convention_on_the_tricky_cases() -> None:
    source = """\
    @first
    @second(
        arg=1,
    )
    def decorated():
        if x:
            pass
            # inside the if, after its last statement
        # inside the def, after its last statement

    def one_line(): pass  # a comment on the same line

    def docstring_last():
        '''A docstring
        over lines.'''

    class Outer:
        class Inner:
            def deep(self):
                return (
                    1,
                )
                # after the call
    # at column 0: after everything
    def at_the_end():
        return 2
        # and no newline at the end of the file"""
    assert spans(source) == [
        ("decorated", 1, 7),  # the first decorator to the last line of code
        ("one_line", 11, 11),
        ("docstring_last", 13, 15),
        ("Outer", 17, 22),
        ("Outer.Inner", 18, 22),
        ("Outer.Inner.deep", 19, 22),
        ("at_the_end", 25, 26),
    ]


def test_a_column_0_comment_between_decorator_and_def_keeps_the_decorator() -> None:
    # Python ignores the comment; tree-sitter-python loses the decorator into an error node.
    source = """\
    class Service:
        @first
    # column 0
        @second
    # column 0 again
        def run(self):
            pass

        def stop(self):
            x = 0
            @inner
    # column 0

            def nested():
                pass
    """
    assert spans(source) == [
        ("Service", 1, 15),
        ("Service.run", 2, 7),
        ("Service.stop", 9, 15),
        ("Service.stop.nested", 11, 15),
    ]


def _module(rng: random.Random, depth: int, indent: str, out: list[str]) -> None:
    """Definitions, decorators, blocks and comments (at column 0, at the block's indent,
    deeper), blank lines, strings and brackets over several lines."""
    for _ in range(rng.randint(1, 3)):
        _noise(rng, indent, out)
        kind = rng.random()
        if depth and kind < 0.5:
            for _ in range(rng.randint(0, 2)):
                out.append(f"{indent}@decorator{rng.randint(0, 2)}")
                _noise(rng, indent, out)
            out.append(indent + rng.choice(["def f():", "class C:", "async def g(a):"]))
            _module(rng, depth - 1, indent + "    ", out)
        elif depth and kind < 0.6:
            out.append(f"{indent}if x:")
            _module(rng, depth - 1, indent + "    ", out)
        elif kind < 0.7:
            out.extend([f'{indent}s = """text', "more text", '"""'])
        elif kind < 0.8:
            out.extend([f"{indent}y = (1,", "# a comment in brackets", f"{indent}    2)"])
        else:
            out.append(f"{indent}x = 1  # a comment after code")
    _noise(rng, indent, out)


def _noise(rng: random.Random, indent: str, out: list[str]) -> None:
    for _ in range(rng.choice([0, 0, 1, 2])):
        out.append(rng.choice(["", "   ", "# column 0", f"{indent}# c", f"{indent}        # c"]))


def _ast_spans(source: bytes) -> list[tuple[str, int, int]]:
    """The convention as `ast` states it: first decorator to the last line of code."""
    found: list[tuple[str, int, int]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                start = min([child.lineno] + [d.lineno for d in child.decorator_list])
                found.append((prefix + child.name, start, child.end_lineno or child.lineno))
                walk(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.stmt):
                walk(child, prefix)

    walk(ast.parse(source), "")
    return sorted(found, key=lambda d: (d[1], -d[2]))


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(["\n", "", "\n\n"]))
def test_spans_are_where_the_code_starts_and_ends(rng: random.Random, end: str) -> None:
    """On code every Python since 3.8 parses, the one parser agrees with `ast` of this one."""
    out: list[str] = []
    _module(rng, 3, "", out)
    source = ("\n".join(out) + end).encode()
    assert [tuple(d) for d in find_definitions("m.py", source)] == _ast_spans(source)
