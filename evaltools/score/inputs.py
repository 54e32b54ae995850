"""What an example gives scoring (reference section 2, steps 1-5): the base text, the expected
patches with their cursors, the context documents and the predictions, from an `ep predict`
Example (JSON/JSONL) or from a `.md`/`.json` example plus a predictions file."""

from __future__ import annotations

from typing import Any, NamedTuple

from evaltools.example.cursor import cursor_excerpt
from evaltools.example.diffs.patch_cursor import extract_cursor_from_patch
from evaltools.example.diffs.udiff import rust_lines
from evaltools.example.spec import Example
from evaltools.score.apply import apply_with_hunk_offset, extract_inline_cursor, try_apply
from evaltools.score.context.documents import Document, apply_to_documents, strip_first_component
from evaltools.score.context.file_lines import file_documents
from evaltools.score.context.related_limit import Excerpt, selected
from evaltools.score.definitions import Definition
from evaltools.score.metrics.reversal import NO_HISTORY, History, history
from evaltools.score.patch_lines import parse_patch_lines
from evaltools.score.prediction import ActualCursor, Expected, Prediction

OLD_MARKER = "[CURSOR_POSITION]"
_REGION_START = "<|editable_region_start|>\n"
_REGION_END = "\n<|editable_region_end|>"


class Problem(NamedTuple):
    """A finding before it has a file and line: the rule code, a JSON pointer, the message."""

    code: str
    pointer: str
    message: str


class BadInput(ValueError):
    def __init__(self, code: str, pointer: str, message: str) -> None:
        super().__init__(message)
        self.problem = Problem(code, pointer, message)


class Scorable(NamedTuple):
    original: str
    expected: tuple[Expected, ...]
    documents: tuple[Document, ...]
    predictions: tuple[Prediction, ...]
    providers: tuple[str, ...]  # one per prediction
    problems: tuple[Problem, ...]
    # Upstream refuses the example ("Expected patch did not apply"): nothing is scored.
    refused: bool = False
    history: History = NO_HISTORY
    # Documents built from a `.md`'s own file lines (our extension, `score.context.file_lines`): a
    # prediction they cannot place is an error, not upstream's silent drop.
    from_file_lines: bool = False
    retrieved_bytes: int | None = None  # upstream's retrieved_context_bytes


def _get(
    data: dict[str, Any], key: str, kind: type, pointer: str, *, optional: bool = False
) -> Any:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        what = {str: "a string", int: "an integer", list: "an array", dict: "an object"}[kind]
        raise BadInput("SC003", f"{pointer}/{key}", f"{pointer}/{key} must be {what}")
    return value


def _related_documents(files: list[Any], cap: int | None) -> list[Document]:
    """The related files' excerpts as documents, in file then excerpt order; `cap`: `ep
    eval`'s byte limit (`score.context.related_limit`), None for `ep score`'s every excerpt."""
    paths: list[str] = []
    excerpts: list[list[Excerpt]] = []
    for i, file in enumerate(files):
        where = f"/prompt_inputs/related_files/{i}"
        if not isinstance(file, dict):
            raise BadInput("SC003", where, f"{where} must be an object")
        # Upstream drops the first component: the project name, absent from expected patches.
        paths.append(strip_first_component(_get(file, "path", str, where)) or "")
        excerpts.append([])
        for j, excerpt in enumerate(_get(file, "excerpts", list, where)):
            at = f"{where}/excerpts/{j}"
            if not isinstance(excerpt, dict):
                raise BadInput("SC003", at, f"{at} must be an object")
            rows = _get(excerpt, "row_range", dict, at)
            start = _get(rows, "start", int, f"{at}/row_range")
            end = _get(rows, "end", int, f"{at}/row_range")
            order = _get(excerpt, "order", int, at, optional=True) or 0
            excerpts[-1].append(Excerpt(start, end, _get(excerpt, "text", str, at), order))
    keep = None if cap is None else selected(excerpts, cap)
    return [
        Document(path, e.start, e.end, e.text)
        for f, path in enumerate(paths)
        for j, e in enumerate(excerpts[f])
        if keep is None or keep[f][j]
    ]


def _teacher_region(prompt: Any) -> str | None:
    if not isinstance(prompt, dict):
        return None
    provider, text = prompt.get("provider"), prompt.get("input")
    if not isinstance(provider, str) or not isinstance(text, str):
        return None
    if not provider.startswith(("teacher:", "teacher-non-batching:")):
        return None
    start, end = text.rfind(_REGION_START), text.rfind(_REGION_END)
    if start < 0 or end < 0:
        return None
    region = text[start + len(_REGION_START) : end].replace("<|user_cursor|>", "")
    return region[:-1] if region.endswith("\n") else region


