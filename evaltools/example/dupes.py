"""Duplicate and near-duplicate edit-prediction examples in a set, or across two sets.

Exact: the parsed content is equal (names, tags and other metadata aside), whatever form
or layout each was written in. Near: the exact Jaccard similarity of the 5-token shingles
of the cursor excerpt and the expected patches together reaches the threshold; every pair
of a small set is compared, and MinHash and LSH propose the pairs of a large one
(`evaltools.dupes.near`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from pathlib import Path

from evaltools.catalogue.io import NOT_A_FILE
from evaltools.diagnostics import Diagnostic, make
from evaltools.dupes.minhash import (
    SHINGLE_TOKENS,
    Shingled,
    Signature,
    jaccard,
    matrix,
    shingle,
    signatures,
    token_ids,
    unpack,
)
from evaltools.dupes.near import LISTED, near_pairs
from evaltools.dupes.pairs import Item, Pair
from evaltools.dupes.rules import DUPLICATE_EXAMPLE, NEAR_DUPLICATE_EXAMPLE
from evaltools.example.cursor import INLINE_CURSOR_MARKER
from evaltools.example.records import (
    BAD_FILE,
    Record,
    Unit,
    iter_all_units,
    parse_unit,
)
from evaltools.example.spec import ExampleSpec
from evaltools.parallel.processes import Cost, batch_size, parallel_map, worker_count

EXCERPT = "cursor excerpt"
PATCHES = "expected patches"
_MARKERS = ("[CURSOR_POSITION]", INLINE_CURSOR_MARKER)


@dataclass(frozen=True)
class Fingerprint:
    """What the comparison needs of one example, small enough to send between processes."""

    item: Item
    key: bytes  # digest of the content that makes two examples the same edit
    whole: Signature | None  # of the excerpt's and the patches' shingles together
    # The shingles, packed (`minhash.Shingled.packed`): a likely pair is verified on them.
    # Smaller than the signature for most examples, and cheaper than reading them again.
    excerpt: bytes
    patches: bytes


def content_key(spec: ExampleSpec) -> bytes:
    # Expected patches are alternatives: their order carries no meaning.
    fields = [
        spec.repository_url,
        spec.revision,
        spec.uncommitted_diff,
        spec.cursor_path,
        spec.cursor_position,
        spec.edit_history,
        spec.rejected_patch or "",
        *sorted(spec.expected_patches),
    ]
    # Every field's length first: no choice of separator can make two field lists
    # collide. One string encoded and hashed once costs least; SHA-256 has hardware
    # support on most machines (measured at half the time of BLAKE2b here).
    lengths = ",".join(map(str, map(len, fields)))
    rejected = "-" if spec.rejected_patch is None else "+"
    framed = f"{lengths}{rejected}\0" + "".join(fields)
    return hashlib.sha256(framed.encode("utf-8", "surrogatepass")).digest()[:16]


def _without_markers(text: str) -> str:
    for marker in _MARKERS:
        text = text.replace(marker, "")
    return text


def shingled(specs: Sequence[ExampleSpec]) -> Shingled:
    """The shingles of each example's cursor excerpt (item 2k) and of its expected patches,
    in any order (item 2k + 1), hashed in one go."""
    texts: list[str] = []
    owners: list[int] = []
    for k, spec in enumerate(specs):
        texts.append(spec.cursor_position)
        texts += spec.expected_patches
        owners.append(2 * k)
        owners += repeat(2 * k + 1, len(spec.expected_patches))
    runs = list(map(token_ids, map(_without_markers, texts)))
    return shingle(runs, owners, 2 * len(specs), SHINGLE_TOKENS)


def part_shingles(specs: Sequence[ExampleSpec]) -> list[tuple[set[int], set[int]]]:
    """For each example, the shingles of its cursor excerpt and of its expected patches."""
    sets = shingled(specs).sets()
    return list(zip(sets[0::2], sets[1::2], strict=True))


def fingerprints(specs: Sequence[ExampleSpec], items: Sequence[Item]) -> list[Fingerprint]:
    """The fingerprints of `specs`, shingled and signed in one go."""
    parts = shingled(specs)
    sigs = signatures(Shingled(parts.hashes, parts.owners >> 1, len(specs)))
    packed = parts.packed()
    return [
        Fingerprint(item, content_key(spec), sig, excerpt, patches)
        for spec, item, sig, excerpt, patches in zip(
            specs, items, sigs, packed[0::2], packed[1::2], strict=True
        )
    ]


def fingerprint_units(units: Sequence[Unit]) -> list[Fingerprint | list[Diagnostic]]:
    """Examples read, parsed and fingerprinted (what a worker process does), in order:
    a fingerprint, or the diagnostics that say why there is none."""
    out: list[Fingerprint | list[Diagnostic]] = []
    specs: list[ExampleSpec] = []
    items: list[Item] = []
    at: list[int] = []
    for unit in units:
        record = parse_unit(unit)
        if record.example is None:
            out.append(_record_errors(record))
            continue
        spec = record.example.spec
        specs.append(spec)
        items.append(Item(record.path, record.line, spec.name))
        at.append(len(out))
        out.append([])  # its fingerprint, once all are made
    for position, done in zip(at, fingerprints(specs, items), strict=True):
        out[position] = done
    return out


def _record_errors(record: Record) -> list[Diagnostic]:
    from evaltools.catalogue import RULES
    from evaltools.example.lint.diffs.rules import INVALID_RECORD

    out = []
    for error in record.errors:
        # A file problem keeps its own code: selection cannot turn off the ones that say the
        # file could not be read at all, which an EP501 in their place would let it do.
        rule = RULES.get(error.code) if error.code.startswith("IO") else None
        if rule is None:
            rule = NOT_A_FILE if error.code == BAD_FILE else INVALID_RECORD
        message = f"{error.message} (not compared for duplicates)"
        out.append(make(rule, error.path, error.line, error.column, message, pointer=error.pointer))
    return out


# One core's cost of a fingerprint (benchmarks/bench_dupes.py): reading the units, sending
# them and receiving the fingerprints stay in the caller (measured with --jobs 2 at 100k:
# a third of the CPU time).
FINGERPRINT_COST = Cost(per_item=7e-5, parent=0.35)
# Examples fingerprinted together: the bulk hashing's fixed cost is spread over this many.
CHUNK = 512


def read_fingerprints(
    paths: Iterable[Path], jobs: int | None = 1, on_item: Callable[[], None] | None = None
) -> tuple[list[Fingerprint], list[Diagnostic]]:
    """Every example of `paths` (files, or directories searched for .md/.json/.jsonl), in
    input order whatever the number of worker processes (the one `--jobs` policy).
    `on_item` hears each example read (for a progress line)."""
    units = list(iter_all_units(paths))
    workers = worker_count(jobs, items=len(units), cost=FINGERPRINT_COST)
    size = batch_size(len(units), workers, CHUNK) if workers > 1 else CHUNK
    chunks = (units[start : start + size] for start in range(0, len(units), size))
    found: list[Fingerprint] = []
    problems: list[Diagnostic] = []
    for results in parallel_map(fingerprint_units, chunks, workers=workers):
        for result in results:
            if on_item is not None:
                on_item()
            if isinstance(result, Fingerprint):
                found.append(result)
            else:
                problems.extend(result)
    return found, problems


def find_pairs(
    prints: Sequence[Fingerprint],
    threshold: float,
    *,
    across: int | None = None,
    listed: int = LISTED,
) -> list[Pair]:
    """Exact and near pairs among `prints`; with `across`, only pairs of one item before
    position `across` (the reference set) and one from it on (the set compared with it).
    Each item lists its first `listed` near partners; the others are counted in the last
    one listed (`Pair.more`)."""
    found: list[tuple[int, int, Pair]] = []
    members = _representatives(prints, across)
    for position, earlier in _exact_pairs(prints, across):
        found.append((earlier, position, _exact(prints[earlier], prints[position])))
    table = matrix([p.whole for p in prints])
    indexed = [position for position in members if prints[position].whole is not None]

    # Shingle sets are unpacked when compared; the leaders of groups, compared most, stay.
    @lru_cache(maxsize=4096)
    def sets(position: int) -> tuple[set[int], set[int], set[int]]:
        excerpt, patches = unpack(prints[position].excerpt), unpack(prints[position].patches)
        return excerpt, patches, excerpt | patches

    def similarity(i: int, j: int) -> float:
        return jaccard(sets(i)[2], sets(j)[2])

    near = near_pairs(table, indexed, threshold, similarity, across=across, listed=listed)
    for j, partners in near.items():
        for n, (i, value) in enumerate(partners.listed):
            parts = _parts(sets(i)[:2], sets(j)[:2], threshold)
            last = n == len(partners.listed) - 1
            more, exact = (partners.more, partners.exact) if last else (0, True)
            for other in members[j] if across is not None else (j,):
                a, b = prints[i].item, prints[other].item
                pair = Pair("near", a, b, value, NEAR_DUPLICATE_EXAMPLE, parts, more, exact)
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
