"""The record schema: the shipped default, a user's own, and the fast check for the default.

`jsonschema` checks a few tens of thousands of records a second; `record_is_clean` is the
default schema and the checks beyond it written out by hand, about ten times faster. It
only answers yes or no: records it rejects go to `jsonschema` to be explained. The test
suite holds the two to the same answers (tests/retrieval/records/test_fast_check_agrees.py).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from evaltools import jsonio
from evaltools.fileio import UsageError
from evaltools.jsonio import JsonError
from evaltools.retrieval.code.chunk_id import is_valid_chunk_id
from evaltools.retrieval.records.fields import DRAFT, FIELDS, misspelt
from evaltools.retrieval.records.record import strict_loads
from evaltools.retrieval.records.record_rules import MAX_GOLD_ENTRIES


class Validator(Protocol):
    """What evaltools uses of a jsonschema validator (jsonschema ships no type hints)."""

    def is_valid(self, instance: Any) -> bool: ...

    def iter_errors(self, instance: Any) -> Iterator[Any]: ...


SCHEMA_RESOURCE = "schemas/retrieval-record.schema.json"
RECORD_TYPES = ("identifier", "intent", "mixed")
SPLITS = ("tune", "holdout")
REQUIRED = ("qid", "query", "type", "gold")


@functools.cache
def default_schema_text() -> str:
    return resources.files("evaltools").joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")


def default_schema() -> dict[str, Any]:
    schema: dict[str, Any] = jsonio.loads(default_schema_text())
    return schema


def default_schema_id() -> str:
    return str(default_schema()["$id"])


def load_schema(path: Path) -> dict[str, Any]:
    """A user's schema file, checked to be a usable JSON Schema (else a usage error)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read schema {path}: {exc}") from exc
    try:
        # Read as strictly as the records: a key given twice would silently lose a rule.
        schema = strict_loads(text)
    except JsonError as exc:
        line, column = exc.line_column(text)
        raise UsageError(f"cannot read schema {path}:{line}:{column}: {exc}") from exc
    if not isinstance(schema, (dict, bool)):
        raise UsageError(f"schema {path} is not a JSON Schema: it must be an object")
    if isinstance(schema, bool):
        schema = {} if schema else {"not": {}}
    from jsonschema.exceptions import SchemaError  # type: ignore[import-untyped, unused-ignore]
    from jsonschema.validators import validator_for  # type: ignore[import-untyped, unused-ignore]
    from referencing.exceptions import Unresolvable

    cls = validator_for(schema, default=_draft())
    try:
        cls.check_schema(schema)
        # Resolves the references a record reaches, so a broken `$ref` is reported here
        # once rather than as an internal error in the middle of a run.
        build_validator(schema).is_valid(_SAMPLE_RECORD)
    except SchemaError as exc:
        raise UsageError(f"schema {path} is not a valid JSON Schema: {exc.message}") from exc
    except Unresolvable as exc:
        raise UsageError(f"schema {path} has a reference that cannot be resolved: {exc}") from exc
    return schema


_SAMPLE_RECORD = {
    "qid": "q",
    "query": "q",
    "type": "intent",
    "gold": {"a.py:1-2:f": 3},
    "split": "tune",
    "source": "interview",
    "notes": "",
    "annotators": ["a"],
    "revision": "0" * 40,
}


def is_default_schema(schema: dict[str, Any]) -> bool:
    return schema == default_schema()


def _draft() -> Any:
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

    return Draft202012Validator


def build_validator(schema: dict[str, Any]) -> Validator:
    """A validator for `schema` (its `$schema` draft, else 2020-12) that can `$ref` the
    default schema by its `$id`, so a team's schema can extend ours."""
    from jsonschema.validators import validator_for
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    default = default_schema()
    registry: Registry[Any] = Registry().with_resource(
        default["$id"], DRAFT202012.create_resource(default)
    )
    cls = validator_for(schema, default=_draft())
    validator: Validator = cls(schema, registry=registry)
    return validator


_TYPES = frozenset(RECORD_TYPES)
_SPLITS = frozenset(SPLITS)
_REVISION = re.compile(r"[0-9a-f]{40}")
_MISSING: Any = object()


def record_is_clean(value: Any, drafts: bool = False) -> bool:
    """True when the default schema and the checks a schema cannot express find nothing
    (a draft is one of them unless `drafts`: the set collects drafts).

    Exact types (`type(x) is int`) on purpose: JSON booleans are Python ints, and 3.0
    passes JSON Schema's `integer` but not our grade rule.
    """
    if type(value) is not dict:
        return False
    get = value.get
    qid = get("qid")
    if type(qid) is not str or not qid:
        return False
    query = get("query")
    if type(query) is not str or not query or query.isspace():
        return False
    kind = get("type")
    if type(kind) is not str or kind not in _TYPES:
        return False
    gold = get("gold")
    if type(gold) is not dict or not gold or len(gold) > MAX_GOLD_ENTRIES:
        return False
    for chunk_id, grade in gold.items():
        if type(grade) is not int or grade < 1 or grade > 3 or not is_valid_chunk_id(chunk_id):
            return False
    return len(value) == len(REQUIRED) or _optional_fields_clean(value, drafts)


_KNOWN = frozenset(FIELDS)


def _optional_fields_clean(value: dict[str, Any], drafts: bool) -> bool:
    if not value.keys() <= _KNOWN:  # one C-level test for the common record
        for name in value.keys() - _KNOWN:
            near = misspelt(name)
            if near is not None and near not in value:
                return False
    if not drafts and value.get("status") == DRAFT:
        return False
    split = value.get("split", _MISSING)
    if split is not _MISSING and (type(split) is not str or split not in _SPLITS):
        return False
    for name in ("source", "notes"):
        text = value.get(name, _MISSING)
        if text is not _MISSING and type(text) is not str:
            return False
    annotators = value.get("annotators", _MISSING)
    if annotators is not _MISSING:
        if type(annotators) is not list:
            return False
        for name in annotators:
            if type(name) is not str or not name:
                return False
        if len(set(annotators)) != len(annotators):
            return False
    revision = value.get("revision", _MISSING)
    return revision is _MISSING or (
        type(revision) is str and _REVISION.fullmatch(revision) is not None
    )
