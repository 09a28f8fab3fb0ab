"""Tuning evaluator parameters by self-play: simulated annealing or CMA-ES, checkpointed in SQLite.

What is tuned is a :class:`ParameterSpace`: named numeric parameters with
bounds (linear or logarithmic) and a function that turns a vector of values
into an evaluator.  :func:`window_space` is the shipped case, the weights of
the ``windows`` evaluator (:class:`~c4engine.search.evaluators.WindowWeights`:
``own1..own{N-1}``, ``opponent1..``, ``center``); the engine runs them in its
compiled search, weights passed as arrays, so nothing is recompiled.

The optimisers work in the unit cube: each parameter's bounds map to 0..1
(logarithmically for a log-scale parameter, so 1 and 1000 are as far apart
as 10 and 10000), and a step of 0.1 is a tenth of the range.

**Fitness** of a candidate is its score (win 1, draw 1/2) in games at a
fixed search depth against a fixed *reference pool* (e.g. the starting
weights, the default weights and ``areas``-like weights), each opening
played twice with the colours swapped.  Openings are seeded random plies
(:func:`c4engine.experiments.match.opening`) shared by every candidate of a *round*:
for CMA-ES a round is a generation (fresh openings each generation, the
same for the whole population, so the ranking CMA needs is a paired
comparison); simulated annealing compares each candidate with the current
point, so it plays all its rounds on the openings of round 0.  Engines
without noise are deterministic, so a candidate's fitness is a function of
its values and the round.

**Budget** is in games; a round that would exceed it is not started (but
the first always is).  Games run on :func:`c4engine.jobs.executor`.

**Checkpoints**: :class:`TuneStore` keeps the run's parameters, every game,
every evaluated candidate with its fitness, and the optimiser's state
(pickled) in SQLite, committed as they happen.  A round's candidates are
stored before its games are played; a run that is killed and started again
with the same parameters asks for nothing new, replays only the games it
lost, and ends exactly where an uninterrupted run ends.

>>> space = window_space(3)
>>> space.names
('own1', 'own2', 'opponent1', 'opponent2', 'center')
>>> weights = space.weights(space.values(WindowWeights((1, 100), (-1, -120), 3)))
>>> weights.own, weights.opponent, weights.center
((1.0, 100.0), (-1.0, -120.0), 3.0)
"""

from __future__ import annotations

import json
import math
import pickle
import random
import sqlite3
import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from c4engine.board import Board, Player
from c4engine.errors import TuneError
from c4engine.experiments.match import MatchConfig, opening
from c4engine.jobs import executor
from c4engine.play.players import EnginePlayer
from c4engine.search.evaluators import DEFAULT_WEIGHTS, Evaluator, WindowsEvaluator, WindowWeights
from c4engine.store import SQLiteStore, utc_now

__all__ = [
    "METHODS",
    "Annealing",
    "CandidateResult",
    "CmaEs",
    "Parameter",
    "ParameterSpace",
    "TuneConfig",
    "TuneResult",
    "TuneStore",
    "reference_weights",
    "tune",
    "window_space",
]

METHODS = ("cma", "anneal")
SCHEMA_VERSION = 1


# ------------------------------------------------------------- parameters


