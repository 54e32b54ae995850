"""Where the old release's files, scopes and names are in the new one, before any body is
compared: files renamed (by names) or moved (by their unique base name), scopes renamed
(by their members), a scope's renamed twin, and the languages' own scoping (a Go
package, a Rust module path). See truth.py for the rules as a whole."""

from __future__ import annotations

from collections import Counter

from refactor_truth.extract import Def

FILE_AHEAD = 0.1
SHORT = 12  # tokens: a body this short (`mod x;`, a getter) is evidence of nothing alone


def _module_path(d: Def) -> str | None:
    """A Rust definition's path from its crate's folder: the file's module (`a/b.rs` and
    `a/b/mod.rs` are `a::b`; `lib.rs` and `main.rs` the root) and its inline modules and
    items, so `map.rs`'s `mod tests { fn f }` is `map/tests.rs`'s `fn f`."""
    if not d.path.endswith(".rs"):
        return None
    folder, _, stem = d.path[:-3].rpartition("/")
    parts = folder.split("/") if folder else []
    if stem not in ("mod", "lib", "main"):
        parts.append(stem)
    return "::".join([*parts, *d.name.split(".")])


def same_module(old: Def, d: Def) -> bool:
    """The same Rust item by module path, in another file (an inline module moved out)."""
    return (
        d.path != old.path and (path := _module_path(old)) is not None and path == _module_path(d)
    )


def package_key(d: Def) -> tuple[str, str] | None:
    """A Go package-level name (a function, type or method; not a name local to a
    function) with its package's folder: one symbol, whichever file of the folder holds
    it."""
    if not d.path.endswith(".go") or ("." in d.name and d.body[:2] != ("func", "(")):
        return None
    return (d.path.rpartition("/")[0], d.name)


def package_mates(old_defs: list[Def], new_defs: list[Def]) -> dict[tuple[str, str], Def]:
    """Go package-level name -> its one new definition, for a name the old package defined
    once and in a file that no longer holds it: the language says they are one symbol,
    whatever the body became (a test moved to a new file of its package and rewritten)."""
    old_count = Counter(k for d in old_defs if (k := package_key(d)) is not None)
    old_keys = {d.key for d in old_defs}
    new_by_key: dict[tuple[str, str], list[Def]] = {}
    new_keys = {d.key for d in new_defs}
    for d in new_defs:
        if (k := package_key(d)) is not None:
            new_by_key.setdefault(k, []).append(d)
    return {
        k: found[0]
        for d in old_defs
        if (k := package_key(d)) is not None
        and old_count[k] == 1
        and d.key not in new_keys
        and len(found := new_by_key.get(k, [])) == 1
        and found[0].key not in old_keys
    }


Mark = tuple[str, object]  # ("name", qualified name) or ("body", tokens)


def renamed_files(old_defs: list[Def], new_defs: list[Def], new_paths: set[str]) -> dict[str, str]:
    """Old file -> new file, for an old file that is gone whose definitions are, for at
    least half of them, in one file that is new (its own path with another extension; or
    the most of them, and ahead of any other new file, more than 0.1 of them, or the one of
    its base name among those alike, else the one whose stem begins with its own or is
    its beginning): by qualified name, by body, or by last name (at
    least 3 of them: a file whose type was renamed too keeps its methods' names). Not
    git's content similarity: a file renamed and rewritten is still renamed."""
    old_files: dict[str, set[Mark]] = {}
    for d in old_defs:
        old_files.setdefault(d.path, set()).update(_marks(d))
    new_files: dict[str, set[Mark]] = {}
    for d in new_defs:
        if d.path not in old_files:
            new_files.setdefault(d.path, set()).update(_marks(d))
    found = {}
    for path, marks in old_files.items():
        if path in new_paths:
            continue
        shared = sorted(((_share(marks, n), p) for p, n in new_files.items()), reverse=True)
        if not shared or shared[0][0] < 0.5:
            continue
        # The same path in another language (date-fns' locales, index.js -> index.ts) is
        # the rename, even where a sibling's file shares more of its names.
        stem = path.rpartition(".")[0]
        same = [p for s, p in shared if s >= 0.5 and p.rpartition(".")[0] == stem]
        if len(same) == 1:
            found[path] = same[0]
            continue
        # Its qualified names outrank their last names elsewhere (poetry-core 1.1 moved
        # `url_dependency.py` to `src/`; `dependency.py` holds more of its method names).
        named = [(s, p) for s, p in shared if _share(marks, new_files[p], NAMES) >= 0.5]
        shared = named or shared
        tied = [(s, p) for s, p in shared if s >= max(shared[0][0] - FILE_AHEAD, 0.5)]
        if len(tied) > 1:
            # Two homes alike (a copy of the file elsewhere, or a sibling file of the same
            # names: memchr's avx.rs and sse2.rs) are no rename, unless one alone kept
            # the old file's base name.
            base = path.rpartition("/")[2]
            named_so = [(s, p) for s, p in tied if p.rpartition("/")[2] == base]
            # or kept it but for an end (commons-beanutils 2: `DynaPropertyUtilsTestCase`
            # -> `DynaPropertyUtilsTest`, where `PropertyUtilsTest` has its test names too)
            tied = named_so or [(s, p) for s, p in tied if _stems_alike(path, p)]
            if len(tied) != 1:
                continue
        found[path] = tied[0][1]
    return found | _moved_files(old_files, new_files, new_paths, found)


def _stems_alike(old: str, new: str) -> bool:
    """Whether one file's stem begins with the other's, of at least 4 characters."""
    a, b = (p.rpartition("/")[2].partition(".")[0] for p in (old, new))
    short, long = sorted((a, b), key=len)
    return len(short) >= 4 and long.startswith(short)


