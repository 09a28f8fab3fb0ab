"""Side-by-side benchmark: c4engine's solver against reference solvers, same run, same machine.

Usage::

    PYTHONPATH=src python benchmarks/compare_reference.py \\
        --reference pons=/path/to/c4solver --reference steininger=/path/to/st_strong \\
        [--threads 1] [--weak] [--pairs 3] [--sets Test_L2_R2 Test_L1_R3:5] \\
        [--empty-reference steininger=/path/to/c4] [--size 10x6 --sets tests/data/wide_10x6_mid.txt]

A reference is any program that speaks the published solver protocol: one
position a line on standard input (1-based columns), one line out per
position starting with the position and then its score (Pascal Pons'
``c4solver`` prints ``POSITION SCORE``, older builds ``POSITION SCORE NODES
USEC``; a batch driver around Christophe Steininger's solver prints
``POSITION SCORE``).  ``--reference NAME=COMMAND`` names it (without ``NAME=``
the program's file name is its name) and may carry arguments
(``--reference "pons-weak=/path/c4solver -w"``).  You build the references
yourself (docs/benchmarks.md says how); nothing here fetches or builds them.
They run in an empty temporary directory, so Pons' solver finds no opening
book.

Each set is measured ``--pairs`` times, the programs interleaved (every
reference, then c4engine, again ...), so a change in the machine's load hits
all alike.  Every run is a whole fresh process: ``reference < positions``
against ``python -m c4engine solve --no-book < positions`` (start-up,
reading, solving, printing), c4engine as an installed copy runs (bytecode
and compiled kernel cached by one untimed run first,
``PYTHONDONTWRITEBYTECODE`` dropped from the children's environment).  Per
set and reference the table gives the medians of wall and CPU seconds (user
+ sys, the program's threads summed) and the median (lowest-highest) of the
rounds' ratios c4engine / reference (below 1: c4engine faster), and the
peak resident memory of each process (GNU ``time``'s, when ``/usr/bin/time`` is there: it
starts the programs, a millisecond of every wall time).

Every answer is checked against the set's published score and against
c4engine's answer to the same position in the same round (``--weak``: only
the sign); a wrong or missing score, or a run that fails, is reported on
the spot, marked in the table and makes the exit code 1.

``--threads`` goes to c4engine (default: its own default, every usable
core; ``--threads 1`` for the one-thread comparison with Pons' solver);
``--weak`` solves weakly (``c4 solve --weak``) -- give the references'
weak builds then.  The set ``empty`` is the empty board: a batch of one
empty line, which c4engine and Pons' solver read as the empty board; a
reference that skips empty lines (the Steininger driver) gets a command of
its own with ``--empty-reference NAME=COMMAND`` (e.g. that solver's own
``c4`` program, which solves the empty board and prints ``Final strong score
is 1``): it is run with one empty line on standard input, and its score is
the number after the last "score" in its output, or the batch line's.

The load average is printed before and after every set; when the one-minute
figure before a set is above ``--max-load`` (default 0.6 a core: 1.2 on two
cores) the machine was busy with other work (or this benchmark's previous
set) and the set's ratios are not quiet-machine figures: the row says so.
The figure after a set includes this benchmark's own processes.

Sets and sizes by default follow Pons' published benchmark: the whole of
L3_R1, L2_R1, L2_R2 and L1_R1, the first 20 positions of L1_R2 and L1_R3
(``--sets Test_L1_R3:5`` for fewer; ``empty`` for the empty board).

Other boards: ``--size WxH`` goes to c4engine (``c4 solve --size WxH``) and
the sets are then files in the same ``MOVES SCORE`` format named by their
path (``--sets tests/data/wide_10x6_mid.txt:10``; moves in c4engine's
notation, comma-separated past 9 columns), the references built for that
size.  The untimed first run of c4engine solves the first set's first
position; when c4engine cannot (a board its exact solver does not hold) the
benchmark stops there with one line saying why.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from c4engine.cli.solve import default_bench_dir

SETS = [
    ("Test_L3_R1", None),
    ("Test_L2_R1", None),
    ("Test_L2_R2", None),
    ("Test_L1_R1", None),
    ("Test_L1_R2", 20),
    ("Test_L1_R3", 20),
]
EMPTY_SET = "empty"
EMPTY_BOARD_SCORE = 1
"""The 7x6 empty board's published score: the first player wins with the 41st stone, (43 - 41) / 2."""
STANDARD_SIZE = "7x6"
"""The board of the published sets (and of ``EMPTY_BOARD_SCORE``); c4engine's default."""
SHOWN_PROBLEMS = 5
"""Wrong scores listed per run (the count of the rest is given)."""
GNU_TIME = "/usr/bin/time" if Path("/usr/bin/time").exists() else None
"""Measures a program's peak memory; without it the table has none."""