@dataclass(frozen=True)
class Parameter:
    """One tunable number: a name, bounds ``low <= value <= high``, linear or logarithmic scale.

    A log-scale parameter keeps its sign (both bounds positive, or both
    negative) and spaces the unit interval evenly in ``log |value|``.

    >>> p = Parameter("own3", 1.0, 10000.0, log=True)
    >>> p.from_unit(0.5), round(p.to_unit(100.0), 6)
    (100.0, 0.5)
    >>> Parameter("x", 2.0, 1.0)
    Traceback (most recent call last):
    ...
    c4engine.errors.TuneError: parameter x: low 2.0 must be below high 1.0
    """

    name: str
    low: float
    high: float
    log: bool = False

    def __post_init__(self) -> None:
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low < self.high):
            raise TuneError(f"parameter {self.name}: low {self.low} must be below high {self.high}")
        if self.log and not (self.low > 0 or self.high < 0):
            raise TuneError(f"parameter {self.name}: a log scale needs bounds of one sign, not 0 between")

    def _ends(self) -> tuple[float, float]:
        if self.log:
            return math.log(abs(self.low)), math.log(abs(self.high))
        return self.low, self.high

    def to_unit(self, value: float) -> float:
        """Where ``value`` lies between the bounds, 0..1 (clipped to them)."""
        value = min(max(float(value), self.low), self.high)
        start, end = self._ends()
        position = math.log(abs(value)) if self.log else value
        return min(max((position - start) / (end - start), 0.0), 1.0)

    def from_unit(self, unit: float) -> float:
        """The value at ``unit`` (clipped to 0..1) between the bounds."""
        unit = min(max(float(unit), 0.0), 1.0)
        start, end = self._ends()
        position = start + unit * (end - start)
        if not self.log:
            return min(max(position, self.low), self.high)
        value = math.copysign(math.exp(position), self.low)
        return min(max(round(value, 12), self.low), self.high)


class EvaluatorFactory(Protocol):
    def __call__(self, values: tuple[float, ...]) -> Evaluator: ...


