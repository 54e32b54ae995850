"""`ExampleSpec`: the reference's fields, order, JSON names and omission rules.

JSON written by the reference CLI may carry runtime fields (`prompt`, `predictions`,
`score`, ...) flattened next to the spec's own; they are kept, in their places,
untouched, in `Example.extra`; keys a recent file's object carries beside `path` and
`cursor_position`, in `RecentFile.extra`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from evaltools import jsonio
from evaltools.example.markdown.hints import LayoutHints

RATINGS = ("Positive", "Negative")
TELEMETRY_FIELDS = ("request_id", "device_id", "time", "rejection_reason", "was_shown")


class SpecError(ValueError):
    """A JSON value that is not an `ExampleSpec`; `pointer` locates it (RFC 6901)."""

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(message)
        self.pointer = pointer


@dataclass
class RecentFile:
    path: str
    cursor_position: int | None = None
    # Keys of its JSON object the reference does not know, kept so that they are written
    # back; `keys` is the object's own key order.
    extra: dict[str, Any] = field(default_factory=dict)
    keys: list[str] = field(default_factory=list, repr=False, compare=False)


@dataclass
class ExampleSpec:
    name: str = ""
    repository_url: str = ""
    revision: str = ""
    tags: list[str] = field(default_factory=list)
    reasoning: str | None = None
    uncommitted_diff: str = ""
    recently_opened_files: list[RecentFile] = field(default_factory=list)
    recently_viewed_files: list[RecentFile] = field(default_factory=list)
    uncommitted_diff_contains_edit_history: bool = False
    cursor_path: str = ""
    cursor_position: str = ""
    edit_history: str = ""
    expected_patches: list[str] = field(default_factory=list)
    rejected_patch: str | None = None
    # Kept as validated JSON objects so that keys the reference may add survive.
    telemetry: dict[str, Any] | None = None
    human_feedback: list[dict[str, Any]] = field(default_factory=list)
    rating: str | None = None
    # How the Markdown file it was read from was laid out, so that `to_markdown(spec)`
    # writes that file again; presentation only, so no part of equality or of the JSON.
    layout: LayoutHints | None = field(default=None, repr=False, compare=False)


# The model's fields: `layout` is not one.
FIELD_NAMES = tuple(f.name for f in fields(ExampleSpec) if f.compare)
REQUIRED_JSON_FIELDS = (
    "repository_url",
    "revision",
    "cursor_path",
    "cursor_position",
    "edit_history",
    "expected_patches",
)
# Fields the Markdown form never carries (the reference never writes them there).
NOT_IN_MARKDOWN = ("telemetry", "human_feedback", "rating")


@dataclass
class Example:
    """A spec plus the JSON keys it does not model, with the original key order."""

    spec: ExampleSpec
    extra: dict[str, Any] = field(default_factory=dict)
    key_order: list[str] = field(default_factory=list)


def _recent_to_json(files: list[RecentFile]) -> list[dict[str, Any]]:
    out = []
    for recent in files:
        item: dict[str, Any] = {"path": recent.path}
        if recent.cursor_position is not None:
            item["cursor_position"] = recent.cursor_position
        out.append(_in_order(item, recent.extra, recent.keys) if recent.extra else item)
    return out


def unmodelled_keys(spec: ExampleSpec) -> list[str]:
    """The keys nested in the spec's objects that it keeps without modelling them, as JSON
    Pointers (`/recently_opened_files/0/note`); `telemetry` and `human_feedback` are kept
    whole, so they are not listed."""
    return [
        f"/{name}/{i}/{key.replace('~', '~0').replace('/', '~1')}"
        for name in ("recently_opened_files", "recently_viewed_files")
        for i, recent in enumerate(getattr(spec, name))
        for key in recent.extra
    ]


def without_unmodelled(spec: ExampleSpec) -> ExampleSpec:
    """The spec without the keys `unmodelled_keys` lists: what a form that cannot hold them
    keeps."""
    if not unmodelled_keys(spec):
        return spec
    return replace(
        spec,
        recently_opened_files=[
            RecentFile(f.path, f.cursor_position) for f in spec.recently_opened_files
        ],
        recently_viewed_files=[
            RecentFile(f.path, f.cursor_position) for f in spec.recently_viewed_files
        ],
    )


def spec_to_json_dict(spec: ExampleSpec) -> dict[str, Any]:
    """The spec's JSON object in the reference's field order, omitting what it omits."""
    out: dict[str, Any] = {
        "name": spec.name,
        "repository_url": spec.repository_url,
        "revision": spec.revision,
    }
    if spec.tags:
        out["tags"] = list(spec.tags)
    if spec.reasoning is not None:
        out["reasoning"] = spec.reasoning
    out["uncommitted_diff"] = spec.uncommitted_diff
    if spec.recently_opened_files:
        out["recently_opened_files"] = _recent_to_json(spec.recently_opened_files)
    if spec.recently_viewed_files:
        out["recently_viewed_files"] = _recent_to_json(spec.recently_viewed_files)
    if spec.uncommitted_diff_contains_edit_history:
        out["uncommitted_diff_contains_edit_history"] = True
    out["cursor_path"] = spec.cursor_path
    out["cursor_position"] = spec.cursor_position
    out["edit_history"] = spec.edit_history
    out["expected_patches"] = list(spec.expected_patches)
    if spec.rejected_patch is not None:
        out["rejected_patch"] = spec.rejected_patch
    if spec.telemetry is not None:
        out["telemetry"] = spec.telemetry
    if spec.human_feedback:
        out["human_feedback"] = spec.human_feedback
    if spec.rating is not None:
        out["rating"] = spec.rating
    return out


def example_to_json_dict(example: Example) -> dict[str, Any]:
    """Spec fields first in reference order, extra fields after them in their own order.

    When the record was read from JSON, its original key order is reproduced instead,
    so that a record passes through a conversion unchanged.
    """
    return _in_order(spec_to_json_dict(example.spec), example.extra, example.key_order)


def _in_order(known: dict[str, Any], extra: dict[str, Any], order: list[str]) -> dict[str, Any]:
    """`known` and then `extra`, or both in `order` (the keys as read) when there is one."""
    if not order:
        return {**known, **extra}
    out: dict[str, Any] = {}
    for key in order:
        if key in known:
            out[key] = known[key]
        elif key in extra:
            out[key] = extra[key]
    for key, value in known.items():
        out.setdefault(key, value)
    for key, value in extra.items():
        out.setdefault(key, value)
    return out


def dumps_example(example: Example) -> str:
    """One JSONL line as the reference writes it (serde_json compact, non-ASCII raw)."""

    return jsonio.dumps(example_to_json_dict(example), compact=True)


def _expect(value: Any, kind: type | tuple[type, ...], pointer: str, what: str) -> Any:
    if isinstance(value, bool) and kind is not bool and bool not in _as_tuple(kind):
        raise SpecError(f"{pointer or '/'} must be {what}, not a boolean", pointer)
    if not isinstance(value, kind):
        raise SpecError(f"{pointer or '/'} must be {what}, not {_json_type(value)}", pointer)
    return value


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string"}
    names.update({list: "an array", dict: "an object"})
    return names.get(type(value), type(value).__name__)


def _string_list(value: Any, pointer: str) -> list[str]:
    _expect(value, list, pointer, "an array of strings")
    return [_expect(v, str, f"{pointer}/{i}", "a string") for i, v in enumerate(value)]


def _recent_files(value: Any, pointer: str) -> list[RecentFile]:
    _expect(value, list, pointer, "an array of {path, cursor_position} objects")
    out = []
    for i, item in enumerate(value):
        where = f"{pointer}/{i}"
        _expect(item, dict, where, "an object with a `path`")
        if "path" not in item:
            raise SpecError(f"{where} has no `path`", where)
        path = _expect(item["path"], str, f"{where}/path", "a string")
        position = item.get("cursor_position")
        if position is not None:
            _expect(position, int, f"{where}/cursor_position", "an unsigned integer")
            if not 0 <= position <= USIZE_MAX:
                raise SpecError(
                    f"{where}/cursor_position must be an unsigned integer below 2^64, as the "
                    "reference reads it",
                    f"{where}/cursor_position",
                )
        extra = {k: v for k, v in item.items() if k not in _RECENT_FILE_KEYS}
        out.append(RecentFile(path, position, extra, list(item) if extra else []))
    return out


_RECENT_FILE_KEYS = ("path", "cursor_position")
USIZE_MAX = 2**64 - 1  # the reference's `usize` on the 64-bit machines it runs on


def _telemetry(value: Any, pointer: str) -> dict[str, Any] | None:
    if value is None:
        return None
    _expect(value, dict, pointer, "an object")
    for key in TELEMETRY_FIELDS:
        if key not in value:
            raise SpecError(f"{pointer} has no `{key}`", f"{pointer}/{key}")
        kind: type = bool if key == "was_shown" else str
        _expect(value[key], kind, f"{pointer}/{key}", "a boolean" if kind is bool else "a string")
    return dict(value)


def _human_feedback(value: Any, pointer: str) -> list[dict[str, Any]]:
    _expect(value, list, pointer, "an array of {message} objects")
    for i, item in enumerate(value):
        _expect(item, dict, f"{pointer}/{i}", "an object with a `message`")
        if "message" not in item:
            raise SpecError(f"{pointer}/{i} has no `message`", f"{pointer}/{i}/message")
        _expect(item["message"], str, f"{pointer}/{i}/message", "a string")
    return [dict(item) for item in value]


def _optional_string(value: Any, pointer: str) -> str | None:
    return None if value is None else _expect(value, str, pointer, "a string or null")


def example_from_json_dict(data: Any) -> Example:
    """Validate a decoded JSON object as the reference would read it (plus our checks)."""
    _expect(data, dict, "", "a JSON object")
    for key in REQUIRED_JSON_FIELDS:
        if key not in data:
            raise SpecError(f"required field `{key}` is missing", f"/{key}")
    spec = ExampleSpec(
        name=_expect(data.get("name", ""), str, "/name", "a string"),
        repository_url=_expect(data["repository_url"], str, "/repository_url", "a string"),
        revision=_expect(data["revision"], str, "/revision", "a string"),
        tags=_string_list(data.get("tags", []), "/tags"),
        reasoning=_optional_string(data.get("reasoning"), "/reasoning"),
        uncommitted_diff=_expect(
            data.get("uncommitted_diff", ""), str, "/uncommitted_diff", "a string"
        ),
        recently_opened_files=_recent_files(
            data.get("recently_opened_files", []), "/recently_opened_files"
        ),
        recently_viewed_files=_recent_files(
            data.get("recently_viewed_files", []), "/recently_viewed_files"
        ),
        uncommitted_diff_contains_edit_history=_expect(
            data.get("uncommitted_diff_contains_edit_history", False),
            bool,
            "/uncommitted_diff_contains_edit_history",
            "a boolean",
        ),
        cursor_path=_expect(data["cursor_path"], str, "/cursor_path", "a string"),
        cursor_position=_expect(data["cursor_position"], str, "/cursor_position", "a string"),
        edit_history=_expect(data["edit_history"], str, "/edit_history", "a string"),
        expected_patches=_string_list(data["expected_patches"], "/expected_patches"),
        rejected_patch=_optional_string(data.get("rejected_patch"), "/rejected_patch"),
        telemetry=_telemetry(data.get("telemetry"), "/telemetry"),
        human_feedback=_human_feedback(data.get("human_feedback", []), "/human_feedback"),
        rating=_rating(data.get("rating")),
    )
    extra = {k: v for k, v in data.items() if k not in FIELD_NAMES}
    return Example(spec, extra, list(data))


def _rating(value: Any) -> str | None:
    if value is None:
        return None
    if value not in RATINGS:
        raise SpecError(f'/rating must be "Positive" or "Negative", not {value!r}', "/rating")
    return str(value)


def filename(name: str) -> str:
    """The reference's file name for an example (`filename()`): some characters become `-`."""
    return name.translate(_FILENAME_TABLE)


_FILENAME_TABLE = str.maketrans(dict.fromkeys(' :~^?*[\\@{/<>|"', "-"))
