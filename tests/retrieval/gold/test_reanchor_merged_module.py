"""A module's file gone, its code now in its parent module's file (env_logger 0.11:
`fmt/writer/buffer/termcolor.rs`, glob re-exported by `buffer/mod.rs`, was deleted, its
twin without colour became `fmt/writer/buffer.rs`, and colour was written back there):
each ID follows its name into the parent, with history. Python's package is its folder,
so a module merged into its package's `__init__.py` is the same scope and its name follows
it already; Go and Java packages are folders too, and a TypeScript module is its file (no
parent to merge into)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

OLD_WRITER = """use termcolor::{self, ColorSpec};

pub(crate) struct BufferWriter {
    inner: termcolor::BufferWriter,
    uncolored_target: Option<Target>,
}

impl BufferWriter {
    pub(crate) fn stderr(is_test: bool, style: Style) -> Self {
        BufferWriter {
            inner: termcolor::BufferWriter::stderr(style.into_color_choice()),
            uncolored_target: if is_test { Some(Target::PrintStderr) } else { None },
        }
    }

    pub(crate) fn print(&self, buf: &Buffer) -> io::Result<()> {
        if let Some(target) = &self.uncolored_target {
            target.print(buf)
        } else {
            self.inner.print(&buf.inner)
        }
    }
}
"""
NEW_WRITER = """pub(crate) struct BufferWriter {
    target: Target,
}

impl BufferWriter {
    pub(crate) fn stderr() -> Self {
        Self::to(2)
    }

    pub(crate) fn print(&self, buf: &Buffer) -> io::Result<()> {
        let bytes = buf.as_bytes();
        match &self.target {
            Target::WriteStderr => std::io::stderr().write_all(bytes),
            Target::PrintStderr => Ok(eprint!("{}", String::from_utf8_lossy(bytes))),
        }
    }
}
"""
# Without colour, the same names with other bodies (one of the two compiled, by a feature).
UNCOLORED = """pub(crate) struct BufferWriter {
    target: Target,
}

impl BufferWriter {
    pub(crate) fn stderr(is_test: bool, _style: Style) -> Self {
        BufferWriter { target: if is_test { Target::PrintStderr } else { Target::Stderr } }
    }

    pub(crate) fn print(&self, buf: &Buffer) -> io::Result<()> {
        self.target.print(buf)
    }
}
"""
PLAIN = "pub(crate) fn plain() -> bool {\n    false\n}\n"
PARENT = (
    '#[cfg(feature = "color")]\nmod termcolor;\n#[cfg(feature = "color")]\n'
    "pub(crate) use termcolor::*;\n"
    '#[cfg(not(feature = "color"))]\nmod plain;\n#[cfg(not(feature = "color"))]\n'
    "pub(crate) use plain::*;\n\n" + PLAIN
)
NAMES = ["BufferWriter.stderr", "BufferWriter.print"]


def merged(repo: GitRepo, parent_then: str = PARENT) -> tuple[str, list[str]]:
    """`src/buffer/termcolor.rs` deleted, its twin without colour become `src/buffer.rs`
    (once `src/buffer/mod.rs`), colour written back there: the old revision and the gold
    IDs of the first."""
    repo.write("src/lib.rs", "mod buffer;\n")
    repo.write("src/buffer/mod.rs", parent_then)
    repo.write("src/buffer/termcolor.rs", OLD_WRITER)
    repo.write("src/buffer/plain.rs", UNCOLORED)
    old = repo.commit("colour through termcolor")
    gold = [chunk_id(repo, "src/buffer/termcolor.rs", name) for name in NAMES]
    repo.rm("src/buffer/termcolor.rs")
    repo.commit("colour support removed")
    repo.rm("src/buffer/mod.rs")
    repo.rm("src/buffer/plain.rs")
    repo.write("src/buffer.rs", UNCOLORED)
    repo.commit("the module flattened")
    repo.write("src/buffer.rs", NEW_WRITER)
    repo.commit("colour support back")
    return old, gold


def test_a_module_merged_into_its_parent_takes_its_ids(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold = merged(repo)
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    news = [chunk_id(repo, "src/buffer.rs", name) for name in NAMES]
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
        ("relocated", new) for new in news
    ]
    assert got[gold[0]]["evidence"] == "module termcolor merged into its parent src/buffer.rs"


def test_a_parent_that_had_the_name_then_is_no_evidence(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the parent defined `BufferWriter.stderr` itself at the revision: the name there now
    # may be that one, not the module's
    own = "impl BufferWriter {\n    pub(crate) fn stderr() -> Self {\n        todo!()\n    }\n}\n"
    old, gold = merged(repo, PARENT + "\n" + own)
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] is None


def test_a_module_its_parent_never_declared_is_no_evidence(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold = merged(repo, PLAIN)
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] is None


def test_a_python_module_merged_into_its_package_follows_its_name(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("pkg/__init__.py", "from pkg._impl import *\n")
    repo.write(
        "pkg/_impl.py",
        "class Writer:\n    def flush(self, buf, target=None):\n"
        "        if target is None:\n            target = self.default_target()\n"
        "        target.write(buf.getvalue())\n        buf.truncate(0)\n",
    )
    old = repo.commit("impl module")
    gold = [chunk_id(repo, "pkg/_impl.py", "Writer.flush")]
    repo.rm("pkg/_impl.py")
    repo.write(
        "pkg/__init__.py",
        "class Writer:\n    def flush(self, buf):\n        self.out.write(bytes(buf))\n",
    )
    repo.commit("flattened")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] == chunk_id(repo, "pkg/__init__.py", "Writer.flush")
