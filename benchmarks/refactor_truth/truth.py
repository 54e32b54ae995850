"""Where each old definition went (the ground truth), and how `gold check`'s answers score.

The rules are bench_refactor.py's, on bodies the language's own front end printed (so no
comment or formatting counts), compared with difflib on their tokens:

- the same qualified name in the same file, whose body kept at least half of the old one
  (or there is no better body elsewhere), is where it is (`unchanged` when the span is the
  same, else `moved in file`); several such are told apart by body, or `ambiguous`. A
  file that is gone, whose qualified names are for at least half in one new file, was
  renamed to it (names decide, not git): the same name there is `file renamed`;
- a name kept on a body that went elsewhere (hollowed), or several bodies at least 0.95
  alike (copies): `ambiguous`, right when reported with every target as candidate;
- else the same qualified name elsewhere (body at least 0.4 alike), or the one body at
  least 0.7 alike and 0.05 ahead of the next: `file renamed` when the old file is gone,
  `moved to another file` when it is not, `symbol renamed` in the same file;
- nothing: `gone`, right when left unresolved (no rewrite).

Rules of its own, where the truth is not clear-cut or the body alone cannot say:

- a type (class, impl, module) renamed, as its members say (at least half of their names
  under one new scope of the same file, or of the file it was renamed to), takes its
  members along: `Subject.build` -> `Haystack.build` is `symbol renamed` (or `file
  renamed`), whatever their bodies;
- a body under 12 tokens (`mod x;`, a getter) is evidence of nothing by itself: only a
  name places it, and one alike elsewhere with no name to confirm it is `unclear`;

- a target that was already there at the old revision (the same path and qualified name)
  is not the new home of another definition: when its own old body is still at least half
  of it, the old definition is `gone` (merged into it); otherwise (it was replaced) the ID
  is `unclear`;
- a best body elsewhere at least 0.5 but under 0.7 alike, with no name to confirm it, may
  be a definition both renamed and rewritten: `unclear`;
- a body places a definition under another name only when a name links them (the same
  last name; or the same scope of the same file, files and scopes renamed: renamed within
  its type) or the body is distinctive: at least 32 tokens, 0.8 alike and no other body
  within 0.05 of it, or the one body identical to it in either tree. Otherwise (a 3-line
  trait impl alike another type's, boilerplate error classes) it is `unclear`; look-alikes
  of other names do not make copies of a namesake, nor are they where a hollowed name's
  body went;
- "there before" looks through renames: a target whose qualified name the old tree had in
  the file renamed to the target's (or, for a target of another name, anywhere, in a
  definition that left its place: its namesake moved there) is that definition's;
- several old definitions of one name and one new: the body most alike takes the name;
  another under 0.5 alike is `gone`;
- a target there before that way gives way to the next candidate the rules accept (the
  copy that moved into a plugin, a rename in the same file): the old definition is
  `gone` (merged) only when no newcomer is as clear;
- a scope whose name, with as many of its members, arrived in another file moved there:
  it is not renamed to a new scope of its old file that took its members' names;
- a Go package-level name (function, type, method) defined once in its package (folder)
  at each revision is one symbol whichever file holds it and whatever its body;
- a file that is gone, whose base name only one file has in each tree, a newcomer
  sharing a qualified name with it, was renamed to it (moved to another folder);
- the same qualified name nested in a new scope (`enable_es5.peek` for `peek`) and
  more alike takes the place of a looser namesake elsewhere;
- a Rust item's module path (`map.rs`'s `mod tests { fn f }` is `map/tests.rs`'s `f`)
  is its name: it outranks the same qualified name in another module;
- a name kept on a stub while the body went to the same member of a scope new to the
  tree that holds half of its scope's members (the type renamed, a stub of the old
  name re-added) is `unclear`: both are defensible.

`unclear` IDs are excluded from the scores and counted.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass

from refactor_truth.extract import Def
from refactor_truth.homes import (
    SHORT,
    package_key,
    package_mates,
    renamed_files,
    renamed_scopes,
    same_module,
    scope_twins,
)

CATEGORIES = (
    "unchanged",
    "moved in file",
    "moved to another file",
    "file renamed",
    "symbol renamed",
    "gone",
    "ambiguous",
)
OUTCOMES = ("right", "false", "unresolved", "ambiguous")
KEEP, BODY, BODY_AHEAD, NAME_BODY, COPY, UNCLEAR = 0.5, 0.7, 0.05, 0.4, 0.95, 0.5
LONG, DISTINCT = 32, 0.8  # tokens, ratio: a body that places a definition under another name


@dataclass(frozen=True)
class Truth:
    category: str  # one of CATEGORIES, or "unclear"
    targets: tuple[str, ...]  # chunk IDs; several for `ambiguous`, none for `gone`
    why: str = ""


class Tree:
    """The new release's definitions, which (path, name) pairs the old one had, and which
    old files were renamed."""

    def __init__(self, new_defs: list[Def], new_paths: set[str], old_defs: list[Def]) -> None:
        self.new_defs = new_defs
        self.new_paths = new_paths
        self.renamed = renamed_files(old_defs, new_defs, new_paths)
        self.scopes = renamed_scopes(old_defs, new_defs, self.renamed)
        self.token_sets = [frozenset(d.body) for d in new_defs]
        self.new_keys = {d.key for d in new_defs}
        # old definitions where the new tree would hold them (files and scopes renamed)
        self.old_by_key: dict[tuple[str, str], list[Def]] = {}
        self.old_by_name: dict[str, list[Def]] = {}
        for d in old_defs:
            self.old_by_key.setdefault(self.home_key(d), []).append(d)
            self.old_by_name.setdefault(d.name, []).append(d)
        self.new_bodies = Counter(d.body for d in new_defs)
        self.package_mates = package_mates(old_defs, new_defs)
        self.twins = scope_twins(old_defs, new_defs)
        self.old_bodies = Counter(d.body for d in old_defs)

    def home_key(self, old: Def) -> tuple[str, str]:
        return (self.renamed.get(old.path, old.path), rescoped(old, self))


def _in_twin(old: Def, strong: list[tuple[float, Def]], tree: Tree) -> tuple[float, Def] | None:
    """The best linked body of the old definition's last name in a twin of its scope."""
    scope, _, leaf = old.name.rpartition(".")
    twins = tree.twins.get((old.path, scope), set())
    for s, d in strong:
        d_scope, _, d_leaf = d.name.rpartition(".")
        if d_leaf == leaf and f"{d.path}:{d_scope}" in twins:
            return s, d
    return None


