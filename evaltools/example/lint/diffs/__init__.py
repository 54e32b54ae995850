"""Rules over what the document holds (catalogue `ep.diffs`): the cursor, the diffs as the
reference reads them, whether each patch fits the excerpt, and the metadata."""