def _expected(
    patches: list[str], original: str, region: str | None, inline: bool, old: bool
) -> tuple[list[Expected], list[int]]:
    """(prepared patches, indices of those that do not apply to `original`)."""
    out: list[Expected] = []
    failed: list[int] = []
    for i, raw in enumerate(patches):
        patch, cursor = raw, None
        if old and OLD_MARKER in patch:
            patch, cursor = extract_cursor_from_patch(patch)
        if inline:
            patch, inline_cursor = extract_inline_cursor(patch)
            cursor = inline_cursor if inline_cursor is not None else cursor
        text = try_apply(patch, original)
        if text is None:
            failed.append(i)
            text = original
        if region is not None and cursor is not None:
            try:
                cursor = (apply_with_hunk_offset(patch, region)[1] or 0) + cursor
            except ValueError:
                cursor = None
        out.append(Expected(patch, text, cursor))
    return out, failed


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _actual_cursor(value: Any) -> ActualCursor | None:
    if not isinstance(value, dict):
        return None
    row, offset = value.get("row"), value.get("editable_region_offset")
    return ActualCursor(
        row if isinstance(row, int) else None, offset if isinstance(offset, int) else None
    )


def _predictions(values: Any) -> tuple[list[Prediction], list[str], list[Problem]]:
    if values is None:
        return [], [], []
    if not isinstance(values, list):
        raise BadInput("SC003", "/predictions", "/predictions must be an array")
    out: list[Prediction] = []
    providers: list[str] = []
    problems: list[Problem] = []
    for i, value in enumerate(values):
        where = f"/predictions/{i}"
        if not isinstance(value, dict):
            raise BadInput("SC003", where, f"{where} must be an object")
        patch = value.get("actual_patch")
        if patch is not None and not isinstance(patch, str):
            raise BadInput(
                "SC003", f"{where}/actual_patch", f"{where}/actual_patch must be a string"
            )
        output = value.get("actual_output")
        if patch is None and isinstance(output, str) and output.strip():
            message = (
                "has no actual_patch, and reading one out of actual_output is not implemented: "
                "scored as no prediction (upstream parses it for teacher, zeta2 and repair)"
            )
            problems.append(Problem("SC103", where, message))
        logprobs = (_number(value.get("cumulative_logprob")), _number(value.get("avg_logprob")))
        out.append(Prediction(patch, _actual_cursor(value.get("actual_cursor")), logprobs))
        provider = value.get("provider")
        providers.append(provider if isinstance(provider, str) else "")
    return out, providers, problems


def _excerpt_document(inputs: dict[str, Any], excerpt: str) -> list[Document]:
    start = _get(inputs, "excerpt_start_row", int, "/prompt_inputs", optional=True)
    if start is None:
        return []
    path = _get(inputs, "cursor_path", str, "/prompt_inputs")
    return [Document(path, start, start + len(rust_lines(excerpt)), excerpt)]


def _old_marker_problems(patches: list[str]) -> list[Problem]:
    message = (
        "holds a `#...^[CURSOR_POSITION]` line: the current parser reads it as garbage, which "
        "ends the patch there (write the cursor as <|user_cursor|> inside the + line)"
    )
    return [
        Problem("SC102", f"/expected_patches/{i}", message)
        for i, patch in enumerate(patches)
        if any(line.startswith("#") and OLD_MARKER in line for line in rust_lines(patch))
    ]


# A patch past this many characters is refused, not scored: delta chrF holds the n-grams of
# what an edit changes, about 1 KB a character, so a 10 MB line would take gigabytes (and
# minutes). Edit predictions change a region of the cursor excerpt: a few KB.
MAX_PATCH_CHARS = 100_000


def refuse_huge(patches: list[str], predictions: list[Prediction]) -> None:
    """`BadInput` (IO009) for the first patch too long to score."""
    texts = [(f"/expected_patches/{i}", text) for i, text in enumerate(patches)]
    texts += [(f"/predictions/{i}/actual_patch", p.patch or "") for i, p in enumerate(predictions)]
    for pointer, text in texts:
        if len(text) > MAX_PATCH_CHARS:
            message = (
                f"{pointer} is {len(text):,} characters, over the {MAX_PATCH_CHARS:,} a patch "
                "can have to be scored: the example is not scored; is it an edit prediction?"
            )
            raise BadInput("IO009", pointer, message)