def rescoped(old: Def, tree: Tree) -> str:
    """The old definition's qualified name with its renamed scope's new name, if any (none,
    for a scope dissolved)."""
    parts = old.name.split(".")
    for cut in range(len(parts), 0, -1):  # the longest renamed scope
        scope = ".".join(parts[:cut])
        new = tree.scopes.get((old.path, scope))
        if new is not None:
            return ".".join([new, *parts[cut:]] if new else parts[cut:])
    return old.name


def sim(a: Def, b: Def) -> float:
    return difflib.SequenceMatcher(None, a.body, b.body, autojunk=False).ratio()


def scores(old: Def, tree: Tree) -> list[tuple[float, Def]]:
    """Every definition of the old one's qualified name at least NAME_BODY alike, and of
    the others every one the rules below can use (the best, those within BODY_AHEAD of
    it or over BODY, none under UNCLEAR), best first. difflib's ratio is computed in the
    order of its cheap upper bound (quick_ratio) and no further than the rules need;
    before that, a body sharing under a fifth of its distinct tokens with the old one is
    skipped (a filter, not a bound: such bodies score far below any threshold here)."""
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(old.body)
    mine = frozenset(old.body)
    bounded = []
    for d, theirs in zip(tree.new_defs, tree.token_sets, strict=True):
        floor = NAME_BODY if d.name == old.name or same_module(old, d) else UNCLEAR
        if len(mine & theirs) * 5 < len(mine | theirs):
            continue
        matcher.set_seq1(d.body)
        if matcher.real_quick_ratio() < floor:
            continue
        bound = matcher.quick_ratio()
        if bound >= floor:
            bounded.append((bound, floor, d))
    bounded.sort(key=lambda p: -p[0])
    found: list[tuple[float, Def]] = []
    best = 0.0
    for bound, floor, d in bounded:
        if floor == UNCLEAR and bound < max(UNCLEAR, min(BODY, best - BODY_AHEAD)):
            continue  # a name match further down may still count
        matcher.set_seq1(d.body)
        ratio = matcher.ratio()
        if ratio >= floor:
            found.append((ratio, d))
            best = max(best, ratio)
    found.sort(key=lambda p: (-p[0], p[1].chunk_id))
    return found


