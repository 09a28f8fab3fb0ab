"""The ``windows`` evaluator's weights and their JSON files.

:class:`WindowWeights` is the tunable data of
:class:`~c4engine.search.engine.evaluators.WindowsEvaluator` (weights per stone
count in a live window, and a centre bonus); this module checks it, turns
it into JSON and back, and reads and writes weights files -- what ``c4 tune``
writes and ``c4 play --weights``, ``c4 move --weights`` and the players'
``weights:FILE`` read.  The evaluator itself only scores with them.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "w.json"
>>> WindowWeights(own=(1, 10), opponent=(-1, -12), center=2).save(path, {"depth": 3})
>>> load_weights(path)
(WindowWeights(own=(1.0, 10.0), opponent=(-1.0, -12.0), center=2.0), {'depth': 3})
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from c4engine.errors import WeightsError, echo_path

__all__ = ["WindowWeights", "load_weights"]


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise WeightsError(f"{what} must be a number, not {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise WeightsError(f"{what} must be a finite number, not {value!r}")
    return number


def _vector(value: object, what: str) -> tuple[float, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, list | tuple):
        raise WeightsError(f"{what} must be a list of numbers, not {value!r}")
    if not value:
        raise WeightsError(f"{what} must hold at least one weight (connect 2 needs one)")
    return tuple(_number(item, f"{what}[{index}]") for index, item in enumerate(value))


@dataclass(frozen=True)
class WindowWeights:
    """The tunable weights of the ``windows`` evaluator (:mod:`c4engine.search.engine.evaluators`).

    ``own[k - 1]`` is added for every live window holding ``k`` stones of the
    side to move and nothing else (``k`` = 1 .. connect-1), ``opponent[k - 1]``
    for one holding ``k`` of the opponent's stones (usually negative), and
    ``center`` per stone of the side to move in the centre column(s) (two of
    them on an even width), minus the same per opponent stone there.  Full
    windows (a finished line) are not weighted: the search scores finished
    games itself.  Both vectors have ``connect - 1`` entries.

    >>> weights = WindowWeights(own=(1, 10, 100), opponent=(-1, -10, -120), center=3)
    >>> weights
    WindowWeights(own=(1.0, 10.0, 100.0), opponent=(-1.0, -10.0, -120.0), center=3.0)
    >>> WindowWeights.from_dict(weights.to_dict()) == weights
    True
    >>> WindowWeights(own=(1, 2), opponent=(-1,), center=0)
    Traceback (most recent call last):
    ...
    c4engine.errors.WeightsError: own has 2 weights but opponent has 1: both need connect - 1
    """

    own: tuple[float, ...]
    opponent: tuple[float, ...]
    center: float = 0.0

    def __post_init__(self) -> None:
        own = _vector(self.own, "own")
        opponent = _vector(self.opponent, "opponent")
        center = _number(self.center, "center")
        if len(own) != len(opponent):
            raise WeightsError(
                f"own has {len(own)} weights but opponent has {len(opponent)}: both need connect - 1"
            )
        object.__setattr__(self, "own", own)
        object.__setattr__(self, "opponent", opponent)
        object.__setattr__(self, "center", center)

    @property
    def connect(self) -> int:
        """The connect-N these weights are for (one more than the vector length)."""
        return len(self.own) + 1

    @classmethod
    def for_connect(cls, connect: int) -> WindowWeights:
        """Sensible defaults for connect ``connect``.

        Own weights grow geometrically from 1 to 100 (1, 10, 100 for connect
        4); opponent weights are their negatives, the one for ``connect - 1``
        stones (a threat) 20 % larger; centre bonus 3.

        >>> WindowWeights.for_connect(4)        # DEFAULT_WEIGHTS were tuned from these
        WindowWeights(own=(1.0, 10.0, 100.0), opponent=(-1.0, -10.0, -120.0), center=3.0)
        >>> WindowWeights.for_connect(3)
        WindowWeights(own=(1.0, 100.0), opponent=(-1.0, -120.0), center=3.0)
        """
        if isinstance(connect, bool) or not isinstance(connect, int) or connect < 2:
            raise WeightsError(f"connect must be a whole number of at least 2, not {connect!r}")
        if connect == 2:
            own: tuple[float, ...] = (1.0,)
        else:
            own = tuple(round(10 ** (2 * (k - 1) / (connect - 2)), 6) for k in range(1, connect))
        opponent = (*(-weight for weight in own[:-1]), -1.2 * own[-1])
        return cls(own=own, opponent=opponent, center=3.0)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary: ``{"own": [...], "opponent": [...], "center": ...}``."""
        return {"own": list(self.own), "opponent": list(self.opponent), "center": self.center}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WindowWeights:
        """The weights in ``data`` (as written by :meth:`to_dict`); :class:`WeightsError` if malformed.

        >>> WindowWeights.from_dict({"own": [1, 10, 100], "opponent": [-1, -10]})
        Traceback (most recent call last):
        ...
        c4engine.errors.WeightsError: own has 3 weights but opponent has 2: both need connect - 1
        >>> WindowWeights.from_dict({"own": [1], "opponent": [-1], "centre": 2})
        Traceback (most recent call last):
        ...
        c4engine.errors.WeightsError: unknown weight field(s) 'centre'; expected own, opponent, center
        """
        if not isinstance(data, Mapping):
            raise WeightsError(f"weights must be a JSON object, not {type(data).__name__}")
        unknown = sorted(set(data) - {"own", "opponent", "center"})
        if unknown:
            raise WeightsError(
                f"unknown weight field(s) {', '.join(map(repr, unknown))}; expected own, opponent, center"
            )
        missing = [name for name in ("own", "opponent") if name not in data]
        if missing:
            raise WeightsError(f"weights are missing {' and '.join(missing)}")
        return cls(own=data["own"], opponent=data["opponent"], center=data.get("center", 0.0))

    def save(self, path: str | PathLike[str], metadata: Mapping[str, Any] | None = None) -> None:
        """Write the weights to ``path`` as JSON, with ``metadata`` (where they come from) if given."""
        data = self.to_dict()
        if metadata is not None:
            data["metadata"] = dict(metadata)
        Path(path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | PathLike[str]) -> WindowWeights:
        """Read weights saved by :meth:`save`; :class:`WeightsError` if the file is not valid weights."""
        return load_weights(path)[0]

    def check_connect(self, connect: int) -> None:
        """Raise :class:`WeightsError` unless these weights fit connect ``connect``.

        >>> WindowWeights.for_connect(4).check_connect(5)
        Traceback (most recent call last):
        ...
        c4engine.errors.WeightsError: weights with 3 per side are for connect 4, not connect 5 (4 per side)
        """
        if connect - 1 != len(self.own):
            raise WeightsError(
                f"weights with {len(self.own)} per side are for connect {self.connect}, "
                f"not connect {connect} ({connect - 1} per side)"
            )


