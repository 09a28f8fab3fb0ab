"""How the next candidates are chosen: CMA-ES and simulated annealing, in the unit cube.

Both maximise a fitness (a match score, 0..1) over vectors of 0..1 (see
:class:`~c4engine.experiments.tuning.parameters.ParameterSpace`), round by round:
:meth:`Optimizer.ask` proposes a round's candidates, :meth:`Optimizer.tell`
learns their fitness.  Both are functions of their seed and the rounds
they were told, so a tuning run rebuilds them from its stored rounds.

>>> annealing = Annealing([0.5, 0.5], sigma=0.1, seed=1, steps=10)
>>> annealing.ask()                 # the first round evaluates the start itself
[[0.5, 0.5]]
>>> annealing.tell([[0.5, 0.5]], [0.4]); annealing.best()
[0.5, 0.5]
"""

from __future__ import annotations

import contextlib
import math
import random
import warnings
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

import numpy as np

from c4engine.errors import TuneError

__all__ = ["Annealing", "CmaEs", "Optimizer"]


class Optimizer(Protocol):
    """Proposes candidates (unit-cube vectors) round by round and learns their fitness."""

    def ask(self) -> list[list[float]]: ...

    def tell(self, candidates: list[list[float]], fitness: list[float]) -> None: ...

    def best(self) -> list[float]:
        """The point the run would return now."""
        ...


_CMA_RANDOM = np.random.RandomState(0)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Around every call into ``cma``: its warnings (matplotlib missing, its numerical notes) are
    its own business, never the user's."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _cma_randn(*shape: int) -> Any:
    """``cma``'s normal samples, from a generator this module seeds (module-level: it pickles by name)."""
    return _CMA_RANDOM.standard_normal(shape)


class CmaEs:
    """CMA-ES (the ``cma`` package) maximising fitness in the unit cube, bounds 0..1.

    ``cma`` samples from a generator that is seeded from ``seed`` and the
    number of calls before every ``ask`` and ``tell`` (numpy's global one
    too, for anything else it draws), so the candidates are a function of
    the seed and the history: a run resumes by asking and telling its stored
    rounds again.  (A pickle is only good in the process that made it: ``cma``
    files the points it asked under Python's per-process string hash and,
    told them in another process, learns from other points.)  The answer
    is CMA's mean (its ``xfavorite``), the best estimate under noise.
    """

    def __init__(self, start: Sequence[float], sigma: float, seed: int, popsize: int | None = None) -> None:
        try:
            with _quiet():
                import cma
        except ImportError as error:  # pragma: no cover - depends on the install
            raise TuneError("CMA-ES needs the 'cma' package: pip install 'c4engine[tune]'") from error
        options: dict[str, Any] = {"bounds": [0.0, 1.0], "randn": _cma_randn, "verbose": -9}
        if popsize is not None:
            options["popsize"] = popsize
        self.seed = seed
        self.calls = 0
        self._reseed()
        with _quiet():
            self.es = cma.CMAEvolutionStrategy(list(start), sigma, options)

    @staticmethod
    def smallest_round(dimension: int, popsize: int | None = None) -> int:
        """The fewest candidates ``cma`` learns from in one generation: half its population.

        A generation cut short by a games budget keeps at least that many.

        >>> CmaEs.smallest_round(9), CmaEs.smallest_round(9, popsize=4)
        (5, 2)
        """
        population = popsize if popsize is not None else 4 + int(3 * math.log(dimension))  # cma's default
        return max(1, population // 2)

    def _reseed(self) -> None:
        value = (self.seed * 1_000_003 + self.calls) % 2**32
        self.calls += 1
        _CMA_RANDOM.seed(value)
        np.random.seed(value)

    def ask(self) -> list[list[float]]:
        self._reseed()
        with _quiet():
            return [[float(x) for x in point] for point in self.es.ask()]

    def tell(self, candidates: list[list[float]], fitness: list[float]) -> None:
        self._reseed()
        with _quiet():
            self.es.tell([np.array(point) for point in candidates], [-value for value in fitness])

    def best(self) -> list[float]:
        with _quiet():
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
