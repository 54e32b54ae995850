"""Retrieval records: reading JSONL, the schema and what it cannot say, statistics."""
