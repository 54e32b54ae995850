"""The rules of `evaltools validate` (RVxxx): what a record line can get wrong."""

from __future__ import annotations

from evaltools.catalogue import rule

BLANK_LINE = rule("RV002")
DUPLICATE_KEY = rule("RV003")
DUPLICATE_QID = rule("RV004")
MISSING_FIELD = rule("RV005")
WRONG_TYPE = rule("RV006")
INVALID_GRADE = rule("RV007")
INVALID_CHUNK_ID = rule("RV008")
REVERSED_SPAN = rule("RV009")
INVALID_VALUE = rule("RV010")
SCHEMA_VIOLATION = rule("RV011")
UNREADABLE_FILE = rule("RV012")
DRAFT_RECORD = rule("RV013")
MISSPELT_FIELD = rule("RV014")
TOO_MANY_GOLD_ENTRIES = rule("IO010")

# A query's gold is a few chunks; each is followed through git at a cost per ID, so past
# this many a record is refused (IO010) before any of its gold is looked at.
MAX_GOLD_ENTRIES = 1_000


def gold_over_limit(gold: dict[str, object]) -> tuple[str, str] | None:
    """(the first key past the limit, the message) when `gold` holds too many entries."""
    if len(gold) <= MAX_GOLD_ENTRIES:
        return None
    import itertools

    key = next(itertools.islice(gold, MAX_GOLD_ENTRIES, None))
    return key, (
        f"`gold` holds {len(gold):,} entries, over the {MAX_GOLD_ENTRIES:,} a record may "
        "hold (this is the first past it): keep the chunks that answer the query, or split "
        "the query into narrower records"
    )
