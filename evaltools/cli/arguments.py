"""The parsed arguments of one command, read by name and type.

The targets in `targets.py` read each value through a typed getter, so mypy checks
every call of a command's implementation against its signature, and a value of the
wrong type (a table that disagrees with the implementation) fails loudly.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TypeVar

_T = TypeVar("_T")


class Arguments:
    def __init__(
        self, values: Mapping[str, object], folders: Mapping[str, str] | None = None
    ) -> None:
        self._values = dict(values)
        self._folders = dict(folders or {})

    def _get(self, name: str, kind: type[_T]) -> _T:
        value = self._values[name]
        if not isinstance(value, kind):
            raise TypeError(f"argument {name!r} is {value!r}, not a {kind.__name__}")
        return value

    def _optional(self, name: str, kind: type[_T]) -> _T | None:
        return None if self._values[name] is None else self._get(name, kind)

    def _list(self, name: str, kind: type[_T]) -> list[_T]:
        values = self._get(name, list)
        for value in values:
            if not isinstance(value, kind):
                raise TypeError(f"argument {name!r} holds {value!r}, not a {kind.__name__}")
        return list(values)

    def flag(self, name: str) -> bool:
        return self._get(name, bool)

    def text(self, name: str) -> str:
        return self._get(name, str)

    def optional_text(self, name: str) -> str | None:
        return self._optional(name, str)

    def texts(self, name: str) -> list[str]:
        return self._list(name, str)

    def integer(self, name: str) -> int:
        return self._get(name, int)

    def optional_integer(self, name: str) -> int | None:
        return self._optional(name, int)

    def number(self, name: str) -> float:
        return self._get(name, float)

    def optional_number(self, name: str) -> float | None:
        return self._optional(name, float)

    def path(self, name: str) -> Path:
        return self._get(name, Path)

    def file_path(self, name: str, option: str) -> Path:
        """A path that names one file to write: `-o out/` names a folder (as the system's
        own calls take it), and writing a file `out` there would surprise."""
        path = self.path(name)
        if name in self._folders:
            from evaltools.fileio import UsageError

            typed = self._folders[name]
            raise UsageError(f"{option} {typed}: names a folder; name the file to write")
        return path

    def names_folder(self, name: str) -> bool:
        """The path was typed as a folder's (`out/`), which the Path itself cannot tell."""
        return name in self._folders

    def optional_file_path(self, name: str, option: str) -> Path | None:
        return None if self._values[name] is None else self.file_path(name, option)

    def optional_path(self, name: str) -> Path | None:
        return self._optional(name, Path)

    def paths(self, name: str) -> list[Path]:
        return self._list(name, Path)
