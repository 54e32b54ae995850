"""A command that ran worker processes leaves no process behind once it has returned: not
its workers, not multiprocessing's forkserver and resource tracker, and no zombie of
them. The CLI runs in its own session under a harness that is a child subreaper (as PID 1
of a container is the reaper of orphans): whatever the command does not reap itself
becomes the harness's child, and the harness lists its children instead of reaping them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CORPUS

HARNESS = """
import ctypes, json, os, signal, subprocess, sys, time

PR_SET_CHILD_SUBREAPER = 36
libc = ctypes.CDLL(None, use_errno=True)
assert libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0, ctypes.get_errno()


def parents():
    found = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = open(f"/proc/{name}/stat").read()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            found[int(name)] = (int(fields[1]), fields[0])
    return found


def descendants(root):
    table = parents()
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        kids = [p for p, (parent, _) in table.items() if parent == pid]
        found += kids
        todo += kids
    return found


how, argv = sys.argv[1], sys.argv[2:]
command = subprocess.Popen(
    argv, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
)
if how != "run":
    # Once the workers run: the forkserver (a child) has forked them (grandchildren).
    while len(descendants(command.pid)) < 3 and command.poll() is None:
        time.sleep(0.01)
    # A command that finished first is not signalled: its exit code says so.
    if command.poll() is None and how == "interrupt":  # Ctrl-C reaches the whole group
        os.killpg(command.pid, signal.SIGINT)
    elif command.poll() is None:
        os.kill(command.pid, signal.SIGTERM)
code = command.wait()
err = command.stderr.read().decode()
# What the command left: orphans re-parented here, alive or zombies. An orphan still
# being torn down by the kernel is let go first (it is re-parented, not left).
left = []
for _ in range(50):
    left = [(pid, state) for pid, (parent, state) in parents().items() if parent == os.getpid()]
    if not [pid for pid, state in left if state != "Z"]:
        break
    time.sleep(0.05)
print(json.dumps({"code": code, "stderr": err, "left": left}))
"""


def run_reaped(how: str, *args: str) -> dict[str, object]:
    """`evaltools ARGS` under the harness, ended as `how` says."""
    return _reaped(how, "-m", "evaltools", *args)


def run_script_reaped(script: str) -> dict[str, object]:
    """A Python script under the harness, run to its end."""
    return _reaped("run", "-c", script)


def _reaped(how: str, *python_args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", HARNESS, how, sys.executable, *python_args],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    found: dict[str, object] = json.loads(done.stdout)
    return found


def copies(folder: Path, count: int) -> Path:
    """`count` exact examples in `folder`."""
    folder.mkdir()
    exact = (CORPUS / "flask--add-import-statement.md").read_bytes()
    for i in range(count):
        (folder / f"e{i:04d}.md").write_bytes(exact)
    return folder


@pytest.fixture
def examples(tmp_path: Path) -> Path:
    """Enough exact examples for two workers to be worth starting."""
    return copies(tmp_path / "evals", 400)


@pytest.fixture
def long_work(tmp_path: Path) -> Path:
    """Examples enough that a quiet machine's two workers are still at them when the
    harness, having seen them start, signals the command (400 were done before it)."""
    return copies(tmp_path / "evals", 4000)


@pytest.mark.parametrize("outcome", ["clean", "findings"])
def test_roundtrip_reaps_its_workers_and_helpers(examples: Path, outcome: str) -> None:
    if outcome == "findings":
        text = (examples / "e0000.md").read_text()
        (examples / "e0000.md").write_text(text.replace("\n\n", "\n\n\n", 1))
    found = run_reaped("run", "roundtrip", "--jobs", "2", str(examples))
    assert found["code"] == (0 if outcome == "clean" else 1), found["stderr"]
    assert found["left"] == []


def test_roundtrip_interrupted_reaps_its_workers_and_helpers(long_work: Path) -> None:
    found = run_reaped("interrupt", "roundtrip", "--jobs", "2", str(long_work))
    assert (found["code"], found["stderr"]) == (130, "evaltools: interrupted\n")
    assert found["left"] == []


def test_roundtrip_terminated_reaps_its_workers_and_helpers(long_work: Path) -> None:
    found = run_reaped("terminate", "roundtrip", "--jobs", "2", str(long_work))
    assert found["code"] == -15, found["stderr"]
    assert found["left"] == []


# A forkserver that lags (stopped here, as a loaded machine can stall it) has not reaped the
# worker it lost when it is killed: the worker must come to the command, which reaps it.
LAGGING_FORKSERVER = """
import os, signal, time
from multiprocessing import forkserver
from evaltools.parallel import _workers

pool = _workers.start_pool(1, None)
pool.submit(time.sleep, 30)
server = forkserver._forkserver._forkserver_pid
listing = f"/proc/{server}/task/{server}/children"
deadline = time.monotonic() + 120
while not open(listing).read().split():
    assert time.monotonic() < deadline, "no worker started"
    time.sleep(0.01)
os.kill(server, signal.SIGSTOP)
_workers.stop_helpers()
os._exit(0)
"""


def test_a_worker_its_forkserver_never_reaped_is_reaped_by_the_command() -> None:
    found = run_script_reaped(LAGGING_FORKSERVER)
    assert found["code"] == 0, found["stderr"]
    assert found["left"] == []


# Ctrl-C just as the command, its work done, stops its helpers (seen on a loaded machine:
# a traceback, and the forkserver and tracker left to PID 1 as zombies).
CTRL_C_IN_TEARDOWN = """
import os, signal, time
from evaltools import __main__ as cli
from evaltools.parallel import _workers

