"""Labelled positions for learning: exact scores of positions and of each of their moves.

:func:`sample_positions` draws distinct positions (a position and its mirror
image count once) at chosen plies by seeded random play; :func:`label`
scores one exactly through the analysis service (the opening book, else the solver:
:meth:`c4engine.search.analysis.analyst.Analyst.analyze`);
:func:`build_dataset` does both, in parallel through
:func:`c4engine.jobs.run_jobs`; :func:`write_dataset` and
:func:`read_dataset` store rows as CSV or Parquet (with ``pyarrow``).

Scores are the solver's (see :mod:`c4engine.search.solver.exact`): for the side to move,
positive wins, 0 draws, negative loses, larger the sooner.  Columns are
counted from 1, as in the move strings.

>>> boards = sample_positions(range(6, 8), per_ply=2, width=5, height=4, seed=1)
>>> [board.move_count for board in boards]
[6, 6, 7, 7]
>>> row = label(Board.from_moves("3344", 5, 4))
>>> row.moves, row.ply, row.score, row.move_scores, row.best_moves
('3344', 4, 7, (-1, 7, -1, -1, -1), (2,))
"""

from __future__ import annotations

import csv
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from c4engine.board import Board
from c4engine.errors import DatasetError, UnsupportedBoardError
from c4engine.geometry import require_solver_holds
from c4engine.jobs import parallelism, run_jobs
from c4engine.search.analysis.analyst import Analyst, shared_analyst

__all__ = [
    "FORMATS",
    "MAX_BIAS",
    "DatasetError",
    "LabelledPosition",
    "build_dataset",
    "format_for",
    "label",
    "read_dataset",
    "require_pyarrow",
    "sample_positions",
    "write_dataset",
]

FORMATS = ("csv", "parquet")
MAX_ATTEMPTS_PER_POSITION = 50
"""Random games tried per wanted position before a ply is declared exhausted (few distinct positions)."""
MAX_BIAS = 1000.0
"""The strongest preference for central columns (the edge columns then weigh about 1/3000)."""


@dataclass(frozen=True)
class LabelledPosition:
    """One row: the position's moves, its ply, its exact score and each move's score.

    ``move_scores[c]`` is the score after playing column ``c + 1`` (for the
    side to move now), None for a full column; ``best_moves`` are the
    1-based columns reaching ``score``.
    """

    moves: str
    ply: int
    score: int
    move_scores: tuple[int | None, ...]
    best_moves: tuple[int, ...]


def _weights(width: int, bias: float) -> list[float]:
    """Random play's column weights: uniform for bias 0, more and more central as it grows."""
    middle = (width - 1) / 2
    return [1 / (1 + bias * abs(column - middle)) for column in range(width)]


