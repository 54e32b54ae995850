"""Definitions in a source file: dotted qualified names and 1-based inclusive spans.

One parser per language, whatever Python runs the tool: tree-sitter grammar wheels, Python
included (`ast` parses only the syntax of the running interpreter, so a file with a
`type X = int` line used to go to another parser, with other spans, under Python 3.11).
The span conventions are in docs/spans.md. The grammar is imported only when a file of
its language is first parsed.
"""

from __future__ import annotations

from evaltools.retrieval.code.spans import Definition

__all__ = [
    "SPANS_VERSION",
    "SUPPORTED_SUFFIXES",
    "Definition",
    "UnsupportedLanguage",
    "find_definitions",
    "grammar_of",
    "is_supported",
    "language_of",
    "suffix_of",
]

# Extension -> tree-sitter grammar key.
GRAMMAR_OF_SUFFIX = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
}
SUPPORTED_SUFFIXES = tuple(GRAMMAR_OF_SUFFIX)

# The version of the span conventions (docs/spans.md) that `ts_symbols` implements: bump it
# whenever a change there can give a file other definitions, so that cached ones (keyed
# by it, see `definition_cache`) are recomputed.
SPANS_VERSION = 1


class UnsupportedLanguage(ValueError):
    pass


def suffix_of(path: str) -> str:
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    return name[dot:].lower() if dot > 0 else ""


def is_supported(path: str) -> bool:
    return suffix_of(path) in GRAMMAR_OF_SUFFIX


def grammar_of(path: str) -> str | None:
    """The grammar key that parses `path`, None for an unsupported extension."""
    return GRAMMAR_OF_SUFFIX.get(suffix_of(path))


def language_of(path: str) -> str | None:
    """The language `path` is written in, for comparing code across files: TypeScript, TSX
    and JavaScript are one (a file moves between them: `usage.ts` -> `usage.cjs`)."""
    return language_of_suffix(suffix_of(path))


def language_of_suffix(suffix: str) -> str | None:
    """`language_of` a file ending in `suffix` (`.mjs`)."""
    grammar = GRAMMAR_OF_SUFFIX.get(suffix)
    return "ecmascript" if grammar in ("javascript", "typescript", "tsx") else grammar


def find_definitions(path: str, source: bytes) -> list[Definition]:
    """Every definition in `source`, in document order; the language comes from `path`.

    Raises UnsupportedLanguage for an extension no grammar covers.
    """
    suffix = suffix_of(path)
    grammar = GRAMMAR_OF_SUFFIX.get(suffix)
    if grammar is None:
        supported = " ".join(SUPPORTED_SUFFIXES)
        raise UnsupportedLanguage(
            f"no parser for {suffix or 'extension-less'} files (supported: {supported})"
        )
    from evaltools.retrieval.code import ts_symbols

    return ts_symbols.definitions(grammar, source)
