"""Worker processes that die with the command and never hold its output.

A command killed by SIGKILL or SIGTERM must not leave its forkserver, resource tracker or
workers behind: they would hold the caller's stdout and stderr, and a caller waiting for
end-of-output (CI, `subprocess.run(capture_output=True)`) would hang. So:

* the helpers multiprocessing starts (the forkserver, the resource tracker) start with
  /dev/null as stdout and stderr, and the workers fork from the forkserver with the same;
* the forkserver and every worker ask Linux to kill them when their parent dies
  (PR_SET_PDEATHSIG), and exit at once if it is already gone;
* workers ignore SIGINT: a terminal's Ctrl-C reaches the whole process group, and only the
  command should answer it, with one line (not one traceback per worker).

This module is imported by the forkserver at its start (its preload), where it guards
the forkserver itself; see `_guard_forkserver`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.context import BaseContext

# The forkserver finds here the pid of the command that started it (its parent).
_PARENT_ENV = "EVALTOOLS_WORKERS_PARENT"
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
# Set in the forkserver: the pid its workers must see as their parent.
_forkserver_pid: int | None = None


def start_pool(workers: int, module: str | None) -> ProcessPoolExecutor:
    """An executor (it reports a dead worker instead of hanging, as a Pool can) whose
    forkserver has imported `module` once, so that each worker need not."""
    from concurrent.futures import ProcessPoolExecutor

    context = pool_context()
    if context.get_start_method() == "forkserver":
        preload = ["evaltools.parallel._workers"] + ([module] if module else [])
        context.set_forkserver_preload(preload)
        with _quiet_stdio():
            os.environ[_PARENT_ENV] = str(os.getpid())
            from multiprocessing import forkserver, resource_tracker

            resource_tracker.ensure_running()
            forkserver.ensure_running()
    # No max_tasks_per_child: the executor's thread would then start workers, where a
    # signal is not held until the start is done (see processes._submit).
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_start_worker,
        initargs=(os.getpid(),),
    )


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Drop the queued work and end the workers now, not after their current batch; return
    once the executor's threads have ended too, so that nothing is left to wait for."""
    # Taken first: shutdown drops the executor's references to them (private attributes).
    call_queue = getattr(pool, "_call_queue", None)
    feeder = getattr(call_queue, "_thread", None)
    threads = [
        thread
        for thread in (getattr(pool, "_executor_manager_thread", None), feeder)
        if isinstance(thread, threading.Thread) and thread.is_alive()
    ]
    # The executor has no public way to end its workers before Python 3.14.
    kill_workers(pool)
    # Dead workers first: the executor's thread then sees a broken pool and ends. Only here,
    # out of any signal handler, do we wait for it: a handler may have interrupted the main
    # thread while it held a lock that the executor's thread needs to end.
    _shutdown_within(pool, _THREADS_END_SECONDS)
    _join(threads, _FEEDER_GRACE_SECONDS)
    if feeder in threads and feeder.is_alive():
        # Still writing the next item to the dead workers' pipe after the grace period: a
        # Python before 3.11.5 (Debian 12 has 3.11.2) lacks gh-94777's fix, so the executor's
        # thread waits for the feeder for ever. Closing the pipe's read end, as that fix
        # does, fails the write; a feeder stuck in it cannot be closing the same end.
        with contextlib.suppress(Exception):
            call_queue._reader.close()  # type: ignore[union-attr]
    _join(threads, _THREADS_END_SECONDS)


def _shutdown_within(pool: ProcessPoolExecutor, seconds: float) -> None:
    """`pool.shutdown(wait=False, cancel_futures=True)`, unless the lock it takes stays held
    for `seconds`: the executor's thread holds it while it ends a broken pool, joining its
    processes and its feeder thread with no time limit (CPython's `terminate_broken`), and
    a stalled forkserver owes those processes' exit statuses. The workers are killed
    already; the command then leaves without the executor's goodbye (see `killed_pools`)."""
    lock = getattr(pool, "_shutdown_lock", None)
    if lock is not None:
        if not lock.acquire(timeout=seconds):
            return
        lock.release()
    pool.shutdown(wait=False, cancel_futures=True)


class _Joinable(Protocol):
    def join(self, timeout: float | None = None) -> None: ...


