"""Code: chunk IDs, definitions and their spans, per language."""