@dataclass(frozen=True)
class ParameterSpace:
    """Named, bounded parameters and ``make(values) -> evaluator``.

    ``make`` must be a module-level function (workers unpickle it by name).
    :func:`window_space` builds the one for the ``windows`` weights.
    """

    parameters: tuple[Parameter, ...]
    make: EvaluatorFactory
    kind: str = "custom"

    def __post_init__(self) -> None:
        names = [parameter.name for parameter in self.parameters]
        if not names or len(set(names)) != len(names):
            raise TuneError(f"a parameter space needs distinct parameter names, not {names}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(parameter.name for parameter in self.parameters)

    def check(self, values: Sequence[float]) -> tuple[float, ...]:
        """``values`` as floats; :class:`TuneError` unless one per parameter, finite and in bounds."""
        if len(values) != len(self.parameters):
            raise TuneError(
                f"{len(values)} values for {len(self.parameters)} parameters ({', '.join(self.names)})"
            )
        result = tuple(float(value) for value in values)
        for parameter, value in zip(self.parameters, result, strict=True):
            if not (math.isfinite(value) and parameter.low <= value <= parameter.high):
                raise TuneError(
                    f"{parameter.name} = {value:g} is outside its bounds "
                    f"{parameter.low:g} .. {parameter.high:g}"
                )
        return result

    def to_unit(self, values: Sequence[float]) -> list[float]:
        return [parameter.to_unit(value) for parameter, value in zip(self.parameters, values, strict=True)]

    def from_unit(self, units: Iterable[float]) -> tuple[float, ...]:
        return tuple(
            parameter.from_unit(unit) for parameter, unit in zip(self.parameters, units, strict=True)
        )

    def evaluator(self, values: Sequence[float]) -> Evaluator:
        return self.make(tuple(values))

    # the windows case
    def weights(self, values: Sequence[float]) -> WindowWeights:
        """The :class:`WindowWeights` of ``values`` (a :func:`window_space` only)."""
        if self.kind != "windows":
            raise TuneError(f"a {self.kind} parameter space has no window weights")
        return _weights_of(tuple(values))

    def values(self, weights: WindowWeights) -> tuple[float, ...]:
        """The vector of ``weights`` (a :func:`window_space` only), checked against the bounds."""
        if self.kind != "windows":
            raise TuneError(f"a {self.kind} parameter space has no window weights")
        if len(weights.own) != (len(self.parameters) - 1) // 2:
            raise TuneError(f"weights for connect {weights.connect} do not fit this space")
        return self.check((*weights.own, *weights.opponent, weights.center))


def _weights_of(values: tuple[float, ...]) -> WindowWeights:
    half = (len(values) - 1) // 2
    return WindowWeights(own=values[:half], opponent=values[half : 2 * half], center=values[-1])


def _windows_evaluator(values: tuple[float, ...]) -> Evaluator:
    return WindowsEvaluator(_weights_of(values))


WEIGHT_RANGE = (0.01, 100000.0)
CENTER_RANGE = (-100.0, 100.0)


def window_space(connect: int) -> ParameterSpace:
    """The ``windows`` weights for connect ``connect`` as a parameter space.

    Own weights are positive and opponent weights negative, each in
    ``0.01 .. 100000`` in size on a log scale; the centre weight is linear in
    ``-100 .. 100``.

    >>> [(p.name, p.low, p.high) for p in window_space(2).parameters]
    [('own1', 0.01, 100000.0), ('opponent1', -100000.0, -0.01), ('center', -100.0, 100.0)]
    """
    if isinstance(connect, bool) or not isinstance(connect, int) or connect < 2:
        raise TuneError(f"connect must be a whole number of at least 2, not {connect!r}")
    low, high = WEIGHT_RANGE
    own = [Parameter(f"own{k}", low, high, log=True) for k in range(1, connect)]
    opponent = [Parameter(f"opponent{k}", -high, -low, log=True) for k in range(1, connect)]
    return ParameterSpace(
        (*own, *opponent, Parameter("center", *CENTER_RANGE)), _windows_evaluator, "windows"
    )


def reference_weights(name: str, connect: int) -> WindowWeights:
    """Named weights for a pool or a start: ``default``, ``classic``, ``areas``, ``hand``, ``flat``, ``bad``.

    ``default`` is :data:`DEFAULT_WEIGHTS` on connect 4 and
    :meth:`WindowWeights.for_connect` otherwise; ``classic`` is always the
    latter (on connect 4 the hand-made defaults the tuned ones started
    from: 1, 10, 100 / -1, -10, -120 / centre 3); ``areas`` counts ``2**k`` per window like the classic
    evaluator; ``hand`` is the hand-picked powers of ten ``1, 10, 100, ...``
    for both sides without a centre term; ``flat`` gives every window 1
    whatever its stones; ``bad`` is ``flat`` with the centre term's sign
    flipped (it prefers the edges) -- a deliberately bad start.

    >>> reference_weights("hand", 4)
    WindowWeights(own=(1.0, 10.0, 100.0), opponent=(-1.0, -10.0, -100.0), center=0.0)
    >>> reference_weights("bad", 3)
    WindowWeights(own=(1.0, 1.0), opponent=(-1.0, -1.0), center=-3.0)
    """
    count = connect - 1
    if name == "default":
        return DEFAULT_WEIGHTS if connect == 4 else WindowWeights.for_connect(connect)
    if name == "classic":
        return WindowWeights.for_connect(connect)
    if name == "areas":
        powers = tuple(float(2**k) for k in range(1, connect))
        return WindowWeights(powers, tuple(-power for power in powers), 0.0)
    if name == "hand":
        tens = tuple(float(10 ** (k - 1)) for k in range(1, connect))
        return WindowWeights(tens, tuple(-ten for ten in tens), 0.0)
    if name in ("flat", "bad"):
        return WindowWeights((1.0,) * count, (-1.0,) * count, -3.0 if name == "bad" else 0.0)
    raise TuneError(f"unknown weights {name!r}: use default, classic, areas, hand, flat, bad or a JSON file")


# ------------------------------------------------------------------ games


@dataclass(frozen=True)
class PairJob:
    """Two games (both colours) of a candidate against one reference from one opening."""

    space: ParameterSpace
    candidate: tuple[float, ...]
    reference: tuple[float, ...]
    opening: tuple[int, ...]
    depth: int
    width: int
    height: int
    connect: int


def play_pair(job: PairJob) -> tuple[tuple[float, str], tuple[float, str]]:
    """The candidate's score (1, 1/2, 0) and the moves of each game: candidate first, then second.

    A module-level function: it runs on workers.
    """
    results = []
    for candidate_first in (True, False):
        candidate = EnginePlayer(depth=job.depth, evaluator=job.space.evaluator(job.candidate))
        reference = EnginePlayer(depth=job.depth, evaluator=job.space.evaluator(job.reference))
        first, second = (candidate, reference) if candidate_first else (reference, candidate)
        board = Board.from_moves(job.opening, job.width, job.height, job.connect)
        while not board.is_over:
            board.play((first if board.turn is Player.FIRST else second).choose_move(board))
        mine = Player.FIRST if candidate_first else Player.SECOND
        score = 0.5 if board.winner is None else 1.0 if board.winner is mine else 0.0
        results.append((score, board.move_string))
    return results[0], results[1]


# ------------------------------------------------------------- optimisers


class Optimizer(Protocol):
    """Proposes candidates (unit-cube vectors) round by round and learns their fitness."""

    def ask(self) -> list[list[float]]: ...

    def tell(self, candidates: list[list[float]], fitness: list[float]) -> None: ...

    def best(self) -> list[float]:
        """The point the run would return now."""
        ...


_CMA_RANDOM = np.random.RandomState(0)


def _cma_randn(*shape: int) -> Any:
    """``cma``'s normal samples, from a generator this module seeds (module-level: it pickles by name)."""
    return _CMA_RANDOM.standard_normal(shape)


class CmaEs:
    """CMA-ES (the ``cma`` package) maximising fitness in the unit cube, bounds 0..1.

    ``cma`` samples from a generator that is seeded from ``seed`` and the
    number of calls before every ``ask`` and ``tell`` (numpy's global one
    too, for anything else it draws), so the candidates are a function of
    the seed and the history, also across a pickled checkpoint.  The answer
    is CMA's mean (its ``xfavorite``), the best estimate under noise.
    """

    def __init__(self, start: Sequence[float], sigma: float, seed: int, popsize: int | None = None) -> None:
        try:
            with warnings.catch_warnings():  # cma warns when matplotlib is missing; it plots nothing here
                warnings.simplefilter("ignore")
                import cma
        except ImportError as error:  # pragma: no cover - depends on the install
            raise TuneError("CMA-ES needs the 'cma' package: pip install 'c4engine[tune]'") from error
        options: dict[str, Any] = {"bounds": [0.0, 1.0], "randn": _cma_randn, "verbose": -9}
        if popsize is not None:
            options["popsize"] = popsize
        self.seed = seed
        self.calls = 0
        self._reseed()
        self.es = cma.CMAEvolutionStrategy(list(start), sigma, options)

    def _reseed(self) -> None:
        value = (self.seed * 1_000_003 + self.calls) % 2**32
        self.calls += 1
        _CMA_RANDOM.seed(value)
        np.random.seed(value)

    def ask(self) -> list[list[float]]:
        self._reseed()
        return [[float(x) for x in point] for point in self.es.ask()]

    def tell(self, candidates: list[list[float]], fitness: list[float]) -> None:
        self._reseed()
        self.es.tell([np.array(point) for point in candidates], [-value for value in fitness])

    def best(self) -> list[float]:
        return [float(x) for x in self.es.result.xfavorite]


class Annealing:
    """Simulated annealing maximising fitness in the unit cube.

    Each round proposes one neighbour of the current point (a Gaussian step
    of ``sigma`` per coordinate, scaled down with the temperature, clipped to
    0..1); it becomes the current point if it is better, or with probability
    ``exp(gain / T)`` if worse.  ``T`` falls geometrically from ``t_start`` to
    ``t_end`` over ``steps`` rounds (fitness is a score 0..1, so ``T = 0.02``
    accepts a candidate 2 % worse with probability 1/e).  The first round
    evaluates the start itself.  The answer is the best point seen.
    """

    def __init__(
        self,
        start: Sequence[float],
        sigma: float,
        seed: int,
        steps: int,
        t_start: float = 0.02,
        t_end: float = 0.001,
    ) -> None:
        self.current = list(start)
        self.current_fitness: float | None = None
        self.best_point = list(start)
        self.best_fitness = -math.inf
        self.sigma = sigma
        self.steps = max(1, steps)
        self.step = 0
        self.t_start, self.t_end = t_start, t_end
        self.rng = random.Random(seed)
        self.accepted = 0

    @property
    def temperature(self) -> float:
        progress = min(self.step / self.steps, 1.0)
        return float(self.t_start * (self.t_end / self.t_start) ** progress)

    def ask(self) -> list[list[float]]:
        if self.current_fitness is None:
            return [list(self.current)]
        scale = self.sigma * math.sqrt(self.temperature / self.t_start)
        return [[min(max(x + self.rng.gauss(0.0, scale), 0.0), 1.0) for x in self.current]]

    def tell(self, candidates: list[list[float]], fitness: list[float]) -> None:
        point, value = candidates[0], fitness[0]
        if self.current_fitness is None:
            self.current_fitness = value
        else:
            gain = value - self.current_fitness
            if gain >= 0 or self.rng.random() < math.exp(gain / self.temperature):
                self.current, self.current_fitness = list(point), value
                self.accepted += 1
            self.step += 1
        if value > self.best_fitness:
            self.best_point, self.best_fitness = list(point), value

    def best(self) -> list[float]:
        return list(self.best_point)


# ----------------------------------------------------------------- config


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

    def parameters(self) -> dict[str, Any]:
        """What identifies the run in its database (all but the budget, which may grow)."""
        values = asdict(self)
        del values["space"], values["budget"]
        values["space"] = {"kind": self.space.kind, "parameters": [asdict(p) for p in self.space.parameters]}
        plain: dict[str, Any] = json.loads(json.dumps(values))  # tuples as lists, as JSON gives them back
        return plain

    def make_optimizer(self) -> Optimizer:
        start = self.space.to_unit(self.start)
        if self.method == "cma":
            return CmaEs(start, self.sigma, self.seed, self.popsize)
        return Annealing(
            start, self.sigma, self.seed, steps=max(1, self.budget // self.games_per_candidate - 1)
        )

    def round_openings(self, round_number: int) -> list[tuple[int, ...]]:
        """The openings every candidate of round ``round_number`` plays (each twice, both colours)."""
        match = MatchConfig(
            "random", "random", 2, self.seed, self.random_plies, self.width, self.height, self.connect
        )
        first = round_number * self.openings
        return [opening(match, pair) for pair in range(first, first + self.openings)]


# ------------------------------------------------------------------ store


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

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path)
            self._db.executescript(
                """
                CREATE TABLE IF NOT EXISTS run (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    schema INTEGER NOT NULL,
                    parameters TEXT NOT NULL,
                    created TEXT NOT NULL
                );
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
                """
            )
        except sqlite3.DatabaseError as error:
            raise TuneError(f"cannot use {self.path} as a tuning database: {error}") from error

    def start(self, config: TuneConfig) -> None:
        """Record ``config``'s parameters, or check that the stored run has the same."""
        row = self._db.execute("SELECT schema, parameters FROM run WHERE id = 1").fetchone()
        parameters = config.parameters()
        if row is None:
            self._db.execute(
                "INSERT INTO run VALUES (1, ?, ?, ?)",
                (SCHEMA_VERSION, json.dumps(parameters, sort_keys=True), utc_now()),
            )
            self._db.commit()
            return
        if row[0] != SCHEMA_VERSION:
            raise TuneError(f"{self.path} was written by another version of c4 tune (schema {row[0]})")
        stored = json.loads(row[1])
        if stored != parameters:
            changed = ", ".join(key for key in parameters if stored.get(key) != parameters[key])
            raise TuneError(f"{self.path} holds another tuning run (different {changed}); use another --db")

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


# ------------------------------------------------------------------- run


@dataclass(frozen=True)
class TuneResult:
    """What a run found: the best values (by the method's rule), every candidate, the games used."""

    config: TuneConfig
    best: tuple[float, ...]
    candidates: tuple[CandidateResult, ...] = field(default=())
    games: int = 0
    rounds: int = 0

    def curve(self) -> list[tuple[int, float, float]]:
        """Per round: games used by the end of it, mean and best fitness of its candidates."""
        points: list[tuple[int, float, float]] = []
        used = 0
        by_round: dict[int, list[CandidateResult]] = {}
        for candidate in self.candidates:
            by_round.setdefault(candidate.round, []).append(candidate)
        for round_number in sorted(by_round):
            entries = by_round[round_number]
            used += sum(entry.games for entry in entries)
            fitness = [entry.fitness for entry in entries]
            points.append((used, sum(fitness) / len(fitness), max(fitness)))
        return points


def tune(
    config: TuneConfig,
    *,
    store: TuneStore | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    on_pair: Callable[[int], None] | None = None,
) -> TuneResult:
    """Run (or resume, from ``store``) the tuning ``config`` describes until its game budget is spent.

    ``on_pair(games)`` is called after each finished pair of games (a
    progress bar); ``workers=1`` without a scheduler plays in this process.

    >>> space = window_space(3)
    >>> config = TuneConfig(space, space.values(reference_weights("bad", 3)),
    ...                     (("hand", space.values(reference_weights("hand", 3))),),
    ...                     method="anneal", budget=8, depth=1, openings=2, width=4, height=4, connect=3)
    >>> result = tune(config, workers=1)
    >>> result.games, result.rounds, len(result.best)
    (8, 2, 5)
    """
    store = store if store is not None else TuneStore(":memory:")
    store.start(config)
    state = store.state()
    if state is None:
        round_number, pending, optimizer = 0, False, config.make_optimizer()
    else:
        round_number, pending, optimizer = state
    with ExitStack() as stack:
        pools: list[Executor] = []

        def pool() -> Executor:
            if not pools:
                pools.append(stack.enter_context(executor(scheduler, workers)))
            return pools[0]

        local = workers == 1 and scheduler is None
        while True:
            if pending:
                candidates = store.asked(round_number)
            else:
                previous = len(store.asked(round_number - 1)) if round_number > 0 else 0
                if (
                    round_number > 0
                    and store.games_played() + previous * config.games_per_candidate > config.budget
                ):
                    break
                candidates = optimizer.ask()
                store.save_asked(round_number, optimizer, candidates, config.space)
            results = _play_round(config, store, round_number, candidates, None if local else pool, on_pair)
            optimizer.tell(candidates, [result.fitness for result in results])
            store.save_told(round_number, optimizer, results)
            round_number += 1
            pending = False
    best = tuple(float(f"{value:.6g}") for value in config.space.from_unit(optimizer.best()))
    return TuneResult(config, best, tuple(store.results()), store.games_played(), round_number)


def _play_round(
    config: TuneConfig,
    store: TuneStore,
    round_number: int,
    candidates: list[list[float]],
    pool: Callable[[], Executor] | None,
    on_pair: Callable[[int], None] | None,
) -> list[CandidateResult]:
    """Play the round's missing pairs (in this process if ``pool`` is None) and score its candidates."""
    openings = config.round_openings(round_number if config.method == "cma" else 0)
    values = [config.space.from_unit(unit) for unit in candidates]
    done = store.pairs(round_number)
    jobs: dict[tuple[int, int, int, int], PairJob] = {}
    for index, candidate in enumerate(values):
        for reference, (_name, reference_values) in enumerate(config.pool):
            for pair, moves in enumerate(openings):
                key = (round_number, index, reference, pair)
                if key not in done:
                    jobs[key] = PairJob(
                        config.space,
                        candidate,
                        reference_values,
                        moves,
                        config.depth,
                        config.width,
                        config.height,
                        config.connect,
                    )

    def finish(key: tuple[int, int, int, int], games: tuple[tuple[float, str], tuple[float, str]]) -> None:
        store.add_pair(key, games)
        done[key] = (games[0][0], games[1][0])
        if on_pair is not None:
            on_pair(2)

    if jobs and pool is None:
        for key, job in jobs.items():
            finish(key, play_pair(job))
    elif jobs and pool is not None:
        submit = pool().submit
        futures: dict[Future[Any], tuple[int, int, int, int]] = {
            submit(play_pair, job): key for key, job in jobs.items()
        }
        pending = set(futures)
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    finish(futures[future], future.result())
        finally:
            for future in pending:
                future.cancel()
    results = []
    for index, candidate in enumerate(values):
        scores = [score for key, both in done.items() if key[1] == index for score in both]
        wins, draws = scores.count(1.0), scores.count(0.5)
        results.append(
            CandidateResult(
                round_number,
                index,
                candidate,
                sum(scores) / len(scores),
                len(scores),
                wins,
                draws,
                len(scores) - wins - draws,
            )
        )
    return results
