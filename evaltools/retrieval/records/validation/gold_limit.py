"""How many gold entries a record may hold (IO010), and the first key past it."""

from __future__ import annotations

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
