"""Building many objects that form no cycle, without the cycle collector walking them."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Pause the cycle collector (as it was: enabled or not) for the block. Every container
    allocated counts towards a collection, and each full one traverses all of them again:
    millions of fingerprints, tokens or postings cost a collection pass many times over."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