def _join(joinables: Sequence[_Joinable], seconds: float) -> None:
    """Join each, all within `seconds` (not `seconds` each: the statuses of killed workers
    come from one forkserver, and a stalled one owes them all)."""
    deadline = time.monotonic() + seconds
    for joinable in joinables:
        with contextlib.suppress(Exception):  # a handle closed or never started
            joinable.join(timeout=max(0.0, deadline - time.monotonic()))


# Each pool whose workers were killed. Its threads end once `kill_workers` has released the
# result pipe; this list lets the process entry point leave without waiting for them all
# the same, should a Python version block them somewhere else.
killed_pools: list[int] = []

# Seconds `stop_pool` waits for a killed pool's threads: they end in milliseconds, unless
# the feeder is stuck (see `stop_pool`), which the grace period tells.
_FEEDER_GRACE_SECONDS = 1.0
_THREADS_END_SECONDS = 5.0
# Seconds `kill_workers` waits for the killed workers' exit statuses, all of them.
_WORKERS_END_SECONDS = 5.0


def kill_workers(pool: object) -> None:
    """SIGKILL every worker of `pool`, reap it, and release the pipes the executor's threads
    could otherwise wait on for ever. Safe in a signal handler: it waits for no thread."""
    killed_pools.append(id(pool))
    handles = list((getattr(pool, "_processes", None) or {}).values())
    for process in handles:
        with contextlib.suppress(Exception):
            process.kill()
    _join(handles, _WORKERS_END_SECONDS)
    _release_result_pipe(pool)


def _release_result_pipe(pool: object) -> None:
    """Close this process's write end of the pool's result pipe (private attributes: the
    executor has no public way; nothing in this process writes there, only workers do).

    A worker killed while it wrote a result leaves half a message in that pipe, and the
    executor's thread reads the rest for ever: this process holds a write end, so no end of
    file comes. Once it is closed, the read fails, the thread finds the pool broken and
    closes the call queue's read end (CPython's own step, gh-94777, from 3.11.5), so the
    feeder thread blocked writing the next item to the dead workers gets EPIPE and ends as
    well. Closing the call queue here could race with that thread closing the same
    descriptor; `stop_pool` closes it only for a Python that will not.
    """
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        with contextlib.suppress(Exception):
            writer.close()


def stop_helpers() -> None:
    """End the forkserver and the resource tracker this process started, and reap them.

    Left to die with the command (PR_SET_PDEATHSIG, end of file on their pipe), they would
    outlive it as zombies of PID 1, which in a container whose PID 1 does not reap (a
    common CI set-up) pile up. The workers are already joined (the pool's shutdown, or
    `kill_workers`); the forkserver goes first, since it holds the tracker's pipe too.
    Private attributes: multiprocessing has no public way to stop either helper."""
    from multiprocessing import forkserver, resource_tracker

    server = forkserver._forkserver
    pid = getattr(server, "_forkserver_pid", None)
    orphans: list[int] = []
    if isinstance(pid, int):
        orphans = _stop_forkserver(pid)
    _end(server, "_forkserver_pid", "_forkserver_alive_fd")
    address = getattr(server, "_forkserver_address", None)
    if isinstance(address, str) and not address.startswith("\0"):  # a socket file (not Linux)
        with contextlib.suppress(OSError):
            os.unlink(address)  # noqa: PTH108
    # The tracker exits by itself at the end of its pipe, once it has released what the
    # workers leaked (named semaphores): that is its purpose, so it is not killed.
    _end(resource_tracker._resource_tracker, "_pid", "_fd")
    _reap_adopted(orphans)


def _stop_forkserver(server: int) -> list[int]:
    """Kill the forkserver and the workers it still has; return those this process must
    reap. A worker it was forking when a signal ended the pool is in no pool's list, so
    `kill_workers` missed it: orphaned by the forkserver's end, it would die
    (PR_SET_PDEATHSIG) a zombie of PID 1. The forkserver is stopped first, so that it forks
    no worker after its children are listed (a fork it had been asked for races the list)."""
    _freeze(server)
    orphans = _adopt_children(server)
    for child in orphans:
        with contextlib.suppress(OSError):
            os.kill(child, signal.SIGKILL)
    # It has nothing to clean up, and its orderly exit (an interpreter's shutdown with
    # every preloaded module) takes 150 ms: killed, it ends at once.
    with contextlib.suppress(OSError):
        os.kill(server, signal.SIGKILL)
    return orphans


