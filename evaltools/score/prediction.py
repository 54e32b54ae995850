"""One prediction against an example's expected patches (upstream `score_prediction`,
reference section 2, step 7), under a metric definition. Returns upstream's score fields,
in upstream's order, for the metrics implemented here."""

from __future__ import annotations

import struct
from typing import Any, NamedTuple

from evaltools.score.apply import try_apply
from evaltools.score.context.documents import Document
from evaltools.score.definitions import Definition
from evaltools.score.metrics.chrf import ChrF, braces_disbalance, delta_chr_f, zero
from evaltools.score.metrics.jumps import LineFile, patch_location_match
from evaltools.score.metrics.kept_rate import KeptRate, compute_kept_rate
from evaltools.score.metrics.reversal import NO_HISTORY, History, reversal_ratio
from evaltools.score.patch_lines import (
    Classification,
    exact_lines_match,
    has_isolated_whitespace_changes,
    is_editable_region_correct,
)
from evaltools.score.prediction_cache import Cache

Score = dict[str, Any]


class Expected(NamedTuple):
    patch: str  # without cursor markers
    text: str  # applied to the base text (or the base text itself, upstream's fallback)
    cursor: int | None  # byte offset, in the frame upstream compares with the actual cursor


class ActualCursor(NamedTuple):
    row: int | None
    editable_region_offset: int | None


class Prediction(NamedTuple):
    patch: str | None
    cursor: ActualCursor | None
    # The model's, as `ep predict` records them; upstream copies them into the score.
    logprobs: tuple[float | None, float | None] = (None, None)


class Content(NamedTuple):
    chrf: ChrF
    braces: int
    # Change hunks of the prediction that fit no document (v6) or the base text.
    actual_dropped: int
    # The predicted text upstream measures the reversal on; None: it takes the ratio as 0.
    reversal_target: str | None = None
    # (base, predicted, expected) texts of the kept rate; None: upstream has none.
    kept_texts: tuple[str, str, str] | None = None


def f32(value: float) -> float:
    """`value as f32`, written as serde_json does: the shortest decimal that reads back as
    the same f32."""
    single = struct.unpack("f", struct.pack("f", value))[0]
    for digits in range(1, 10):
        shortest = float(f"{single:.{digits}g}")
        if struct.unpack("f", struct.pack("f", shortest))[0] == single:
            return shortest
    return float(single)


def _on_text(
    original: str, expected: Expected, patch: str, definition: Definition, cache: Cache
) -> Content:
    actual = try_apply(patch, original)
    dropped = 0
    if actual is None:
        actual, dropped = original, 1
    chrf, braces = _text_scores(original, expected.text, actual, definition, cache)
    return Content(chrf, braces, dropped, actual, (original, actual, expected.text))


def _text_scores(
    original: str, expected: str, actual: str, definition: Definition, cache: Cache
) -> tuple[ChrF, int]:
    """delta chrF of the predicted text against one expected text, and the braces it left
    unbalanced that the base text did not."""
    chrf = delta_chr_f(
        original,
        expected,
        actual,
        beta=definition.beta,
        whitespace=definition.whitespace,
        cache=cache.chrf,
    )
    return chrf, max(braces_disbalance(actual) - braces_disbalance(original), 0)


def _on_documents(
    expected: Expected,
    patch: str,
    documents: tuple[Document, ...],
    definition: Definition,
    cache: Cache,
    *,
    cursor_path: str,
) -> Content | None:
    exp = cache.on_documents(expected.patch, documents)
    act = cache.on_documents(patch, documents)
    touched = tuple(sorted(exp.texts.keys() | act.texts.keys()))
    if not touched:
        return None
    base = cache.joined(None, touched, documents, cursor_path)
    exp_side = cache.joined(expected.patch, touched, documents, cursor_path)
    act_side = cache.joined(patch, touched, documents, cursor_path)
    chrf = delta_chr_f(
        base.text,
        exp_side.text,
        act_side.text,
        beta=definition.beta,
        whitespace=definition.whitespace,
        cache=cache.chrf,
    )
    # The reversal is measured on the last touched document that is the cursor file (its
    # path compared as a patch's).
    kept = (base.text, act_side.text, exp_side.text)
    braces = max(act_side.braces - base.braces, 0)
    return Content(chrf, braces, act.dropped, act_side.target, kept)


