"""A Rust inline module moved out to its own file: `mod tests { fn it_works() }` in
`src/map.rs` becomes `mod tests;` there and `fn it_works()` at the top of
`src/map/tests.rs`, so `tests.it_works` of `src/map.rs` is `it_works` of the new file.

Other languages have no such move that keeps the code and drops a name from its
qualification, so this applies to Rust alone.
"""

from __future__ import annotations

import re

from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.code.symbols import grammar_of
from evaltools.retrieval.gold.reanchor.lookup import Lookup
from evaltools.retrieval.gold.reanchor.resolve import Resolution, resolved
from evaltools.retrieval.gold.reanchor.scope import rust_module


def module_files(path: str, module: str) -> list[str]:
    """Where rustc looks for `mod module;` declared in `path` (a `#[path]` aside)."""
    base = rust_module(path)
    base = f"{base}/" if base else ""
    return [f"{base}{module}.rs", f"{base}{module}/mod.rs"]


def inline_module_moved(cid: ChunkId, lookup: Lookup) -> Resolution | None:
    """A missing `X.name` of a Rust file (or of the other file of its module, `m.rs` or
    `m/mod.rs`) that now declares `mod X;` (no body), found once, as `name`, in the one
    file of X's that exists: the inline module moved to that file.
    The declaration, the file and the one definition there are the evidence; a name not
    found there, or found twice, is left to the other passes."""
    if cid.symbol is None or grammar_of(cid.path) != "rust" or "." not in cid.symbol:
        return None
    module, _, rest = cid.symbol.partition(".")
    homes = [path for path in module_files(cid.path, module) if lookup.get(path) is not None]
    if len(homes) != 1:
        return None
    # The declaring file is the module's, whichever of its two files holds it now
    # (chrono 0.4.20: `src/datetime.rs` became `src/datetime/mod.rs` as `serde` moved out).
    declaring = [cid.path, *other_module_file(cid.path)]
    text = next((t for p in declaring if (t := lookup.text(p)) is not None), None)
    if text is None:
        return None
    declared = rf"\bmod\s+{re.escape(module)}\s*;"
    if re.search(declared.encode("utf-8"), text) is None:
        return None
    found = lookup.get(homes[0])
    assert found is not None
    same = [e for e in found.entries if e.name == rest]
    if len(same) != 1:
        return None
    evidence = f"inline module {module} moved to {homes[0]}"
    return resolved(cid, same[0].chunk_id, "", evidence)


def other_module_file(path: str) -> list[str]:
    """The other file a Rust module may live in: `m.rs` for `m/mod.rs` and back; none
    for a crate root (`lib.rs`, `main.rs`) or a `mod.rs` at the top of the tree."""
    folder, _, name = path.rpartition("/")
    if name == "mod.rs":
        return [f"{folder}.rs"] if folder else []
    if name in ("lib.rs", "main.rs") or not name.endswith(".rs"):
        return []
    return [f"{path[: -len('.rs')]}/mod.rs"]
