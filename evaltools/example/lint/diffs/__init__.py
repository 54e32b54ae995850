"""Rules over what the document holds: the cursor, the diffs as the reference reads them,
whether each patch fits the excerpt, and the metadata (their documentation: `rules.py`)."""