def from_example(
    example: Example, definition: Definition, *, related_cap: int | None = None
) -> Scorable:
    """An `ep predict` Example: `prompt_inputs` gives the base text and the documents (the
    related ones cut to `related_cap` bytes as `ep eval` does). Raises `BadInput` when it is
    missing or malformed."""
    inputs = example.extra.get("prompt_inputs")
    if not isinstance(inputs, dict):
        raise BadInput(
            "SC003",
            "/prompt_inputs",
            "has no prompt_inputs object: run `ep predict` (or `ep format-prompt`) first, "
            "which records the cursor excerpt the prediction was made on",
        )
    original = _get(inputs, "cursor_excerpt", str, "/prompt_inputs")
    related = _get(inputs, "related_files", list, "/prompt_inputs", optional=True)
    kept = _related_documents(related or [], related_cap)
    documents = _excerpt_document(inputs, original) + kept
    # Upstream's retrieved_context_bytes: the related excerpts' text, None without the list.
    retrieved = (
        None
        if related is None
        else sum(len(d.content.encode("utf-8", "surrogatepass")) for d in kept)
    )
    predictions, providers, problems = _predictions(example.extra.get("predictions"))
    patches = example.spec.expected_patches
    refuse_huge(patches, predictions)
    region = _teacher_region(example.extra.get("prompt"))
    current = definition.context_scoring
    expected, failed = _expected(patches, original, region, True, not current)
    if current:
        problems += _old_marker_problems(patches)
    events = inputs.get("events")
    prepared = _prepared(
        original,
        expected,
        failed,
        documents=documents,
        predictions=predictions,
        providers=providers,
        problems=problems,
        current=current,
    )
    start_row = _get(inputs, "excerpt_start_row", int, "/prompt_inputs", optional=True)
    edits = history(events if isinstance(events, list) else [], example.spec.cursor_path, start_row)
    return prepared._replace(history=edits, retrieved_bytes=retrieved)


def _prepared(
    original: str,
    expected: list[Expected],
    failed: list[int],
    *,
    documents: list[Document],
    predictions: list[Prediction],
    providers: list[str],
    problems: list[Problem],
    current: bool,
    place: str = "the cursor excerpt",
) -> Scorable:
    refused = bool(failed) and (not current or not documents)
    for i in failed:
        if refused:
            message = (
                f"does not apply to {place}, and upstream then scores nothing for "
                'the example ("Expected patch did not apply")'
            )
        else:
            message = (
                f"does not apply to {place} (its old text is not there, or more than "
                "once): upstream then keeps the excerpt unchanged as every expected text"
            )
        problems.append(Problem("SC002", f"/expected_patches/{i}", message))
    if failed and not refused:
        # Upstream's fallback: every expected text is the base text, cursors unadjusted.
        expected = [Expected(e.patch, original, e.cursor) for e in expected]
    if current and not documents and any((p.patch or "").strip() for p in predictions):
        message = (
            "has no excerpt_start_row and no related files, so upstream has no document to "
            "score on: every non-blank prediction scores 0, even a perfect one"
        )
        problems.append(Problem("SC101", "/prompt_inputs", message))
    return Scorable(
        original,
        tuple(expected),
        tuple(documents),
        tuple(predictions),
        tuple(providers),
        tuple(problems),
        refused,
    )


def _infer_start_row(excerpt: str, patches: list[str]) -> int:
    """The file row of the excerpt's first line, from the first expected hunk whose old
    text occurs once in the excerpt; 0 when none does."""
    for patch in patches:
        for hunk in parse_patch_lines(patch):
            old = "".join(text + "\n" for kind, text in hunk.lines if kind in (" ", "-"))
            if hunk.old_start < 1 or not old.strip() or excerpt.count(old) != 1:
                continue
            return max(hunk.old_start - 1 - excerpt[: excerpt.find(old)].count("\n"), 0)
    return 0


def from_markdown(
    example: Example, predictions: list[Prediction], definition: Definition
) -> Scorable:
    """Our extension: an example without `prompt_inputs` (a `.md`, or a spec-only `.json`)
    and predictions from a file. Its documents are the file lines it holds (the cursor block,
    the expected patches' old sides, the edit history's new sides: `score.context.file_lines`); the
    base text of the definitions before v6 is the one holding the cursor block."""
    spec = example.spec
    patches = spec.expected_patches
    refuse_huge(patches, predictions)
    excerpt, _ = cursor_excerpt(spec.cursor_position)
    cleaned = [_clean(patch) for patch in patches]
    lines = file_documents(
        spec.cursor_path, excerpt, cleaned, spec.edit_history, _infer_start_row(excerpt, cleaned)
    )
    original = lines.base.content
    expected, failed = _expected(patches, original, None, True, True)
    current = definition.context_scoring
    if current:
        failed = [i for i, patch in enumerate(cleaned) if _misplaced(patch, lines.documents)]
    prepared = _prepared(
        original,
        expected,
        failed,
        documents=list(lines.documents),
        predictions=predictions,
        providers=[""] * len(predictions),
        problems=[],
        current=current,
        place="the file lines the example holds",
    )
    return prepared._replace(from_file_lines=True)


def _clean(patch: str) -> str:
    """The patch without cursor markers, old or inline."""
    if OLD_MARKER in patch:
        patch, _ = extract_cursor_from_patch(patch)
    return extract_inline_cursor(patch)[0]


def _misplaced(patch: str, documents: tuple[Document, ...]) -> bool:
    applied = apply_to_documents(patch, documents)
    return applied.dropped > 0 or not applied.texts
