"""Namesakes that may have been there all along: without an old body (a plain tree), a
definition of the same name in another package or module is where a gold ID went only if
nothing says it stood there under its own name at the ID's revision. Each language judges
a name in its own scope (`scope.scope_of`); across scopes a name repeats freely
(`Codec.Encode` in every codec package), so there the tree's one namesake is a guess, and a
plain tree prefers an unresolved ID, its candidates listed, to a guess.

The set's gold IDs of the same revision are a sample of the old tree (`no_history`):

- one naming a namesake elsewhere, still there: the name was then defined in several
  scopes, so the one left may be another of them;
- one naming the namesake's file, still there: the file stood then, and the namesake in
  it may have (rand 0.8 deleted `src/distributions/gamma.rs`, a deprecated copy of
  `rand_distr/src/gamma.rs`, which stood beside it);
- one naming, in the target's scope and still there, the target's type (`Codec` or one of
  its members): the type stood there then, and its member of that name may have too; for a
  name of no type (a function), any definition there: the package or module existed then;

- one naming a file of the target's build unit (crate, package: the folder of a
  `Cargo.toml`, `package.json`, `go.mod`, ...), still there, when that is not the unit of
  the ID's file and the ID's file still stands: the unit stood then, and a name leaving a
  file that stands for a unit that stood is a copy more often than a move (rand 0.8 deleted
  `log_gamma` from `src/distributions/utils.rs`; `rand_distr` had its own all along);

and Rust's `mod tests` (`tests.check`) is each module's own: a test of one name in another
module's file is another test (the set need say nothing).
"""

from __future__ import annotations

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.code.symbols import grammar_of
from evaltools.retrieval.gold.reanchor.plain.no_history import SetEvidence
from evaltools.retrieval.gold.reanchor.resolve import GoldRef
from evaltools.retrieval.gold.reanchor.scope import rust_module, scope_of

# The module Rust's unit tests live in, one per file (`#[cfg(test)] mod tests`).
_TEST_MODULES = frozenset({"tests", "test"})

# A revision and a scope (`scope_of`).
_Scope = tuple[str | None, tuple[str | None, str]]
# The files that make their folder a build unit of its own (a crate, a package, a module).
_MANIFESTS = frozenset(
    {
        "Cargo.toml",
        "package.json",
        "go.mod",
        "pom.xml",
        "build.gradle",
        "build.gradle.kts",
        "pyproject.toml",
        "setup.py",
    }
)


class Standing:
    """What the set shows stood at its revisions in the tree checked, read once a run and
    only when a name elsewhere would place an ID."""

    def __init__(self, the_set: SetEvidence) -> None:
        self.the_set = the_set
        self._heads: dict[_Scope, set[str]] | None = None
        self._units: set[str] | None = None  # the folders of build units, "" the root
        self._units_stood: set[tuple[str | None, str]] | None = None

    def may_have_been_there(
        self,
        cid: ChunkId,
        ref: GoldRef,
        new_chunk_id: str,
        twins_there: bool,
        tests_along: bool = False,
    ) -> bool:
        """`new_chunk_id` (named as `cid` is, found by name alone) may be a definition that
        stood at `ref`'s revision under its own name, not where `cid` went: it is in another
        scope than `cid`'s, and the set shows (`twins_there`) namesakes of it elsewhere that
        were there, or that its file stood then, or its build unit (crate, package) while
        `cid`'s file, of another unit, still stands, or that its type (`Codec` of
        `Codec.Encode`) stood in its scope then, or, for a name of no type (a function),
        that its scope existed then; or it is a Rust test
        of another module, unless the set shows its module's tests went there
        (`tests_along`)."""
        new = parse_chunk_id(new_chunk_id)
        other_module = rust_module(new.path) != rust_module(cid.path)
        if _test_module(cid) and other_module and not tests_along:
            return True
        scope = scope_of(new.path)
        if scope == scope_of(cid.path):
            return False
        if (ref.revision, new.path) in self.the_set.places()[1]:
            return True  # its file stood then
        if self._unit_stood(cid, ref, new.path):
            return True
        heads = self.heads().get((ref.revision, scope))
        if twins_there or heads is None:
            return twins_there
        head, dot, _ = new.symbol.partition(".") if new.symbol else ("", "", "")
        return not dot or head in heads

    def _unit_stood(self, cid: ChunkId, ref: GoldRef, new_path: str) -> bool:
        """`new_path` is in another build unit than `cid`'s file, which still stands, and
        the set names a file of that unit, still there, at `ref`'s revision."""
        standing = self.the_set.places()[1]
        if (ref.revision, cid.path) not in standing:
            return False
        unit = self._unit_of(new_path)
        if unit == self._unit_of(cid.path):
            return False
        if self._units_stood is None:
            self._units_stood = {(revision, self._unit_of(path)) for revision, path in standing}
        return (ref.revision, unit) in self._units_stood

    def _unit_of(self, path: str) -> str:
        """The folder of the build unit `path` is in (its nearest folder with a manifest)."""
        if self._units is None:
            self._units = {
                folder
                for file in self.the_set.lookup.paths()
                for folder, _, name in [file.rpartition("/")]
                if name in _MANIFESTS
            }
        folder = path.rpartition("/")[0]
        while folder and folder not in self._units:
            folder = folder.rpartition("/")[0]
        return folder

    def heads(self) -> dict[_Scope, set[str]]:
        """The first names (`Codec` of `Codec.Encode`) of the set's gold IDs whose files are
        still there, by revision and scope."""
        if self._heads is None:
            lookup = self.the_set.lookup
            self._heads = {}
            for ref, cid in self.the_set.ids.items():
                if cid.symbol is not None and lookup.get(cid.path) is not None:
                    key = (ref.revision, scope_of(cid.path))
                    self._heads.setdefault(key, set()).add(cid.symbol.partition(".")[0])
        return self._heads


def _test_module(cid: ChunkId) -> bool:
    """`cid` is in a Rust file's own test module (`tests.insert_order`)."""
    assert cid.symbol is not None
    head = cid.symbol.partition(".")[0]
    return head in _TEST_MODULES and "." in cid.symbol and grammar_of(cid.path) == "rust"
