"""The top-level fields of a record beyond what the schema checks: a draft (`gold mine`'s
`"status": "draft"`), and an unknown field that is one typo away from a known one.

Unknown fields are allowed and kept (retrieval-eval-set.md, section 1), so `"splt"` would
otherwise pass and quietly leave its record without a split.
"""

from __future__ import annotations

import functools

# The default schema's properties (tests/commands/test_check_drafts.py holds the
# two equal), in its order.
FIELDS = (
    "qid",
    "query",
    "type",
    "gold",
    "split",
    "source",
    "notes",
    "annotators",
    "status",
    "revision",
)
STATUS = "status"
DRAFT = "draft"  # what `gold mine` writes until a person has reviewed the record


@functools.lru_cache(maxsize=4096)
def misspelt(name: str, known: tuple[str, ...] = FIELDS) -> str | None:
    """The known field `name` is one edit away from (a letter left out, added, changed, or two
    swapped; case aside), if it is not itself known. Cached: a set repeats its few names."""
    if name in known:
        return None
    folded = name.casefold()
    for field in known:
        if _within_one_edit(folded, field.casefold()):
            return field
    return None


def _within_one_edit(a: str, b: str) -> bool:
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    if len(a) == len(b):
        rest_a, rest_b = a[start:], b[start:]
        # One letter changed, or two neighbours swapped.
        return rest_a[1:] == rest_b[1:] or (
            len(rest_a) >= 2
            and rest_a[0] == rest_b[1]
            and rest_a[1] == rest_b[0]
            and rest_a[2:] == rest_b[2:]
        )
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    return longer[start + 1 :] == shorter[start:]
