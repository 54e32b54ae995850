"""Converting one record to its target form, with the checks that nothing is lost.

This is the part of a conversion that runs in the worker processes: pure functions of
a raw unit and the conversion's settings, returning plain, picklable results. Writing,
naming and ordering happen in `evaltools.example.convert.pipeline`.

The Markdown writer is never trusted blindly (as black checks its own output): the text
is read back and compared with the spec, and any difference is a loss.
"""

from __future__ import annotations

from dataclasses import dataclass

from evaltools import jsonio
from evaltools.atomic import spool, why
from evaltools.diagnostics import Diagnostic
from evaltools.example.markdown.layout import LAYOUT_FIELD, layout_from_json, layout_to_json
from evaltools.example.markdown.reader import LayoutHints, read_markdown
from evaltools.example.markdown.render import default_hints, to_markdown
from evaltools.example.markdown.roundtrip import differing_fields, front_matter_losses
from evaltools.example.records import Record, Unit, parse_unit
from evaltools.example.spec import (
    NOT_IN_MARKDOWN,
    Example,
    dumps_example,
    example_to_json_dict,
    filename,
    unmodelled_keys,
    without_unmodelled,
)
from evaltools.fileio import check_text_bytes
from evaltools.jsonlocate import locate, pointer
from evaltools.positions import line_column

TARGETS = ("md", "json", "jsonl")

# `Converted.status`
OK = "ok"
MALFORMED = "malformed"
FILTERED = "filtered"


@dataclass(frozen=True)
class Settings:
    """What a worker needs to know about the conversion."""

    to: str
    name: str | None = None  # substring of the example's name
    repo: str | None = None  # substring of its repository_url
    allow_lossy: bool = False
    # The stem of the one output file (`""` for stdout, which has none); None when each
    # example gets its own file, named from `filename(name)`.
    stem: str | None = None
    # When set, the output is written here (a temporary file name prefix in the output
    # directory), by the worker, and only renamed into place in input order.
    spool: str | None = None


@dataclass(frozen=True)
class Loss:
    """Something of the record that the output cannot hold, located in the source."""

    line: int
    message: str
    fix: str  # how to keep it
    column: int = 1


@dataclass
class Converted:
    status: str
    path: str
    line: int
    stem: str = ""  # the output file stem the text was rendered for (filename of the name)
    text: str | None = None  # the output, unless spooled or refused
    spooled: str | None = None  # the temporary file holding the output
    # Tuples, not lists: results cross process boundaries, and empty tuples pickle cheaply.
    errors: tuple[Diagnostic, ...] = ()
    losses: tuple[Loss, ...] = ()
    unwritable: str | None = None  # the output could not be read back: never written
    unspooled: str | None = None  # why the output could not be spooled (a full disk)
    size: int = 0  # bytes of the source


def convert_unit(unit: Unit, settings: Settings, stem: str | None = None) -> Converted:
    """Parse, filter and convert one unit; `stem` overrides the output file stem."""
    record = parse_unit(unit)
    size = record.size
    if record.example is None:
        return Converted(
            MALFORMED, record.path, record.line, errors=tuple(record.errors), size=size
        )
    spec = record.example.spec
    if (settings.name is not None and settings.name not in spec.name) or (
        settings.repo is not None and settings.repo not in spec.repository_url
    ):
        return Converted(FILTERED, record.path, record.line, size=size)
    if stem is None:
        stem = settings.stem if settings.stem is not None else _visible(filename(spec.name))
    out = Converted(OK, record.path, record.line, stem, size=size)
    out.losses = tuple(source_losses(record))
    # The output keeps the reference's field order: spec fields, then the others as read.
    example = Example(spec, record.example.extra)
    if settings.to != "md" and record.markdown is not None:
        layout = layout_to_json(record.markdown.hints, spec, unit.stem)
        if layout is not None:
            example.extra = {**example.extra, LAYOUT_FIELD: layout}
    if settings.to == "md":
        text, losses, unwritable = markdown_for(record, example, out.stem or None)
        out.losses += tuple(losses)
        out.unwritable = unwritable
    elif settings.to == "json":
        text = jsonio.dumps(example_to_json_dict(example), indent=2) + "\n"
    else:
        text = dumps_example(example) + "\n"
    if out.unwritable is None and (settings.allow_lossy or not out.losses):
        if settings.spool is None:
            out.text = text
        else:
            try:
                out.spooled = spool(settings.spool, text.encode("utf-8"))
            except OSError as exc:  # reported in input order, as every write failure
                out.unspooled = why(exc)
    return out