_SCORE_WORD = re.compile(r"\bscore\b(?:\s+is)?\s*[:=]?\s*(-?\d+)", re.IGNORECASE)
_INTEGER = re.compile(r"[+-]?\d+")


@dataclass(frozen=True)
class Program:
    """A program measured: its name, its batch command, and the command it solves the empty board with."""

    name: str
    command: list[str]
    empty_command: list[str] | None = None

    def command_for(self, positions: Sequence[str]) -> list[str]:
        """The command for these positions: the empty-board one when the batch is the empty board alone."""
        if self.empty_command is not None and list(positions) == [""]:
            return self.empty_command
        return self.command


@dataclass(frozen=True)
class Run:
    """One whole process: wall and CPU seconds, peak resident MiB, its scores (None: none read), how it
    ended."""

    wall: float
    cpu: float
    peak_mib: float | None
    scores: list[int | None]
    exit_code: int
    last_error: str
    """The last line of its standard error (the reason, when it failed)."""


# ------------------------------------------------------------------ pure pieces (tests/benchmarks)


def parse_program(spec: str) -> tuple[str, list[str]]:
    """``NAME=COMMAND`` (or ``COMMAND``, named by its file) as a name and an argument list.

    >>> parse_program("pons=/opt/c4solver -w")
    ('pons', ['/opt/c4solver', '-w'])
    >>> parse_program("/opt/st_strong")
    ('st_strong', ['/opt/st_strong'])
    """
    name, equals, command = spec.partition("=")
    if not equals or not name or "/" in name or " " in name:
        name, command = "", spec
    words = shlex.split(command)
    if not words:
        raise ValueError(f"no command in {spec!r}")
    return name or Path(words[0]).name, words


def parse_set(spec: str) -> tuple[str, int | None]:
    """``Test_L1_R3:5`` as the set's name (or file path) and how many of its first positions (None: all).

    >>> parse_set("Test_L1_R3:5"), parse_set("Test_L2_R2"), parse_set("tests/data/wide_10x6_mid.txt:3")
    (('Test_L1_R3', 5), ('Test_L2_R2', None), ('tests/data/wide_10x6_mid.txt', 3))
    """
    name, _, count = spec.rpartition(":") if ":" in spec else (spec, "", "")
    return name, int(count) if count else None


def set_path(name: str, data: Path) -> Path:
    """Where set ``name`` is: a published set's name in ``data``, anything with a path separator or a
    suffix (``tests/data/wide_10x6_mid.txt``) the file itself.

    >>> set_path("Test_L2_R2", Path("/pons")), set_path("sets/mine.txt", Path("/pons"))
    (PosixPath('/pons/Test_L2_R2'), PosixPath('sets/mine.txt'))
    """
    path = Path(name)
    return path if os.sep in name or path.suffix else data / name


def set_label(name: str, limit: int | None) -> str:
    """A set's name in the table: a file by its file name, with the count when only the first ones run.

    >>> set_label("tests/data/wide_10x6_mid.txt", 5), set_label("Test_L2_R2", None)
    ('wide_10x6_mid.txt (first 5)', 'Test_L2_R2')
    """
    shown = Path(name).name
    return shown if limit is None else f"{shown} (first {limit})"


