"""`evaltools score` throughput: predictions scored per second of CPU on one core, against a
floor measured in the same run, and how the time grows with the number of predictions.

    python benchmarks/bench_score.py [--predictions 4000] [--repeats 3] [--quick]

Builds `ep predict` examples (JSONL, `prompt_inputs` with the cursor excerpt,
`excerpt_start_row`, and the example's last edit of the cursor file as a user `BufferChange`
event, so that the reversal ratio is computed) from the corpus examples' own cursor excerpts and
expected patches, with
predictions of three kinds per expected patch (the patch itself, a one-character near miss,
an empty patch), replicated to the requested count. Times, as CPU time (`time.process_time`),
best of a few repeats, in this process (one core):
(a) the floor: applying each prediction's patch to its excerpt once (`apply_diff`), and
(b) the whole command's work: reading the JSONL, scoring every prediction (current definition),
    summarising (`score.service.score_paths` + `score.summary.summarise`).
Prints predictions/s per core for (b), the ratio (b)/(a), and the linearity ratio: time per
prediction at the full count over time per prediction at an eighth of it (1.0 is linear).
Target (issue 18): at least 2,000 predictions/s per core; linear.
"""

from __future__ import annotations

import argparse
import functools
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evaltools.example.diffs.patch_cursor import extract_cursor_from_patch
from evaltools.example.records import iter_records
from evaltools.score.apply import try_apply
from evaltools.score.definitions import DEFAULT
from evaltools.score.inputs import from_markdown
from evaltools.score.service import score_paths
from evaltools.score.summary import summarise

SHARED = Path("/work/shared/corpus/zed-evals")
CORPUS = (
    SHARED
    if SHARED.is_dir()
    else Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus" / "zed-evals"
)


def _near_miss(patch: str) -> str:
    lines = patch.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("+") and not line.startswith("+++") and len(line) > 2:
            lines[i] = line[:-1] + ("x" if line[-1] != "x" else "y")
            break
    return "\n".join(lines)


def user_event(edit_history: str, cursor_path: str) -> list[dict[str, Any]]:
    """The edit history's last section for the cursor file, as `ep predict` records it: hunks
    without file headers."""
    sections: list[tuple[str, list[str]]] = []
    for line in edit_history.split("\n"):
        if line.startswith("--- "):
            sections.append((line[4:].removeprefix("a/").strip(), []))
        elif sections and not line.startswith("+++ "):
            sections[-1][1].append(line)
    mine = [body for path, body in sections if path == cursor_path]
    if not mine:
        return []
    diff = "\n".join(mine[-1])
    return [
        {"event": "BufferChange", "path": cursor_path, "old_path": cursor_path, "diff": diff,
         "predicted": False, "in_open_source_repo": True}
    ]  # fmt: skip


def corpus_records() -> list[dict[str, Any]]:
    """One `ep predict` record per corpus example, its predictions of three kinds."""
    records: list[dict[str, Any]] = []
    for path in sorted(CORPUS.glob("*.md")):
        for record in iter_records(path):
            example = record.example
            assert example is not None
            spec = example.spec
            patches = [extract_cursor_from_patch(p)[0] for p in spec.expected_patches]
            scorable = from_markdown(example, [], DEFAULT)
            predictions = [
                {"actual_patch": variant, "actual_output": "", "provider": "bench"}
                for patch in patches
                for variant in (patch, _near_miss(patch), "")
            ]
            records.append(
                {
                    "name": spec.name,
                    "repository_url": spec.repository_url,
                    "revision": spec.revision,
                    "cursor_path": spec.cursor_path,
                    "cursor_position": spec.cursor_position,
                    "edit_history": spec.edit_history,
                    "expected_patches": patches,
                    "prompt_inputs": {
                        "cursor_path": spec.cursor_path,
                        "cursor_excerpt": scorable.original,
                        "cursor_offset_in_excerpt": 0,
                        "excerpt_start_row": scorable.documents[0].start_row,
                        "events": user_event(spec.edit_history, spec.cursor_path),
                        "related_files": None,
                    },
                    "predictions": predictions,
                }
            )
    return records


def replicate(records: list[dict[str, Any]], predictions: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    count = 0
    while count < predictions:
        for record in records:
            out.append({**record, "name": f"{record['name']}-{len(out)}"})
            count += len(record["predictions"])
    return out


def floor(records: list[dict[str, Any]]) -> None:
    for record in records:
        excerpt = record["prompt_inputs"]["cursor_excerpt"]
        for prediction in record["predictions"]:
            try_apply(prediction["actual_patch"], excerpt)


def whole(path: Path) -> None:
    outcome = score_paths([path], DEFAULT, jobs=1)  # one core: CPU time of this process
    summarise([row.score for row in outcome.rows])


def best_of(repeats: int, func: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        func()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--predictions", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="800 predictions, one repeat")
    args = parser.parse_args()
    if args.quick:
        args.predictions, args.repeats = 800, 1
    base = corpus_records()
    with tempfile.TemporaryDirectory() as tmp:
        runs: dict[int, tuple[int, list[dict[str, Any]], Path]] = {}
        for count in (max(args.predictions // 8, 1), args.predictions):
            records = replicate(base, count)
            path = Path(tmp) / f"run-{count}.jsonl"
            path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
            runs[count] = (sum(len(r["predictions"]) for r in records), records, path)
        # Repeats interleave the two sizes, so that load from other processes falls on both.
        best: dict[int, tuple[float, float]] = dict.fromkeys(runs, (float("inf"), float("inf")))
        for _ in range(args.repeats):
            for count, (_, records, path) in runs.items():
                floor_s = best_of(1, functools.partial(floor, records))
                whole_s = best_of(1, functools.partial(whole, path))
                best[count] = (min(best[count][0], floor_s), min(best[count][1], whole_s))
        timings = {count: (runs[count][0], *best[count]) for count in runs}
    small, large = sorted(timings)
    n, floor_s, whole_s = timings[large]
    n_small, _, whole_small = timings[small]
    excerpt = sum(len(r["prompt_inputs"]["cursor_excerpt"]) for r in base) / len(base)
    print(f"corpus: {len(base)} examples, mean cursor excerpt {excerpt:.0f} chars; {n} predictions")
    print(
        f"floor (apply each prediction once): {floor_s:.3f} s CPU, {n / floor_s:,.0f} predictions/s"
    )
    print(
        f"score (read, score, summarise):     {whole_s:.3f} s CPU, "
        f"{n / whole_s:,.0f} predictions/s per core"
    )
    print(f"ratio to the floor: {whole_s / floor_s:.2f}x")
    per_small = whole_small / n_small
    per_large = whole_s / n
    print(f"linearity: {per_large / per_small:.2f} (time per prediction at {n} over at {n_small})")


if __name__ == "__main__":
    main()
