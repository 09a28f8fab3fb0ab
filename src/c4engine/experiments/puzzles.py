"""Puzzles from many games: reading games files, a resumable run in parallel, one set without repeats.

:func:`read_games` reads the games of a file -- a move string a line, a
game record's JSON (:class:`~c4engine.play.record.GameRecord`), a JSONL file
of them, or a ``c4 match`` database (its random openings are chosen by
nobody: no puzzle follows their moves).  :func:`build_puzzles` turns them
into puzzles with :func:`c4engine.search.puzzles.generation.puzzles_from_game`,
a chunk of games a job through :func:`c4engine.jobs.run_jobs` (this process,
local processes or a Dask cluster), keeping every finished game in a
:class:`PuzzleCheckpoint` (SQLite) so that a stopped run resumes where it
was; the set it gives holds each position once, its mirror image included
(:meth:`c4engine.board.Board.canonical_key`), the first game's puzzle kept.

>>> games = [SourceGame("6443433251", opening_plies=4, label="a game")]
>>> found = build_puzzles(games, workers=0)
>>> [(p.position, p.solution_string) for p in found.puzzles], found.games, found.mistakes
([('64434', '2'), ('6443433', '2')], 1, 3)
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Final

from c4engine.board import Board
from c4engine.errors import C4Error, PuzzleError, RecordError, echo_path
from c4engine.jobs import parallelism, run_jobs
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import Limit
from c4engine.search.puzzles.generation import VALUE_LIMIT, GameScan, puzzles_from_game
from c4engine.search.puzzles.line import LINE_LIMIT, MAX_SOLVER_MOVES
from c4engine.search.puzzles.puzzle import Puzzle
from c4engine.store import SQLiteStore, identity_table

__all__ = ["PuzzleCheckpoint", "PuzzleSet", "SourceGame", "build_puzzles", "read_games"]

SQLITE_MAGIC: Final = b"SQLite format 3\x00"


@dataclass(frozen=True)
class SourceGame:
    """A game to take puzzles from: its moves (a move string), its board, the moves of its random
    opening (chosen by nobody) and its name in the file it came from."""

    moves: str
    width: int = 7
    height: int = 6
    connect: int = 4
    opening_plies: int = 0
    label: str | None = None

    def board(self) -> Board:
        """The game's board after its moves, its history kept."""
        return Board.from_moves(self.moves, self.width, self.height, self.connect)


def read_games(
    path: str | os.PathLike[str], width: int = 7, height: int = 6, connect: int = 4
) -> list[SourceGame]:
    """The games of ``path`` (see the module's notes); ``width``, ``height`` and ``connect`` are the
    board of a file of move strings (records and databases have their own).  A bad game raises a
    :class:`~c4engine.errors.C4Error` naming the file and line."""
    path = Path(path)
    name = path.name
    try:
        head = path.open("rb").read(len(SQLITE_MAGIC))
    except OSError as error:
        raise PuzzleError(f"cannot read {echo_path(str(path))}: {error.strerror}") from None
    if head == SQLITE_MAGIC:
        return _match_games(path)
    text = path.read_text(encoding="utf-8", errors="replace")
    if text.lstrip().startswith("{") and not _one_object_a_line(text):
        return [_record_game(text, name)]
    games = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        label = f"{name}:{number}"
        if stripped.startswith("{"):
            games.append(_record_game(stripped, label))
            continue
        moves = stripped.split(maxsplit=1)[0]
        try:
            Board.from_moves(moves, width, height, connect)
        except C4Error as error:
            raise PuzzleError(f"{label}: {error}") from None
        games.append(SourceGame(moves, width, height, connect, label=label))
    return games


def _one_object_a_line(text: str) -> bool:
    """Whether ``text`` is JSONL (each non-blank line a whole JSON object), not one pretty-printed record."""
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        return len(lines) > 1 and all(isinstance(json.loads(line), dict) for line in lines)
    except json.JSONDecodeError:
        return False


def _record_game(text: str, label: str) -> SourceGame:
    from c4engine.play.record import GameRecord  # the records' module only for records

    try:
        record = GameRecord.from_json(text)
    except RecordError as error:
        raise PuzzleError(f"{label}: {error}") from None
    board = record.to_board()
    return SourceGame(board.move_string, board.width, board.height, board.connect, label=label)


def _match_games(path: Path) -> list[SourceGame]:
    from c4engine.experiments.match import read_match

    config, games = read_match(path, PuzzleError)
    width, height, connect = config.width, config.height, config.connect
    return [
        SourceGame(
            games[index].move_string(width),
            width,
            height,
            connect,
            opening_plies=min(games[index].opening_plies, len(games[index].moves)),
            label=f"{path.name} game {index}",
        )
        for index in sorted(games)
    ]


# ---------------------------------------------------------------- checkpoint


