"""Commands of the retrieval eval sets (validate, gold …)."""

from __future__ import annotations

from evaltools.cli.table import Command

COMMANDS: tuple[Command, ...] = ()