def batch_score(line: str, position: str) -> int | None:
    """The score on a batch output line for ``position``: the first number after the echoed position.

    None when the line does not echo the position or has no score after it.  The empty board's line
    may or may not echo its empty position (``" 1"``).

    >>> batch_score("4453 -2", "4453"), batch_score("4453 -2 1234 56", "4453"), batch_score(" 1", "")
    (-2, -2, 1)
    >>> batch_score("4454 -2", "4453") is None, batch_score("4453", "4453") is None
    (True, True)
    """
    words = line.split()
    if position:
        if not words or words[0] != position:
            return None
        words = words[1:]
    return int(words[0]) if words and _INTEGER.fullmatch(words[0]) else None


def batch_scores(output: str, positions: Sequence[str]) -> list[int | None]:
    """The score of each position from a batch's output, line by line (None where a line is missing
    or does not answer its position).

    >>> batch_scores("44 1\\n45 -2\\n", ["44", "45", "46"])
    [1, -2, None]
    """
    lines = output.splitlines()
    return [batch_score(line, position) for line, position in zip(lines, positions, strict=False)] + [
        None
    ] * (len(positions) - len(lines))


def text_score(output: str) -> int | None:
    """The score a program that solves one position prints: the number after the last "score" (``Final
    strong score is 1``, ``score: 1 (win)``), else the first line that is a batch answer.

    >>> text_score("Searching in range [-1, 0]\\nFinal strong score is 1 (first player will win).\\n")
    1
    >>> text_score(" -1\\n"), text_score("nothing\\n") is None
    (-1, True)
    """
    found = _SCORE_WORD.findall(output)
    if found:
        return int(found[-1])
    for line in output.splitlines():
        score = batch_score(line, "")
        if score is not None:
            return score
    return None


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def agree(got: int | None, want: int, weak: bool) -> bool:
    """Whether a score answers as ``want`` does: equal, or in a weak solve of the same sign.

    >>> agree(3, 3, False), agree(1, 3, False), agree(1, 3, True), agree(None, 0, True)
    (True, False, True, False)
    """
    return got is not None and (sign(got) == sign(want) if weak else got == want)


def wrong_scores(
    positions: Sequence[str], got: Sequence[int | None], want: Sequence[int | None], weak: bool
) -> list[str]:
    """One line per position whose score is not the wanted one (a wanted None is not checked).

    >>> wrong_scores(["44", "45"], [1, None], [1, -2], weak=False)
    ['45: no score (want -2)']
    """
    return [
        f"{position or '(empty board)'}: {'no score' if score is None else score} (want {expected})"
        for position, score, expected in zip(positions, got, want, strict=True)
        if expected is not None and not agree(score, expected, weak)
    ]


def ratio_summary(ours: Sequence[float], theirs: Sequence[float]) -> str:
    """The median of the rounds' ratios ours / theirs (each round's runs were back to back), with the
    lowest and highest; ``-`` when a round of theirs took no time.

    >>> ratio_summary([2.0, 3.0, 4.0], [4.0, 4.0, 4.0])
    '0.75 (0.50-1.00)'
    >>> ratio_summary([1.0], [2.0]), ratio_summary([1.0], [0.0])
    ('0.50', '-')
    """
    if not theirs or min(theirs) <= 0:
        return "-"
    ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
    middle = f"{statistics.median(ratios):.2f}"
    return middle if len(ratios) == 1 else f"{middle} ({min(ratios):.2f}-{max(ratios):.2f})"


# ------------------------------------------------------------------ measuring


def read_set(path: Path, limit: int | None) -> list[tuple[str, int]]:
    """The (position, published score) lines of a benchmark set, the first ``limit`` of them."""
    if not path.is_file():
        raise SystemExit(f"no benchmark set {path}")
    cases = []
    for line in path.read_text().splitlines():
        if line.strip():
            moves, score = line.split()
            cases.append((moves, int(score)))
    return cases[:limit] if limit else cases