def sample_positions(
    plies: Iterable[int],
    *,
    per_ply: int | None = None,
    count: int | None = None,
    width: int = 7,
    height: int = 6,
    connect: int = 4,
    seed: int | None = None,
    bias: float = 0.0,
    on_misses: Callable[[int, int], None] | None = None,
) -> list[Board]:
    """Distinct unfinished positions by seeded random play: ``per_ply`` at each ply, or ``count`` in all.

    With ``count`` each position's ply is drawn uniformly from ``plies``.
    ``bias`` > 0 makes the random play prefer central columns (a column at
    distance d from the centre weighs ``1 / (1 + bias * d)``).  Positions
    are distinct up to mirror image (:meth:`Board.canonical_key`); a ply with
    fewer distinct positions than asked gives what random play finds in
    :data:`MAX_ATTEMPTS_PER_POSITION` tries per position.  Ordered by ply,
    then as drawn.  ``on_misses`` is called at the end with the number of
    random games that ended (a win, a full board) before their ply and of
    those that repeated a position already drawn: why fewer were found.

    >>> misses = []
    >>> boards = sample_positions([1], per_ply=5, width=3, height=3, connect=3, seed=0,
    ...                           on_misses=lambda ended, repeats: misses.append((ended, repeats)))
    >>> len(boards), misses
    (2, [(0, 248)])
    """
    wanted_plies = sorted(set(plies))
    cells = width * height
    Board(width, height, connect)  # validates the size
    if not wanted_plies:
        raise DatasetError("no plies to sample")
    if wanted_plies[0] < 0 or wanted_plies[-1] >= cells:
        raise DatasetError(f"plies must be within 0..{cells - 1} on a {width}x{height} board")
    if (per_ply is None) == (count is None):
        raise DatasetError("give either per_ply or count")
    wanted = per_ply if per_ply is not None else count
    assert wanted is not None
    if wanted < 1:
        raise DatasetError(f"the number of positions must be at least 1, not {wanted}")
    if not 0 <= bias <= MAX_BIAS:
        raise DatasetError(f"bias must be a number 0..{MAX_BIAS}, not {bias}")
    rng = random.Random(seed)
    weights = _weights(width, bias)
    if per_ply is not None:
        targets = {ply: per_ply for ply in wanted_plies}
    else:
        targets = dict.fromkeys(wanted_plies, 0)
        for _ in range(wanted):
            targets[rng.choice(wanted_plies)] += 1
    found: dict[int, list[Board]] = {ply: [] for ply in wanted_plies}
    seen: set[int] = set()
    ended_early = repeats = 0
    for ply in wanted_plies:
        attempts = MAX_ATTEMPTS_PER_POSITION * targets[ply]
        while len(found[ply]) < targets[ply] and attempts > 0:
            attempts -= 1
            board = _random_game(width, height, connect, ply, rng, weights)
            if board is None:
                ended_early += 1
                continue
            if board.canonical_key() in seen:
                repeats += 1
                continue
            seen.add(board.canonical_key())
            found[ply].append(board)
    if on_misses is not None:
        on_misses(ended_early, repeats)
    return [board for ply in wanted_plies for board in found[ply]]


def _random_game(
    width: int, height: int, connect: int, ply: int, rng: random.Random, weights: list[float]
) -> Board | None:
    """A position after ``ply`` random moves, or None if the game ended before."""
    board = Board(width, height, connect)
    while board.move_count < ply:
        moves = board.legal_moves()
        if not moves:
            return None
        board.play(rng.choices(moves, [weights[column] for column in moves])[0])
        if board.is_over:
            return None
    return board


def label(board: Board, analyst: Analyst | None = None) -> LabelledPosition:
    """The exact score of ``board`` and of each of its moves, from the opening book or the solver.

    ``analyst`` defaults to the process's :func:`~c4engine.search.analysis.analyst.shared_analyst`.
    """
    analyst = analyst if analyst is not None else shared_analyst()
    analysis = analyst.analyze(board, pv=False)
    return LabelledPosition(
        board.move_string,
        board.move_count,
        int(analysis.score.value),  # no limit: the analysis is exact
        analysis.proven_values(),
        tuple(column + 1 for column in analysis.best_columns),
    )


def _label_chunk(
    moves_list: list[str], width: int, height: int, connect: int, table_mb: float
) -> list[LabelledPosition]:
    """Label positions given by move strings: the job a worker runs (one analyst per process)."""
    analyst = shared_analyst(table_mb)
    return [label(Board.from_moves(moves, width, height, connect), analyst) for moves in moves_list]


