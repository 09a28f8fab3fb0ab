"""Start-up of ``c4`` commands: wall and CPU seconds of whole processes, and their import time.

Each command runs ``--runs`` times in a fresh interpreter (``python -m
c4engine ARGS``), the commands interleaved round by round so that a change
in the machine's load hits them alike; per command it prints the median wall
seconds, the median CPU seconds (user + sys of the child) and the total
import time of one run under ``python -X importtime`` (the sum of every
module's own time).  ``--src DIR`` runs the c4engine in DIR (a ``src``
directory, e.g. of another checkout) instead of the installed one, to
compare two versions in one run.  Each command first runs once untimed, so
numba's cache is warm: this measures start-up after the first compile.

    .venv/bin/python benchmarks/startup.py --runs 7 -- "solve ''" "solve 4" \\
        "solve 2252576253462244111563365343671351441" --help
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shlex
import statistics
import subprocess
import sys
import time

_IMPORT_LINE = re.compile(r"import time:\s+(\d+) \|")


def _env(src: str | None) -> dict[str, str]:
    env = dict(os.environ, NO_COLOR="1")
    if src:
        env["PYTHONPATH"] = src
    return env


def _run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + sys) seconds of one ``python -m c4engine ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "c4engine", *args], capture_output=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"c4 {shlex.join(args)} failed: {done.stderr.decode().strip()}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def _import_seconds(args: list[str], env: dict[str, str]) -> float:
    """Total import time (every module's own time) of one run, from ``-X importtime``."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "c4engine", *args], capture_output=True, text=True, env=env
    )
    return sum(int(m.group(1)) for m in map(_IMPORT_LINE.match, done.stderr.splitlines()) if m) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("commands", nargs="+", metavar="ARGS", help="a c4 command line, quoted")
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (default 5)")
    parser.add_argument("--src", action="append", default=[], metavar="DIR", help="a c4engine src dir")
    options = parser.parse_args()
    variants = options.src or [None]
    cases = [(src, shlex.split(command)) for command in options.commands for src in variants]
    walls: dict[int, list[float]] = {i: [] for i in range(len(cases))}
    cpus: dict[int, list[float]] = {i: [] for i in range(len(cases))}
    for src, args in cases:  # warm numba's cache and the bytecode
        _run(args, _env(src))
    for _round in range(options.runs):
        for i, (src, args) in enumerate(cases):
            wall, cpu = _run(args, _env(src))
            walls[i].append(wall)
            cpus[i].append(cpu)
    print(f"{'command':<48} {'wall s':>7} {'cpu s':>6} {'imports s':>9}  (medians of {options.runs})")
    for i, (src, args) in enumerate(cases):
        name = "c4 " + shlex.join(args) + (f"  [{src}]" if src else "")
        wall, cpu = statistics.median(walls[i]), statistics.median(cpus[i])
        print(f"{name:<48} {wall:>7.2f} {cpu:>6.2f} {_import_seconds(args, _env(src)):>9.2f}")


if __name__ == "__main__":
    main()
