"""c4engine's build backend: setuptools' own, with the kernels' compile started as early as it can be.

To install a package pip asks its build backend for any further build
requirements (numba is in the build environment by then), then for the
metadata, then resolves and fetches the package's own dependencies -- about
6 s on a fresh machine -- and only then asks for the wheel, whose build step
(``setup.py``) compiles the kernels' shared libraries, about half a minute
on 2 cores.  Here the first question starts that compile, in processes of
their own (:func:`start_early`), so that it runs through pip's wait; the
wheel's build step then takes the libraries they made (:func:`take_early`),
waiting for them, and builds itself whatever they could not.  Every hook is
setuptools', and nothing starts early for an editable install or with
``C4ENGINE_BUILD_KERNELS=0``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 -- setuptools' hooks, one of them wrapped below

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "src"
EARLY = HERE / "build" / "c4engine-kernels"
"""Where the early build keeps its state, its processes' lines and the libraries they made."""

BATCHES = [["any", "engine"], ["wide"]]
"""The libraries each build process makes (kernels.build.SHIPPED_NAMES, by kernels.build.build_named's
names: the solver's for every size up to 64 bits and the engine's; the solver's past 64 bits), about
as long as each other."""

EDITABLE_ALSO = [["7x6x4", "8x8x4", "7x9x4"], ["10x6x4", "9x7x4", "9x7x5"]]
"""What ``pip install -e .`` builds besides, batch by batch (kernels.build.ALL_NAMES): a working
copy's tests and benchmarks (scripts/test.sh, benchmarks/compare_reference.py) measure each
specialised geometry's own library from the first run, not the one for every size while it builds
in the background."""

WAIT = 900.0
"""Seconds the wheel's build waits for an early process before building its batch itself."""

RUN_BUILD = (
    "import os, runpy, sys; sys.path.insert(0, sys.argv.pop(1)); done = sys.argv.pop(1); code = 1\n"
    "try:\n"
    "    runpy.run_module('c4engine.kernels.build', run_name='__main__', alter_sys=True)\n"
    "except SystemExit as end:\n"
    "    code = end.code if isinstance(end.code, int) else 1\n"
    "finally:\n"
    "    if done:\n"
    "        open(done + '.part', 'w').write(str(code))\n"
    "        os.replace(done + '.part', done)\n"
)
"""``python -m c4engine.kernels.build`` with the package's sources put first on the path by hand
(pip's isolated build environment drops PYTHONPATH's entries from a child's ``sys.path``); its exit
status then written to the file named by the second argument, unless that is empty."""


def build_command(names: list[str], into: list[str], done: str = "") -> list[str]:
    """The command that builds libraries ``names`` (``into``: ``["--into", FOLDER]`` or nothing),
    writing its exit status to file ``done`` when it ends."""
    return [sys.executable, "-c", RUN_BUILD, str(SOURCE), done, *names, *into]


def get_requires_for_build_wheel(config_settings: dict[str, str] | None = None) -> list[str]:
    """setuptools' answer, the kernels' build started first (:func:`start_early`)."""
    start_early()
    requires: list[str] = build_meta.get_requires_for_build_wheel(config_settings)
    return requires


def start_early(early: Path = EARLY) -> None:
    """Start a process for each of :data:`BATCHES`, building into ``early``; the state file names this
    build environment's Python, so that only a wheel built with it takes their libraries."""
    if os.environ.get("C4ENGINE_BUILD_KERNELS", "1") == "0":
        return
    shutil.rmtree(early, ignore_errors=True)
    early.mkdir(parents=True)
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(early / "numba"))  # numba's cache: of no use after
    for number, names in enumerate(BATCHES):
        with open(early / f"{number}.log", "w") as lines:
            subprocess.Popen(
                build_command(names, ["--into", str(early / str(number))], str(early / f"{number}.done")),
                stdin=subprocess.DEVNULL,
                stdout=lines,
                stderr=subprocess.STDOUT,
                env=environment,
                start_new_session=True,  # not pip's hook process's to wait for
            )
    (early / "state.json").write_text(json.dumps({"python": sys.executable, "batches": BATCHES}))


def take_early(
    into: Path, say: Callable[[str], None], early: Path = EARLY, wait: float = WAIT
) -> list[list[str]]:
    """Copy into ``into`` the libraries the early build made, once its processes end (``say`` gets the
    last lines of each); the batches left to build here: all of them when there was no early build
    in this build environment, a batch whose process failed or did not end within ``wait`` seconds."""
    try:
        state = json.loads((early / "state.json").read_text())
    except (OSError, ValueError):
        return BATCHES
    if state.get("python") != sys.executable or state.get("batches") != BATCHES:
        return BATCHES
    left = []
    deadline = time.monotonic() + wait
    into.mkdir(parents=True, exist_ok=True)
    for number, names in enumerate(BATCHES):
        done = early / f"{number}.done"
        while not done.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        with contextlib.suppress(OSError):
            for line in (early / f"{number}.log").read_text().splitlines()[-3:]:
                say(f"  {line}")
        try:
            failed = done.read_text().strip() != "0"
        except OSError:
            failed = True
        if failed:
            left.append(names)
            continue
        for library in (early / str(number)).glob("*.so"):
            shutil.copy2(library, into / library.name)
    shutil.rmtree(early, ignore_errors=True)
    return left