def truth(old: Def, tree: Tree) -> Truth:
    home = tree.renamed.get(old.path, old.path)
    name = rescoped(old, tree)
    same = [d for d in tree.new_defs if d.key == (home, name)]
    scored = scores(old, tree)
    # a body elsewhere that no name links to the old definition counts only when distinctive
    strong = [
        (s, d)
        for s, d in scored
        if _linked(old, name=name, home=home, ratio=s, d=d, scored=scored, tree=tree)
    ]
    if same:
        return _kept(old, same, strong, name=name, home=home, tree=tree)
    placed = _placed(old, scored, strong, tree)
    if isinstance(placed, Truth):
        return placed
    target, ratio = placed
    if target.name != old.name and (ratio, target) not in strong:
        return Truth("unclear", (target.chunk_id,), "another name elsewhere, body not distinctive")
    if target.path == old.path:
        category = "symbol renamed"
    elif old.path in tree.new_paths:
        category = "moved to another file"
    else:
        category = "file renamed"
    return Truth(category, (target.chunk_id,))


def _kept(
    old: Def,
    same: list[Def],
    strong: list[tuple[float, Def]],
    *,
    name: str,
    home: str,
    tree: Tree,
) -> Truth:
    """The old definition's qualified name is still in its file (files and scopes renamed)."""
    best_other = next((s for s, d in strong if d not in same), 0.0)
    kept = sorted(((sim(old, d), d) for d in same), key=lambda p: -p[0])
    top, pick = kept[0]
    twin = _in_twin(old, strong, tree)
    if twin is not None and twin[0] >= BODY and twin[0] - top >= BODY_AHEAD:
        # the name stayed (a stub), its type's members went to a type renamed
        return Truth("unclear", (pick.chunk_id, twin[1].chunk_id), "its type renamed too")
    if len(kept) > 1 and top - kept[1][0] < BODY_AHEAD:
        return Truth("ambiguous", tuple(d.chunk_id for _, d in kept), "twins")
    if top >= KEEP or best_other < BODY or best_other - top < 0.25:
        if (rival := _namesake(old, pick, top, tree)) is not None:
            return rival
        if home != old.path:
            return Truth("file renamed", (pick.chunk_id,))
        if name != old.name:
            return Truth("symbol renamed", (pick.chunk_id,), "its scope renamed")
        category = "unchanged" if (pick.start, pick.end) == (old.start, old.end) else ""
        return Truth(category or "moved in file", (pick.chunk_id,))
    hollow = (pick.chunk_id, *(d.chunk_id for s, d in strong if s >= BODY and d != pick))
    return Truth("ambiguous", hollow, "hollowed")


def _placed(
    old: Def, scored: list[tuple[float, Def]], strong: list[tuple[float, Def]], tree: Tree
) -> tuple[Def, float] | Truth:
    """The new place of an old definition whose name left its file, and its body's ratio;
    a target that was another old definition's place gives way to the next one."""
    taken: list[tuple[Def, float]] = []
    while True:
        picked = _pick(old, scored, strong, tree, [d for d, _ in taken])
        if isinstance(picked, Truth):
            if picked.category == "ambiguous" or not taken:
                return picked
            # no newcomer as clear as the body it was merged into
            there, own = taken[0]
            return Truth("gone", (), f"merged into {there.chunk_id}, there before ({own:.2f})")
        target = picked
        if target.name == old.name and (rival := _namesake(old, target, sim(old, target), tree)):
            return rival
        residents = _residents(old, target, tree)
        if not residents:
            return target, next((s for s, d in scored if d is target), 0.0)
        own = max(sim(r, target) for r in residents)
        if own < KEEP:
            return Truth("unclear", (target.chunk_id,), "replaced a definition of its name")
        # another old definition's own new place: look on among the newcomers
        taken.append((target, own))
        scored = [(s, d) for s, d in scored if d is not target]
        strong = [(s, d) for s, d in strong if d is not target]


