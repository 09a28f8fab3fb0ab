"""Evaluators: how good a position looks when the search cannot see to the end.

An *evaluator* is any callable ``Evaluator = Callable[[Board], float]``.  It
scores the position for the **side to move** (positive: good for the player
about to move) and must depend on the stones only, not on the move order.
Every built-in evaluator stays strictly inside ``±EVAL_LIMIT`` (a million),
so the search's win and loss scores (about ``±10**9``, see
:mod:`c4engine.search.engine.negamax`) always dominate; on huge boards or with extreme
weights the score saturates at ``±(EVAL_LIMIT - 1)``.

They all look at *windows*: every run of ``connect`` cells in a row --
horizontal, vertical or along either diagonal -- where a line could still be
made.  A window in which both players have a stone is dead.  The window
masks are computed once per board size (:func:`window_masks`).

The built-in evaluators and where they come from:

``areas``
    The score of the classic public-domain C "c4" library (Keith Pomakis):
    each live window is worth ``2**k`` to a player with ``k`` stones in it
    while the opponent has none there, 0 once the opponent has one; the
    score is the side to move's sum minus the opponent's.

``threat_distance``
    The evaluation of a student minimax paper: a window with ``k`` of one
    player's stones and none of the other's weighs ``10**(k - 1)`` (1, 10,
    100, 1000 for connect 4), divided by ``1 + d`` where ``d`` is how many
    stones must first drop into *other* cells before every empty cell of
    the window is playable; own minus opponent.

``windows``
    Tunable weights (:class:`WindowWeights`) per number of own / opponent
    stones in a live window plus a bonus for centre stones: the common
    hand-tuned heuristic, with the weights as data (JSON) instead of code.

>>> board = Board()
>>> areas(board), threat_distance(board), windows(board)
(0, 0.0, 0.0)
>>> board.play(3)               # X takes the centre: bad for O, to move
>>> areas(board), round(threat_distance(board), 4), round(windows(board), 4)
(-14, -5.2857, -59.2693)
>>> sorted(EVALUATORS)
['areas', 'threat_distance', 'windows']
"""

from __future__ import annotations

from collections.abc import Callable

from c4engine.board import Board
from c4engine.errors import UnknownEvaluatorError, WeightsError
from c4engine.geometry import Geometry
from c4engine.player import Player
from c4engine.search.engine.weights import WindowWeights

__all__ = [
    "DEFAULT_WEIGHTS",
    "EVALUATORS",
    "EVAL_LIMIT",
    "Evaluator",
    "WindowTables",
    "WindowsEvaluator",
    "area_score",
    "areas",
    "evaluator_by_name",
    "threat_distance",
    "window_masks",
    "window_tables",
    "windows",
]

Evaluator = Callable[[Board], float]
"""Scores a position for the side to move; larger is better for it."""

EVAL_LIMIT = 10**6
"""Every built-in evaluator returns a value strictly between ``-EVAL_LIMIT`` and ``EVAL_LIMIT``."""

_CAP = EVAL_LIMIT - 1


def _clamp(score: float) -> float:
    if score > _CAP:
        return _CAP
    if score < -_CAP:
        return -_CAP
    return score


# ----------------------------------------------------------------- windows


class WindowTables:
    """The precomputed masks of one board size: its windows, the cells under them, its centre.

    ``masks`` are the windows (``connect`` cells in a line) in a fixed order
    -- vertical, horizontal, the two diagonals, each by column then row --
    the order the compiled kernels use too; ``below[i]`` the cells under
    window ``i`` in its columns, not in it; ``center`` the centre column(s)
    (two on an even width); ``full`` every cell.  Get them with
    :func:`window_tables`.

    >>> geometry = Geometry.of(4, 4, 4)
    >>> tables = window_tables(geometry)
    >>> len(tables.masks)                        # 4 columns, 4 rows, 2 diagonals
    10
    >>> tables.center == geometry.column_mask(1) | geometry.column_mask(2)
    True
    """

    __slots__ = ("below", "center", "full", "masks")

    def __init__(self, width: int, height: int, connect: int) -> None:
        geometry = Geometry.of(width, height, connect)
        masks: list[int] = []
        below: list[int] = []
        for d_column, d_row in ((0, 1), (1, 0), (1, 1), (1, -1)):
            for column in range(width):
                for row in range(height):
                    cells = [(column + d_column * i, row + d_row * i) for i in range(connect)]
                    if not all(0 <= c < width and 0 <= r < height for c, r in cells):
                        continue
                    mask = 0
                    under = 0
                    for c, r in cells:
                        mask |= geometry.bit(c, r)
                        under |= geometry.column_mask(c) & (geometry.bit(c, r) - 1)
                    masks.append(mask)
                    below.append(under & ~mask)
        self.masks: tuple[int, ...] = tuple(masks)
        # ``below[i]``: the cells under window i, in its columns, that are not in it.
        self.below: tuple[int, ...] = tuple(below)
        middle = (width - 1) / 2
        self.center = 0
        for column in range(width):
            if abs(column - middle) < 1:
                self.center |= geometry.column_mask(column)
        self.full = geometry.full


