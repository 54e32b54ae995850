"""Lint for edit-prediction examples: the linter (`linter`), what a rule sees (`context`),
the rules over the document and over cursors, diffs and patches, each beside its checks."""
