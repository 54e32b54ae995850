"""The `gold` commands: checking, evaluating and keeping the discipline of retrieval gold."""