_TABLES: dict[tuple[int, int, int], WindowTables] = {}
_TABLES_BY_GEOMETRY: dict[Geometry, WindowTables] = {}


def window_tables(geometry: Geometry) -> WindowTables:
    """The :class:`WindowTables` of ``geometry``'s board size, computed once per size."""
    tables = _TABLES_BY_GEOMETRY.get(geometry)
    if tables is None:
        key = (geometry.width, geometry.height, geometry.connect)
        tables = _TABLES.get(key)
        if tables is None:
            tables = _TABLES[key] = WindowTables(*key)
        _TABLES_BY_GEOMETRY[geometry] = tables
    return tables


def window_masks(width: int, height: int, connect: int) -> tuple[int, ...]:
    """The bit masks (board layout of :mod:`c4engine.geometry`) of every window of ``connect`` cells.

    Vertical windows first, then horizontal, then the two diagonals; cached per size.

    >>> len(window_masks(7, 6, 4))      # the 69 ways to make four on the standard board
    69
    >>> len(window_masks(3, 3, 3))
    8
    """
    return window_tables(Geometry.of(width, height, connect)).masks


# ------------------------------------------------------------------- areas


def area_score(board: Board, player: Player | None = None) -> int:
    """The classic c4 library's "score of player": the sum over its live windows of ``2**stones``.

    A window counts ``2**k`` for ``player`` when it holds ``k`` of ``player``'s
    stones and none of the opponent's (so an empty window counts 1), and
    nothing once the opponent has a stone in it.  ``player`` defaults to the
    side to move.

    >>> from c4engine.player import Player
    >>> area_score(Board(4, 4, 3))              # 4x4 connect 3: 24 empty windows
    24
    >>> board = Board.from_moves("1", 4, 4, 3)  # X in the corner: 3 windows hold it
    >>> area_score(board, Player.FIRST), area_score(board, Player.SECOND)
    (27, 21)
    """
    chosen = board.turn if player is None else player
    own = board.bits_of(chosen)
    other = board.mask_bits ^ own
    total = 0
    for window in window_tables(board.geometry).masks:
        if not other & window:
            total += 1 << (own & window).bit_count()
    return total


def areas(board: Board) -> int:
    """The classic c4 library's evaluation: :func:`area_score` of the side to move minus the opponent's.

    From the public-domain C "c4" library: every window of ``connect`` cells is
    worth ``2**k`` to a player with ``k`` stones in it as long as the opponent
    has none there.  Windows both players can still use count 1 for each and
    cancel.  Saturates at ``±(EVAL_LIMIT - 1)`` (only on huge boards).

    >>> areas(Board.from_moves("1", 4, 4, 3))   # 21 - 27: O to move, X has the corner
    -6
    """
    own = board.current_bits
    other = board.mask_bits ^ own
    score = 0
    for window in window_tables(board.geometry).masks:
        if other & window:
            if not own & window:
                score -= 1 << (other & window).bit_count()
        elif own & window:
            score += 1 << (own & window).bit_count()
    if score > _CAP:
        return _CAP
    if score < -_CAP:
        return -_CAP
    return score


# --------------------------------------------------------- threat distance


def threat_distance(board: Board) -> float:
    """Threats weighted by how soon they can be played, after a student minimax paper.

    A live window with ``k`` stones of one player (and none of the other)
    weighs ``10**(k - 1)`` -- 1, 10, 100 and 1000 for connect 4 -- divided by
    ``1 + d``.  ``d`` is the number of empty cells *under* the window's cells,
    in their columns, that are not part of the window: the stones that must
    drop elsewhere before the whole window can be filled.  A window lying on
    the stones has ``d = 0``; a vertical window waits only for the empty
    cells under its lowest cell.  The score is the side to move's sum minus the
    opponent's; it saturates at ``±(EVAL_LIMIT - 1)`` (only for connect 8 or
    more).

    >>> board = Board.from_moves("1", 4, 4, 3)   # X's corner: column 1, row 1, diagonal
    >>> threat_distance(board)                  # -(1/1 + 1/1 + 1/(1+3)), O to move
    -2.25
    """
    own = board.current_bits
    mask = board.mask_bits
    other = mask ^ own
    tables = window_tables(board.geometry)
    weights = _power_weights(board.connect)
    score = 0.0
    for window, under in zip(tables.masks, tables.below, strict=True):
        if other & window:
            if not own & window:
                score -= weights[(other & window).bit_count()] / (1 + (under & ~mask).bit_count())
        elif own & window:
            score += weights[(own & window).bit_count()] / (1 + (under & ~mask).bit_count())
    return _clamp(score)


_POWERS: dict[int, tuple[float, ...]] = {}


def _power_weights(connect: int) -> tuple[float, ...]:
    weights = _POWERS.get(connect)
    if weights is None:
        weights = _POWERS[connect] = (0.0, *(float(10 ** (k - 1)) for k in range(1, connect + 1)))
    return weights