def run_process(command: list[str], positions: Sequence[str], workdir: Path) -> Run:
    """Run one whole process on the positions (one a line on its stdin) and read its scores.

    ``wait4`` gives this child's own CPU time (``RUSAGE_CHILDREN`` would mix in every earlier child).
    Its peak memory comes from GNU ``time``, which starts the program: a child started from this
    process counts this process's own memory at the fork in its peak.
    """
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    peak_file = workdir / "peak-kib"
    wrapper = [GNU_TIME, "--format", "%M", "--output", str(peak_file), "--"] if GNU_TIME else []
    with (
        tempfile.TemporaryFile() as stdin,
        tempfile.TemporaryFile() as stdout,
        tempfile.TemporaryFile() as stderr,
    ):
        stdin.write("".join(position + "\n" for position in positions).encode())
        stdin.seek(0)
        start = time.perf_counter()
        process = subprocess.Popen(
            wrapper + command,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            env=environment,
            cwd=workdir,
        )
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        stdout.seek(0)
        output = stdout.read().decode(errors="replace")
        stderr.seek(0)
        complaints = stderr.read().decode(errors="replace").strip().splitlines()
    scores = [text_score(output)] if positions == [""] else batch_scores(output, positions)
    return Run(
        wall=wall,
        cpu=usage.ru_utime + usage.ru_stime,
        peak_mib=int(peak_file.read_text().split()[-1]) / 1024 if GNU_TIME else None,  # KiB
        scores=scores,
        exit_code=process.returncode,
        last_error=complaints[-1] if complaints else "",
    )


def c4engine_command(
    threads: int | None, weak: bool, table_mb: float | None, size: str = STANDARD_SIZE
) -> list[str]:
    """``python -m c4engine solve --no-book`` with the options asked for (the size only when not 7x6).

    >>> c4engine_command(1, False, None, "10x6")[3:]
    ['solve', '--no-book', '--size', '10x6', '--threads', '1']
    """
    command = [sys.executable, "-m", "c4engine", "solve", "--no-book"]
    if size != STANDARD_SIZE:
        command += ["--size", size]
    if threads is not None:
        command += ["--threads", str(threads)]
    if table_mb is not None:
        command += ["--table-mb", f"{table_mb:g}"]
    if weak:
        command.append("--weak")
    return command


def problems_of(
    program: str, run: Run, positions: Sequence[str], published: Sequence[int], ours: Run | None, weak: bool
) -> list[str]:
    """What is wrong with one run: its exit code, scores unlike the published ones or c4engine's."""
    problems = [f"{program} exited with {run.exit_code}: {run.last_error}"] if run.exit_code else []
    wrong = wrong_scores(positions, run.scores, published, weak)
    if ours is not None:
        wrong += [
            f"{line} -- c4engine's answer"
            for line in wrong_scores(positions, run.scores, ours.scores, weak)
            if line not in wrong
        ]
    shown = [f"{program} {line}" for line in wrong[:SHOWN_PROBLEMS]]
    if len(wrong) > SHOWN_PROBLEMS:
        shown.append(f"{program}: {len(wrong) - SHOWN_PROBLEMS} more wrong scores")
    return problems + shown


