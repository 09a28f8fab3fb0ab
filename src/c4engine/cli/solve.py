"""Command-line pieces of the solver: ``c4 solve``, ``c4 analyze`` and ``c4 bench``.

Each command is ``add_<name>_parser(subparsers)``, which registers it with
its handler as ``func``; the main ``c4`` command dispatches with
``args.func(args)`` and exits with the returned code.  Errors are one-line
messages on stderr with a non-zero exit code.

Batch mode (no POSITION) reads move strings from stdin, one a line, and
writes ``POSITION SCORE`` (``-a``: ``POSITION s1 ... sW``, -1000 for a full
column) -- the format of the published solver, so outputs can be compared
line by line.  An empty line is the empty board; an invalid line gives an
error on stderr naming its line number, an empty line on stdout, and the
batch goes on (the exit code is then 1).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeAlias

from c4engine.board import Board
from c4engine.cli.batch import answer_lines
from c4engine.cli.progress import Progress
from c4engine.errors import C4Error
from c4engine.notation import format_moves, parse_size
from c4engine.play.perfect import Analyst
from c4engine.search.results import DEFAULT_TABLE_MB, Analysis, SolveResult

if TYPE_CHECKING:  # imported when a search is needed: answers from the book load no numba
    from c4engine.search.solver import Solver

__all__ = [
    "add_analyze_parser",
    "add_bench_parser",
    "add_solve_parser",
    "run_analyze",
    "run_bench",
    "run_solve",
]

_Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

FULL_COLUMN = -1000
BENCH_SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
BENCH_ENV = "C4_BENCH_DATA"


def _size(text: str) -> tuple[int, int]:
    try:
        return parse_size(text)
    except C4Error as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=_size, default=(7, 6), metavar="WxH", help="board size (default 7x6)")
    parser.add_argument(
        "--connect", type=int, default=4, metavar="N", help="stones in a row to win (default 4)"
    )
    parser.add_argument("-w", "--weak", action="store_true", help="only win / draw / loss")
    parser.add_argument(
        "--table-mb",
        type=float,
        default=DEFAULT_TABLE_MB,
        metavar="MB",
        help=f"transposition table memory (default {DEFAULT_TABLE_MB})",
    )
    parser.add_argument("--time", type=float, default=None, metavar="SECONDS", help="time limit per position")
    parser.add_argument("--no-book", action="store_true", help="search even when the opening book knows")


def add_solve_parser(subparsers: _Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "solve",
        help="exact score of a position",
        description="Exact score of POSITION (1-based columns, e.g. 4453); without POSITION, "
        "score each line of stdin as 'POSITION SCORE'.",
    )
    parser.add_argument("position", nargs="?", help="moves played so far (omit for batch mode)")
    parser.add_argument("-a", "--analyze", action="store_true", help="batch: score every column")
    _common(parser)
    parser.set_defaults(func=run_solve)
    return parser


def add_analyze_parser(subparsers: _Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "analyze",
        help="score of every move of a position",
        description="Score every column of POSITION and show a principal variation; without "
        "POSITION, write 'POSITION s1 ... sW' for each line of stdin.",
    )
    parser.add_argument("position", nargs="?", help="moves played so far (omit for batch mode)")
    _common(parser)
    parser.set_defaults(func=run_analyze, analyze=True)
    return parser


def add_bench_parser(subparsers: _Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "bench",
        help="solve the benchmark sets and check the scores",
        description="Solve benchmark files ('MOVES SCORE' lines) and report per set: positions, "
        f"correct, mean time, mean nodes, knodes/s.  FILE:N takes the first N lines.  Default: the "
        f"six Pons sets in ${BENCH_ENV}, --data or ../shared/data/pons next to the repository.",
    )
    parser.add_argument("files", nargs="*", metavar="FILE[:N]")
    parser.add_argument("--limit", type=int, default=None, metavar="N", help="first N positions of each set")
    parser.add_argument("--data", default=None, metavar="DIR", help="directory of the default sets")
    parser.add_argument("-w", "--weak", action="store_true", help="weak solve (checks the sign)")
    parser.add_argument("--table-mb", type=float, default=DEFAULT_TABLE_MB, metavar="MB")
    parser.add_argument(
        "--progress", action="store_true", help="draw the progress bar even without a terminal"
    )
    parser.set_defaults(func=run_bench)
    return parser


# ------------------------------------------------------------------ helpers


def _error(message: str) -> int:
    print(f"c4: error: {message}", file=sys.stderr)
    return 2


def _board(position: str, args: argparse.Namespace) -> Board:
    width, height = args.size
    return Board.from_moves(position, width, height, args.connect)


def _solver(args: argparse.Namespace) -> Solver:
    return _quick_solver(args.table_mb, args.weak)


def _quick_solver(table_mb: float, weak: bool = False) -> Solver:
    """A Solver, created with numba's optional scipy probe skipped.

    Loading the first compiled kernel makes numba import scipy.linalg (if
    installed) to look for BLAS, 0.3-0.5 s of a command's start-up; the
    solver never uses BLAS.  The block is lifted right after, so scipy.linalg
    can still be imported later in the same process.
    """
    from c4engine.search.solver import Solver

    name = "scipy.linalg"
    blocked = name not in sys.modules
    if blocked:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        return Solver(table_size_mb=table_mb, weak=weak)
    finally:
        if blocked and name in sys.modules and sys.modules[name] is None:
            del sys.modules[name]


def _columns(columns: Sequence[int], width: int) -> str:
    return " ".join(str(column + 1) for column in columns)


def _print_result(position: str, result: SolveResult, out: TextIO, *, from_book: bool = False) -> None:
    best = "-" if result.best_move is None else str(result.best_move + 1)
    if result.best_move is None and from_book:
        best = "- (the book holds this position's score, not its moves': --no-book searches for it)"
    score = result.score if result.exact else f"[{result.lower}, {result.upper}]"
    print(f"position: {position or '(empty)'}", file=out)
    print(f"score: {score} ({result.describe()})", file=out)
    print(f"best move: {best}", file=out)
    print(f"nodes: {result.nodes}  time: {result.elapsed:.3f} s", file=out)


def _print_analysis(position: str, analysis: Analysis, width: int, out: TextIO) -> None:
    cells = " ".join("-" if s is None else str(s) for s in analysis.scores)
    print(f"position: {position or '(empty)'}", file=out)
    print(f"scores: {cells}", file=out)
    print(f"best moves: {_columns(analysis.best_columns, width) or '-'} ({analysis.describe()})", file=out)
    print(f"pv: {format_moves(analysis.pv, width) or '-'}", file=out)
    print(f"nodes: {analysis.nodes}  time: {analysis.elapsed:.3f} s", file=out)


def _batch(args: argparse.Namespace, analyze: bool, stdin: TextIO, out: TextIO) -> int:
    solver = _solver(args)

    def answer(line: str) -> str:
        board = _board(line, args)
        if analyze:
            analysis = solver.analyze(board, pv=False, time_limit=args.time)
            return " ".join(str(FULL_COLUMN if s is None else s) for s in analysis.scores)
        result = solver.solve(board, time_limit=args.time, best_move=False)
        if not result.exact:
            raise C4Error(f"time limit reached (score between {result.lower} and {result.upper})")
        return str(result.score)

    return answer_lines(answer, stdin, out)


def _book_analysis(board: Board, args: argparse.Namespace) -> Analysis | None:
    """The analysis from the shipped opening book when it scores every move (strong scores only)."""
    if args.weak or getattr(args, "no_book", False):
        return None
    analyst = Analyst()
    if analyst.book_scores(board) is None:
        return None
    return analyst.analyze(board)


def _book_result(board: Board, args: argparse.Namespace) -> SolveResult | None:
    """The position's score from the shipped opening book, or None when the book lacks it.

    The best move comes from the book too when it scores every move (else
    it is left out: finding it would mean searching).
    """
    if args.weak or args.no_book:
        return None
    started = time.perf_counter()
    analyst = Analyst()
    score = analyst.book_score(board)
    if score is None:
        return None
    scores = analyst.book_scores(board)
    best = None
    if scores is not None:
        top = max(s for s in scores if s is not None)
        best = next(c for c in board.geometry.center_order if scores[c] == top)
    cells = board.width * board.height
    elapsed = time.perf_counter() - started
    return SolveResult(score, True, score, score, best, 0, elapsed, False, cells, board.move_count)


def run_solve(args: argparse.Namespace) -> int:
    """Handler of ``c4 solve``."""
    try:
        if args.position is None:
            return _batch(args, args.analyze, sys.stdin, sys.stdout)
        board = _board(args.position, args)
        if args.analyze:
            analysis = _book_analysis(board, args) or _solver(args).analyze(board, time_limit=args.time)
            _print_analysis(args.position, analysis, board.width, sys.stdout)
        else:
            known = _book_result(board, args)
            result = known or _solver(args).solve(board, time_limit=args.time)
            _print_result(args.position, result, sys.stdout, from_book=known is not None)
        return 0
    except (C4Error, ValueError) as error:
        return _error(str(error))
    except KeyboardInterrupt:
        return _error("interrupted")


def run_analyze(args: argparse.Namespace) -> int:
    """Handler of ``c4 analyze``."""
    args.analyze = True
    return run_solve(args)


# -------------------------------------------------------------------- bench


def default_bench_dir(option: str | None = None) -> Path:
    """Where the benchmark sets are: ``--data``, ``$C4_BENCH_DATA``, or ../shared/data/pons by the repo."""
    if option:
        return Path(option)
    if os.environ.get(BENCH_ENV):
        return Path(os.environ[BENCH_ENV])
    return Path(__file__).resolve().parents[3].parent / "shared" / "data" / "pons"


def _bench_files(args: argparse.Namespace) -> list[tuple[Path, int | None]]:
    specs = list(args.files)
    if not specs:
        directory = default_bench_dir(args.data)
        specs = [str(directory / name) for name in BENCH_SETS]
    files: list[tuple[Path, int | None]] = []
    for spec in specs:
        limit = args.limit
        path_text, sep, count = spec.rpartition(":")
        if sep and count.isdigit():
            limit = int(count)
        else:
            path_text = spec
        files.append((Path(path_text), limit))
    return files


def _read_bench(path: Path, limit: int | None) -> list[tuple[str, int]]:
    try:
        text = path.read_text()
    except OSError as error:
        raise C4Error(f"cannot read {path}: {error.strerror}") from None
    cases = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise C4Error(f"{path}:{number}: expected 'MOVES SCORE'")
        try:
            cases.append((parts[0], int(parts[1])))
        except ValueError:
            raise C4Error(f"{path}:{number}: score {parts[1]!r} is not a number") from None
        if limit is not None and len(cases) >= limit:
            break
    return cases


def run_bench(args: argparse.Namespace) -> int:
    """Handler of ``c4 bench``: one table row per set."""
    try:
        files = _bench_files(args)
        sets = [(path, _read_bench(path, limit)) for path, limit in files]
        solver = _quick_solver(args.table_mb)
        # load the compiled kernel before any clock starts, then forget what it saw
        solver.solve(Board.from_moves("4455"), node_limit=1000, best_move=False)
        solver.reset()
        header = ("set", "positions", "correct", "mean time", "mean nodes", "knodes/s")
        print("{:<14} {:>9} {:>8} {:>11} {:>12} {:>9}".format(*header))
        all_right = True
        for path, cases in sets:
            bar = Progress(len(cases), path.name, enabled=True if args.progress else None)
            correct = 0
            nodes = 0
            start = time.perf_counter()
            for moves, expected in cases:
                result = solver.solve(Board.from_moves(moves), weak=args.weak, best_move=False)
                want = (expected > 0) - (expected < 0) if args.weak else expected
                correct += result.score == want
                nodes += result.nodes
                bar.advance()
            elapsed = time.perf_counter() - start
            bar.close()
            n = max(len(cases), 1)
            rate = nodes / elapsed / 1000 if elapsed > 0 else 0.0
            all_right &= correct == len(cases)
            print(
                f"{path.name:<14} {len(cases):>9} {correct:>8} {elapsed / n * 1e6:>9.1f}us "
                f"{nodes / n:>12.1f} {rate:>9.0f}",
                flush=True,
            )
        return 0 if all_right else 1
    except (C4Error, ValueError) as error:
        return _error(str(error))
    except KeyboardInterrupt:
        return _error("interrupted")
