"""Worker processes: how many (one `--jobs` policy) and one ordered parallel map.

Every bulk command asks `worker_count` how many processes its work is worth and runs it
through `parallel_map`. Nothing here imports multiprocessing until workers are started:
the pre-commit hook's `evaltools lint one.md` never pays for it.

Workers start clean: forking a process that runs threads (a test runner, a helper thread
reading from git) can leave a child that dies or deadlocks on a lock it inherited. A
forkserver's children fork from a fresh single-threaded server instead; where there is
none, spawn. See `evaltools.parallel._workers` for how workers die with the command and stay quiet.
"""

from __future__ import annotations

import functools
import itertools
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from evaltools.fileio import UsageError

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor


_T = TypeVar("_T")
_R = TypeVar("_R")

# Seconds one worker costs before it does any work: start (fork from the forkserver),
# import of the domain modules, and the transfer of its first and last batch. Measured
# with benchmarks/bench_convert.py and bench_lint.py on a loaded 2-core machine (0.2 to
# 0.45 s); the larger figure, so that the default never loses to --jobs 1.
WORKER_START_SECONDS = 0.45

# Batches in flight per worker: enough to keep each busy, few enough to bound memory.
IN_FLIGHT_PER_WORKER = 3


def bad_jobs(jobs: int) -> str:
    """The one wording of a bad `--jobs`, for every command."""
    return f"--jobs must be 0 (every core), 1 (no worker processes) or more; got {jobs}"


def check_jobs(jobs: int | None) -> None:
    if jobs is not None and jobs < 0:
        raise UsageError(bad_jobs(jobs))


