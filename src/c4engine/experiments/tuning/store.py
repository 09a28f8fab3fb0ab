"""The checkpoint of a tuning run in SQLite: its parameters, games, and every round's candidates.

A round's candidates are stored before its games are played, every pair of
games as it finishes, and the round's fitness values in one transaction.
The optimiser itself is not stored: it is a function of the run's seed and
the rounds it has learnt, so a resumed run rebuilds it by asking and
telling the stored rounds again (:func:`~c4engine.experiments.tuning.run.tune`).
A pickled optimiser would not do: ``cma`` files the candidates it asked
under Python's string hash, which differs from process to process, so a
pickle told in another process learns other points.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from c4engine.errors import TuneError
from c4engine.experiments.tuning.config import TuneConfig
from c4engine.experiments.tuning.parameters import ParameterSpace
from c4engine.store import SQLiteStore, identity_table, utc_now

__all__ = ["CandidateResult", "StoredRound", "TuneStore"]


@dataclass(frozen=True)
class CandidateResult:
    """One evaluated candidate: its round, index in the round, values, fitness (mean score) and games."""

    round: int
    index: int
    values: tuple[float, ...]
    fitness: float
    games: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class StoredRound:
    """A round as stored: its candidates (unit cube) and their fitness, None until all were played."""

    number: int
    candidates: list[list[float]]
    fitness: list[float] | None


class TuneStore(SQLiteStore):
    """A tuning run in SQLite: parameters, games, every round's candidates (``":memory:"`` allowed).

    >>> store = TuneStore(":memory:")
    >>> store.rounds()
    []
    """

    error = TuneError
    description = "a tuning database"
    run = "tuning run"
    remedy = "use another --db"
    schema_version = 2
    """2: no pickled optimiser (rebuilt from the rounds), the budget the run was planned with."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(
            path,
            identity_table("run", "planned_budget INTEGER NOT NULL")
            + """
            CREATE TABLE IF NOT EXISTS games (
                round INTEGER NOT NULL,
                candidate INTEGER NOT NULL,
                reference INTEGER NOT NULL,
                pair INTEGER NOT NULL,
                candidate_first INTEGER NOT NULL,
                moves TEXT NOT NULL,
                score REAL NOT NULL,
                PRIMARY KEY (round, candidate, reference, pair, candidate_first)
            );
            CREATE TABLE IF NOT EXISTS candidates (
                round INTEGER NOT NULL,
                candidate INTEGER NOT NULL,
                unit TEXT NOT NULL,
                vals TEXT NOT NULL,
                fitness REAL,
                games INTEGER NOT NULL DEFAULT 0,
                wins INTEGER NOT NULL DEFAULT 0,
                draws INTEGER NOT NULL DEFAULT 0,
                losses INTEGER NOT NULL DEFAULT 0,
                finished TEXT,
                PRIMARY KEY (round, candidate)
            );
            """,
        )

    def start(self, config: TuneConfig) -> None:
        """Record ``config``'s parameters and budget, or check that the stored run has the same parameters."""
        self.identify("run", config.parameters(), planned_budget=config.budget)

    def planned_budget(self) -> int:
        """The budget of the run's first start: annealing's schedule, which a larger budget later keeps."""
        row = self._db.execute("SELECT planned_budget FROM run WHERE id = 1").fetchone()
        if row is None:
            raise TuneError(f"{self.path} holds no tuning run yet")
        return int(row[0])

    def save_asked(self, round_number: int, candidates: list[list[float]], space: ParameterSpace) -> None:
        """Store a round's candidates (unit cube, and as values), before its games are played."""
        with self._db:
            self._db.executemany(
                "INSERT INTO candidates (round, candidate, unit, vals) VALUES (?, ?, ?, ?)",
                [
                    (round_number, index, json.dumps(unit), json.dumps(space.from_unit(unit)))
                    for index, unit in enumerate(candidates)
                ],
            )

    def save_told(self, results: list[CandidateResult]) -> None:
        """Store a round's fitness values, all in one transaction: the round is then finished."""
        with self._db:
            self._db.executemany(
                "UPDATE candidates SET fitness = ?, games = ?, wins = ?, draws = ?, losses = ?, finished = ? "
                "WHERE round = ? AND candidate = ?",
                [
                    (r.fitness, r.games, r.wins, r.draws, r.losses, utc_now(), r.round, r.index)
                    for r in results
                ],
            )

    def rounds(self) -> list[StoredRound]:
        """Every round asked so far, in order; only the last may be unfinished (its fitness None)."""
        rows = self._db.execute("SELECT round, unit, fitness FROM candidates ORDER BY round, candidate")
        candidates: dict[int, list[list[float]]] = {}
        fitness: dict[int, list[float | None]] = {}
        for number, unit, value in rows:
            candidates.setdefault(number, []).append(json.loads(unit))
            fitness.setdefault(number, []).append(value)
        stored = []
        for number, points in candidates.items():
            values = [value for value in fitness[number] if value is not None]
            stored.append(StoredRound(number, points, values if len(values) == len(points) else None))
        return stored

    def add_pair(
        self, key: tuple[int, int, int, int], games: tuple[tuple[float, str], tuple[float, str]]
    ) -> None:
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (*key, int(first), moves, score)
                    for first, (score, moves) in zip((True, False), games, strict=True)
                ],
            )

    def pairs(self, round_number: int) -> dict[tuple[int, int, int, int], tuple[float, float]]:
        """The finished pairs of a round: key -> (score as first, score as second)."""
        rows = self._db.execute(
            "SELECT candidate, reference, pair, candidate_first, score FROM games WHERE round = ?",
            (round_number,),
        )
        scores: dict[tuple[int, int, int, int], dict[bool, float]] = {}
        for candidate, reference, pair, first, score in rows:
            scores.setdefault((round_number, candidate, reference, pair), {})[bool(first)] = score
        return {key: (both[True], both[False]) for key, both in scores.items() if len(both) == 2}

    def games_played(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM games").fetchone()[0])

    def results(self) -> list[CandidateResult]:
        """Every evaluated candidate, in order."""
        rows = self._db.execute(
            "SELECT round, candidate, vals, fitness, games, wins, draws, losses FROM candidates "
            "WHERE fitness IS NOT NULL ORDER BY round, candidate"
        )
        return [
            CandidateResult(row[0], row[1], tuple(json.loads(row[2])), row[3], row[4], row[5], row[6], row[7])
            for row in rows
        ]