def build_dataset(
    boards: Sequence[Board],
    *,
    workers: int | None = 0,
    scheduler: str | None = None,
    table_size_mb: float = 64,
    chunk_size: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> list[LabelledPosition]:
    """:func:`label` every board, in the same order, by :func:`c4engine.jobs.run_jobs`.

    ``workers=0`` (the default) labels them in this process, ``N`` on N
    local processes (``None``: one per CPU), ``scheduler`` on that Dask
    cluster; positions go out ``chunk_size`` to a job.  ``on_progress`` is
    called with the number of positions each finished chunk held.
    """
    if not boards:
        return []
    width, height, connect = boards[0].width, boards[0].height, boards[0].connect
    if any((board.width, board.height, board.connect) != (width, height, connect) for board in boards):
        raise DatasetError("every position of a dataset must have the same board size and connect-N")
    try:
        require_solver_holds(width, height, "a dataset")
    except UnsupportedBoardError as refused:
        raise DatasetError(str(refused)) from None
    moves = [board.move_string for board in boards]
    size = chunk_size
    if size is None:
        # In this process one position a job, so progress moves with every position.
        in_process = workers == 0 and scheduler is None
        size = 1 if in_process else max(1, min(16, len(moves) // (8 * parallelism(workers, scheduler))))
    chunks = [moves[start : start + size] for start in range(0, len(moves), size)]
    results: list[list[LabelledPosition]] = [[] for _ in chunks]
    label_chunk = partial(_label_chunk, width=width, height=height, connect=connect, table_mb=table_size_mb)
    for index, rows in run_jobs(label_chunk, chunks, workers, scheduler):
        results[index] = rows
        if on_progress is not None:
            on_progress(len(rows))
    return [row for chunk_rows in results for row in chunk_rows]


# ------------------------------------------------------------ files


def _columns(width: int) -> list[str]:
    return ["moves", "ply", "score", *(f"score_{column}" for column in range(1, width + 1)), "best_moves"]


def format_for(path: Path, format: str | None = None) -> str:
    """The file format: ``format`` if given, else from the suffix (``.parquet`` or CSV)."""
    chosen = format or ("parquet" if path.suffix.lower() in (".parquet", ".pq") else "csv")
    if chosen not in FORMATS:
        raise DatasetError(f"unknown format {chosen!r}: use one of {', '.join(FORMATS)}")
    return chosen


def require_pyarrow() -> Any:
    """The pyarrow module, or a :class:`DatasetError` saying how to install it."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as error:
        raise DatasetError("Parquet needs pyarrow: pip install 'c4engine[parquet]' (or write CSV)") from error
    return pyarrow


def write_dataset(
    rows: Sequence[LabelledPosition], path: str | Path, *, width: int, format: str | None = None
) -> str:
    """Write ``rows`` to ``path`` as CSV (empty cell = full column) or Parquet (null); returns the format.

    Columns: ``moves``, ``ply``, ``score``, ``score_1`` .. ``score_W``,
    ``best_moves`` (1-based columns separated by spaces).
    """
    path = Path(path)
    chosen = format_for(path, format)
    names = _columns(width)
    if chosen == "csv":
        with path.open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(names)
            for row in rows:
                scores = ["" if score is None else score for score in row.move_scores]
                writer.writerow([row.moves, row.ply, row.score, *scores, " ".join(map(str, row.best_moves))])
        return chosen
    pyarrow = require_pyarrow()
    table = {
        "moves": pyarrow.array([row.moves for row in rows], pyarrow.string()),
        "ply": pyarrow.array([row.ply for row in rows], pyarrow.int16()),
        "score": pyarrow.array([row.score for row in rows], pyarrow.int16()),
    }
    for column in range(width):
        table[f"score_{column + 1}"] = pyarrow.array(
            [row.move_scores[column] for row in rows], pyarrow.int16()
        )
    table["best_moves"] = pyarrow.array(
        [" ".join(map(str, row.best_moves)) for row in rows], pyarrow.string()
    )
    pyarrow.parquet.write_table(pyarrow.table(table), str(path))
    return chosen


def read_dataset(path: str | Path, format: str | None = None) -> list[LabelledPosition]:
    """The rows of a file :func:`write_dataset` wrote."""
    path = Path(path)
    chosen = format_for(path, format)
    if chosen == "csv":
        with path.open(newline="") as handle:
            records = list(csv.DictReader(handle))
        fields = [name for name in (records[0] if records else {}) if name.startswith("score_")]
        parsed: list[dict[str, Any]] = [
            {
                **record,
                **{name: None if record[name] == "" else int(record[name]) for name in fields},
            }
            for record in records
        ]
    else:
        pyarrow = require_pyarrow()
        parsed = pyarrow.parquet.read_table(str(path)).to_pylist()
        fields = [name for name in (parsed[0] if parsed else {}) if name.startswith("score_")]
    return [
        LabelledPosition(
            str(record["moves"]),
            int(record["ply"]),
            int(record["score"]),
            tuple(record[name] for name in fields),
            tuple(int(column) for column in str(record["best_moves"]).split()),
        )
        for record in parsed
    ]