# ----------------------------------------------------------------- windows


DEFAULT_WEIGHTS = WindowWeights(
    own=(0.18105, 122.483, 500.08), opponent=(-1.70379, -219.37, -279.656), center=47.3428
)
"""The weights of :func:`windows` on connect-4 boards.

Tuned by ``c4 tune`` (CMA-ES, depth 5, 15 552 games, from the earlier
hand-picked 1/10/100, -1/-10/-120, centre 3 -- still :meth:`WindowWeights.for_connect`
of connect 4); provenance and validation matches in docs/tuning.md.
"""


class WindowsEvaluator:
    """The ``windows`` evaluator with the given :class:`WindowWeights`.

    ``weights=None`` uses :meth:`WindowWeights.for_connect` of each board
    (:data:`DEFAULT_WEIGHTS` for connect 4).  Weights for a different
    connect-N than the board's raise :class:`~c4engine.errors.WeightsError`.

    >>> evaluate = WindowsEvaluator(WindowWeights(own=(1, 10, 100), opponent=(-1, -10, -100), center=0))
    >>> evaluate(Board.from_moves("4"))     # O to move; X's stone is in 7 windows, each with 1 X
    -7.0
    """

    __slots__ = ("_by_connect", "_weights")

    def __init__(self, weights: WindowWeights | None = None) -> None:
        if weights is not None and not isinstance(weights, WindowWeights):
            raise WeightsError(f"weights must be WindowWeights, not {type(weights).__name__}")
        self._weights = weights
        # connect -> (own weight by stone count, opponent weight by stone count, centre weight)
        self._by_connect: dict[int, tuple[tuple[float, ...], tuple[float, ...], float]] = {}

    @property
    def weights(self) -> WindowWeights | None:
        """The weights given (``None``: the defaults of each board's connect-N).  Read-only."""
        return self._weights

    def weights_by_count(self, connect: int) -> tuple[tuple[float, ...], tuple[float, ...], float]:
        """The weights on connect ``connect`` as ``(own, opponent, center)``, indexed by stone count.

        ``own[k]`` scores a window holding ``k`` stones of the side to move
        and none of the other (``opponent[k]`` the reverse); counts 0 and
        ``connect`` score 0.  Weights for another connect-N raise
        :class:`~c4engine.errors.WeightsError`.

        >>> WindowsEvaluator(WindowWeights((1, 10), (-1, -10), 2)).weights_by_count(3)
        ((0.0, 1.0, 10.0, 0.0), (0.0, -1.0, -10.0, 0.0), 2.0)
        """
        found = self._by_connect.get(connect)
        if found is None:
            weights = self._weights
            if weights is None:
                weights = DEFAULT_WEIGHTS if connect == 4 else WindowWeights.for_connect(connect)
            weights.check_connect(connect)
            found = self._by_connect[connect] = (
                (0.0, *weights.own, 0.0),
                (0.0, *weights.opponent, 0.0),
                weights.center,
            )
        return found

    def __call__(self, board: Board) -> float:
        geometry = board.geometry
        own_weights, opponent_weights, center = self.weights_by_count(geometry.connect)
        own = board.current_bits
        other = board.mask_bits ^ own
        tables = window_tables(geometry)
        score = 0.0
        for window in tables.masks:
            if other & window:
                if not own & window:
                    score += opponent_weights[(other & window).bit_count()]
            elif own & window:
                score += own_weights[(own & window).bit_count()]
        if center:
            middle = tables.center
            score += center * ((own & middle).bit_count() - (other & middle).bit_count())
        return _clamp(score)

    def __repr__(self) -> str:
        return f"WindowsEvaluator({self.weights!r})"


_DEFAULT_WINDOWS = WindowsEvaluator()


def windows(board: Board) -> float:
    """The ``windows`` evaluator with the default weights for the board's connect-N.

    :data:`DEFAULT_WEIGHTS` on connect-4 boards, :meth:`WindowWeights.for_connect`
    otherwise.  See :class:`WindowWeights` for what is counted.

    >>> round(windows(Board.from_moves("4")), 4)  # 7 windows with one X (7 x -1.70379), X in the centre
    -59.2693
    """
    return _DEFAULT_WINDOWS(board)


# ------------------------------------------------------------ by name

EVALUATORS: dict[str, Evaluator] = {
    "areas": areas,
    "threat_distance": threat_distance,
    "windows": windows,
}
"""The built-in evaluators by name."""


def evaluator_by_name(name: str) -> Evaluator:
    """The built-in evaluator called ``name``.

    >>> evaluator_by_name("areas") is areas
    True
    >>> evaluator_by_name("minmax")
    Traceback (most recent call last):
    ...
    c4engine.errors.UnknownEvaluatorError: unknown evaluator 'minmax'; choose areas, threat_distance, windows
    """
    try:
        return EVALUATORS[name]
    except (KeyError, TypeError):
        raise UnknownEvaluatorError(
            f"unknown evaluator {name!r}; choose {', '.join(sorted(EVALUATORS))}"
        ) from None