def _pick(
    old: Def,
    scored: list[tuple[float, Def]],
    strong: list[tuple[float, Def]],
    tree: Tree,
    taken: list[Def],
) -> Def | Truth:
    """The new definition the rules place the old one at (none of `taken`), or the truth
    when there is none."""
    key = package_key(old)
    mate = tree.package_mates.get(key) if key is not None else None
    if mate is not None and mate not in taken:
        return mate
    named = [(s, d) for s, d in scored if same_module(old, d)]
    named = named or [(s, d) for s, d in scored if d.name == old.name]
    # A namesake that stood where it is under its own name (a wrapper of the old name kept
    # in `__init__.py`) is not where the definition went when the one namesake new there
    # keeps its body (tqdm 4.36's `tnrange`); a short body, or one the newcomer does not
    # keep, tells nothing of it (the `Codec` of each codec package, and a new one).
    stood = [(s, d) for s, d in named if any(r is not old for r in tree.old_by_key.get(d.key, []))]
    fresh = [p for p in named if p not in stood]
    if stood and len(fresh) == 1 and fresh[0][0] >= BODY and len(old.body) >= SHORT:
        named = fresh
    if len(old.body) < SHORT:
        if len(named) == 1:
            return named[0][1]
        if scored and scored[0][0] >= BODY:
            return Truth("unclear", (scored[0][1].chunk_id,), "a short body, alike elsewhere")
        return Truth("gone", ())
    if len(copies := [d for s, d in strong if s >= COPY]) > 1:
        return Truth("ambiguous", tuple(d.chunk_id for d in copies), "copies")
    if len(named) == 1 and (scope := _scope_of_its_code(old, named[0], scored)) is not None:
        return scope
    if len(named) == 1:
        wrapped = [(s, d) for s, d in scored if d.name.endswith("." + old.name)]
        both = sorted(wrapped + named, key=lambda p: -p[0])
        if wrapped and wrapped[0][0] - named[0][0] >= BODY_AHEAD and _ahead(both):
            return wrapped[0][1]  # nested in a new scope, and the more alike
        return named[0][1]
    if scored and scored[0][0] >= BODY and (len(scored) == 1 or _ahead(scored)):
        return scored[0][1]
    if scored and scored[0][0] >= UNCLEAR:
        return Truth("unclear", (scored[0][1].chunk_id,), "renamed and rewritten?")
    return Truth("gone", ())


def _scope_of_its_code(
    old: Def, named: tuple[float, Def], scored: list[tuple[float, Def]]
) -> Truth | None:
    """Its name on a scope over twice as long, one member of which has its code more than
    the scope has (node-semver 7: the constructor function `SemVer` became a class, its
    code the class's `constructor`): either is a fair home, neither a miss."""
    ratio, scope = named
    if scope.end - scope.start <= 2 * (old.end - old.start):
        return None
    inner = [
        (s, d)
        for s, d in scored
        if d.path == scope.path and d.name.startswith(scope.name + ".") and s >= BODY
    ]
    if not inner or inner[0][0] - ratio < BODY_AHEAD:
        return None
    return Truth(
        "unclear", (scope.chunk_id, inner[0][1].chunk_id), "its code a member's of its scope"
    )


def _linked(
    old: Def,
    *,
    name: str,
    home: str,
    ratio: float,
    d: Def,
    scored: list[tuple[float, Def]],
    tree: Tree,
) -> bool:
    """Whether a name links `d` to the old definition (its qualified or last name, or its
    scope in the same file: renamed within its type), or else its body is distinctive:
    at least LONG tokens, DISTINCT alike and no other body within BODY_AHEAD of it, or
    the one body identical to it on either side."""
    scope, _, leaf = name.rpartition(".")
    d_scope, _, d_leaf = d.name.rpartition(".")
    if d.name in (old.name, name) or d_leaf == leaf or (d.path == home and d_scope == scope):
        return True
    if ratio == 1.0 and tree.new_bodies[d.body] == 1 and tree.old_bodies[old.body] == 1:
        return True
    crowd = any(abs(s - ratio) < BODY_AHEAD for s, other in scored if other is not d)
    return len(old.body) >= LONG and ratio >= DISTINCT and not crowd


def _namesake(old: Def, target: Def, mine: float, tree: Tree) -> Truth | None:
    """Several old definitions of one name (in one file, files and scopes renamed) and one
    new: the body most alike takes the name; another under KEEP alike is gone."""
    rivals = [r for r in tree.old_by_key.get(tree.home_key(old), []) if r is not old]
    best = max((sim(r, target) for r in rivals), default=0.0)
    if mine >= KEEP or best - mine < BODY_AHEAD:
        return None
    return Truth("gone", (), f"its name went to a namesake more alike ({best:.2f})")


