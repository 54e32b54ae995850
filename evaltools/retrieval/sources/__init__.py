"""Where code comes from: git (blobs, renames, history), work trees, metas."""
