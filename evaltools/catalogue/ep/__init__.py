"""EP: edit-prediction examples (`evaltools lint`): the document (front matter, structure)
and what it holds (cursor, diffs and patches, metadata, JSON records)."""
