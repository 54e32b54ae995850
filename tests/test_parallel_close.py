"""A `parallel_map` closed early, as a library caller closes it: the process goes on, maps
again, and exits by itself. No `os._exit` here, unlike the CLI: the interpreter's exit
joins the pool's threads, so one left blocked on a pipe of a killed worker is a hang."""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """
import sys
import threading
from evaltools.parallel.processes import parallel_map

# 1 MB each way, far more than a pipe holds: a worker writes its result, and the pool's
# feeder thread the next item, a piece at a time.
ITEMS = ["x" * 1_000_000] * 24


def busy():
    # The consumer holds the GIL, so the pool's thread reads the results slowly: the
    # workers are still writing theirs when they are killed.
    sum(range(5_000_000))


def break_out():
    results = parallel_map(str.strip, ITEMS, workers=2, batch=1)
    for _ in results:
        busy()
        break
    results.close()


def fail_inside():
    for _ in parallel_map(str.strip, ITEMS, workers=2, batch=1):
        busy()
        raise ValueError("the consumer failed")


for _ in range(2):
    try:
        {"break": break_out, "raise": fail_inside}[sys.argv[1]]()
    except ValueError:
        pass
    # The pool's threads have ended: nothing is left for the exit to wait on.
    print([t.name for t in threading.enumerate() if t is not threading.main_thread()])
print(list(parallel_map(len, ["ab", "c"], workers=2, batch=1)))
"""

# Seconds: the script takes about one; a loaded CI machine is slow, a hang is for ever.
TIMEOUT = 120


@pytest.mark.parametrize("how", ["break", "raise"])
def test_a_map_closed_early_leaves_nothing_to_wait_for(how: str) -> None:
    try:
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, how],
            capture_output=True,
            text=True,
            check=False,
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired as hung:
        pytest.fail(f"still running after {TIMEOUT} s; its output: {hung.stdout!r}")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n[]\n[2, 1]\n"
    assert done.stderr == ""