def measure(
    label: str,
    cases: list[tuple[str, int]],
    pairs: int,
    ours: Program,
    references: list[Program],
    weak: bool,
    workdir: Path,
) -> tuple[list[Run], dict[str, list[Run]], dict[str, list[str]]]:
    """Interleaved rounds of one set: each reference then c4engine, ``pairs`` times; and each program's
    problems (each also printed on standard error as it is found)."""
    positions = [moves for moves, _ in cases]
    published = [score for _, score in cases]
    our_rounds: list[Run] = []
    their_rounds: dict[str, list[Run]] = {reference.name: [] for reference in references}
    problems: dict[str, list[str]] = {program.name: [] for program in [ours, *references]}
    for _ in range(pairs):
        theirs = {
            reference.name: run_process(reference.command_for(positions), positions, workdir)
            for reference in references
        }
        run = run_process(ours.command_for(positions), positions, workdir)
        our_rounds.append(run)
        found = {ours.name: problems_of(ours.name, run, positions, published, None, weak)}
        for name, their_run in theirs.items():
            their_rounds[name].append(their_run)
            found[name] = problems_of(name, their_run, positions, published, run, weak)
        for name, lines in found.items():
            for line in lines:
                print(f"!!! {label}: {line}", file=sys.stderr, flush=True)
            problems[name] += [f"{label}: {line}" for line in lines]
    return our_rounds, their_rounds, problems


# ------------------------------------------------------------------ the report


def machine() -> str:
    model = platform.processor() or "?"
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name"):
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def commit() -> str:
    try:
        done = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).parent,
        )
    except OSError:
        return "?"
    return done.stdout.strip() or "?"


def load_text() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def absolute(command: list[str]) -> list[str]:
    """The command with its program's path made absolute (the processes run in a temporary directory)."""
    first = command[0]
    return [os.path.abspath(first) if os.sep in first else first, *command[1:]]


def references_from(specs: Sequence[str], empty_specs: Sequence[str]) -> list[Program]:
    empty = dict(parse_program(spec) for spec in empty_specs)
    references = []
    for spec in specs:
        name, command = parse_program(spec)
        empty_command = empty.pop(name, None)
        references.append(
            Program(name, absolute(command), absolute(empty_command) if empty_command else None)
        )
    if empty:
        raise SystemExit(f"--empty-reference for no --reference: {', '.join(empty)}")
    if len({reference.name for reference in references}) < len(references):
        raise SystemExit("two references with the same name: name them with NAME=COMMAND")
    return references


def row(ours: list[Run], theirs: list[Run]) -> str:
    """The table's measured cells of one set and reference: wall, CPU (medians and ratios), peak memory."""

    def cells(what: str) -> str:
        mine = [getattr(run, what) for run in ours]
        other = [getattr(run, what) for run in theirs]
        their_median = f"{statistics.median(other):.2f}" if other else "-"
        return f"{statistics.median(mine):.2f} | {their_median} | {ratio_summary(mine, other)}"

    return f"{cells('wall')} | {cells('cpu')} | {peak(ours)}; {peak(theirs)}"


def peak(rounds: list[Run]) -> str:
    """The highest peak resident MiB of the rounds' processes (``-`` when not measured)."""
    peaks = [run.peak_mib for run in rounds if run.peak_mib is not None]
    return f"{max(peaks):.0f}" if peaks else "-"