def _content(
    original: str,
    expected: Expected,
    patch: str,
    documents: tuple[Document, ...] | None,
    definition: Definition,
    *,
    cache: Cache,
    cursor_path: str,
) -> Content:
    if documents is None:
        return _on_text(original, expected, patch, definition, cache)
    found = _on_documents(expected, patch, documents, definition, cache, cursor_path=cursor_path)
    if found is not None:
        return found
    if not expected.patch.strip() and not patch.strip():
        return _on_text(original, expected, patch, definition, cache)
    return Content(zero(definition.beta), 0, 0)


class Candidate(NamedTuple):
    content: Content
    exact: Classification
    cursor: int | None
    patch: str  # the expected patch's


def _jump(candidate: Candidate, patch: str, cache: Cache, memo: dict[str, LineFile]) -> LineFile:
    found = memo.get(candidate.patch)
    if found is None:
        locations = cache.locations(candidate.patch), cache.locations(patch)
        found = memo[candidate.patch] = patch_location_match(*locations)
    return found


def cursor_metrics(
    expected: int | None, actual: ActualCursor | None
) -> tuple[int | None, bool | None]:
    if expected is not None and actual is not None:
        distance = abs(expected - (actual.editable_region_offset or 0))
        return distance, distance == 0
    if expected is None and actual is None:
        return None, None
    return None, False


def _fields(chrf: ChrF, braces: int, exact: Classification, reversal: float | None) -> Score:
    fields: Score = {
        "delta_chr_f": f32(chrf.score),
        "delta_chr_f_true_positives": chrf.true_positives,
        "delta_chr_f_false_positives": chrf.false_positives,
        "delta_chr_f_false_negatives": chrf.false_negatives,
        "delta_chr_f_precision": chrf.precision,
        "delta_chr_f_recall": chrf.recall,
        "delta_chr_f_beta": chrf.beta,
        "braces_disbalance": braces,
        "exact_lines_tp": exact.true_positives,
        "exact_lines_fp": exact.false_positives,
        "exact_lines_fn": exact.false_negatives,
    }
    if reversal is not None:  # unknown: left out (score/reversal.py)
        fields["reversal_ratio"] = f32(reversal)
    return fields


class Scored(NamedTuple):
    score: Score
    actual_dropped: int  # hunks of the prediction that changed nothing they were meant to
    # Upstream's reversal_ratio, None where it is not reproduced (score/reversal.py); the
    # score holds it (as f32) only when known.
    reversal: float | None = None


def _finish(
    fields: Score,
    cursor: int | None,
    prediction: Prediction,
    cache: Cache,
    kept: KeptRate | None = None,
) -> Score:
    distance, exact = cursor_metrics(cursor, prediction.cursor)
    if distance is not None:
        fields["cursor_distance"] = distance
    if exact is not None:
        fields["cursor_exact_match"] = exact
    patch = prediction.patch
    hunks = None if patch is None else cache.parsed(patch)
    fields["wrong_editable_region"] = (
        None if hunks is None else not is_editable_region_correct(hunks)
    )
    row = None if prediction.cursor is None else prediction.cursor.row
    fields["has_isolated_whitespace_changes"] = hunks is not None and (
        has_isolated_whitespace_changes(hunks, row)
    )
    tokens = cache.token_changes(patch or "")
    fields["inserted_tokens"] = tokens.inserted
    fields["deleted_tokens"] = tokens.deleted
    if kept is not None:
        fields["kept_rate"] = kept.kept_rate
        fields["recall_rate"] = kept.recall_rate
        fields["kept_chars"] = kept.kept
        fields["correctly_deleted_chars"] = kept.correctly_deleted
        fields["discarded_chars"] = kept.discarded
    return fields


