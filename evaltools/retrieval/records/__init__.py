"""Retrieval records: reading JSONL (one record, one reader), statistics and strata;
validation (the schema and what it cannot say) in `validation`."""
