"""Command-line pieces of the solver: ``c4 solve``, ``c4 analyze`` and ``c4 bench``.

Each command is a :class:`~c4engine.cli.command.Command` (``SOLVE``,
``ANALYZE``, ``BENCH``); the main ``c4`` command registers them and
dispatches to their handler, exiting with the returned code.  Errors are one-line
messages on stderr with a non-zero exit code.

Batch mode (no POSITION) reads move strings from stdin, one a line, and
writes ``POSITION SCORE`` (``-a``: ``POSITION s1 ... sW``, -1000 for a full
column) -- the format of the published solver, so outputs can be compared
line by line.  An empty line is the empty board; an invalid line gives an
error on stderr naming its line number, an empty line on stdout, and the
batch goes on (the exit code is then 1).

``--json`` writes the analysis as JSON for machines instead
(:meth:`~c4engine.search.results.PositionAnalysis.to_json`, docs/analysis.md):
one object, or in batch mode one object a line, in order (a line that cannot
be answered: ``{"position", "error"}``).  ``c4 solve --json`` analyses every
column as ``c4 analyze --json`` does.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from c4engine.board import Board
from c4engine.cli.batch import answer_json_lines, answer_lines
from c4engine.cli.command import Command
from c4engine.cli.options import (
    add_limit_options,
    add_progress_option,
    add_table_option,
    add_thread_option,
    board_size,
    check_depth,
    check_input_file,
    limit_from_args,
)
from c4engine.cli.progress import ProgressLine, format_duration
from c4engine.errors import C4Error, echo, echo_path
from c4engine.geometry import require_solver_holds
from c4engine.notation import format_moves, parse_size
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.analysis.books import DEFAULT_BOOK
from c4engine.search.limit import Limit
from c4engine.search.results import ColumnAnalysis, PlayResult, PositionAnalysis
from c4engine.search.scale import sign

__all__ = [
    "ANALYZE",
    "BENCH",
    "COMMANDS",
    "SOLVE",
    "run_analyze",
    "run_bench",
    "run_solve",
]


FULL_COLUMN = -1000
BENCH_SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
BENCH_ENV = "C4_BENCH_DATA"
BENCH_DIR = Path(__file__).resolve().parent.parent / "data" / "pons"
"""The six published sets, shipped as package data (their source and format: README.md there)."""
BENCH_SOURCE = "http://blog.gamesolver.org/solving-connect-four/02-test-protocol/"


def _size(text: str) -> tuple[int, int]:
    return parse_size(board_size(text))


def _size_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--size",
        type=_size,
        default=(7, 6),
        metavar="WxH",
        help="board size (default 7x6); exact answers on every board of width * (height + 1) <= 128",
    )
    parser.add_argument(
        "--connect", type=int, default=4, metavar="N", help="stones in a row to win (default 4)"
    )


def _common(parser: argparse.ArgumentParser) -> None:
    _size_options(parser)
    parser.add_argument("-w", "--weak", action="store_true", help="only win / draw / loss")
    add_table_option(parser)
    add_thread_option(parser)
    add_limit_options(parser, time_help="time limit per position")
    parser.add_argument("--no-book", action="store_true", help="search even when the opening book knows")
    parser.add_argument(
        "--json",
        action="store_true",
        help="the analysis as JSON: every column's bounds, score, estimate and line, the best "
        "columns and whether they are proven best (batch: one object a line)",
    )


def _solve_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-a", "--analyze", action="store_true", help="batch: score every column")
    _common(parser)


def _bench_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", metavar="FILE[:N]")
    parser.add_argument("--limit", type=int, default=None, metavar="N", help="first N positions of each set")
    parser.add_argument("--data", default=None, metavar="DIR", help="directory of the default sets")
    _size_options(parser)
    parser.add_argument("-w", "--weak", action="store_true", help="weak solve (checks the sign)")
    add_table_option(parser)
    add_progress_option(parser)


# ------------------------------------------------------------------ helpers


def _board(position: str, args: argparse.Namespace) -> Board:
    width, height = args.size
    return Board.from_moves(position, width, height, args.connect)


def _analyst(args: argparse.Namespace) -> Analyst:
    """The analysis service for these options: the shipped book unless ``--no-book``."""
    return Analyst(None if args.no_book else DEFAULT_BOOK, table_size_mb=args.table_mb, threads=args.threads)


def _columns(columns: Sequence[int]) -> str:
    return " ".join(str(column + 1) for column in columns)


def _print_result(position: str, result: PlayResult, width: int, table_mb: float, out: TextIO) -> None:
    best = "-" if result.column is None else str(result.column + 1)
    proven = result.score is not None and result.score.proven
    score = result.score.value if result.score is not None and proven else f"[{result.lower}, {result.upper}]"
    why = result.stopped or "an estimate"
    unproven = "" if result.proven or result.column is None else f" (not proven best: {why})"
    print(f"position: {position or '(empty)'}", file=out)
    print(f"score: {score} ({result.describe()})", file=out)
    print(f"best move: {best}{unproven}", file=out)
    if result.line_complete:
        print(f"pv: {format_moves(result.line, width)}", file=out)
    elif result.proven and len(result.line) > 1:  # the book's line, short of the end
        print(f"pv: {format_moves(result.line, width)} (not proven to the end)", file=out)
    print(f"source: {result.source}", file=out)
    print(_nodes_line(result.nodes, result.nodes_per_thread, result.time, table_mb), file=out)


def _print_analysis(
    position: str, analysis: PositionAnalysis, width: int, table_mb: float, out: TextIO
) -> None:
    columns = analysis.columns
    cells = " ".join("-" if column is None else _score_text(column) for column in columns)
    print(f"position: {position or '(empty)'}", file=out)
    print(f"scores: {cells}", file=out)
    if not analysis.proven:
        words = (f"{column.column + 1}: {column.label()}" for column in columns if column is not None)
        print(f"columns: {' | '.join(words)}", file=out)
    print(f"best moves: {_columns(analysis.best_columns) or '-'} ({analysis.describe()})", file=out)
    proven = "" if analysis.pv_proven else " (not proven to the end)"
    print(f"pv: {format_moves(analysis.pv, width) or '-'}{proven}", file=out)
    print(f"source: {analysis.source}", file=out)
    print(_nodes_line(analysis.nodes, analysis.nodes_per_thread, analysis.time, table_mb), file=out)


def _nodes_line(nodes: int, per_thread: Sequence[int], seconds: float, table_mb: float) -> str:
    """The answer's last line: its nodes, time and the table's size -- the most the table grows to (it
    starts small and grows with the search; a larger one did not pay, docs/benchmarks.md "Memory")."""
    return f"nodes: {nodes}{_per_thread(per_thread)}  time: {seconds:.3f} s  table: up to {table_mb:g} MB"


def _per_thread(nodes: Sequence[int]) -> str:
    """`` (per thread: a + b)`` when more than one thread searched, so a speed-up from searching more
    nodes at once shows for what it is."""
    return f" (per thread: {' + '.join(map(str, nodes))})" if len(nodes) > 1 else ""


def _score_text(column: ColumnAnalysis) -> str:
    """An exact score, or the proven bounds and the estimate: ``0..17~+10``."""
    if column.proven:
        return str(int(column.score.value))
    return f"{column.lower}..{column.upper}~{round(column.score.value):+d}"  # never "-0"


def _analysis_json(board: Board, analysis: PositionAnalysis) -> dict[str, Any]:
    return analysis.to_json(board.move_string, board.size, board.connect)


def _batch(args: argparse.Namespace, analyze: bool, stdin: TextIO, out: TextIO) -> int:
    analyst = _analyst(args)
    limit = limit_from_args(args)

    if args.json:

        def analysis_of(line: str) -> dict[str, Any]:
            board = _board(line, args)
            with _live(True) as live:
                return _analysis_json(board, analyst.analyze(board, limit, weak=args.weak, poll=live.poll))

        return answer_json_lines(analysis_of, stdin, out)

    def answer(line: str) -> str:
        board = _board(line, args)
        # one live line per position: it is cleared before the answer goes to standard output
        with _live(analyze) as live:
            if analyze:
                analysis = analyst.analyze(board, limit, weak=args.weak, pv=False, poll=live.poll)
                if not analysis.proven:
                    raise C4Error("the limit ran out before every column was proven")
                return " ".join(str(FULL_COLUMN if s is None else s) for s in analysis.proven_values())
            result = analyst.solve(board, limit, weak=args.weak, best_move=False, poll=live.poll)
        if result.score is None or not result.score.proven:
            raise C4Error(f"the limit ran out (score between {result.lower} and {result.upper})")
        return str(result.score.value)

    return answer_lines(answer, stdin, out)


def _live(analyze: bool, board: Board | None = None, limit: Limit | None = None) -> ProgressLine:
    """The live line of one position's search (shown on a terminal once it takes a while; plain lines
    on a pipe or a log, the first saying how to bound it)."""
    label = "analysing" if analyze else "solving"
    if board is None or limit is None:
        return ProgressLine(label)
    where = f"{board.size}" + (f" connect {board.connect}" if board.connect != 4 else "")
    label = f"{label} {board.move_string or '(empty)'} on {where}"
    if limit.time is None and limit.nodes is None:
        hint = "exactly, no time limit: bound it with --time SECONDS"
    else:
        hint = f"within {_limit_words(limit)}; --time SECONDS sets it"
    return ProgressLine(label, hint=hint)


def _limit_words(limit: Limit) -> str:
    """``--time 2`` as ``"2 s"``, with nodes: ``"2 s or 1,000 nodes"``."""
    seconds = [f"{limit.time:g} s"] if limit.time is not None else []
    return " or ".join(seconds + ([f"{limit.nodes:,} nodes"] if limit.nodes is not None else []))


def _tell_outlook(analyst: Analyst, board: Board, limit: Limit) -> None:
    """Say before a search without a time or node limit starts that it may run for hours (a position
    short of its board's measured reach), and how to bound it."""
    if limit.time is None and limit.nodes is None:
        outlook = analyst.outlook(board)
        if outlook is not None:
            print(f"c4: {outlook}; bound it with --time SECONDS", file=sys.stderr, flush=True)


def run_solve(args: argparse.Namespace) -> int:
    """Handler of ``c4 solve``; bad input raises :class:`C4Error` (``c4`` prints it as one line)."""
    width, height = args.size
    check_depth(args.depth, "--depth", width, height)  # before any work
    if args.position is None:
        return _batch(args, args.analyze, sys.stdin, sys.stdout)
    board = _board(args.position, args)
    analyst = _analyst(args)
    analyze = args.analyze or args.json
    limit = limit_from_args(args)
    _tell_outlook(analyst, board, limit)
    with _live(analyze, board, limit) as live:
        if analyze:
            analysis = analyst.analyze(board, limit, weak=args.weak, poll=live.poll)
        else:
            result = analyst.solve(board, limit, weak=args.weak, poll=live.poll, line=True)
    if args.json:
        import json  # here: plain answers never load it

        print(json.dumps(_analysis_json(board, analysis), ensure_ascii=False))
    elif analyze:
        _print_analysis(args.position, analysis, board.width, args.table_mb, sys.stdout)
    else:
        _print_result(args.position, result, board.width, args.table_mb, sys.stdout)
    return 0


def run_analyze(args: argparse.Namespace) -> int:
    """Handler of ``c4 analyze``: on any board, the solver's bounds and the engine's estimates where
    the solver cannot prove (or hold) a column, each said to be unproven."""
    args.analyze = True
    return run_solve(args)


# -------------------------------------------------------------------- bench


def default_bench_dir(option: str | None = None) -> Path:
    """Where the benchmark sets are: ``--data``, ``$C4_BENCH_DATA``, or the copy shipped in the package."""
    if option:
        return Path(option)
    if os.environ.get(BENCH_ENV):
        return Path(os.environ[BENCH_ENV])
    return BENCH_DIR


def _bench_files(args: argparse.Namespace) -> list[tuple[Path, int | None]]:
    if args.limit is not None and args.limit < 1:
        raise C4Error(f"--limit must be at least 1, not {args.limit}")
    specs = list(args.files)
    if specs and args.data is not None:
        raise C4Error("--data names the folder of the default sets: give FILEs or --data, not both")
    if args.data is not None and not Path(args.data).is_dir():
        raise C4Error(f"--data {echo_path(args.data)} is not a folder (of the sets {BENCH_SETS[0]}, ...)")
    if not specs:
        directory = default_bench_dir(args.data)
        specs = [str(directory / name) for name in BENCH_SETS]
    files: list[tuple[Path, int | None]] = []
    for spec in specs:
        limit = args.limit
        path_text, sep, count = spec.rpartition(":")
        if sep and count.isdigit():
            limit = int(count)
            if limit < 1:
                raise C4Error(f"{spec}: the number of positions after ':' must be at least 1")
        else:
            path_text = spec
        files.append((Path(path_text), limit))
    return files


def _read_bench(path: Path, limit: int | None, size: tuple[int, int, int]) -> list[tuple[str, int]]:
    """The ``(moves, score)`` lines of a benchmark file of positions of ``size`` (width, height,
    connect); a line that is not one names the file and line."""
    name = echo_path(path)
    try:
        data = check_input_file(str(path), "bench file").read_bytes()
    except C4Error as error:
        where = f" (the published sets: {BENCH_SOURCE})" if path.name in BENCH_SETS else ""
        raise C4Error(f"{error}{where}") from None
    except OSError as error:
        raise C4Error(f"cannot read {name}: {error.strerror}") from None
    cases = []
    for line_number, raw in enumerate(data.splitlines(), start=1):
        where = f"{name}:{line_number}"
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise C4Error(f"{where}: not text; a benchmark file has 'MOVES SCORE' lines") from None
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise C4Error(f"{where}: expected 'MOVES SCORE', not {echo(line.strip())}")
        try:
            Board.from_moves(parts[0], *size)
            cases.append((parts[0], int(parts[1])))
        except ValueError as error:
            problem = f"score {echo(parts[1])} is not a number" if not isinstance(error, C4Error) else error
            raise C4Error(f"{where}: {problem}") from None
        if limit is not None and len(cases) >= limit:
            break
    if not cases:
        raise C4Error(f"{name} holds no positions: a benchmark file has 'MOVES SCORE' lines")
    return cases


def run_bench(args: argparse.Namespace) -> int:
    """Handler of ``c4 bench``: one table row per set."""
    from c4engine.search.solver.exact import Solver  # numba: only bench needs it up front

    width, height = args.size
    size = (width, height, args.connect)
    require_solver_holds(width, height, "c4 bench")
    files = _bench_files(args)
    sets = [(path, _read_bench(path, limit, size)) for path, limit in files]
    solver = Solver(table_size_mb=args.table_mb)
    # load the compiled kernel before any clock starts (each set then starts from an empty table)
    solver.solve(Board(*size), Limit(nodes=1000), best_move=False)
    header = ("set", "positions", "correct", "mean time", "mean nodes", "knodes/s")
    print("{:<14} {:>9} {:>8} {:>11} {:>12} {:>9}".format(*header))
    all_right = True
    for path, cases in sets:
        solver.reset()  # each set from an empty table, as when it runs alone (and in Pons' protocol)
        correct = 0
        nodes = 0
        start = time.perf_counter()
        with ProgressLine(path.name, len(cases), enabled=args.progress) as bar:  # cleared on Ctrl-C too
            for moves, expected in cases:
                result = solver.solve(Board.from_moves(moves, *size), weak=args.weak, best_move=False)
                want = sign(expected) if args.weak else expected
                correct += result.score == want
                nodes += result.nodes
                bar.advance()
        elapsed = time.perf_counter() - start
        n = max(len(cases), 1)
        rate = nodes / elapsed / 1000 if elapsed > 0 else 0.0
        all_right &= correct == len(cases)
        print(
            f"{path.name:<14} {len(cases):>9} {correct:>8} {format_duration(elapsed / n):>11} "
            f"{nodes / n:>12.1f} {rate:>9.0f}",
            flush=True,
        )
    return 0 if all_right else 1


SOLVE = Command(
    "solve",
    summary="exact score of a position",
    description="Exact score of POSITION (1-based columns, e.g. 4453); without POSITION, "
    "score each line of stdin as 'POSITION SCORE'.",
    add_options=_solve_options,
    run=run_solve,
    takes_position=True,
)
ANALYZE = Command(
    "analyze",
    summary="score of every move of a position",
    description="Score every column of POSITION and show a principal variation; without "
    "POSITION, write 'POSITION s1 ... sW' for each line of stdin.",
    add_options=_common,
    run=run_analyze,
    takes_position=True,
    defaults={"analyze": True},
)
BENCH = Command(
    "bench",
    summary="solve the benchmark sets and check the scores",
    description="Solve benchmark files ('MOVES SCORE' lines) and report per set: positions, "
    f"correct, mean time, mean nodes, knodes/s.  FILE:N takes the first N lines.  Default: "
    f"the six published sets of Pascal Pons' solver benchmark ({BENCH_SOURCE}), shipped with "
    f"c4engine; --data DIR or ${BENCH_ENV} names another folder of them.  --size and --connect "
    f"read the files as positions of another board (any the exact solver holds).",
    add_options=_bench_options,
    run=run_bench,
)
COMMANDS = (SOLVE, ANALYZE, BENCH)
