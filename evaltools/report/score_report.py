"""`evaltools score` output: a text table in the spirit of `ep eval`, the JSON document
(`{"metric", "scores", "summary", "groups"}`), and Markdown for a pull-request comment."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TextIO

from evaltools import jsonio
from evaltools.score.summary import Row

NAME_WIDTH = 40


def document(
    metric: str,
    rows: Sequence[Row],
    summary: dict[str, Any],
    groups: dict[str, Any],
    *,
    mode: str = "score",
    left_out: Sequence[tuple[str, int, str]] = (),
    unpredicted: Sequence[str] = (),
) -> dict[str, Any]:
    """`left_out`: predictions given but not scored (name, index, rule code); `unpredicted`:
    examples without a prediction (not scored under `ep score`'s mode, one empty prediction
    each under `ep eval`'s)."""
    return {
        "metric": metric,
        "mode": mode,
        "scores": [{"name": r.name, "prediction": r.prediction, **r.score} for r in rows],
        "summary": summary,
        "groups": groups,
        "left_out": [{"name": n, "prediction": i, "code": c} for n, i, c in left_out],
        "without_prediction": list(unpredicted),
    }


def render_json(doc: dict[str, Any], out: TextIO) -> None:
    out.write(jsonio.dumps(doc, indent=2) + "\n")


def _f1(score: dict[str, Any]) -> float:
    tp, fp, fn = score["exact_lines_tp"], score["exact_lines_fp"], score["exact_lines_fn"]
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def _cursor(score: dict[str, Any]) -> str:
    if "cursor_distance" in score:
        return "\u2713" if score["cursor_distance"] == 0 else f"\u00b1{score['cursor_distance']}"
    return "\u2717" if score.get("cursor_exact_match") is False else "-"


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def _name(text: str) -> str:
    return text if len(text) <= NAME_WIDTH else text[: NAME_WIDTH - 1] + "\u2026"


def _difference(entry: dict[str, Any]) -> str:
    diff = entry.get("baseline_difference")
    if diff is None:
        return ""
    if not diff["pairs"]:
        return "  (no pairs)"
    return (
        f"  {diff['avg_delta_chr_f']:+7.2f} [{diff['ci95_low']:+.2f}, {diff['ci95_high']:+.2f}] "
        f"n={diff['pairs']}"
    )


def render_text(doc: dict[str, Any], definition_summary: str, out: TextIO) -> None:
    out.write(f"Metric: {doc['metric']} ({definition_summary})\n\n")
    _scores_table(doc, out)
    s = doc["summary"]
    out.write(
        f"Delta chrF (\u03b2={s['delta_chr_f_beta']}): TP={s['delta_chr_f_true_positives']}, "
        f"FP={s['delta_chr_f_false_positives']}, FN={s['delta_chr_f_false_negatives']}, "
        f"pooled {_pooled(s, *(f'delta_chr_f_{c}' for c in _COUNTS))}"
        f" (mean per prediction P={s['delta_chr_f_precision'] * 100:.1f}%, "
        f"R={s['delta_chr_f_recall'] * 100:.1f}%)\n"
    )
    if "cursor_avg_distance" in s:
        out.write(
            f"Cursor: {s['cursor_exact_matches']}/{s['cursor_total_evaluated']} exact matches "
            f"({s['cursor_exact_match_rate'] * 100:.1f}%), avg distance: "
            f"{s['cursor_avg_distance']:.1f} bytes\n"
        )
    if s["total_examples"]:
        count = sum(1 for score in doc["scores"] if score["has_isolated_whitespace_changes"])
        out.write(
            f"Isolated whitespace changes: {count}/{s['total_examples']} "
            f"({s['isolated_whitespace_rate'] * 100:.1f}%)\n"
        )
    if "avg_kept_rate" in s:
        out.write(
            f"Kept rate: {s['avg_kept_rate'] * 100:.1f}%, recall rate: "
            f"{s['avg_recall_rate'] * 100:.1f}% over {s['kept_rate_examples']} of "
            f"{s['total_examples']} predictions (chars kept {s['total_kept_chars']}, correctly "
            f"deleted {s['total_correctly_deleted_chars']}, discarded "
            f"{s['total_discarded_chars']}){_without_kept(doc['scores'])}\n"
        )
    if "avg_retrieved_context_bytes" in s:
        out.write(
            f"Retrieved context size: {s['avg_retrieved_context_bytes']:.0f} bytes avg "
            f"({s['retrieved_context_examples']} examples)\n"
        )
    for name, title in (("editable_context", "Editable context"), ("jump_location", "Jump")):
        if f"{name}_examples" in s:
            lines = _pooled(s, f"{name}_lines_tp", f"{name}_lines_fp", f"{name}_lines_fn")
            files = _pooled(s, f"{name}_files_tp", f"{name}_files_fp", f"{name}_files_fn")
            out.write(f"{title} (pooled): lines {lines}, files {files}\n")
    out.writelines(line + "\n" for line in _omissions(doc))
    if doc["groups"]:
        _groups_table(doc["groups"], out)


def _scores_table(doc: dict[str, Any], out: TextIO) -> None:
    """A row per prediction scored, and the row of their totals and averages."""
    out.write(
        f"{'Example':<{NAME_WIDTH}} {'DeltaChrF':>9} {'Brace':>5} {'F1':>7} {'Revert':>7} "
        f"{'Cursor':>7} WrgER\n"
    )
    for score in doc["scores"]:
        label = _label(score)
        wrong = "\u2717" if score["wrong_editable_region"] else ""
        out.write(
            f"{_name(label):<{NAME_WIDTH}} {score['delta_chr_f']:>9.2f} "
            f"{score['braces_disbalance']:>5} {_f1(score) * 100:>6.1f}% "
            f"{_percent(score.get('reversal_ratio')):>7} {_cursor(score):>7} {wrong}\n"
        )
    s = doc["summary"]
    out.write(
        f"{'TOTAL / AVERAGE':<{NAME_WIDTH}} {s['avg_delta_chr_f']:>9.2f} "
        f"{s['avg_braces_disbalance']:>5.2f} {s['exact_lines_f1'] * 100:>6.1f}% "
        f"{_percent(s.get('avg_reversal_ratio')):>7}\n\n"
    )


def _groups_table(groups: dict[str, Any], out: TextIO) -> None:
    """A row per group --by or --baseline asked for, with its difference from the baseline."""
    out.write(f"\n{'Group':<{NAME_WIDTH}} {'N':>5} {'DeltaChrF':>9} {'F1':>7}\n")
    for key, entry in groups.items():
        g = entry["summary"]
        out.write(
            f"{_name(key):<{NAME_WIDTH}} {g['total_examples']:>5} {g['avg_delta_chr_f']:>9.2f} "
            f"{g['exact_lines_f1'] * 100:>6.1f}%{_difference(entry)}\n"
        )


_COUNTS = ("true_positives", "false_positives", "false_negatives")


def _ratio(part: int, whole: int) -> str:
    # 0/0 has no value: upstream's 1.0 there would show an absent prediction as perfect.
    return "-" if whole == 0 else f"{part / whole * 100:.1f}%"


def _pooled(s: dict[str, Any], tp_key: str, fp_key: str, fn_key: str) -> str:
    """P, R and F1 of the summed counts (the means upstream reports are in the JSON)."""
    tp, fp, fn = s[tp_key], s[fp_key], s[fn_key]
    f1 = _ratio(2 * tp, 2 * tp + fp + fn)
    return f"P={_ratio(tp, tp + fp)} R={_ratio(tp, tp + fn)} F1={f1}"


def _label(score: dict[str, Any]) -> str:
    return score["name"] if score["prediction"] == 0 else f"{score['name']} #{score['prediction']}"


def _listed(names: Sequence[str], most: int = 5) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def _without_kept(scores: Sequence[dict[str, Any]]) -> str:
    missing = [_label(score) for score in scores if "kept_rate" not in score]
    if not missing:
        return ""
    return (
        f"; left out, as upstream does, {len(missing)} where neither the prediction nor any "
        f"expected patch changes a document it is scored on: {_listed(missing)}"
    )


def _omissions(doc: dict[str, Any]) -> list[str]:
    """Sentences on the predictions given but not scored and the examples without one."""
    out: list[str] = []
    left = doc.get("left_out", [])
    if left:
        names = [_label(entry) for entry in left]
        codes = ", ".join(sorted({entry["code"] for entry in left}))
        out.append(
            f"Not scored: {len(left)} prediction(s) that could not be placed ({codes}): "
            f"{_listed(names)}"
        )
    missing = doc.get("without_prediction", [])
    if missing and doc.get("mode") == "eval":
        out.append(
            f"Without a prediction: {len(missing)} example(s), each scored as one empty "
            f"prediction, as `ep eval` does: {_listed(missing)}"
        )
    elif missing:
        out.append(
            f"Without a prediction: {len(missing)} example(s), not scored, as `ep score` does "
            f"(`--mode eval` scores one empty prediction for each, as `ep eval` does): "
            f"{_listed(missing)}"
        )
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(doc: dict[str, Any], out: TextIO) -> None:
    s = doc["summary"]
    out.write(f"### Prediction scores (metric `{doc['metric']}`)\n\n")
    out.write("| predictions | delta chrF | exact lines F1 | cursor exact | wrong region |\n")
    out.write("| ---: | ---: | ---: | ---: | ---: |\n")
    cursor = s.get("cursor_exact_match_rate")
    wrong = s.get("wrong_editable_region_rate")
    out.write(
        f"| {s['total_examples']} | {s['avg_delta_chr_f']:.2f} | {s['exact_lines_f1'] * 100:.1f}% "
        f"| {'-' if cursor is None else f'{cursor * 100:.1f}%'} "
        f"| {'-' if wrong is None else f'{wrong * 100:.1f}%'} |\n"
    )
    out.writelines(f"\n{_cell(line)}\n" for line in _omissions(doc))
    if not doc["groups"]:
        return
    baseline = any("baseline_difference" in e for e in doc["groups"].values())
    out.write("\n| group | predictions | delta chrF | exact lines F1 |")
    out.write(" vs baseline (95% CI) |\n" if baseline else "\n")
    out.write("| --- | ---: | ---: | ---: |" + (" ---: |\n" if baseline else "\n"))
    for key, entry in doc["groups"].items():
        g = entry["summary"]
        row = (
            f"| {_cell(key)} | {g['total_examples']} | {g['avg_delta_chr_f']:.2f} "
            f"| {g['exact_lines_f1'] * 100:.1f}% |"
        )
        if baseline:
            diff = entry["baseline_difference"]
            row += (
                f" {diff['avg_delta_chr_f']:+.2f} "
                f"({diff['ci95_low']:+.2f}, {diff['ci95_high']:+.2f}) |"
                if diff["pairs"]
                else " - |"
            )
        out.write(row + "\n")
