"""Gold maintenance: check and repair, mining, annotation, splits, duplicates."""
