"""``pip install .`` of a clean clone into a fresh virtual environment: wall, CPU and peak memory.

As the README's first command does, minus starting the game: a fresh clone of
a commit (``git clone``, so nothing built in this working copy comes along),
``python3 -m venv``, ``pip install --upgrade pip`` (timed apart), then ``pip
install CLONE`` timed. While pip runs, the
process tree under it is sampled every 50 ms from /proc: the peak of the sum
of its processes' resident memory (RSS, an upper bound: pages two processes
share count twice). CPU is user + system of the whole tree (every process pip
and its children waited for, and those its hooks left running, which this
script adopts). pip's output (``-v``) is kept with the second each line came,
so the report shows where the time went: pip's isolated build environment, the
kernels' build (each library's wall and CPU seconds, as ``setup.py`` tells
them), the install of the dependencies and the wheel. ``--runs N`` installs N
times, one after the other (never two at once), and prints each run and the
median. ``--bundled-pip`` keeps the pip the venv came with (Python 3.11's own).
``--quiet L`` (default 0.5) starts each install once the one-minute load
average is under L. ``--first`` then runs the README's first answer, ``c4
solve 4453``, in the last install (wall, peak memory, whether numba was
imported) and waits for any library build it started in the background,
reporting how long that took.

    python benchmarks/install.py                  # this checkout's HEAD, 3 runs
    python benchmarks/install.py --commit 507aae4 --runs 1
    python benchmarks/install.py --runs 1 --first
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
PAGE = os.sysconf("SC_PAGE_SIZE")
MILESTONES = [
    ("build environment", "Installing build dependencies"),
    ("wheel's requirements", "Getting requirements to build wheel"),
    ("metadata", "Preparing metadata"),
    ("wheel built", "Building wheel for c4engine"),
    ("installed", "Successfully installed"),
]
"""pip's lines that mark a step's end (the first line containing the text, once it says done)."""


@dataclass
class Install:
    """One timed ``pip install``."""

    wall: float
    cpu: float
    peak_mb: float
    load: str
    pip_upgrade: float | None = None
    """Seconds the upgrade of pip took before (None: ``--bundled-pip``), not in ``wall``."""
    lines: list[tuple[float, str]] = field(default_factory=list)


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def _tree_rss(root: int) -> int:
    """Bytes resident in the descendants of process ``root`` (not in ``root`` itself), now."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fields = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    total, todo = 0, list(children.get(root, []))
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        with contextlib.suppress(OSError):  # it ended meanwhile
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    return total


def _adopt_orphans() -> None:
    """Become the parent of every process this one's descendants leave running when they end (Linux:
    a child subreaper), so that those processes' CPU and memory count too: the build backend's
    early kernel builds outlive the pip hook that started them."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def _reap() -> None:
    """Wait for every child that has ended, so that its CPU counts in RUSAGE_CHILDREN."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG) != (0, 0):
            pass


def settle(below: float, patience: float = 600.0) -> str:
    """Wait until the one-minute load average is under ``below`` (at most ``patience`` seconds): a
    run starts on a quiet machine, not on the tail of the one before; the load then."""
    waited = time.monotonic()
    while float(load_average().split()[0]) >= below and time.monotonic() - waited < patience:
        time.sleep(5)
    return load_average()


def first_answer(venv: Path) -> list[str]:
    """``c4 solve 4453`` in the fresh install: its wall and peak memory, whether it imported numba,
    and how long a library build it started in the background took."""
    python = venv / "bin" / "python"
    probe = (
        "import sys, time; from c4engine.cli import run; sys.argv = ['c4', 'solve', '4453']\n"
        "try:\n    run()\nexcept SystemExit:\n    pass\n"
        "print('numba imported:', 'numba' in sys.modules)"
    )
    began = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-v", str(python), "-c", probe], capture_output=True, text=True)
    wall = time.perf_counter() - began
    peak = next((line.split()[-1] for line in done.stderr.splitlines() if "Maximum resident" in line), "?")
    found = [f"c4 solve 4453: {wall:.2f} s wall, peak {int(peak) // 1024 if peak.isdigit() else peak} MB"]
    found += [line for line in done.stdout.splitlines() if line.startswith(("score", "time", "numba"))]
    cache = next(venv.glob("lib/python*/site-packages/c4engine/kernels/__pycache__"), None)
    markers = list(cache.glob("*.building")) if cache else []
    if markers:
        waited = time.perf_counter()
        while any(marker.exists() for marker in markers) and time.perf_counter() - waited < 900:
            time.sleep(0.5)
        built = [path.name for path in cache.glob("*.so")] if cache else []
        found.append(
            f"background build of {[m.stem for m in markers]}: ended {time.perf_counter() - began:.0f} s "
            f"after the command began; the cache now holds {built}"
        )
    else:
        found.append("no background build started")
    return found


