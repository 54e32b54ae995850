"""Where a name must be unique, by each language's own rule: a definition moved or renamed
within its scope is found there first, whatever the rest of the tree defines.

Go: the package (the folder; its `_test.go` files apart). Java: the package (the folder).
Python: the package (the folder). Rust: the module (the file; `mod.rs`, `lib.rs`,
`main.rs` stand for their folder). TypeScript and JavaScript: the module (the file).
"""

from __future__ import annotations

from evaltools.retrieval.code.symbols import grammar_of

# Languages whose compiler refuses two top-level definitions of one name in a scope: there,
# a name found once in the scope is the one definition of it even without its old body.
_UNIQUE_BY_LANGUAGE = frozenset({"go", "java"})
_FOLDER_SCOPED = frozenset({"go", "java", "python"})
_RUST_FOLDER_FILES = frozenset({"mod.rs", "lib.rs", "main.rs"})
_TEST_MARKS = ("test", "spec")


def scope_of(path: str) -> tuple[str | None, str]:
    """The scope `path`'s definitions live in: (language, key); equal keys, one scope."""
    grammar = grammar_of(path)
    folder, _, name = path.rpartition("/")
    if grammar in _FOLDER_SCOPED:
        test = "test" if grammar == "go" and name.endswith("_test.go") else ""
        return grammar, f"{folder}/{test}"
    if grammar == "rust" and name in _RUST_FOLDER_FILES:
        return grammar, f"{folder}/"
    stem = path.rpartition(".")[0] if "." in name else path
    return ("typescript" if grammar == "tsx" else grammar), stem


def rust_module(path: str) -> str:
    """A Rust file's module, as a folder: `src/map.rs` and `src/map/mod.rs` are both
    `src/map`, where its `mod x;` lives (`src/map/x.rs`)."""
    return scope_of(path)[1].rstrip("/")


def file_name(path: str) -> str:
    """A path's last part (`IsNot.java` of `org/hamcrest/core/IsNot.java`)."""
    return path.rpartition("/")[2]


def file_stem(path: str) -> str:
    """A file's name up to its first dot: the type or function it is named for (`IsNot` of
    `org/hamcrest/core/IsNot.java`, `values` of `modules/values.js`)."""
    return file_name(path).partition(".")[0]


def scope_word(path: str) -> str:
    return "package" if grammar_of(path) in _FOLDER_SCOPED else "module"


def unique_by_language(path: str) -> bool:
    """Two definitions of one name cannot share `path`'s scope (Go, Java packages)."""
    return grammar_of(path) in _UNIQUE_BY_LANGUAGE


def is_test_path(path: str) -> bool:
    """A test file or a file under a test folder: code never moves between these and the
    rest, and the two often hold look-alike helpers."""
    parts = path.lower().split("/")
    stem = parts[-1].rpartition(".")[0] or parts[-1]
    folders = parts[:-1]
    return (
        any(p in ("test", "tests", "testing", "__tests__", "testdata") for p in folders)
        or stem.startswith("test_")
        or any(stem.endswith(f"_{m}") or stem.endswith(f".{m}") for m in _TEST_MARKS)
        # The case of the file name, not of `stem`: `FooTest.java`, not `Latest.java`.
        or path.endswith("Test.java")
    )


def is_declaration_file(path: str) -> bool:
    """A TypeScript declaration file (`index.d.ts`): signatures only, so no code of another
    file moves into it, and its declarations are not where code went."""
    return path.endswith((".d.ts", ".d.mts", ".d.cts"))


def is_java_constructor(path: str, symbol: str | None) -> bool:
    """Whether `symbol` is a Java constructor (`Type.Type`): the name classes overload
    most, so the one left in a file says nothing of which of the old ones an ID was
    (commons-beanutils 2.0 dropped deprecated constructors as its package moved)."""
    owner, _, leaf = (symbol or "").rpartition(".")
    return grammar_of(path) == "java" and leaf != "" and owner.rpartition(".")[2] == leaf
