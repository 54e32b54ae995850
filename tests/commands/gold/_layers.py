"""Tests of the caches below `gold check`'s whole-result cache (definitions, bodies,
searches) must reach them on every run."""

from __future__ import annotations

import pytest

from evaltools.retrieval.gold.cache import result_cache


def without_result_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every run resolves, as one whose result cache key cannot be taken (stdin, --metas).
    Otherwise a run whose files are older than RACY_SECONDS (a loaded machine reaches it
    within the test) prints the stored result and never asks the layer under test."""

    def no_results(*_args: object, **_kwargs: object) -> None:
        return None

    monkeypatch.setattr(result_cache, "open_results", no_results)