def score_prediction(
    original: str,
    expected: tuple[Expected, ...],
    prediction: Prediction,
    documents: tuple[Document, ...] | None,
    definition: Definition,
    *,
    cache: Cache | None = None,
    history: History = NO_HISTORY,
) -> Scored:
    """`documents` None scores on `original` alone (upstream with no context); the current
    definition passes the documents, even when there are none. `cache`: one per example;
    `history`: the user's last edit of the cursor file, for the reversal ratio."""
    cache = cache or Cache()
    if not definition.context_scoring:
        # Before the rewrite the ratio is known here only when no user edit is reversed.
        reversal = 0.0 if history.last_user_diff is None else None
        return _score_before_rewrite(
            original, expected, prediction, definition, cache, reversal=reversal
        )
    patch = prediction.patch or ""
    jumps: dict[str, LineFile] = {}  # by expected patch: computed only to break a tie
    best = _best_candidate(
        original, expected, patch, documents, definition, cache=cache, history=history, jumps=jumps
    )
    # Upstream computes these for every expected patch; only the best one's are reported.
    reversal = reversal_ratio(history, original, best.content.reversal_target, cache.reversal)
    texts = best.content.kept_texts
    kept = None if texts is None else compute_kept_rate(*texts, memo=cache.kept)
    fields = _finish(
        _fields(best.content.chrf, best.content.braces, best.exact, reversal),
        best.cursor,
        prediction,
        cache,
        kept,
    )
    for name, value in zip(("cumulative_logprob", "avg_logprob"), prediction.logprobs, strict=True):
        if value is not None:
            fields[name] = value
    if documents is not None and expected:
        coverage = cache.coverage((exp.patch for exp in expected), documents)
        fields["editable_context_coverage"] = coverage.fields()
    fields["jump_location"] = _jump(best, patch, cache, jumps).fields()
    return Scored(fields, best.content.actual_dropped, reversal)


def _best_candidate(
    original: str,
    expected: tuple[Expected, ...],
    patch: str,
    documents: tuple[Document, ...] | None,
    definition: Definition,
    *,
    cache: Cache,
    history: History,
    jumps: dict[str, LineFile],
) -> Candidate:
    """The expected patch the prediction is scored against (the base text itself when there
    is none), with the prediction's content and exact lines against it. `jumps` keeps the
    jump locations computed to break a tie: the best one's is reported too."""
    candidates = expected or (Expected("", original, None),)
    best: Candidate | None = None
    best_key = (0.0, 0.0)
    for exp in candidates:
        candidate = Candidate(
            _content(
                original,
                exp,
                patch,
                documents,
                definition,
                cache=cache,
                cursor_path=history.cursor_path,
            ),
            exact_lines_match(cache.changed_lines(exp.patch), cache.changed_lines(patch)),
            exp.cursor,
            exp.patch,
        )
        # Upstream's max_by over (chrF, exact-lines F1, jump line F1): the last of equal keys
        # wins. The jump location is needed only to break a tie.
        key = (candidate.content.chrf.score, candidate.exact.f1)
        if best is None or key > best_key:
            best, best_key = candidate, key
        elif key == best_key:
            tie = _jump(candidate, patch, cache, jumps), _jump(best, patch, cache, jumps)
            best = candidate if tie[0].lines_f1 >= tie[1].lines_f1 else best
    assert best is not None
    return best


def _score_before_rewrite(
    original: str,
    expected: tuple[Expected, ...],
    prediction: Prediction,
    definition: Definition,
    cache: Cache,
    *,
    reversal: float | None,
) -> Scored:
    """Before 2026-06-24: the best expected patch by chrF (the first of equal ones), exact lines
    chosen on their own (most true positives, the last of equal ones), and a prediction that
    is missing or does not apply scores 0."""
    patch = prediction.patch
    actual = None if patch is None else try_apply(patch, original)
    dropped = 1 if patch is not None and actual is None else 0
    best_chrf = zero(definition.beta)
    best_braces = 0
    best_cursor: int | None = None
    for i, exp in enumerate(expected):
        if actual is None:
            chrf, braces = zero(definition.beta), 0
        else:
            chrf, braces = _text_scores(original, exp.text, actual, definition, cache)
        if i == 0 or chrf.score > best_chrf.score:
            best_chrf, best_braces, best_cursor = chrf, braces, exp.cursor
    exact = Classification(0, 0, 0)
    for i, exp in enumerate(expected):
        lines = exact_lines_match(cache.changed_lines(exp.patch), cache.changed_lines(patch or ""))
        if i == 0 or lines.true_positives >= exact.true_positives:
            exact = lines
    fields = _fields(best_chrf, best_braces, exact, reversal)
    return Scored(_finish(fields, best_cursor, prediction, cache), dropped, reversal)
