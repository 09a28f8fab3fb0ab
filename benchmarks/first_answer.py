"""The first answer after an install: how long ``pip install .`` takes, then each command's first run.

As a new user would (issue 37): a fresh clone of a commit, a fresh virtual
environment, ``pip install .`` (timed), then each command once, in a fresh
process, from an empty numba cache (``NUMBA_CACHE_DIR`` set to a new folder,
so nothing compiled by an earlier run is found).  Per command it records the
wall time of the whole process, its peak memory and minor page faults
(``/usr/bin/time -v``), the ``time:`` the command reported, and the load
average when it started (the times stretch on a busy machine; memory and page
faults do not).  Prints a Markdown table for docs/benchmarks-log.md.

    python benchmarks/first_answer.py                     # this checkout's HEAD
    python benchmarks/first_answer.py --commit 02578a2    # before issue 37
    python benchmarks/first_answer.py --only 8x7        # the commands on 8x7 only
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
# The three commands on the standard board, 8x7 and 9x7 connect 5 (the boards the docs name
# besides 7x6); away from 7x6 the book knows nothing, so a solve or an analysis there is a search of
# its own, bounded by --time 1 to show what starting costs (9x7 does not fit 64 bits: no kernel).
# Then an exact answer on a size nothing was built for, and 11x5, which the solver refuses (66 bits).
COMMANDS = [
    ["solve", "4453"],
    ["analyze", ""],
    ["move", "44", "--level", "7"],
    ["solve", "4453", "--size", "8x7", "--time", "1"],
    ["analyze", "", "--size", "8x7", "--time", "1"],
    ["move", "44", "--level", "7", "--size", "8x7"],
    ["solve", "4453", "--size", "9x7", "--connect", "5", "--time", "1"],
    ["analyze", "", "--size", "9x7", "--connect", "5", "--time", "1"],
    ["move", "44", "--level", "7", "--size", "9x7", "--connect", "5"],
    ["solve", "", "--size", "5x4"],
    ["solve", "4,4,5,3", "--size", "11x5"],
]
PATIENCE = 1200
"""Seconds a command may take before it is stopped (a first compile on a loaded machine)."""


@dataclass(frozen=True)
class Run:
    """One command's first run."""

    command: str
    wall: float
    peak_mb: float
    faults: int
    reported: str
    load: str
    status: int
    last_line: str


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def install(commit: str, folder: Path, editable: bool) -> tuple[Path, float, str]:
    """A fresh clone of ``commit`` and a fresh virtual environment with it installed: the ``c4``
    program, the seconds ``pip install`` took and the load average when it began."""
    subprocess.run(["git", "clone", "--quiet", str(REPOSITORY), str(folder / "clone")], check=True)
    subprocess.run(["git", "-C", str(folder / "clone"), "checkout", "--quiet", commit], check=True)
    subprocess.run(["python3", "-m", "venv", str(folder / "venv")], check=True)
    pip = [str(folder / "venv" / "bin" / "pip"), "install"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True, capture_output=True)
    load = load_average()
    began = time.perf_counter()
    target = ["-e", str(folder / "clone")] if editable else [str(folder / "clone")]
    with open(folder / "pip.log", "w") as log:  # -v: the build's lines (the kernels it compiled)
        subprocess.run([*pip, "-v", *target], check=True, stdout=log, stderr=subprocess.STDOUT)
    return folder / "venv" / "bin" / "c4", time.perf_counter() - began, load


def first_run(c4: Path, arguments: list[str], scratch: Path) -> Run:
    """``c4 ARGUMENTS`` once, from an empty numba cache."""
    cache = Path(tempfile.mkdtemp(dir=scratch))
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    load = load_average()
    began = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-v", str(c4), *arguments],
        capture_output=True,
        text=True,
        env=environment,
        cwd=scratch,
    )
    wall = time.perf_counter() - began
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    faults = re.search(r"Minor \(reclaiming a frame\) page faults: (\d+)", done.stderr)
    reported = re.search(r"time: ([0-9.]+) s", done.stdout)
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip() and "\t" not in line]
    shown = " ".join(f'"{a}"' if a == "" else a for a in arguments)
    return Run(
        f"c4 {shown}",
        wall,
        int(peak[1]) / 1024 if peak else float("nan"),
        int(faults[1]) if faults else -1,
        reported[1] if reported else "-",
        load,
        done.returncode,
        lines[-1] if done.returncode and lines else "",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--commit", default="HEAD", help="the commit to install (default: HEAD)")
    parser.add_argument("--editable", action="store_true", help="pip install -e (as scripts/test.sh does)")
    parser.add_argument(
        "--only", action="append", help="run only the commands containing this text (again: or that)"
    )
    parser.add_argument("--keep", action="store_true", help="keep the clone and the virtual environment")
    options = parser.parse_args()
    commit = subprocess.run(
        ["git", "-C", str(REPOSITORY), "rev-parse", "--short", options.commit],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix="first-answer-"))
    try:
        c4, seconds, load = install(commit, folder, options.editable)
        how = "pip install -e ." if options.editable else "pip install ."
        print(f"commit {commit}: {how} took {seconds:.0f} s (load {load})")
        built = [line for line in (folder / "pip.log").read_text().splitlines() if "c4engine:" in line]
        for line in built:
            print("   ", line.strip())
        print()
        print("| command | wall s | reported time: | peak MB | minor faults | load average |")
        print("| --- | ---: | ---: | ---: | ---: | --- |")
        for arguments in COMMANDS:
            if options.only and not any(text in " ".join(arguments) for text in options.only):
                continue
            run = first_run(c4, arguments, folder)
            note = f" (exit {run.status}: {run.last_line})" if run.status else ""
            print(
                f"| `{run.command}`{note} | {run.wall:.1f} | {run.reported} | {run.peak_mb:.0f} | "
                f"{run.faults} | {run.load} |",
                flush=True,
            )
    finally:
        if options.keep:
            print(f"kept in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
