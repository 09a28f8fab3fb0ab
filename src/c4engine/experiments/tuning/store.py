"""The checkpoint of a tuning run in SQLite: its parameters, games, candidates, optimiser state.

A round's candidates are stored (with the optimiser that asked them) before
its games are played, every pair of games as it finishes, and the fitness
values with the optimiser that learnt them in one transaction, so a killed
run resumes exactly where it stopped.
"""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from c4engine.errors import TuneError
from c4engine.experiments.tuning.config import TuneConfig
from c4engine.experiments.tuning.optimizers import Optimizer
from c4engine.experiments.tuning.parameters import ParameterSpace
from c4engine.store import SQLiteStore, identity_table, utc_now

__all__ = ["CandidateResult", "TuneStore"]


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


class TuneStore(SQLiteStore):
    """A tuning run in SQLite: parameters, games, candidates, optimiser state (``":memory:"`` allowed).

    >>> store = TuneStore(":memory:")
    >>> store.state() is None
    True
    """

    error = TuneError
    description = "a tuning database"
    run = "tuning run"
    remedy = "use another --db"

    def __init__(self, path: str | Path) -> None:
        super().__init__(
            path,
            identity_table("run")
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
            CREATE TABLE IF NOT EXISTS state (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                round INTEGER NOT NULL,
                pending INTEGER NOT NULL,
                optimizer BLOB NOT NULL,
                saved TEXT NOT NULL
            );
            """,
        )

    def start(self, config: TuneConfig) -> None:
        """Record ``config``'s parameters, or check that the stored run has the same."""
        self.identify("run", config.parameters())

    def state(self) -> tuple[int, bool, Any] | None:
        """``(round, pending, optimizer)``: the round to play, whether it was already asked, the optimiser."""
        row = self._db.execute("SELECT round, pending, optimizer FROM state WHERE id = 1").fetchone()
        if row is None:
            return None
        return row[0], bool(row[1]), pickle.loads(row[2])

    def save_asked(
        self, round_number: int, optimizer: Optimizer, candidates: list[list[float]], space: ParameterSpace
    ) -> None:
        """Store a round's candidates and the optimiser that asked them, in one transaction."""
        with self._db:
            self._db.execute("DELETE FROM candidates WHERE round = ?", (round_number,))
            self._db.executemany(
                "INSERT INTO candidates (round, candidate, unit, vals) VALUES (?, ?, ?, ?)",
                [
                    (round_number, index, json.dumps(unit), json.dumps(space.from_unit(unit)))
                    for index, unit in enumerate(candidates)
                ],
            )
            self._save_state(round_number, True, optimizer)

    def save_told(self, round_number: int, optimizer: Optimizer, results: list[CandidateResult]) -> None:
        """Store a round's fitness values and the optimiser that learnt them, in one transaction."""
        with self._db:
            self._db.executemany(
                "UPDATE candidates SET fitness = ?, games = ?, wins = ?, draws = ?, losses = ?, finished = ? "
                "WHERE round = ? AND candidate = ?",
                [
                    (r.fitness, r.games, r.wins, r.draws, r.losses, utc_now(), r.round, r.index)
                    for r in results
                ],
            )
            self._save_state(round_number + 1, False, optimizer)

    def _save_state(self, round_number: int, pending: bool, optimizer: Optimizer) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO state VALUES (1, ?, ?, ?, ?)",
            (round_number, int(pending), pickle.dumps(optimizer), utc_now()),
        )

    def asked(self, round_number: int) -> list[list[float]]:
        rows = self._db.execute(
            "SELECT unit FROM candidates WHERE round = ? ORDER BY candidate", (round_number,)
        ).fetchall()
        return [json.loads(row[0]) for row in rows]

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
