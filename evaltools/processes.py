"""Worker processes that start clean.

Forking a process that runs threads (a test runner, a helper thread reading from git) can
leave a child that dies or deadlocks on a lock it inherited, and a pool then waits forever.
A forkserver's children fork from a fresh single-threaded server instead; where there is
none, spawn.
"""

from __future__ import annotations

import multiprocessing
from multiprocessing.context import BaseContext


def pool_context() -> BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
