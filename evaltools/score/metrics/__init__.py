"""A prediction's metrics against an expected patch: delta chrF, the reversal ratio, the kept
rate, token counts and jump locations (upstream's definitions, reimplemented)."""
