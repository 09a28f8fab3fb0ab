"""A tuning run's configuration: what is tuned, from where, against whom, how, and how many games.

Its own module, below both the run loop (:mod:`~c4engine.experiments.tuning.run`),
which plays what it describes, and the database
(:mod:`~c4engine.experiments.tuning.store`), which records it and refuses
to resume a run with other parameters.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from c4engine.board import Board
from c4engine.errors import BudgetTooSmallError, TuneError
from c4engine.experiments.match import MatchConfig, opening
from c4engine.experiments.tuning.optimizers import Annealing, CmaEs, Optimizer
from c4engine.experiments.tuning.parameters import ParameterSpace

__all__ = ["METHODS", "TuneConfig"]

METHODS = ("cma", "anneal")
"""The optimizers a run may use: CMA-ES, simulated annealing."""


@dataclass(frozen=True)
class TuneConfig:
    """A tuning run: what is tuned, from where, against whom, how, and how many games.

    ``start`` and every ``pool`` entry are value vectors of ``space`` (the
    pool entries with names, for reports).  ``openings`` is the number of
    opening pairs a candidate plays against each reference, so a candidate
    costs ``2 * openings * len(pool)`` games.
    """

    space: ParameterSpace
    start: tuple[float, ...]
    pool: tuple[tuple[str, tuple[float, ...]], ...]
    method: str = "cma"
    budget: int = 4000
    depth: int = 3
    openings: int = 8
    random_plies: int = 4
    seed: int = 0
    sigma: float = 0.15
    popsize: int | None = None
    width: int = 7
    height: int = 6
    connect: int = 4

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise TuneError(f"unknown method {self.method!r}: choose {' or '.join(METHODS)}")
        board = Board(self.width, self.height, self.connect)  # checks the size
        for name, minimum, value in (
            ("budget", 1, self.budget),
            ("depth", 1, self.depth),
            ("openings", 1, self.openings),
            ("random plies", 0, self.random_plies),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
                raise TuneError(f"the {name} must be a whole number of at least {minimum}, not {value!r}")
        if self.random_plies >= board.width * board.height - 1:
            raise TuneError(f"{self.random_plies} random plies leave no game on a {board.size} board")
        if not 0.0 < self.sigma <= 1.0:
            raise TuneError(f"sigma is a step in the unit cube, 0 < sigma <= 1, not {self.sigma}")
        if self.popsize is not None and self.popsize < 2:
            raise TuneError(f"the population needs at least 2 candidates, not {self.popsize}")
        if not self.pool:
            raise TuneError("the reference pool is empty")
        if self.budget < self.smallest_round * self.games_per_candidate:
            least = self.smallest_round * self.games_per_candidate
            raise BudgetTooSmallError(
                f"a games budget of {self.budget} is less than one round: {self.method} needs at least "
                f"{least} games ({self.smallest_round} x {self.games_per_candidate}); "
                "fewer openings or references make a round smaller"
            )
        object.__setattr__(self, "start", self.space.check(self.start))
        object.__setattr__(
            self, "pool", tuple((name, self.space.check(values)) for name, values in self.pool)
        )
        if self.space.kind == "windows" and (len(self.start) - 1) // 2 != self.connect - 1:
            raise TuneError(
                f"weights for connect {(len(self.start) + 1) // 2} cannot tune connect {self.connect}"
            )

    @property
    def games_per_candidate(self) -> int:
        return 2 * self.openings * len(self.pool)

    @property
    def smallest_round(self) -> int:
        """The fewest candidates a round may have (one for annealing)."""
        return CmaEs.smallest_round(len(self.start), self.popsize) if self.method == "cma" else 1

    def parameters(self) -> dict[str, Any]:
        """What identifies the run in its database (all but the budget, which may grow)."""
        values = asdict(self)
        del values["space"], values["budget"]
        values["space"] = {"kind": self.space.kind, "parameters": [asdict(p) for p in self.space.parameters]}
        plain: dict[str, Any] = json.loads(json.dumps(values))  # tuples as lists, as JSON gives them back
        return plain

    def make_optimizer(self, planned_budget: int | None = None) -> Optimizer:
        """A fresh optimiser at the start; annealing cools over the rounds ``planned_budget`` affords.

        ``planned_budget`` is the budget the run was started with (default
        this one): a run resumed with a larger budget keeps its schedule.
        """
        start = self.space.to_unit(self.start)
        if self.method == "cma":
            return CmaEs(start, self.sigma, self.seed, self.popsize)
        budget = self.budget if planned_budget is None else planned_budget
        return Annealing(start, self.sigma, self.seed, steps=max(1, budget // self.games_per_candidate - 1))

    def round_openings(self, round_number: int) -> list[tuple[int, ...]]:
        """The openings every candidate of round ``round_number`` plays (each twice, both colours)."""
        match = MatchConfig(
            "random", "random", 2, self.seed, self.random_plies, self.width, self.height, self.connect
        )
        first = round_number * self.openings
        return [opening(match, pair) for pair in range(first, first + self.openings)]