pool = _workers.start_pool(1, None)
pool.submit(abs, 1).result()
pool.shutdown(wait=True)
stop_helpers = _workers.stop_helpers


def interrupted_then_stopped():
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.05)
    stop_helpers()


_workers.stop_helpers = interrupted_then_stopped
cli.main = lambda argv=None: 0
cli.entry()
"""


def test_ctrl_c_while_the_helpers_stop_lets_them_stop() -> None:
    found = run_script_reaped(CTRL_C_IN_TEARDOWN)
    assert (found["code"], found["stderr"]) == (0, "")
    assert found["left"] == []


# Ctrl-C as the pool's workers exit, every result in (seen under load: multiprocessing's
# finalizer printed the KeyboardInterrupt and the command went on to exit 0).
CTRL_C_IN_SHUTDOWN = """
import os, signal, sys
from evaltools.parallel import _workers, processes

start_pool = _workers.start_pool


def interrupted_on_shutdown(*args, **kwargs):
    pool = start_pool(*args, **kwargs)
    shutdown = pool.shutdown

    def shutdown_interrupted(*a, **k):
        os.kill(os.getpid(), signal.SIGINT)
        shutdown(*a, **k)

    pool.shutdown = shutdown_interrupted
    return pool


_workers.start_pool = interrupted_on_shutdown
try:
    sum(processes.parallel_map(abs, range(-40, 0), workers=2, batch=4))
except KeyboardInterrupt:
    # answered, and after the workers exited by themselves: none was killed mid-exit
    sys.stderr.write(f"interrupted; pools killed: {len(_workers.killed_pools)}\\n")
_workers.stop_helpers()
"""


def test_ctrl_c_as_the_workers_exit_is_answered_after() -> None:
    found = run_script_reaped(CTRL_C_IN_SHUTDOWN)
    assert (found["code"], found["stderr"]) == (0, "interrupted; pools killed: 0\n")
    assert found["left"] == []


# A signal while a worker is being started: the forkserver has read the connection but
# not yet the request (seen under load, when Ctrl-C reached a just-started first worker
# too: the command hung five seconds, then the forkserver died on the half-sent request
# and left its dead worker to PID 1 as a zombie).
SIGNAL_WHILE_A_WORKER_STARTS = """
import os, signal, sys, time
from multiprocessing import reduction
from evaltools import __main__ as cli
from evaltools.parallel import _workers, processes

send_fds = reduction.sendfds
requests = []


def signalled_mid_request(sock, fds):
    requests.append(fds)
    if len(requests) == 2:  # the second worker's start: the first one runs
        os.kill(os.getpid(), signal.SIG%s)
        time.sleep(0.05)  # the handler runs here, before the request is sent
    send_fds(sock, fds)
    sys.stderr.write(f"request {len(requests)} sent\\n")


reduction.sendfds = signalled_mid_request


def sleeps(args):
    sum(processes.parallel_map(time.sleep, [30] * 4, workers=2))
    return 0


cli._dispatch = sleeps
cli.entry()
"""


def test_ctrl_c_while_a_worker_starts_is_answered_once_it_has() -> None:
    found = run_script_reaped(SIGNAL_WHILE_A_WORKER_STARTS % "INT")
    assert found["code"] == 130, found["stderr"]
    sent = "request 1 sent\nrequest 2 sent\n"
    assert found["stderr"] == sent + "evaltools: interrupted\n"
    assert found["left"] == []


def test_sigterm_while_a_worker_starts_is_answered_once_it_has() -> None:
    found = run_script_reaped(SIGNAL_WHILE_A_WORKER_STARTS % "TERM")
    assert (found["code"], found["stderr"]) == (-15, "request 1 sent\nrequest 2 sent\n")
    assert found["left"] == []


# The forkserver stalls (stopped here) as it starts the second worker, and a supervisor
# sends SIGTERM once: held for the start, it must still be answered.
ONE_SIGTERM_WHILE_A_START_HANGS = """
import os, signal, threading, time
from multiprocessing import forkserver, reduction
from evaltools.parallel import processes

processes.HOLD_SECONDS = 0.2
send_fds = reduction.sendfds
requests = []


def stalled_mid_request(sock, fds):
    requests.append(fds)
    if len(requests) == 2:
        os.kill(forkserver._forkserver._forkserver_pid, signal.SIGSTOP)
        threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGTERM)).start()
    send_fds(sock, fds)


reduction.sendfds = stalled_mid_request
sum(processes.parallel_map(time.sleep, [30] * 4, workers=2))
"""


def test_one_sigterm_while_a_worker_start_hangs_is_answered() -> None:
    found = run_script_reaped(ONE_SIGTERM_WHILE_A_START_HANGS)
    assert found["code"] == -15, found["stderr"]
    assert found["left"] == []


# A process the forkserver forks runs with the SIGINT handler the forkserver had before its
# own SIG_IGN; an executor's worker sets SIG_IGN in its initializer, too late for a Ctrl-C
# that comes in between (seen on a loaded machine: a worker killed, and a traceback). The
# child here has no initializer: it signals itself and says how it ended.
FORKED_SIGINT = """
import signal
from evaltools.parallel import _workers

pool = _workers.start_pool(1, None)
child = _workers.pool_context().Process(target=signal.raise_signal, args=(signal.SIGINT,))
child.start()
child.join()
print(child.exitcode)
pool.shutdown()
_workers.stop_helpers()
"""


def test_a_worker_ignores_ctrl_c_from_its_fork_on() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FORKED_SIGINT],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert (done.returncode, done.stderr, done.stdout) == (0, "", "0\n")
