"""`evaltools score` output: a text table in the spirit of `ep eval`, the JSON document
(`{"metric", "scores", "summary", "groups"}`), and Markdown for a pull-request comment."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TextIO

from evaltools import jsonio
from evaltools.score.summary import Row

NAME_WIDTH = 40


def document(
    metric: str, rows: Sequence[Row], summary: dict[str, Any], groups: dict[str, Any]
) -> dict[str, Any]:
    return {
        "metric": metric,
        "scores": [{"name": r.name, "prediction": r.prediction, **r.score} for r in rows],
        "summary": summary,
        "groups": groups,
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
    out.write(
        f"{'Example':<{NAME_WIDTH}} {'DeltaChrF':>9} {'Brace':>5} {'F1':>7} {'Revert':>7} "
        f"{'Cursor':>7} WrgER\n"
    )
    for score in doc["scores"]:
        label = (
            score["name"] if score["prediction"] == 0 else f"{score['name']} #{score['prediction']}"
        )
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
    out.write(
        f"Delta chrF (\u03b2={s['delta_chr_f_beta']}): TP={s['delta_chr_f_true_positives']}, "
        f"FP={s['delta_chr_f_false_positives']}, FN={s['delta_chr_f_false_negatives']}, "
        f"P={s['delta_chr_f_precision'] * 100:.1f}%, R={s['delta_chr_f_recall'] * 100:.1f}%\n"
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
            f"{s['avg_recall_rate'] * 100:.1f}% over {s['kept_rate_examples']} predictions "
            f"(chars kept {s['total_kept_chars']}, correctly deleted "
            f"{s['total_correctly_deleted_chars']}, discarded {s['total_discarded_chars']})\n"
        )
    for name, title in (("editable_context", "Editable context"), ("jump_location", "Jump")):
        if f"{name}_examples" in s:
            out.write(
                f"{title}: lines P={s[f'avg_{name}_lines_precision'] * 100:.1f}% "
                f"R={s[f'avg_{name}_lines_recall'] * 100:.1f}% "
                f"F1={s[f'avg_{name}_lines_f1'] * 100:.1f}%, files "
                f"P={s[f'avg_{name}_files_precision'] * 100:.1f}% "
                f"R={s[f'avg_{name}_files_recall'] * 100:.1f}% "
                f"F1={s[f'avg_{name}_files_f1'] * 100:.1f}%\n"
            )
    if doc["groups"]:
        out.write(f"\n{'Group':<{NAME_WIDTH}} {'N':>5} {'DeltaChrF':>9} {'F1':>7}\n")
        for key, entry in doc["groups"].items():
            g = entry["summary"]
            out.write(
                f"{_name(key):<{NAME_WIDTH}} {g['total_examples']:>5} {g['avg_delta_chr_f']:>9.2f} "
                f"{g['exact_lines_f1'] * 100:>6.1f}%{_difference(entry)}\n"
            )


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