def warm_up(ours: Program, references: list[Program], first_position: str, size: str, workdir: Path) -> None:
    """Untimed first runs: c4engine's bytecode and kernel caches written, the references' binaries
    read into the file cache.  Stops the benchmark with one line when c4engine cannot solve
    ``first_position`` (on a board it does not hold, say)."""
    run = run_process(ours.command, [first_position], workdir)
    if run.exit_code or run.scores[0] is None:
        reason = run.last_error or f"no score for {first_position or '(empty board)'}"
        raise SystemExit(f"c4engine cannot solve the {size} positions: {reason}")
    for reference in references:
        run_process(reference.command, [], workdir)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--reference",
        action="append",
        default=[],
        metavar="[NAME=]COMMAND",
        help="a reference solver's batch command (repeatable)",
    )
    parser.add_argument(
        "--empty-reference",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="the command reference NAME solves the empty board with (set 'empty')",
    )
    parser.add_argument("--threads", type=int, help="c4engine's threads (default: its own, every core)")
    parser.add_argument("--weak", action="store_true", help="weak solves (give weak reference builds)")
    parser.add_argument("--table-mb", type=float, help="c4engine's table MiB (default: its own)")
    parser.add_argument("--data", help="directory of the Test_* sets")
    parser.add_argument(
        "--size", default=STANDARD_SIZE, help="board WxH for c4engine (default 7x6; sets then by file path)"
    )
    parser.add_argument("--pairs", type=int, default=3, help="interleaved rounds per set (default 3)")
    parser.add_argument(
        "--sets", nargs="*", help="only these sets (Test_L2_R2, Test_L1_R3:5, 'empty' for the empty board)"
    )
    parser.add_argument(
        "--max-load",
        type=float,
        default=0.6 * (os.cpu_count() or 1),
        help="one-minute load above which a set's ratios are marked busy (default 0.6 a core)",
    )
    args = parser.parse_args(argv)
    references = references_from(args.reference, args.empty_reference)
    ours = Program("c4engine", c4engine_command(args.threads, args.weak, args.table_mb, args.size))
    data = default_bench_dir(args.data)
    sets = [parse_set(spec) for spec in args.sets] if args.sets else SETS
    if args.size != STANDARD_SIZE and (not args.sets or any(name == EMPTY_SET for name, _ in sets)):
        raise SystemExit(
            f"--size {args.size}: name the sets' files with --sets (the empty board's score is 7x6's)"
        )
    chosen = [
        (
            name,
            limit,
            [("", EMPTY_BOARD_SCORE)] if name == EMPTY_SET else read_set(set_path(name, data), limit),
        )
        for name, limit in sets
    ]
    threads = "every core (its default)" if args.threads is None else str(args.threads)
    scratch = tempfile.TemporaryDirectory(prefix="compare_reference_")
    workdir = Path(scratch.name)
    # the first position of a set (not the empty board: its solve is long), else one stone in column 4
    first = next((moves for _, _, cases in chosen for moves, _ in cases if moves), "4")
    warm_up(ours, references, first, args.size, workdir)
    print(f"machine: {machine()}")
    print(f"date: {time.strftime('%Y-%m-%d %H:%M %Z')}  commit: {commit()}  pairs: {args.pairs}")
    print(
        f"c4engine: {shlex.join(ours.command)}  board: {args.size}  threads: {threads}  "
        f"{'weak' if args.weak else 'strong'}"
    )
    for reference in references:
        empty = f"; empty board: {shlex.join(reference.empty_command)}" if reference.empty_command else ""
        print(f"reference {reference.name}: {shlex.join(reference.command)}{empty}")
    header = (
        "| set | positions | reference | c4engine wall s | reference wall s | wall ratio "
        "| c4engine CPU s | reference CPU s | CPU ratio | peak MiB c4engine; reference | load before; after |"
    )
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    every_problem: list[str] = []
    with scratch:
        for name, limit, cases in chosen:
            label = set_label(name, limit)
            before = os.getloadavg()[0]
            before_text = load_text()
            mine, theirs, problems = measure(label, cases, args.pairs, ours, references, args.weak, workdir)
            every_problem += [line for lines in problems.values() for line in lines]
            after_text = load_text()
            busy = " **busy**" if before > args.max_load else ""
            rows: list[tuple[str, list[Run]]] = list(theirs.items()) or [("-", [])]
            for reference_name, rounds in rows:
                wrong = problems[ours.name] or problems.get(reference_name)
                print(
                    f"| {label}{busy}{' **WRONG**' if wrong else ''} | {len(cases)} | {reference_name} "
                    f"| {row(mine, rounds)} "
                    f"| {before_text}; {after_text} |",
                    flush=True,
                )
            if before > args.max_load:
                print(
                    f"warning: load {before:.2f} above {args.max_load:.2f} before {label}: "
                    "the machine was busy, its ratios are not valid",
                    file=sys.stderr,
                    flush=True,
                )
    if every_problem:
        print(
            f"!!! {len(every_problem)} WRONG (wrong or missing scores, failed runs):",
            *every_problem,
            sep="\n!!! ",
            flush=True,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
