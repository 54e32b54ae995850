"""Where a gold ID went: by name in its own scope, by body, by the file git (or its
siblings) paired its file with; and what is safe to repair."""