def load_weights(path: str | PathLike[str]) -> tuple[WindowWeights, dict[str, Any]]:
    """The weights in the JSON file ``path`` and its ``metadata`` object (``{}`` if none).

    A weights file is :meth:`WindowWeights.to_dict` plus, optionally,
    ``"metadata"``: what ``c4 tune`` records (board, connect, search depth,
    method, budget, date ...).  A missing or unreadable file, bad JSON or bad
    weights are a :class:`WeightsError` naming the file.

    >>> load_weights("no/such/weights.json")
    Traceback (most recent call last):
    ...
    c4engine.errors.WeightsError: cannot read weights file no/such/weights.json: no such file
    """
    name = echo_path(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise WeightsError(f"cannot read weights file {name}: no such file") from None
    except IsADirectoryError:
        raise WeightsError(f"cannot read weights file {name}: it is a folder") from None
    except OSError as error:
        raise WeightsError(f"cannot read weights file {name}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise WeightsError(f"cannot read weights file {name}: not text (JSON, as c4 tune writes)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise WeightsError(f"weights file {name}: not valid JSON ({error})") from error
    if not isinstance(data, dict):
        raise WeightsError(f"weights file {name}: must be a JSON object, not {type(data).__name__}")
    metadata = data.pop("metadata", {})
    if not isinstance(metadata, dict):
        raise WeightsError(f"{name}: metadata must be a JSON object, not {type(metadata).__name__}")
    try:
        return WindowWeights.from_dict(data), metadata
    except WeightsError as error:
        raise WeightsError(f"weights file {name}: {error}") from error
