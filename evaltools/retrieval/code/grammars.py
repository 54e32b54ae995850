"""The tree-sitter grammars: which package provides each (data only, nothing imported).

`ts_symbols` loads them; `definition_cache` keys entries by the installed packages' versions.
"""

from __future__ import annotations

# Grammar key -> (module, function returning the language pointer)
GRAMMARS: dict[str, tuple[str, str]] = {
    "python": ("tree_sitter_python", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "java": ("tree_sitter_java", "language"),
}
