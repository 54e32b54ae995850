"""The record schema: the shipped default, and a user's own (the fast yes/no of a schema is
compiled from it by `fast_check`)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from evaltools import jsonio
from evaltools.fileio import UsageError
from evaltools.jsonio import JsonError
from evaltools.retrieval.records.record import strict_loads


class Validator(Protocol):
    """What evaltools uses of a jsonschema validator (jsonschema ships no type hints)."""

    def is_valid(self, instance: Any) -> bool: ...

    def iter_errors(self, instance: Any) -> Iterator[Any]: ...


SCHEMA_RESOURCE = "schemas/retrieval-record.schema.json"


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
