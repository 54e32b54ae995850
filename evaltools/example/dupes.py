"""Duplicate and near-duplicate edit-prediction examples in a set, or across two sets.

Exact: the parsed content is equal (names, tags and other metadata aside), whatever form
or layout each was written in. Near: the exact Jaccard similarity of the 5-token shingles
of the cursor excerpt and the expected patches together reaches the threshold; MinHash and
LSH propose the pairs to compare, so no pair of the whole set is compared unless likely.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import add
from pathlib import Path

from evaltools.diagnostics import Diagnostic, make
from evaltools.dupes.minhash import (
    LshIndex,
    Signature,
    add_shingles,
    jaccard,
    shingles,
    signature,
    similarities,
    token_ids,
)
from evaltools.dupes.pairs import DUPLICATE_EXAMPLE, Item, Pair
from evaltools.dupes.pairs import NEAR_DUPLICATE_EXAMPLE as NEAR
from evaltools.example.cursor import INLINE_CURSOR_MARKER
from evaltools.example.records import (
    BAD_FILE,
    Record,
    Unit,
    iter_all_units,
    iter_units,
    parse_unit,
)
from evaltools.example.spec import ExampleSpec
from evaltools.fileio import NOT_A_FILE
from evaltools.parallel.processes import Cost, parallel_map, worker_count

EXCERPT = "cursor excerpt"
PATCHES = "expected patches"
_MARKERS = ("[CURSOR_POSITION]", INLINE_CURSOR_MARKER)
# How far below the threshold a signature's estimate may be for the pair to be verified:
# three standard deviations of a 128-bin estimate (about 0.05, measured for sets of 5 to
# 67 shingles near 0.6).
ESTIMATE_MARGIN = 0.15


@dataclass(frozen=True)
class Fingerprint:
    """What the comparison needs of one example, small enough to send between processes."""

    item: Item
    key: bytes  # digest of the content that makes two examples the same edit
    whole: Signature | None  # of the excerpt's and the patches' shingles together
    # Where to read the example again: a likely pair is verified on its shingle sets then,
    # which costs less than keeping every example's sets.
    source: str
    index: int


def content_key(spec: ExampleSpec) -> bytes:
    # Expected patches are alternatives: their order carries no meaning.
    rejected = "\x01" if spec.rejected_patch is None else spec.rejected_patch
    fields = (
        spec.repository_url,
        spec.revision,
        spec.uncommitted_diff,
        spec.cursor_path,
        spec.cursor_position,
        spec.edit_history,
        rejected,
        str(len(spec.expected_patches)),
        *sorted(spec.expected_patches),
    )
    # Length-prefixed: no choice of separator can make two field lists collide. One
    # buffer hashed once costs less than an update per field.
    data = [value.encode("utf-8", "surrogatepass") for value in fields]
    framed = b"".join(map(add, map(_LENGTH.pack, map(len, data)), data))
    return hashlib.blake2b(framed, digest_size=16).digest()


_LENGTH = struct.Struct("<Q")


def _without_markers(text: str) -> str:
    for marker in _MARKERS:
        text = text.replace(marker, "")
    return text


def part_shingles(spec: ExampleSpec) -> tuple[set[int], set[int]]:
    """The shingles of the cursor excerpt, and of the expected patches (in any order)."""
    excerpt = shingles(token_ids(_without_markers(spec.cursor_position)))
    patches: set[int] = set()
    for patch in spec.expected_patches:
        patches |= shingles(token_ids(_without_markers(patch)))
    return excerpt, patches


def fingerprint(spec: ExampleSpec, item: Item, source: str = "", index: int = 0) -> Fingerprint:
    # The union of `part_shingles`, gathered into one set.
    whole: set[int] = set()
    for text in (spec.cursor_position, *spec.expected_patches):
        add_shingles(whole, token_ids(_without_markers(text)))
    return Fingerprint(item, content_key(spec), signature(whole), source, index)


def fingerprint_unit(unit: Unit) -> Fingerprint | list[Diagnostic]:
    """One example read, parsed and fingerprinted (what a worker process does)."""
    record = parse_unit(unit)
    if record.example is None:
        return _record_errors(record)
    spec = record.example.spec
    return fingerprint(spec, Item(record.path, record.line, spec.name), unit.path, unit.index)


def _reload(prints: Sequence[Fingerprint], positions: Iterable[int]) -> dict[int, ExampleSpec]:
    """The examples at `positions`, read again: one pass over each file that holds any."""
    wanted: dict[str, dict[int, int]] = {}
    for position in positions:
        wanted.setdefault(prints[position].source, {})[prints[position].index] = position
    specs: dict[int, ExampleSpec] = {}
    for source, indexes in wanted.items():
        for unit in iter_units(Path(source)):
            at = indexes.get(unit.index)
            if at is not None:
                example = parse_unit(unit).example
                if example is not None:  # unchanged since the first read, as a rule
                    specs[at] = example.spec
    return specs


def _record_errors(record: Record) -> list[Diagnostic]:
    from evaltools.example.lint.catalogue import BAD_RECORD
    from evaltools.jsonio import INVALID_JSON

    out = []
    for error in record.errors:
        rule = NOT_A_FILE if error.code == BAD_FILE else BAD_RECORD
        if error.code == INVALID_JSON.code:
            rule = INVALID_JSON
        message = f"{error.message} (not compared for duplicates)"
        out.append(make(rule, error.path, error.line, error.column, message, pointer=error.pointer))
    return out


# One core's cost of a fingerprint (benchmarks/bench_dupes.py): reading stays in the caller.
FINGERPRINT_COST = Cost(per_item=4e-4, parent=0.3)


def read_fingerprints(
    paths: Iterable[Path], jobs: int | None = 1, on_item: Callable[[], None] | None = None
) -> tuple[list[Fingerprint], list[Diagnostic]]:
    """Every example of `paths` (files, or directories searched for .md/.json/.jsonl), in
    input order whatever the number of worker processes (the one `--jobs` policy).
    `on_item` hears each example read (for a progress line)."""
    units = list(iter_all_units(paths))
    workers = worker_count(jobs, items=len(units), cost=FINGERPRINT_COST)
    batch = max(1, min(64, len(units) // (workers * 8)))
    found: list[Fingerprint] = []
    problems: list[Diagnostic] = []
    for result in parallel_map(fingerprint_unit, units, workers=workers, batch=batch):
        if on_item is not None:
            on_item()
        if isinstance(result, Fingerprint):
            found.append(result)
        else:
            problems.extend(result)
    return found, problems


def find_pairs(
    prints: Sequence[Fingerprint], threshold: float, *, across: int | None = None
) -> list[Pair]:
    """Exact and near pairs among `prints`; with `across`, only pairs of one item before
    position `across` (the reference set) and one from it on (the set compared with it)."""
    found: list[tuple[int, int, Pair]] = []
    members = _representatives(prints, across)
    for position, earlier in _exact_pairs(prints, across):
        found.append((earlier, position, _exact(prints[earlier], prints[position])))
    index = LshIndex(threshold)
    for position in members:
        sig = prints[position].whole
        if sig is not None:
            index.add(position, sig)
    # Candidates whose estimate is near enough are read again and verified exactly.
    likely = [
        (i, j)
        for i, j, value in similarities([p.whole for p in prints], index.candidates(across))
        if value >= threshold - ESTIMATE_MARGIN
    ]
    specs = _reload(prints, {p for pair in likely for p in pair})
    shingled = {position: part_shingles(spec) for position, spec in specs.items()}
    for i, j in likely:
        if i not in shingled or j not in shingled:
            continue  # changed on disk since the first read: no longer an example
        (excerpt_a, patches_a), (excerpt_b, patches_b) = shingled[i], shingled[j]
        value = jaccard(excerpt_a | patches_a, excerpt_b | patches_b)
        if value < threshold:
            continue
        parts = _parts(shingled[i], shingled[j], threshold)
        for other in members[j] if across is not None else (j,):
            pair = Pair("near", prints[i].item, prints[other].item, value, NEAR, parts)
            found.append((i, other, pair))
    return [pair for _, _, pair in sorted(found, key=lambda t: (t[0], t[1]))]


def _exact_pairs(prints: Sequence[Fingerprint], across: int | None) -> list[tuple[int, int]]:
    """(position, the earlier position it repeats), for the pairs to report."""
    first: dict[bytes, int] = {}
    out = []
    for position, current in enumerate(prints):
        earlier = first.setdefault(current.key, position)
        if earlier != position and (across is None or earlier < across <= position):
            out.append((position, earlier))
    return out


def _representatives(prints: Sequence[Fingerprint], across: int | None) -> dict[int, list[int]]:
    """The first of each group of equal items, with the group's members that near pairs
    stand for: across two sets, a near pair holds for each copy in the compared set."""
    groups: dict[tuple[bool, bytes], int] = {}
    members: dict[int, list[int]] = {}
    reference = set()
    for position, current in enumerate(prints):
        compared = across is not None and position >= across
        if compared and current.key in reference:
            continue  # an exact pair already
        if not compared:
            reference.add(current.key)
        head = groups.setdefault((compared, current.key), position)
        members.setdefault(head, []).append(position)
    return members


def _exact(a: Fingerprint, b: Fingerprint) -> Pair:
    parts = ((EXCERPT, 1.0), (PATCHES, 1.0))
    return Pair("exact", a.item, b.item, 1.0, DUPLICATE_EXAMPLE, parts)


def _parts(
    a: tuple[set[int], set[int]], b: tuple[set[int], set[int]], threshold: float
) -> tuple[tuple[str, float], ...]:
    """The parts alike (exact Jaccard similarity at least `threshold`), or all of them."""
    parts = [(name, jaccard(x, y)) for name, x, y in zip((EXCERPT, PATCHES), a, b, strict=True)]
    return tuple(part for part in parts if part[1] >= threshold) or tuple(parts)