def _residents(old: Def, target: Def, tree: Tree) -> list[Def]:
    """Old definitions that the target is the new place of by name: one of its name where
    it is (files and scopes renamed), or, for a target of another name, one of its name
    elsewhere that left its place."""
    here = [r for r in tree.old_by_key.get(target.key, []) if r is not old]
    if here or target.name == old.name:
        return here
    return [
        r
        for r in tree.old_by_name.get(target.name, [])
        if r is not old and tree.home_key(r) not in tree.new_keys
    ]


def _ahead(scored: list[tuple[float, Def]]) -> bool:
    return scored[0][0] - scored[1][0] >= BODY_AHEAD


@dataclass(frozen=True)
class Answer:
    """`gold check`'s verdict on one ID, from its `--format json` object."""

    status: str
    kind: str
    new_chunk_id: str | None
    candidates: tuple[str, ...]
    evidence: str | None = None  # why it re-anchored, in a few words

    @property
    def resolved(self) -> str | None:
        return self.new_chunk_id


def outcome(chunk_id: str, want: Truth, got: Answer) -> str:
    """right, false (resolved to another place, or any rewrite of a gone ID), unresolved,
    or ambiguous (reported ambiguous without every right target)."""
    resolved = chunk_id if got.status == "ok" else got.resolved
    if resolved is not None:
        return "right" if resolved in want.targets else "false"
    if want.category == "gone":
        return "right"
    if want.category == "ambiguous" and set(want.targets) <= set(got.candidates):
        return "right"
    return "ambiguous" if got.status == "ambiguous" else "unresolved"


Table = dict[str, Counter[str]]


def by_evidence(truth_of: dict[str, Truth], answers: dict[str, Answer]) -> Counter[tuple[str, str]]:
    """The repairs `gold check` made, by their evidence (`rule_of`: one rule, whatever its
    particulars) and outcome (right or false)."""
    tally: Counter[tuple[str, str]] = Counter()
    for chunk_id, want in truth_of.items():
        got = answers[chunk_id]
        if got.resolved is None:
            continue
        tally[(rule_of(got.evidence or "-"), outcome(chunk_id, want, got))] += 1
    return tally


def rule_of(evidence: str) -> str:
    """Evidence with its particulars folded: names as `X`, paths as P, numbers as N."""
    folded = re.sub(r"`[^`]*`", "`X`", evidence)
    paths = r"[\w.-]*/[\w./-]*|\b[\w-]+\.(?:py|js|cjs|mjs|ts|tsx|go|rs|java)\b"
    folded = re.sub(paths, "P", folded)
    return re.sub(r"[-+]?\d+(\.\d+)?", "N", folded)


def score(truth_of: dict[str, Truth], answers: dict[str, Answer]) -> tuple[Table, list[str]]:
    """Counts per category and outcome, and one line per miss."""
    table: Table = {c: Counter() for c in CATEGORIES}
    misses = []
    for chunk_id, want in truth_of.items():
        got = answers[chunk_id]
        result = outcome(chunk_id, want, got)
        table[want.category]["n"] += 1
        table[want.category][result] += 1
        if result != "right":
            shown = ", ".join(got.candidates[:3])
            misses.append(
                f"{result}: `{chunk_id}` [{want.category}{', ' + want.why if want.why else ''}]"
                f" truth {list(want.targets)}; got {got.kind} {got.new_chunk_id} [{shown}]"
            )
    return table, misses


def totals(table: Table) -> tuple[int, int, int]:
    """Re-anchorable IDs (every category but `gone`), how many are right, false anywhere."""
    able = sum(table[c]["n"] for c in CATEGORIES if c != "gone")
    right = sum(table[c]["right"] for c in CATEGORIES if c != "gone")
    false = sum(table[c]["false"] for c in CATEGORIES)
    return able, right, false


def render(table: Table) -> list[str]:
    head = f"  {'category':24}{'n':>5}" + "".join(f"{o:>12}" for o in OUTCOMES)
    rows = [head]
    for category in CATEGORIES:
        row = table[category]
        rows.append(f"  {category:24}{row['n']:>5}" + "".join(f"{row[o]:>12}" for o in OUTCOMES))
    able, right, false = totals(table)
    unresolved = sum(table[c]["unresolved"] for c in CATEGORIES if c != "gone")
    ambiguous = sum(table[c]["ambiguous"] for c in CATEGORIES if c != "gone")
    rows.append(
        f"  re-anchorable {able}: right {right} ({right / max(able, 1):.1%}), false {false},"
        f" unresolved {unresolved}, ambiguous {ambiguous}"
    )
    return rows
