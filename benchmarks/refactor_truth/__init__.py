"""Ground truth for `bench_refactor_langs.py`: definitions found by each language's own
front end (not tree-sitter), where each old definition went, and how `gold check`'s answers
score against it."""
