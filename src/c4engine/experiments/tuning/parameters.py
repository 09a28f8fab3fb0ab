"""What is tuned: named, bounded parameters, the unit cube the optimisers see, and window weights.

>>> space = window_space(3)
>>> space.names
('own1', 'own2', 'opponent1', 'opponent2', 'center')
>>> weights = space.weights(space.values(WindowWeights((1, 100), (-1, -120), 3)))
>>> weights.own, weights.opponent, weights.center
((1.0, 100.0), (-1.0, -120.0), 3.0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from c4engine.errors import TuneError, echo
from c4engine.search.engine.evaluators import DEFAULT_WEIGHTS, Evaluator, WindowsEvaluator
from c4engine.search.engine.weights import WindowWeights

__all__ = [
    "CENTER_RANGE",
    "WEIGHT_RANGE",
    "EvaluatorFactory",
    "Parameter",
    "ParameterSpace",
    "reference_weights",
    "window_space",
]


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
    raise TuneError(
        f"unknown weights {echo(name)}: use default, classic, areas, hand, flat, bad or a JSON file"
    )