def _freeze(pid: int) -> None:
    """SIGSTOP `pid` and wait until it is stopped (or gone): delivery is asynchronous."""
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + _HELPER_END_SECONDS
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as stream:  # noqa: PTH123
                state = stream.read().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):  # gone, or no such listing (not Linux)
            return
        if state in {"T", "t", "Z", "X"}:
            return
        time.sleep(0.001)


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as stream:  # noqa: PTH123
            return [int(child) for child in stream.read().split()]
    except (OSError, ValueError):  # no such listing (not Linux)
        return []


def _subreaper(on: bool) -> bool:
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) == 0)
    return False


def _adopt_children(server: int) -> list[int]:
    """The workers the stopped forkserver still has, alive or not reaped yet: this process
    becomes their reaper for the forkserver's end (PR_SET_CHILD_SUBREAPER), so they come
    here, not to PID 1 as zombies. Nothing to adopt, nothing changed (the common case)."""
    left = _children(server)
    return left if left and _subreaper(True) else []


def _reap_adopted(orphans: list[int]) -> None:
    """Reap the workers `_adopt_children` took (the forkserver is reaped already, so each
    is this process's child now), then stop adopting."""
    if not orphans:
        return
    deadline = time.monotonic() + _HELPER_END_SECONDS
    for pid in orphans:
        with contextlib.suppress(ChildProcessError):  # reaped by the forkserver after all
            while os.waitpid(pid, os.WNOHANG) == (0, 0) and time.monotonic() < deadline:
                time.sleep(0.002)
    _subreaper(False)


def _end(helper: object, pid_name: str, fd_name: str) -> None:
    """Close the helper's pipe (it exits at its end), wait a while, then kill it; reap it."""
    pid, fd = getattr(helper, pid_name, None), getattr(helper, fd_name, None)
    if not isinstance(pid, int):
        return
    with contextlib.suppress(OSError, TypeError):
        os.close(fd)  # type: ignore[arg-type]
    deadline = time.monotonic() + _HELPER_END_SECONDS
    with contextlib.suppress(OSError):  # ChildProcessError: already reaped
        while os.waitpid(pid, os.WNOHANG) == (0, 0):
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                break
            time.sleep(0.002)
    # Stopped: a later pool in this process starts a new one.
    setattr(helper, pid_name, None)
    setattr(helper, fd_name, None)


# Seconds a helper gets to exit once its pipe is closed (it takes milliseconds).
_HELPER_END_SECONDS = 2.0


@contextlib.contextmanager
def _quiet_stdio() -> Iterator[None]:
    """Fds 1 and 2 are /dev/null while helper processes start (they inherit them)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    try:
        saved = [os.dup(1), os.dup(2)]
    except OSError:  # no stdout or stderr to protect
        yield
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (null, *saved):
            os.close(fd)


def _die_with_parent(parent: int) -> None:
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it died before the request above took effect
        os._exit(1)


def _silence() -> None:
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        with contextlib.suppress(OSError):
            os.dup2(null, fd)
    os.close(null)


def _start_worker(command_pid: int) -> None:  # pragma: no cover (runs in a worker)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _silence()
    # Forked from the forkserver (which dies with the command), else spawned by it.
    _die_with_parent(_forkserver_pid or command_pid)


def _guard_forkserver() -> None:  # pragma: no cover (runs in the forkserver)
    global _forkserver_pid  # noqa: PLW0603 (the forkserver's own state, inherited by workers)
    parent = os.environ.get(_PARENT_ENV)
    if parent is None or not parent.isdigit() or int(parent) != os.getppid():
        return  # imported by the command itself, not by its forkserver
    _forkserver_pid = os.getpid()
    _die_with_parent(int(parent))
    # The forkserver gives each worker the SIGINT handler it had before its own SIG_IGN,
    # taken after this preload: a Ctrl-C between a worker's fork and its initializer then
    # killed it, and the executor's thread, ending the broken pool while the command added
    # the next worker, printed a traceback. Ignored here, a worker ignores it from birth.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


_guard_forkserver()


def pool_context() -> BaseContext:
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
