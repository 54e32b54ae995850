"""Python spans come from one parser, whatever interpreter runs the tool (docs/spans.md).

They used to come from `ast`, and from tree-sitter when `ast` rejected the file: under
Python 3.11 a `type Alias = int` line (3.12 syntax) sent the file to the other parser, which
ended a method followed by a comment one line later, and the file's gold IDs moved.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

from evaltools.retrieval.symbols import find_definitions

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
        "from evaltools.retrieval.symbols import find_definitions\n"
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
