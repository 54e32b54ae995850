"""Golden files: what the current code gives for the corpus and for a fixed sample of generated
inputs, recorded once in tests/data/golden/ (compact JSON) and compared on every run.

They replace the frozen old implementations that the differential tests used as oracles: the
code agreed with those on every recorded case when the files were made. Regenerate them only
when a change of output is meant, with `python -m tests.regenerate_golden --overwrite`, and
review the diff."""

from __future__ import annotations

import dataclasses
import enum
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).resolve().parent / "data" / "golden"


def plain(value: Any) -> Any:
    """`value` as JSON would give it back: records keep their type's name under the key `""`,
    so that two records of different types never compare equal, and only the fields their
    own equality compares."""
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = [f for f in dataclasses.fields(value) if f.compare]
        named = {f.name: getattr(value, f.name) for f in fields}
        return {"": type(value).__name__, **{k: plain(v) for k, v in named.items()}}
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {"": type(value).__name__, **{k: plain(v) for k, v in value._asdict().items()}}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: plain(v) for k, v in value.items()}
        return {"pairs": [[plain(k), plain(v)] for k, v in value.items()]}
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"no plain form for {type(value).__name__}: add one to tests/golden.py")


def load(name: str) -> Any:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def meant(name: str) -> str:
    """What an assertion against golden file `name` says besides the case."""
    return f"if this change is meant: python -m tests.regenerate_golden --overwrite {name}"


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def dump(name: str, cases: dict[str, Any]) -> Path:
    """One JSON object, one case a line, so that a diff shows which cases changed."""
    path = GOLDEN / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"{json.dumps(key)}:{compact(case)}" for key, case in cases.items()]
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    return path


def changes(value: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """The keys of `value` that differ from `base`'s: variants of one file record that much."""
    return {key: item for key, item in value.items() if base.get(key) != item}


def numbered(cases: list[Any]) -> dict[str, Any]:
    width = len(str(len(cases)))
    return {f"generated {i:0{width}}": case for i, case in enumerate(cases, 1)}


def sample(seed: int, count: int, draw: Callable[[random.Random], Any]) -> list[Any]:
    """`count` inputs drawn by `draw`, the same on every run and machine."""
    rng = random.Random(seed)
    return [draw(rng) for _ in range(count)]


def pieces(rng: random.Random, choices: list[str], most: int) -> list[str]:
    """Up to `most` of `choices`, repeats allowed: the shape of `st.lists(st.sampled_from())`."""
    return [rng.choice(choices) for _ in range(rng.randint(0, most))]
