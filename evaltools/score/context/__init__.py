"""Context documents (reference section 2, steps 4 and 7): the texts a patch is scored on,
those of a `.md` built from the file lines it holds, and `ep eval`'s cap on related context."""