def install(commit: str, folder: Path, quiet: float = 0.0, upgrade_pip: bool = False) -> Install:
    """A fresh clone of ``commit`` in ``folder``, a fresh venv (its pip upgraded first, timed apart,
    with ``upgrade_pip``), and ``pip install -v`` of the clone, timed from a load under ``quiet``
    (0: at once)."""
    clone, venv = folder / "clone", folder / "venv"
    subprocess.run(["git", "clone", "--quiet", str(REPOSITORY), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "--quiet", commit], check=True)
    subprocess.run(["python3", "-m", "venv", str(venv)], check=True)
    upgraded = None
    if upgrade_pip:
        if quiet:
            settle(quiet)
        began = time.perf_counter()
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "--upgrade", "pip"], check=True)
        upgraded = time.perf_counter() - began
    load = settle(quiet) if quiet else load_average()
    _reap()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    pip = subprocess.Popen(
        [str(venv / "bin" / "pip"), "install", "-v", str(clone)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(os.getpid()))  # pip's tree and what its hooks left running
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    lines = []
    assert pip.stdout is not None
    for line in pip.stdout:
        lines.append((time.perf_counter() - began, line.rstrip()))
    status = pip.wait()
    wall = time.perf_counter() - began
    done.set()
    sampler.join()
    _reap()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if status != 0:
        tail = "\n".join(text for _, text in lines[-20:])
        raise SystemExit(f"pip install failed ({status}):\n{tail}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return Install(wall, cpu, peak / 2**20, load, lines=lines, pip_upgrade=upgraded)


def milestones(run: Install) -> list[str]:
    """When each of pip's steps ended, and the kernels' lines from setup.py."""
    shown = []
    for name, text in MILESTONES:
        ended = [t for t, line in run.lines if text in line and ("done" in line or name == "installed")]
        at = (ended[-1] if name == "installed" else ended[0]) if ended else None  # the build env's first
        if at is None:
            at = next((t for t, line in run.lines if text in line), None)
        if at is not None:
            shown.append(f"{name} at {at:.1f} s")
    kernels = [f"{t:.1f} s: {line.strip()}" for t, line in run.lines if "c4engine:" in line]
    return shown + kernels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--commit", default="HEAD", help="the commit to install (default: HEAD)")
    parser.add_argument("--runs", type=int, default=3, help="installs, one after the other (default 3)")
    parser.add_argument("--first", action="store_true", help="then c4 solve 4453 in the last install")
    parser.add_argument(
        "--quiet", type=float, default=0.5, help="start each install once the load is under this (0: at once)"
    )
    parser.add_argument(
        "--bundled-pip",
        action="store_true",
        help="keep the venv's own pip (the README's command upgrades it first)",
    )
    options = parser.parse_args()
    _adopt_orphans()
    commit = subprocess.run(
        ["git", "-C", str(REPOSITORY), "rev-parse", "--short", options.commit],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    runs = []
    for number in range(1, options.runs + 1):
        folder = Path(tempfile.mkdtemp(prefix="install-"))
        try:
            run = install(commit, folder, options.quiet, not options.bundled_pip)
            runs.append(run)
            print(
                f"run {number}: {run.wall:.1f} s wall, {run.cpu:.1f} CPU s, peak {run.peak_mb:.0f} MB "
                f"(sum of the tree's RSS), load {run.load} before"
                + (f"; pip upgraded first in {run.pip_upgrade:.1f} s" if run.pip_upgrade is not None else ""),
                flush=True,
            )
            for line in milestones(run):
                print("   ", line, flush=True)
            if options.first and number == options.runs:
                for line in first_answer(folder / "venv"):
                    print("   ", line, flush=True)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    if len(runs) > 1:
        print(
            f"commit {commit}, median of {len(runs)}: {statistics.median(r.wall for r in runs):.1f} s wall, "
            f"{statistics.median(r.cpu for r in runs):.1f} CPU s, "
            f"peak {statistics.median(r.peak_mb for r in runs):.0f} MB"
        )


if __name__ == "__main__":
    main()