class PuzzleCheckpoint(SQLiteStore):
    """The games a puzzle run has finished, with what each gave, in SQLite; safe against a kill.

    One file holds one run: its settings (:meth:`start`) are checked when it
    is resumed; each game is committed as it finishes (:meth:`add`).
    """

    error = PuzzleError
    description = "a puzzle checkpoint"
    run = "puzzle run"
    remedy = "use another --checkpoint file"

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(
            path,
            identity_table("run")
            + """
            CREATE TABLE IF NOT EXISTS games (
                game INTEGER PRIMARY KEY,
                moves TEXT NOT NULL,
                puzzles TEXT NOT NULL,
                mistakes INTEGER NOT NULL,
                unproven INTEGER NOT NULL
            );
            """,
            wal=True,
        )

    def start(self, parameters: dict[str, Any]) -> None:
        self.identify("run", parameters)

    def add(self, index: int, game: SourceGame, scan: GameScan) -> None:
        puzzles = json.dumps([puzzle.to_json() for puzzle in scan.puzzles])
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO games (game, moves, puzzles, mistakes, unproven) "
                "VALUES (?, ?, ?, ?, ?)",
                (index, game.moves, puzzles, scan.mistakes, scan.unproven),
            )

    def scans(self) -> dict[int, tuple[str, GameScan]]:
        """The finished games by their place in the games given: their moves and what they gave."""
        rows = self._db.execute("SELECT game, moves, puzzles, mistakes, unproven FROM games")
        return {
            row[0]: (row[1], GameScan(tuple(Puzzle.from_json(p) for p in json.loads(row[2])), row[3], row[4]))
            for row in rows
        }


# ---------------------------------------------------------------- the run


@dataclass(frozen=True)
class PuzzleSet:
    """What :func:`build_puzzles` gives: the puzzles without repeats (in the games' order), the games
    read, the mistakes seen, the positions skipped as unproven, the repeats dropped and the games
    taken from a checkpoint."""

    puzzles: tuple[Puzzle, ...]
    games: int
    mistakes: int
    unproven: int
    repeats: int
    resumed: int


_ANALYSTS: dict[float, Analyst] = {}


def _analyst(table_mb: float) -> Analyst:
    """This process's analyst for puzzles: the shipped books, and the solver on every search (no estimates,
    which a puzzle cannot use)."""
    if table_mb not in _ANALYSTS:
        _ANALYSTS[table_mb] = Analyst(table_size_mb=table_mb, solver_share=1.0)
    return _ANALYSTS[table_mb]


def _scan_chunk(
    chunk: list[tuple[int, SourceGame]], table_mb: float, limit: Limit, value_limit: Limit, max_moves: int
) -> list[tuple[int, GameScan]]:
    """The puzzles of a chunk of games: the job a worker runs (one analyst a process)."""
    analyst = _analyst(table_mb)
    return [
        (
            index,
            puzzles_from_game(
                analyst,
                game.board(),
                opening_plies=game.opening_plies,
                label=game.label,
                limit=limit,
                value_limit=value_limit,
                max_moves=max_moves,
            ),
        )
        for index, game in chunk
    ]


def build_puzzles(
    games: Sequence[SourceGame],
    *,
    workers: int | None = 0,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    table_size_mb: float = 64,
    limit: Limit = LINE_LIMIT,
    value_limit: Limit = VALUE_LIMIT,
    max_moves: int = MAX_SOLVER_MOVES,
    chunk_size: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> PuzzleSet:
    """The puzzles of ``games`` (see the module's notes), without repeats.

    ``workers`` and ``scheduler`` say where the jobs run (:mod:`c4engine.jobs`); ``checkpoint`` names
    the SQLite file keeping the finished games (None: none), from which the same run resumes.
    ``on_progress`` is called with the games and the puzzles each finished chunk gave.
    """
    store = PuzzleCheckpoint(checkpoint) if checkpoint is not None else PuzzleCheckpoint(":memory:")
    with store:
        store.start(
            {
                "limit": [limit.time, limit.nodes],
                "value_limit": [value_limit.time, value_limit.nodes],
                "max_moves": max_moves,
            }
        )
        done = store.scans()
        scans: dict[int, GameScan] = {}
        resumed = 0
        for index, game in enumerate(games):
            kept = done.get(index)
            if kept is not None and kept[0] == game.moves:
                scans[index] = kept[1]
                resumed += 1
        todo = [(index, game) for index, game in enumerate(games) if index not in scans]
        size = chunk_size
        if size is None:
            in_process = workers == 0 and scheduler is None
            size = (
                1 if in_process else max(1, min(8, len(todo) // (4 * parallelism(workers, scheduler)) or 1))
            )
        chunks = [todo[start : start + size] for start in range(0, len(todo), size)]
        job = partial(
            _scan_chunk, table_mb=table_size_mb, limit=limit, value_limit=value_limit, max_moves=max_moves
        )
        for _job, results in run_jobs(job, chunks, workers, scheduler):
            for index, scan in results:
                store.add(index, games[index], scan)
                scans[index] = scan
            if on_progress is not None:
                on_progress(len(results), sum(len(scan.puzzles) for _index, scan in results))
    seen: set[tuple[int, int, int, int]] = set()
    puzzles: list[Puzzle] = []
    repeats = 0
    for index in sorted(scans):
        for puzzle in scans[index].puzzles:
            key = (puzzle.width, puzzle.height, puzzle.connect, puzzle.key)
            if key in seen:
                repeats += 1
                continue
            seen.add(key)
            puzzles.append(puzzle)
    return PuzzleSet(
        tuple(puzzles),
        len(games),
        sum(scan.mistakes for scan in scans.values()),
        sum(scan.unproven for scan in scans.values()),
        repeats,
        resumed,
    )
