"""What owns a process or a pool: `close()` it, or let a `with` block do it."""

from __future__ import annotations

from typing import TypeVar

_Self = TypeVar("_Self", bound="Closing")


class Closing:
    """A resource with `close()`; `with` closes it, on an error too."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self: _Self) -> _Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
