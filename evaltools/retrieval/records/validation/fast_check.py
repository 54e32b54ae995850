"""The yes/no of a JSON Schema, compiled from the schema itself into one Python function.

`jsonschema` checks a few tens of thousands of records a second; the function compiled here
is straight-line code, about ten times faster, and is derived from the schema, so there is
no second copy of its rules to keep in step. It knows the keywords the shipped schema uses,
with jsonschema's meaning of each (draft 2020-12); a schema with any other keyword compiles
to None, and jsonschema decides alone. Records it rejects go to jsonschema to be explained.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from evaltools.retrieval.records.validation.explain import beyond_schema
from evaltools.retrieval.records.validation.schema import default_schema

# Keywords that say nothing about validity.
_ANNOTATIONS = frozenset(
    ("$schema", "$id", "$comment", "$defs", "title", "description", "examples", "default")
)
_DRAFTS = (None, "https://json-schema.org/draft/2020-12/schema")
# Each JSON type as the exact Python types a JSON reader gives (a bool is no integer).
_TYPE_TEST = {
    "string": "type({x}) is str",
    "object": "type({x}) is dict",
    "array": "type({x}) is list",
    "boolean": "type({x}) is bool",
    "null": "{x} is None",
    "number": "(type({x}) is int or type({x}) is float)",
    # draft 6 on: 3.0 is an integer too.
    "integer": "(type({x}) is int or (type({x}) is float and {x}.is_integer()))",
}
_NUMBER = _TYPE_TEST["number"]


class _Unsupported(Exception):
    """A keyword, or a form of one, this compiler does not know: jsonschema decides."""


class _Compiler:
    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.lines: list[str] = []
        self.constants: dict[str, object] = {}
        self.names = 0
        self.expanding: set[str] = set()

    def name(self, prefix: str) -> str:
        self.names += 1
        return f"{prefix}{self.names}"

    def constant(self, value: object) -> str:
        name = self.name("c")
        self.constants[name] = value
        return name

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)

    def fail_unless(self, depth: int, test: str) -> None:
        indent = "    " * depth
        lines = self.lines
        if len(lines) >= 2 and lines[-1] == indent + "    return False":
            head = lines[-2]
            if head.startswith(indent + "if not (") and head.endswith("):"):
                # One test for a value's checks, evaluated in the same order.
                lines[-2] = f"{head[:-2]} and {test}):"
                return
        self.emit(depth, f"if not ({test}):")
        self.emit(depth + 1, "return False")

    def node(
        self, schema: Any, x: str, depth: int, known: str | None = None, is_key: bool = False
    ) -> None:
        """Statements that return False when `x` fails `schema`; `known`: `x`'s JSON type,
        when an enclosing check has settled it; `is_key`: `x` is an object's key."""
        if schema is True:
            return
        if schema is False:
            self.emit(depth, "return False")
            return
        if type(schema) is not dict:
            raise _Unsupported
        rest = {k: v for k, v in schema.items() if k not in _ANNOTATIONS}
        if "$ref" in rest:
            self.ref(rest.pop("$ref"), x, depth, known, is_key)
        kind = rest.pop("type", None)
        if kind is not None:
            if type(kind) is not str or kind not in _TYPE_TEST:
                raise _Unsupported
            if kind != known:
                self.fail_unless(depth, _TYPE_TEST[kind].format(x=x))
            known = kind
        if "enum" in rest:
            self.enum(rest.pop("enum"), x, depth)
        self.string(rest, x, depth, known, is_key)
        self.number(rest, x, depth, known)
        self.object(rest, x, depth, known)
        self.array(rest, x, depth, known)
        if rest:
            raise _Unsupported

    def ref(self, ref: Any, x: str, depth: int, known: str | None, is_key: bool) -> None:
        prefix = "#/$defs/"
        if type(ref) is not str or not ref.startswith(prefix) or ref in self.expanding:
            raise _Unsupported  # a remote or recursive reference
        defs = self.root.get("$defs")
        target = defs.get(ref[len(prefix) :]) if type(defs) is dict else None
        if target is None or "~" in ref or "%" in ref:
            raise _Unsupported
        self.expanding.add(ref)
        self.node(target, x, depth, known, is_key)
        self.expanding.discard(ref)

    def enum(self, values: Any, x: str, depth: int) -> None:
        # Only strings: JSON equality of a string is Python's.
        if type(values) is not list or not all(type(v) is str for v in values):
            raise _Unsupported
        self.fail_unless(depth, f"type({x}) is str and {x} in {self.constant(frozenset(values))}")

    def guard(self, depth: int, x: str, kind: str, known: str | None) -> int:
        """Open `if x is of kind:` unless it is known to be; the depth inside."""
        if known == kind:
            return depth
        self.emit(depth, f"if {_TYPE_TEST[kind].format(x=x)}:")
        return depth + 1

    def string(
        self, rest: dict[str, Any], x: str, depth: int, known: str | None, is_key: bool
    ) -> None:
        found = {k: rest.pop(k) for k in ("minLength", "maxLength", "pattern") if k in rest}
        if not found:
            return
        inner = self.guard(depth, x, "string", known)
        for keyword, value in found.items():
            if keyword == "pattern":
                try:
                    pattern = re.compile(value)
                except (re.error, TypeError) as exc:
                    raise _Unsupported from exc
                if value == r"\S":  # sre's \s is str.isspace's whitespace: no regex call
                    self.fail_unless(inner, f"{x} != '' and not {x}.isspace()")
                    continue
                # A key repeats (a chunk ID is gold for several queries), a value seldom does.
                search = _remembered(pattern) if is_key else _search(pattern)
                self.fail_unless(inner, f"{self.constant(search)}({x})")
            elif type(value) is not int:
                raise _Unsupported
            else:
                op = ">=" if keyword == "minLength" else "<="
                self.fail_unless(inner, f"len({x}) {op} {value}")

    def number(self, rest: dict[str, Any], x: str, depth: int, known: str | None) -> None:
        found = {k: rest.pop(k) for k in ("minimum", "maximum") if k in rest}
        if not found:
            return
        if known not in ("number", "integer"):
            self.emit(depth, f"if {_NUMBER.format(x=x)}:")
            depth += 1
        for keyword, value in found.items():
            if type(value) not in (int, float):
                raise _Unsupported
            op = ">=" if keyword == "minimum" else "<="
            self.fail_unless(depth, f"{x} {op} {value!r}")

    def object(self, rest: dict[str, Any], x: str, depth: int, known: str | None) -> None:
        keywords = ("required", "properties", "minProperties", "propertyNames")
        found = {k: rest.pop(k) for k in (*keywords, "additionalProperties") if k in rest}
        if not found:
            return
        inner = self.guard(depth, x, "object", known)
        required = found.get("required", [])
        if type(required) is not list or not all(type(k) is str for k in required):
            raise _Unsupported
        if required:
            self.fail_unless(inner, " and ".join(f"{k!r} in {x}" for k in required))
        least = found.get("minProperties")
        if least is not None:
            if type(least) is not int:
                raise _Unsupported
            self.fail_unless(inner, f"len({x}) >= {least}")
        properties = found.get("properties", {})
        if type(properties) is not dict:
            raise _Unsupported
        for key, sub in properties.items():
            if key in required:  # present: checked above
                member = self.name("v")
                self.emit(inner, f"{member} = {x}[{key!r}]")
                self.node(sub, member, inner)
        optional = [key for key in properties if key not in required]
        if optional:
            # An object of the required members only has none of the others.
            self.emit(inner, f"if len({x}) > {len(set(required))}:")
            for key in optional:
                member = self.name("v")
                self.emit(inner + 1, f"{member} = {x}.get({key!r}, MISSING)")
                self.emit(inner + 1, f"if {member} is not MISSING:")
                self.node(properties[key], member, inner + 2)
                self.emit(inner + 2, "pass")
        self.members(found, properties, x, inner)

    def members(
        self, found: dict[str, Any], properties: dict[str, Any], x: str, depth: int
    ) -> None:
        names, extra = found.get("propertyNames"), found.get("additionalProperties")
        if names is None and extra is None:
            return
        key, value = self.name("k"), self.name("v")
        self.emit(depth, f"for {key}, {value} in {x}.items():")
        if names is not None:
            self.node(names, key, depth + 1, "string", is_key=True)
        if extra is not None:
            inner = depth + 1
            if properties:
                self.emit(inner, f"if {key} not in {self.constant(frozenset(properties))}:")
                inner += 1
            self.node(extra, value, inner)
            self.emit(inner, "pass")
        self.emit(depth + 1, "pass")

    def array(self, rest: dict[str, Any], x: str, depth: int, known: str | None) -> None:
        found = {k: rest.pop(k) for k in ("items", "uniqueItems") if k in rest}
        if not found:
            return
        inner = self.guard(depth, x, "array", known)
        items = found.get("items")
        if items is not None:
            item = self.name("i")
            self.emit(inner, f"for {item} in {x}:")
            self.node(items, item, inner + 1)
            self.emit(inner + 1, "pass")
        if found.get("uniqueItems") is True:
            # Set equality is JSON equality only for strings, and the items must be strings.
            if type(items) is not dict or items.get("type") != "string":
                raise _Unsupported
            self.fail_unless(inner, f"len(set({x})) == len({x})")
        elif found.get("uniqueItems") not in (None, False):
            raise _Unsupported