def available_cores() -> int:
    """The cores this process may run on (its affinity), not the machine's."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)  # pragma: no cover (platforms without affinity)


class Cost(NamedTuple):
    """The serial cost of a command's work, measured with its benchmark on one core.

    `parent` is the share of the work that stays in the calling process whatever the
    worker count (reading, cutting, pickling, writing): it competes with the workers for
    the same cores.
    """

    per_item: float = 0.0  # seconds per work item
    per_byte: float = 0.0  # seconds per input byte
    parent: float = 0.0  # share of the serial time spent in the caller

    def seconds(self, items: int, size: int) -> float:
        return items * self.per_item + size * self.per_byte


def worker_count(jobs: int | None, *, items: int, size: int = 0, cost: Cost) -> int:
    """Processes for `--jobs` (None: the default) and work of `items` items, `size` bytes.

    1 means in this process. An explicit count is kept, but never more than the items.
    The default is the count with the shortest estimated wall time, where each worker
    costs WORKER_START_SECONDS and the caller's share of the work takes a core of its own;
    so one core, or an input worth less than a few start-ups, is done in process.
    """
    check_jobs(jobs)
    if items <= 1 or jobs == 1:
        return 1
    if jobs is not None:
        return min(jobs or available_cores(), items)
    cores = available_cores()
    serial = cost.seconds(items, size)
    best, best_time = 1, serial
    for workers in range(2, min(cores, items) + 1):
        # The caller keeps its share; the workers share the cores it leaves.
        parent = serial * cost.parent
        spare = max(cores - cost.parent, 1.0)
        parallel = serial * (1 - cost.parent) / min(workers, spare)
        estimate = workers * WORKER_START_SECONDS / cores + max(parent, parallel)
        if estimate < best_time:
            best, best_time = workers, estimate
    # A gain within the error of the estimate is not worth the risk of losing to --jobs 1.
    return best if best_time < 0.8 * serial else 1


def batch_size(items: int, workers: int, most: int = 64) -> int:
    """Items per batch sent to a worker: about eight batches per worker, few enough that
    pickling stays cheap and enough to balance the work, and at most `most`."""
    return max(1, min(most, items // (workers * 8)))


def parallel_map(
    func: Callable[[_T], _R],
    items: Iterable[_T],
    *,
    workers: int,
    batch: int = 1,
) -> Generator[_R, None, None]:
    """`map(func, items)` over `workers` processes (1: in this process).

    Results come in input order, as soon as they are ready; items are read lazily and at
    most a few batches per worker are in flight, so memory does not grow with the input.
    `func` and the items must pickle. Closing the generator (or an error, Ctrl-C, SIGTERM)
    stops the workers at once.
    """
    if workers <= 1:
        yield from map(func, items)
        return
    from evaltools.parallel import _workers

    pool = _workers.start_pool(workers, _module_of(func))
    pending: deque[Future[list[_R]]] = deque()
    held = _Held()
    previous = _on_sigterm(functools.partial(_terminated, pool, held))
    previous_int = _on_signal(signal.SIGINT, functools.partial(_interrupted, pool, held))
    try:
        for chunk in _batches(iter(items), batch):
            pending.append(_submit(pool, held, chunk, func))
            if len(pending) >= workers * IN_FLIGHT_PER_WORKER:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    except BaseException:  # also GeneratorExit: closed early, nobody wants the rest
        _workers.stop_pool(pool)
        raise
    else:
        # Every result is in: a Ctrl-C while the workers exit is answered once they have,
        # not inside multiprocessing's finalizers (which print it and carry on).
        late: list[int] = []
        _on_signal(signal.SIGINT, lambda signum, frame: late.append(signum))
        pool.shutdown(wait=True)
        if late:
            raise KeyboardInterrupt
    finally:
        _on_sigterm(previous)
        _on_signal(signal.SIGINT, previous_int)


def _module_of(func: Callable[..., object]) -> str | None:
    """The module a worker imports to run `func` (a partial's too)."""
    module = getattr(getattr(func, "func", func), "__module__", None)
    return module if isinstance(module, str) and module != "__main__" else None


def _batches(items: Iterator[_T], size: int) -> Iterator[list[_T]]:
    while chunk := list(itertools.islice(items, size)):
        yield chunk


def _run_batch(func: Callable[[_T], _R], chunk: list[_T]) -> list[_R]:
    return [func(item) for item in chunk]


# Seconds a signal waits for a worker's start: milliseconds normally, and a start that hangs
# (a stalled forkserver) must not leave a single SIGTERM from a supervisor unanswered.
HOLD_SECONDS = 2.0


class _Held:
    """A signal that came while a worker was being started, answered once it has."""

    def __init__(self) -> None:
        self.holding = False
        self.signals: list[int] = []
        self._timer: threading.Timer | None = None

    def hold(self, signum: int) -> bool:
        """Whether `signum` waits: only while holding, and only the first. A second one is
        answered at once: a Ctrl-C pressed again, or the first sent again after
        HOLD_SECONDS, should the start itself hang."""
        if self.holding and not self.signals:
            self.signals.append(signum)
            self._timer = threading.Timer(HOLD_SECONDS, self._send_again, (signum,))
            self._timer.daemon = True
            self._timer.start()
            return True
        return False

    def _send_again(self, signum: int) -> None:
        if self.holding:
            os.kill(os.getpid(), signum)

    def release(self) -> list[int]:
        """Stop holding; the signal held, to be answered now."""
        self.holding = False
        if self._timer is not None:
            self._timer.cancel()
        return self.signals


def _submit(
    pool: ProcessPoolExecutor, held: _Held, chunk: list[_T], func: Callable[[_T], _R]
) -> Future[list[_R]]:
    """`pool.submit`, which may start a worker: the forkserver then reads the request this
    process is sending. A signal answered half-way through it (the workers killed, and
    joined: their exit statuses come from that forkserver) waited five seconds for a
    forkserver that waited for the rest of the request, which then died of its end, leaving
    its workers to PID 1 as zombies. So the signal is answered once the request is sent."""
    held.holding = True
    try:
        return pool.submit(_run_batch, func, chunk)
    finally:
        for signum in held.release():
            handler = _terminated if signum == signal.SIGTERM else _interrupted
            handler(pool, held, signum, None)


def _terminated(pool: object, held: _Held, signum: int, frame: object) -> None:
    """SIGTERM: the workers end at once, then the command dies of the signal as it would
    without workers. Unwinding instead (raising here) could stop the main thread inside
    the executor, holding a lock that shutting it down then waits for: a hang."""
    from evaltools.parallel import _workers

    if held.hold(signum):
        return
    _workers.kill_workers(pool)
    _workers.stop_helpers()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _interrupted(pool: object, held: _Held, signum: int, frame: object) -> None:
    """Ctrl-C: the workers end first, so that nothing can wait for them while unwinding."""
    from evaltools.parallel import _workers

    if held.hold(signum):
        return
    _workers.kill_workers(pool)
    raise KeyboardInterrupt


def _on_sigterm(handler: Any) -> Any:
    return _on_signal(signal.SIGTERM, handler)


def _on_signal(signum: int, handler: Any) -> Any:
    """Install `handler` for `signum` (main thread only); the previous one, or None."""
    if handler is None or threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signum, handler)


__all__ = [
    "Cost",
    "available_cores",
    "bad_jobs",
    "check_jobs",
    "parallel_map",
    "worker_count",
]


def input_size(files: Iterable[Path], cost: Cost, *, items: int = 0) -> int:
    """The bytes of `files` (unreadable ones count 0), summed only as far as they can
    change `worker_count`'s answer: past that, every core pays for itself anyway."""
    enough = 16 * WORKER_START_SECONDS * available_cores()
    size = 0
    for path in files:
        try:
            size += path.stat().st_size
        except OSError:
            continue
        if cost.seconds(items, size) >= enough:
            break
    return size
