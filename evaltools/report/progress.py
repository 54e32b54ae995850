"""A one-line counter on a terminal's stderr, for runs long enough to need one.

Every command that can run long uses it. It stays silent unless the stream is a terminal
and CI is not set: never in a pipe, a file or a CI log.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import TextIO

# Given the rate (items a second), the line to show.
Describe = Callable[[float], str]


class Progress:
    AFTER_SECONDS = 2.0
    AFTER_ITEMS = 1000
    EVERY_SECONDS = 0.2

    def __init__(
        self, stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.clock = clock
        self.enabled = _isatty(self.stream) and not os.environ.get("CI")
        self.start = clock()
        self.last = 0.0
        self.shown = False

    def update(self, done: int, describe: Describe) -> None:
        """`done` items so far; `describe` is called only when a line is shown."""
        if not self.enabled:
            return
        now = self.clock()
        elapsed = now - self.start
        if not self.shown and elapsed < self.AFTER_SECONDS and done <= self.AFTER_ITEMS:
            return
        if self.shown and now - self.last < self.EVERY_SECONDS:
            return
        self.last = now
        self.shown = True
        self.stream.write(f"\r{describe(done / elapsed if elapsed > 0 else 0.0)}\x1b[K")
        self.stream.flush()

    def count(self, done: int, noun: str) -> None:
        """The plain form: `1,234 files checked (567 files/s)`."""
        self.update(done, lambda rate: f"{done:,} {noun} checked ({rate:,.0f} {noun}/s)")

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