def compile_schema(
    schema: Any, then: Callable[[Any], bool] | None = None
) -> Callable[[Any], bool] | None:
    """A function that says what `validator.is_valid` says of any parsed JSON value (and,
    when it is valid, what `then` says of it), or None when the schema uses what this
    compiler does not know."""
    if type(schema) is not dict or schema.get("$schema") not in _DRAFTS:
        return None
    compiler = _Compiler(schema)
    try:
        compiler.node(schema, "value", 1)
    except _Unsupported:
        return None
    last = "    return True" if then is None else "    return then(value)"
    source = "\n".join(["def is_valid(value):", *compiler.lines, last, ""])
    namespace: dict[str, Any] = {"MISSING": _MISSING, "then": then, **compiler.constants}
    exec(compile(source, "<schema>", "exec"), namespace)
    function: Callable[[Any], bool] = namespace["is_valid"]
    return function


_MISSING = object()
# Set members repeat (a chunk ID is gold for several queries): a match is remembered.
_REMEMBERED = 1 << 16


def _search(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    def matches(text: str) -> bool:
        return pattern.search(text) is not None

    return matches


def _remembered(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    return functools.lru_cache(maxsize=_REMEMBERED)(_search(pattern))


@functools.cache
def clean_check(drafts: bool = False) -> Callable[[Any], bool]:
    """The yes/no of the default schema, then of the checks a schema cannot express (a
    draft is one of them unless `drafts`: the set collects drafts); one call per record."""
    compiled = compile_schema(default_schema(), _nothing_beyond(drafts))
    assert compiled is not None, "the shipped schema uses a keyword the compiler lacks"
    return compiled


def _nothing_beyond(drafts: bool) -> Callable[[Any], bool]:
    """`beyond_schema` finds nothing: asked for its first problem only."""

    def clean(value: Any) -> bool:
        for _problem in beyond_schema(value, drafts=drafts):
            return False
        return True

    return clean


def record_is_clean(value: Any, drafts: bool = False) -> bool:
    """True when the default schema and the checks a schema cannot express find nothing."""
    return clean_check(drafts)(value)