def _moved_files(
    old_files: dict[str, set[Mark]],
    new_files: dict[str, set[Mark]],
    new_paths: set[str],
    found: dict[str, str],
) -> dict[str, str]:
    """Old file -> new file, for an old file that is gone whose base name is, in each tree,
    that of this one file alone, the new one a newcomer sharing a qualified name with it:
    the file moved (a module merged into another folder), whatever its code became."""
    old_names = Counter(p.rpartition("/")[2] for p in old_files)
    new_names = Counter(p.rpartition("/")[2] for p in new_paths)
    arrived = {p.rpartition("/")[2]: p for p in new_files}
    taken = set(found.values())
    moved = {}
    for path, marks in old_files.items():
        base = path.rpartition("/")[2]
        to = arrived.get(base)
        if path in new_paths or path in found or to is None or to in taken:
            continue
        unique = old_names[base] == 1 and new_names[base] == 1
        if unique and any(m[0] == "name" and m in new_files[to] for m in marks):
            moved[path] = to
    return moved


def _marks(d: Def) -> list[Mark]:
    """A definition's qualified and last names, and its body when it is long enough to
    say something."""
    marks: list[Mark] = [("name", d.name), ("leaf", d.name.rpartition(".")[2])]
    return marks + ([("body", d.body)] if len(d.body) >= SHORT else [])


EVERY_MARK = (("name", 1), ("body", 1), ("leaf", 3))  # a kind, and how many make a share
NAMES = (("name", 1),)


def _share(
    old: set[Mark], new: set[Mark], kinds: tuple[tuple[str, int], ...] = EVERY_MARK
) -> float:
    """The largest share of the old file's names, bodies or last names in the new file."""
    best = 0.0
    for kind, least in kinds:
        mine = [m for m in old if m[0] == kind]
        both = sum(1 for m in mine if m in new)
        if mine and both >= least:
            best = max(best, both / len(mine))
    return best


def _members(defs: list[Def]) -> dict[tuple[str, str], set[str]]:
    found: dict[tuple[str, str], set[str]] = {}
    for d in defs:
        scope, _, leaf = d.name.rpartition(".")
        if scope:
            found.setdefault((d.path, scope), set()).add(leaf)
    return found


def _tops(defs: list[Def]) -> dict[str, set[str]]:
    """Each file's top-level names."""
    found: dict[str, set[str]] = {}
    for d in defs:
        if "." not in d.name:
            found.setdefault(d.path, set()).add(d.name)
    return found


def _dissolved(leaves: set[str], old_tops: set[str], new_tops: set[str]) -> bool:
    """Whether a scope's members (at least two, and half) are top-level names of its file
    now that were not then: the scope dissolved around them."""
    arrived = len((leaves & new_tops) - old_tops)
    return arrived >= 2 and arrived * 2 >= len(leaves)


def renamed_scopes(
    old_defs: list[Def], new_defs: list[Def], renamed: dict[str, str]
) -> dict[tuple[str, str], str]:
    """(old file, old scope) -> new scope, for a scope (a type, class, impl or module that
    holds two or more definitions) whose name is gone from its file (or the file it was
    renamed to), and whose members' names are, for at least half of them, under one scope
    of that file that the old file did not have (the most of them; no tie): a type
    renamed, as its members say; or "" for a scope dissolved, itself gone and its
    members (as many) now top-level names new to that file (yargs 16: `declare namespace
    yargsParser`'s types became the top-level types of `yargs-parser-types.ts`)."""
    old_members, new_members = _members(old_defs), _members(new_defs)
    old_tops, new_tops = _tops(old_defs), _tops(new_defs)
    new_names = {(d.path, d.name) for d in new_defs}
    new_by_file: dict[str, list[str]] = {}
    for path, scope in new_members:
        new_by_file.setdefault(path, []).append(scope)
    found = {}
    for (path, scope), leaves in old_members.items():
        home = renamed.get(path, path)
        if len(leaves) < 2 or (home, scope) in new_members:
            continue
        shared = sorted(
            (
                (len(leaves & new_members[(home, other)]), other)
                for other in new_by_file.get(home, [])
                if (path, other) not in old_members
            ),
            reverse=True,
        )
        if not shared or shared[0][0] < 2 or shared[0][0] * 2 < len(leaves):
            gone = (home, scope) not in new_names
            if gone and _dissolved(leaves, old_tops.get(path, set()), new_tops.get(home, set())):
                found[(path, scope)] = ""
            continue
        if len(shared) > 1 and shared[1][0] == shared[0][0]:
            continue
        moved = (
            len(leaves & members)
            for (other, name), members in new_members.items()
            if name == scope and other != home and (other, scope) not in old_members
        )
        if max(moved, default=0) >= shared[0][0]:
            continue  # its own name, with as many of its members, arrived elsewhere: moved
        found[(path, scope)] = shared[0][1]
    return found


def scope_twins(old_defs: list[Def], new_defs: list[Def]) -> dict[tuple[str, str], set[str]]:
    """(old file, old scope) -> new scopes ("path:scope") of a name the old tree nowhere
    had, holding at least half of its members' names (two or more): the type renamed or
    copied under a new name, whether or not its old name stayed."""
    old_members, new_members = _members(old_defs), _members(new_defs)
    old_scopes = {scope for _, scope in old_members}
    fresh = [(k, leaves) for k, leaves in new_members.items() if k[1] not in old_scopes]
    found: dict[tuple[str, str], set[str]] = {}
    for key, leaves in old_members.items():
        for (path, scope), theirs in fresh:
            both = len(leaves & theirs)
            if both >= 2 and both * 2 >= len(leaves):
                found.setdefault(key, set()).add(f"{path}:{scope}")
    return found
