"""evaltools installed as users get it, for benchmarks that time whole processes.

An editable install adds an import hook to every interpreter start (about 13 ms here), to
`python -c pass` as much as to `evaltools lint`: ratios against that floor understate start-up.
`installed()` builds a wheel of this checkout and installs it, without dependencies, into a
temporary venv whose `.pth` file points at the current environment's site-packages for the
dependencies (its own `.pth` files, the editable hook among them, are not run from there)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def installed() -> Iterator[Path]:
    """The python of a temporary venv where `import evaltools` is a normal install. The
    working directory is the venv's folder meanwhile: in this checkout, `python -c` would
    import the checkout's evaltools."""
    with tempfile.TemporaryDirectory(prefix="bench-installed-") as tmp:
        venv = Path(tmp) / "venv"
        _run(sys.executable, "-m", "venv", "--without-pip", str(venv))
        python = venv / "bin" / "python"
        site = _run(str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
        (Path(site.strip()) / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"])
        wheels = Path(tmp) / "wheels"
        _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(ROOT))
        wheel = str(next(wheels.glob("evaltools-*.whl")))
        _run(str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel)
        here = Path.cwd()
        os.chdir(tmp)
        try:
            where = _run(str(python), "-c", "import evaltools; print(evaltools.__file__)")
            assert where.startswith(tmp), f"evaltools comes from {where}, not the venv"
            yield python
        finally:
            os.chdir(here)


def add_editable_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--editable", action="store_true", help="time this environment, not a wheel install"
    )


@contextmanager
def evaltools_python(editable: bool) -> Iterator[str]:
    """The interpreter whose `evaltools` a benchmark times: this environment's with
    `editable`, else that of `installed()`."""
    if editable:
        yield sys.executable
    else:
        with installed() as python:
            yield str(python)


def _run(*argv: str) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout
