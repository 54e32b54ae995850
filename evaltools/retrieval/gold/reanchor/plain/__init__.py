"""Without history (a plain tree, a revision git lacks): what the set's own IDs say of the old
tree (folders moved, files split, namesakes shifted together, names that may have stood there)."""