def _visible(stem: str) -> str:
    """A file stem that does not start with `.`: directories are read without their hidden
    files, so `.x.md` (or `..md`, for the name `.`) would drop out of the next conversion."""
    dots = len(stem) - len(stem.lstrip("."))
    return "-" * dots + stem[dots:]


def source_losses(record: Record) -> list[Loss]:
    """Content of a Markdown source that never reached the model (lost in any form)."""
    parsed = record.markdown
    if parsed is None:
        return []
    dropped = sorted(parsed.dropped + front_matter_losses(parsed), key=lambda d: (d.line, d.column))
    return [
        Loss(
            d.line,
            f"{d.describe()} at {_lines(d.line, d.end_line)} is not part of the example",
            d.remedy(),
            d.column,
        )
        for d in dropped
    ]


def _lines(first: int, last: int) -> str:
    return f"lines {first}-{last}" if last > first else f"line {first}"


def markdown_for(
    record: Record, example: Example, stem: str | None
) -> tuple[str, list[Loss], str | None]:
    """The Markdown text, what it cannot hold, and why it cannot be written at all (if so)."""
    spec = example.spec
    losses: list[Loss] = []
    pointers = [pointer([name]) for name in example.extra if name != LAYOUT_FIELD]
    pointers += [pointer([name]) for name in NOT_IN_MARKDOWN if getattr(spec, name)]
    pointers += unmodelled_keys(spec)
    if pointers:
        fields = ", ".join(f"`{p.lstrip('/')}`" for p in pointers)
        line, column = _first_placed(record, pointers)
        message = f"{fields} cannot be kept in Markdown"
        losses.append(Loss(line, message, "convert to .jsonl instead", column))
    if record.markdown is not None:
        hints: LayoutHints | None = record.markdown.hints
    else:
        hints = layout_from_json(example.extra.get(LAYOUT_FIELD), spec)
        hints = hints or default_hints(spec.edit_history)
    text = to_markdown(spec, stem=stem, hints=hints)
    problem = _read_back_problem(text, example, stem)
    if problem is not None and hints is not None:
        # Layout hints are presentation only: fall back to the plain layout if they hurt.
        plain = to_markdown(spec, stem=stem, hints=LayoutHints())
        if _read_back_problem(plain, example, stem) is None:
            text, problem = plain, None
    if problem is None:
        return text, losses, None
    unreadable, message = problem
    if unreadable:
        return text, losses, message
    losses.append(Loss(record.line, message, "convert to .jsonl instead"))
    return text, losses, None


def _first_placed(record: Record, pointers: list[str]) -> tuple[int, int]:
    """Where the first of `pointers` (in the text's order) has its value in the record's
    JSON text, as every finding on a JSON field is placed; the record's start without one."""
    if not record.text:  # a Markdown source: its fields have no place of their own
        return record.line, 1
    located = locate(record.text)
    offsets = [o for o in map(located.value_offset, pointers) if o is not None]
    if not offsets:
        return record.line, 1
    line, column = line_column(record.text, min(offsets))
    return record.line + line - 1, column


def _read_back_problem(text: str, example: Example, stem: str | None) -> tuple[bool, str] | None:
    """How the written text reads back differently, and whether it does not read at all."""
    # The file's bytes are checked before its Markdown: a NUL, say, from a JSON string
    # would make the file unreadable though its text reads back the same.
    if "\0" in text or "\r\n" in text or text.startswith("\ufeff"):
        refused = check_text_bytes("", text.encode("utf-8"))
        if refused is not None:
            reason = f"{refused.code} {refused.message}"
            return (
                True,
                f"the Markdown written for it would not read back: {reason} (line {refused.line})",
            )
    back = read_markdown(text, stem)
    if back.errors:
        first = back.errors[0]
        return True, f"the Markdown written for it would not read back: {first} (line {first.line})"
    # Keys the Markdown form cannot hold are a loss of their own, told apart above.
    held = without_unmodelled(example.spec)
    changed = [name for name in differing_fields(held, back.spec) if name not in NOT_IN_MARKDOWN]
    if changed:
        fields = ", ".join(f"`{name}`" for name in changed)
        return False, f"{fields} would not survive the Markdown form (it reads back changed)"
    return None
