"""Rust modules moved between files. An inline module moved out to its own file: `mod
tests { fn it_works() }` in `src/map.rs` becomes `mod tests;` there and `fn it_works()` at
the top of `src/map/tests.rs`, so `tests.it_works` of `src/map.rs` is `it_works` of the new
file. And back: a module's file gone, its code now in its parent module's file (chunk IDs
do not qualify a name by its file's module, so the name is the same).

Other languages have no such moves (a module there is its file), so this applies to Rust
alone.
"""

from __future__ import annotations

import re

from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.code.symbols import grammar_of
from evaltools.retrieval.gold.reanchor.history.old_defs import OldDefinitions
from evaltools.retrieval.gold.reanchor.lookup import Lookup
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, resolved
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


def merged_into_parent(
    cid: ChunkId, ref: GoldRef, lookup: Lookup, olds: OldDefinitions
) -> Resolution | None:
    """A gone Rust module file whose parent module declared it (`mod x;`) at the revision
    and now, in the one of its two files that exists, defines the ID's name once, a name
    it did not define then: the module merged into its parent (env_logger 0.11:
    `fmt/writer/buffer/termcolor.rs`, glob re-exported by `buffer/mod.rs`, became the body
    of `fmt/writer/buffer.rs`). With history only: without it nothing says the name is
    new there."""
    if cid.symbol is None or ref.revision is None or grammar_of(cid.path) != "rust":
        return None
    folder, _, name = cid.path.rpartition("/")
    if name in ("lib.rs", "main.rs") or not name.endswith(".rs"):
        return None
    if name == "mod.rs":
        folder, _, module = folder.rpartition("/")
    else:
        module = name[: -len(".rs")]
    if not folder or not module:
        return None
    parents = [f"{folder}.rs", f"{folder}/mod.rs"]
    homes = [path for path in parents if lookup.get(path) is not None]
    declared = re.compile(rf"\bmod\s+{re.escape(module)}\s*;".encode())
    then = [text for path in parents if (text := lookup.old_text(path, ref.revision))]
    if len(homes) != 1 or not any(declared.search(text) for text in then):
        return None
    if any(cid.symbol in olds.names(path, ref.revision) for path in parents):
        return None  # there all along: the name says nothing of where this one went
    found = lookup.get(homes[0])
    assert found is not None
    same = [e for e in found.entries if e.name == cid.symbol]
    if len(same) != 1:
        return None
    evidence = f"module {module} merged into its parent {homes[0]}"
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
