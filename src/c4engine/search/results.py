"""The results vocabulary of every search, as plain data.

* :class:`Score` -- one value for the side to move: exact, on the scale of
  the published solver benchmarks (see :mod:`c4engine.search.scale`), or
  the heuristic engine's estimate; it converts between the two scales and
  says itself in words ("win in 5 moves", "draw", "loss in 8 moves").
* :class:`PositionAnalysis` -- what the analysis service
  (:mod:`c4engine.search.analysis.analyst`) answers of every column (each a
  :class:`ColumnAnalysis`, :attr:`PositionAnalysis.columns`): its score,
  saying whether it is proven and where it came from (:data:`Source`).
* :class:`PlayResult` -- a chosen move, its score, source and proof, line and
  cost: what the engine, the analysis service and every player answer.
* :class:`Line` -- best play from a position, and whether it reaches the end.

These are the public answers, with a game's :class:`~c4engine.search.review.answers.Review`:
one a question.  The searches' own results (the solver's, :mod:`c4engine.search.solver.answers`;
the quick search's and the compiled engine's) stay inside the search layer, which turns them
into these (``tests/test_layers.py`` checks that no module above imports them).

These live apart from the searches so that code answering without one (from
the opening book) builds the same results without importing numba.

>>> Score.proven_value(18, cells=42, stones=6).describe()
'win in 1 move'
>>> from c4engine.search.scale import WIN_SCORE
>>> Score.from_engine(WIN_SCORE - 3, cells=42, stones=6)   # the engine proved a win at ply 3
Score(17, proven, 6 of 42 stones)
>>> Score.estimate(12.5, cells=42, stones=6).label(), Score.estimate(-0.04, cells=42, stones=6).label()
('≈ +12.5', '≈ +0.0')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from c4engine.kernels.transposition import DEFAULT_TABLE_MB, MIN_TABLE_MB, check_table_mb
from c4engine.search.scale import (
    WIN_THRESHOLD,
    from_engine,
    moves_to_end,
    open_range,
    proves_nothing,
    to_engine,
)

__all__ = [
    "DEFAULT_TABLE_MB",
    "MIN_TABLE_MB",
    "ColumnAnalysis",
    "Line",
    "PlayResult",
    "PositionAnalysis",
    "Score",
    "Source",
    "bound_moves",
    "bound_words",
    "check_table_mb",
    "score_words",
]
"""The public answers; and the table sizes, the kernels' own, which the layers above read here (they never
import a kernel)."""

Source = Literal["rules", "book", "solver", "engine"]
"""Where an answer came from: the rules (a win on the spot, a full board), the opening book, the exact
solver, or the heuristic engine (an estimate unless it saw the end of the game)."""


def score_words(score: int, cells: int = 42, stones: int = 0, weak: bool = False) -> str:
    """A score in words, for the side to move: "win in N moves", "draw", "loss in N moves".

    N counts the winner's own moves from now, the winning stone included.
    ``weak`` scores (-1, 0, 1) are just "win", "draw", "loss".

    >>> score_words(18, 42, 6)
    'win in 1 move'
    >>> score_words(0)
    'draw'
    >>> score_words(-2, 42, 1)
    'loss in 19 moves'
    >>> score_words(-1, weak=True)
    'loss'
    """
    if score == 0:
        return "draw"
    if weak:
        return "win" if score > 0 else "loss"
    n = moves_to_end(score, cells, stones)
    plural = "move" if n == 1 else "moves"
    return f"{'win' if score > 0 else 'loss'} in {n} {plural}"


@dataclass(frozen=True)
class Score:
    """A value of a position for the side to move: exact, or the heuristic engine's estimate.

    An exact score (:attr:`proven`) is an ``int`` on the solver benchmarks'
    scale -- positive: the side to move wins, sooner for larger values; 0: a
    draw; negative: it loses -- or, for a weak score, just -1, 0 or 1.  An
    estimate is the engine's evaluation (positive is good for the side to
    move; no unit).  ``cells`` and ``stones`` are the board's, so the score
    can say how many moves are left.

    Scores of one position compare as a player would: :meth:`rank` orders
    exact wins (quicker first) above estimates above exact losses, and a
    draw above any estimate below zero.
    """

    value: float
    proven: bool
    cells: int
    stones: int
    weak: bool = False

    @classmethod
    def proven_value(cls, score: int, *, cells: int, stones: int, weak: bool = False) -> Score:
        """An exact score (solver scale; -1/0/1 when ``weak``)."""
        return cls(int(score), True, cells, stones, weak)

    @classmethod
    def estimate(cls, value: float, *, cells: int, stones: int) -> Score:
        """The heuristic engine's estimate."""
        return cls(float(value), False, cells, stones)

    @classmethod
    def from_engine(cls, value: float, *, cells: int, stones: int) -> Score:
        """The engine's value: exact when it is a win or loss the search saw to the end, else an estimate.

        >>> from c4engine.search.scale import WIN_SCORE
        >>> Score.from_engine(-(WIN_SCORE - 2), cells=42, stones=0).describe()
        'loss in 1 move'
        """
        score = from_engine(value, cells, stones)
        if score is None:
            return cls.estimate(value, cells=cells, stones=stones)
        return cls.proven_value(score, cells=cells, stones=stones)

    def engine_value(self) -> float:
        """This score on the engine's scale (an exact win in ``n`` moves is ``WIN_SCORE`` less its plies).

        >>> from c4engine.search.scale import WIN_SCORE
        >>> Score.proven_value(-2, cells=42, stones=1).engine_value() == -(WIN_SCORE - 38)
        True
        """
        if not self.proven or self.value == 0:
            return float(self.value)
        if self.weak:
            return float(self.value) * WIN_THRESHOLD
        return to_engine(int(self.value), self.cells, self.stones)

    @property
    def outcome(self) -> Literal["win", "draw", "loss", "unknown"]:
        """The game's result under best play, for the side to move, when exact."""
        if not self.proven:
            return "unknown"
        return "win" if self.value > 0 else "loss" if self.value < 0 else "draw"

    @property
    def moves(self) -> int | None:
        """How many moves the winner makes up to its winning stone (None for a draw, weak or estimate)."""
        if not self.proven or self.weak or self.value == 0:
            return None
        return moves_to_end(int(self.value), self.cells, self.stones)

    def rank(self) -> tuple[int, float]:
        """A sort key: higher is better for the side to move (see the class notes)."""
        if self.proven:
            if self.value > 0:
                return (3, self.value)
            return (1, 0.0) if self.value == 0 else (-1, self.value)
        return (2, self.value) if self.value > 0 else (0, self.value)

    def label(self) -> str:
        """Short words: ``"win in 5"``, ``"draw"``, ``"loss in 8"``, ``"win"`` (weak), ``"≈ +12.5"``."""
        if not self.proven:
            return f"≈ {round(self.value, 1) + 0.0:+.1f}"  # + 0.0: a small negative is "+0.0", not "-0.0"
        moves = self.moves
        return self.outcome if moves is None else f"{self.outcome} in {moves}"

    def describe(self) -> str:
        """Words: ``"win in 5 moves"``, ``"draw"``, ``"estimate +12.5 (not proven)"``."""
        if not self.proven:
            return f"estimate {self.value:+.1f} (not proven)"
        return score_words(int(self.value), self.cells, self.stones, self.weak)

    def __repr__(self) -> str:
        kind = "proven" if self.proven else "estimate"
        weak = ", weak" if self.weak else ""
        return f"Score({self.value!r}, {kind}{weak}, {self.stones} of {self.cells} stones)"


def bound_words(lower: int, upper: int, cells: int, stones: int, weak: bool = False) -> str:
    """What the proven interval ``[lower, upper]`` of a score says, in a player's words.

    Exact: ``"win in 17"``, ``"draw"``, ``"loss in 8"``; a proven win or loss
    whose distance is open: ``"win in ≤ 9"`` (no later than that move),
    ``"loss in ≤ 8"``; ``"at least a draw"``, ``"draw or loss"``;
    ``"estimate, not proven"`` when the interval still holds a win and a loss; and ``"unknown"``
    when it holds every score the position could have (:func:`~c4engine.search.scale.proves_nothing`).

    >>> [bound_words(lo, hi, 42, 8) for lo, hi in ((5, 5), (0, 0), (2, 7), (0, 4), (-3, 0), (-6, 3))]
    ['win in 13', 'draw', 'win in ≤ 16', 'at least a draw', 'draw or loss', 'estimate, not proven']
    >>> bound_words(-17, -16, 42, 8), bound_words(-17, 16, 42, 8)
    ('loss in ≤ 2', 'unknown')
    """
    if proves_nothing(lower, upper, cells, stones, weak):
        return "unknown"
    if lower == upper:
        return Score.proven_value(lower, cells=cells, stones=stones, weak=weak).label()
    at_most = bound_moves(lower, upper, cells, stones, weak)
    if lower > 0:
        return "win" if at_most is None else f"win in ≤ {at_most}"
    if upper < 0:
        return "loss" if at_most is None else f"loss in ≤ {at_most}"
    if lower == 0:
        return "at least a draw"
    if upper == 0:
        return "draw or loss"
    return "estimate, not proven"


def bound_moves(lower: int, upper: int, cells: int, stones: int, weak: bool = False) -> int | None:
    """When the open interval ``[lower, upper]`` proves a win or a loss but not its distance: the most
    moves its winner makes up to the winning stone; else (exact, weak, or neither proven) None.

    >>> bound_moves(2, 7, 42, 8), bound_moves(-17, -16, 42, 8), bound_moves(0, 4, 42, 8)
    (16, 2, None)
    """
    if lower == upper or weak:
        return None
    if lower > 0:
        return moves_to_end(lower, cells, stones)
    if upper < 0:
        return moves_to_end(upper, cells, stones)
    return None


@dataclass(frozen=True)
class ColumnAnalysis:
    """One playable column of a :class:`PositionAnalysis`: what is proven about it and what is guessed.

    ``lower`` and ``upper`` bound the exact score of playing ``column``
    (0-based) on the solver's scale (-1, 0, 1 when weak); they are equal
    when the score is proven (:attr:`proven`).  ``score`` is that exact score,
    or the heuristic engine's estimate when unproven (then :attr:`estimate`).
    ``pv`` is best play starting with this column (0-based): for an exact
    score, to the end of the game when ``pv_complete`` (the winning stone,
    or the full board for a draw).
    """

    column: int
    score: Score
    lower: int
    upper: int
    source: Source
    pv: tuple[int, ...]
    pv_complete: bool

    @property
    def proven(self) -> bool:
        """Whether the column's score is proven (``lower == upper``)."""
        return self.score.proven

    @property
    def estimate(self) -> float | None:
        """The engine's estimate (its own units), or None for a proven score."""
        return None if self.score.proven else float(self.score.value)

    @property
    def moves_at_most(self) -> int | None:
        """A win or a loss proven without its distance: the most moves its winner makes
        (:func:`bound_moves`); else None."""
        return bound_moves(self.lower, self.upper, self.score.cells, self.score.stones, self.score.weak)

    def label(self) -> str:
        """The column in a player's words (:func:`bound_words`): ``"win in 17"``, ``"at least a draw"``..."""
        return bound_words(self.lower, self.upper, self.score.cells, self.score.stones, self.score.weak)

    def to_json(self) -> dict[str, Any]:
        """This column's JSON (1-based columns): see :meth:`PositionAnalysis.to_json`."""
        estimate = self.estimate
        return {
            "column": self.column + 1,
            "lower": self.lower,
            "upper": self.upper,
            "score": int(self.score.value) if self.proven else None,
            "proven": self.proven,
            "estimate": None if estimate is None else round(estimate, 1) + 0.0,  # + 0.0: no -0.0
            "pv": [column + 1 for column in self.pv],
            "pv_complete": self.pv_complete,
            "label": self.label(),
            "source": self.source,
        }


@dataclass(frozen=True)
class PositionAnalysis:
    """Every column's score and proven bounds, from :meth:`c4engine.search.analysis.analyst.Analyst.analyze`.

    ``columns[c]`` is column ``c``'s :class:`ColumnAnalysis` (None for a full
    column): its score for the side to move if it plays there, the proven
    bounds of its exact score, where it came from and its line.  The
    per-column views :attr:`scores`, :attr:`sources`, :attr:`lowers`,
    :attr:`uppers`, :attr:`lines` and :attr:`lines_complete` read them.

    ``best_columns`` follow the dominance rule: a column is *out* when its
    upper bound is below another column's lower bound; when some column's
    lower bound reaches every other column's upper bound, the best are such
    columns and ``best_proven`` is True; otherwise they are the columns not
    out that rank first by their lower bound's result (win, draw, loss), then
    by the estimate (held within the bounds).  So a recommendation is never a
    column that another is proven better than.  ``pv`` is the line of the
    recommended column (the most central best one), ``pv_proven`` whether it is
    proven best play to the end of the game.
    ``nodes_per_thread`` splits ``nodes`` between the solver's threads (the
    first thread's share counts the engine's too); empty when one searched.
    ``book_score`` is the position's own exact score from the opening book
    (None when the book does not hold it): proven even while no column is yet
    shown to reach it.  :attr:`score_bounds` are the proven bounds of the
    position's own score, the book's or the columns'.
    """

    columns: tuple[ColumnAnalysis | None, ...]
    best_columns: tuple[int, ...]
    pv: tuple[int, ...]
    pv_proven: bool
    nodes: int
    time: float
    best_proven: bool
    nodes_per_thread: tuple[int, ...] = ()
    book_score: int | None = None

    @property
    def proven(self) -> bool:
        """Whether every playable column's score is proven."""
        return all(column.proven for column in self.columns if column is not None)

    @property
    def scores(self) -> tuple[Score | None, ...]:
        """Each column's score (None for a full column)."""
        return tuple(None if column is None else column.score for column in self.columns)

    @property
    def sources(self) -> tuple[Source | None, ...]:
        """Where each column's score came from (None for a full column)."""
        return tuple(None if column is None else column.source for column in self.columns)

    @property
    def lowers(self) -> tuple[int | None, ...]:
        """Each column's proven lower bound (None for a full column)."""
        return tuple(None if column is None else column.lower for column in self.columns)

    @property
    def uppers(self) -> tuple[int | None, ...]:
        """Each column's proven upper bound (None for a full column)."""
        return tuple(None if column is None else column.upper for column in self.columns)

    @property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """Each column's line, starting with it (empty for a full column)."""
        return tuple(() if column is None else column.pv for column in self.columns)

    @property
    def lines_complete(self) -> tuple[bool, ...]:
        """Whether each column's line reaches the end of the game."""
        return tuple(column is not None and column.pv_complete for column in self.columns)

    @property
    def score(self) -> Score:
        """The position's own score: its best column's."""
        best = self.scores[self.best_columns[0]]
        assert best is not None
        return best

    @property
    def score_bounds(self) -> tuple[int, int]:
        """The proven bounds of the position's own score (solver scale): the book's score, else the
        best of the columns' lower bounds and the best of their upper bounds."""
        if self.book_score is not None:
            return self.book_score, self.book_score
        lowers = [low for low in self.lowers if low is not None]
        uppers = [high for high in self.uppers if high is not None]
        return max(lowers), max(uppers)

    @property
    def score_source(self) -> Source:
        """Where the position's own score comes from: the book when it holds the position, else
        :attr:`source`."""
        return "book" if self.book_score is not None else self.source

    def score_json(self) -> dict[str, Any]:
        """The position's own score as JSON: ``lower``, ``upper``, ``score`` (null unless proven),
        ``proven``, ``label`` (:func:`bound_words`) and ``source``."""
        lower, upper = self.score_bounds
        like = self.score
        return {
            "lower": lower,
            "upper": upper,
            "score": lower if lower == upper else None,
            "proven": lower == upper,
            "label": bound_words(lower, upper, like.cells, like.stones, like.weak),
            "source": self.score_source,
        }

    @property
    def source(self) -> Source:
        """The weakest source among the columns' (engine, then solver, then book, then rules)."""
        order: tuple[Source, ...] = ("engine", "solver", "book", "rules")
        used = {source for source in self.sources if source is not None}
        return next(source for source in order if source in used)

    def proven_values(self) -> tuple[int | None, ...]:
        """Each column's exact score as an ``int`` (None for a full or unproven column)."""
        return tuple(None if s is None or not s.proven else int(s.value) for s in self.scores)

    def describe(self) -> str:
        """The position's score in words, and whether the best columns are proven best."""
        if self.best_proven or self.proven:
            return self.score.describe()
        column = self.columns[self.best_columns[0]]
        assert column is not None
        lower, upper = self.score_bounds
        if lower == upper:  # the book's score, no column yet shown to reach it
            like = column.score
            position = Score.proven_value(lower, cells=like.cells, stones=like.stones, weak=like.weak)
            return f"{position.describe()}; not proven best"
        return f"{column.label()}; not proven best"

    def to_json(self, position: str, size: str, connect: int) -> dict[str, Any]:
        """The analysis as JSON for machines, the one shape every front-end gives (docs/analysis.md).

        ``position`` (a move string), ``size`` (``"7x6"``) and ``connect``
        name the position.  ``columns`` has one entry a column, null for a
        full one, else: ``column`` (1-based), ``lower`` and ``upper`` (the
        proven bounds of its exact score, solver scale), ``score`` (the exact
        score, null when unproven), ``proven``, ``estimate`` (the engine's, in
        its own units, null when exact), ``pv`` (best play, 1-based, starting
        with this column), ``pv_complete`` (the line reaches the end of the
        game), ``label`` (:func:`bound_words`) and ``source``.  ``best`` are
        the best columns by the dominance rule (1-based), ``best_proven``
        whether they are proven best, ``source`` the weakest source used,
        ``proven`` whether every column is proven, ``move`` the recommended
        column (the most central of ``best``), ``pv`` its line and
        ``pv_proven`` whether that line is proven best play to the end.
        ``position_score`` is the position's own score (:meth:`score_json`).

        >>> from c4engine.search.analysis.analyst import Analyst
        >>> from c4engine import Board
        >>> board = Board.from_moves("4455")
        >>> found = Analyst().analyze(board).to_json(board.move_string, board.size, board.connect)
        >>> found["columns"][2]
        {'column': 3, 'lower': 18, 'upper': 18, 'score': 18, 'proven': True, 'estimate': None, \
'pv': [3, 4, 2], 'pv_complete': True, 'label': 'win in 2', 'source': 'book'}
        >>> found["best"], found["best_proven"], found["move"], found["pv"], found["pv_proven"]
        ([3, 6], True, 3, [3, 4, 2], True)
        >>> found["position_score"]
        {'lower': 18, 'upper': 18, 'score': 18, 'proven': True, 'label': 'win in 2', 'source': 'book'}
        """
        return {
            "position": position,
            "size": size,
            "connect": connect,
            "position_score": self.score_json(),
            "columns": [None if column is None else column.to_json() for column in self.columns],
            "best": [column + 1 for column in self.best_columns],
            "best_proven": self.best_proven,
            "source": self.source,
            "proven": self.proven,
            "move": self.pv[0] + 1,
            "pv": [column + 1 for column in self.pv],
            "pv_proven": self.pv_proven,
        }


@dataclass(frozen=True)
class Line:
    """Best play from a position, each move keeping the exact score: the answer of
    :meth:`Analyst.line <c4engine.search.analysis.analyst.Analyst.line>`.

    ``moves`` are 0-based columns; ``complete`` says whether they reach the end of the game (the
    winning stone, or the full board for a draw) -- a limit, or a book without a search, may stop
    them short.

    >>> line = Line((3, 3, 2), complete=False)
    >>> str(line), line.to_json()
    ('4 4 3 ...', {'pv': [4, 4, 3], 'pv_complete': False})
    """

    moves: tuple[int, ...]
    complete: bool

    def __str__(self) -> str:
        shown = " ".join(str(column + 1) for column in self.moves)
        return shown if self.complete else f"{shown} ..."

    def to_json(self) -> dict[str, Any]:
        """The moves 1-based, as ``pv`` and ``pv_complete`` in every other answer."""
        return {"pv": [column + 1 for column in self.moves], "pv_complete": self.complete}


@dataclass(frozen=True, kw_only=True)
class PlayResult:
    """A chosen move and what is known of it: the one answer of every player and every search that
    picks a move (:meth:`Engine.search <c4engine.search.engine.negamax.Engine.search>`,
    :meth:`Analyst.solve <c4engine.search.analysis.analyst.Analyst.solve>`, the players' ``last``).

    ``column`` is 0-based (None only when a question asked for the score alone and no move was
    found on the way: ``Analyst.solve(best_move=False)``).  ``score`` is the position's value
    for the side to move (:class:`Score`: exact or the engine's estimate; None when a limit
    stopped the solver before it proved or estimated anything).  ``source`` says where the answer
    came from and ``proven`` whether the move is proven best: it keeps the exact score.  ``line``
    is the expected play from this move on, as far as known (``line_complete``: it is best play
    to the end of the game).  ``lower`` and ``upper`` bound the position's exact score (solver
    scale) as far as proved (None: nothing proved on that side; equal when exact).  ``nodes`` and
    ``time`` (wall-clock seconds) are the search's cost, ``depth`` the engine's last depth
    completed (None when the engine did not choose the move), ``stopped`` why the search ended
    before it finished (``"time limit"``, ``"node limit"``, ``"stopped by poll"``,
    ``"cancelled"``), None when it finished.

    >>> won = PlayResult(column=2, score=Score.proven_value(18, cells=42, stones=6), source="rules",
    ...                  proven=True, line=(2,), lower=18, upper=18, line_complete=True)
    >>> won
    PlayResult(column 3: win in 1 move, rules, proven, line 3, 0 nodes, 0.000 s)
    >>> won.describe()
    'win in 1 move'
    >>> PlayResult(column=4, score=Score.estimate(12.5, cells=42, stones=9), source="engine",
    ...            proven=False, lower=-3, upper=15, stopped="time limit").describe()
    'unknown (time limit): between loss in 14 moves and win in 3 moves; estimate +12.5 (not proven)'
    >>> PlayResult(column=4, score=Score.estimate(12.5, cells=42, stones=9), source="engine",
    ...            proven=False, lower=-17, upper=0, stopped="time limit").describe()
    'unknown (time limit): at most a draw; estimate +12.5 (not proven)'
    >>> PlayResult(column=4, score=Score.estimate(-3.0, cells=64, stones=4), source="engine",
    ...            proven=False, lower=-30, upper=29, stopped="time limit").describe()
    'unknown (time limit): nothing proven; estimate -3.0 (not proven)'
    """

    column: int | None
    score: Score | None
    source: Source
    proven: bool
    line: tuple[int, ...] = ()
    nodes: int = 0
    time: float = 0.0
    depth: int | None = None
    lower: int | None = None
    upper: int | None = None
    line_complete: bool = False
    stopped: str | None = None
    nodes_per_thread: tuple[int, ...] = ()
    """The solver's ``nodes`` split between its threads, the caller's first (empty when the solver
    did not answer alone)."""

    def to_json(self) -> dict[str, Any]:
        """The move as JSON for machines, the one shape every front-end gives (docs/analysis.md).

        ``column`` (1-based, null when no move was asked for), ``proven`` (the move keeps the exact
        score), ``score`` (the position's exact score for the side to move, solver scale; null when
        not proven), ``estimate`` (the engine's value in its own units; null when exact or none),
        ``lower`` and ``upper`` (the proven bounds, solver scale; null where nothing is proven),
        ``label`` (:meth:`describe`), ``source``, ``pv`` (the expected play from this move on,
        1-based) and ``pv_complete`` (it reaches the end of the game), ``depth`` (the engine's),
        ``nodes``, ``time`` (seconds) and ``stopped`` (why the search ended early; null when it
        finished).

        >>> won = PlayResult(column=2, score=Score.proven_value(18, cells=42, stones=6), source="rules",
        ...                  proven=True, line=(2,), lower=18, upper=18, line_complete=True)
        >>> won.to_json()["column"], won.to_json()["score"], won.to_json()["label"]
        (3, 18, 'win in 1 move')
        """
        score = self.score
        exact = score is not None and score.proven
        return {
            "column": None if self.column is None else self.column + 1,
            "proven": self.proven,
            "score": int(score.value) if exact and score is not None else None,
            "estimate": None if score is None or exact else round(score.value, 1) + 0.0,  # no -0.0
            "lower": self.lower,
            "upper": self.upper,
            "label": self.describe(),
            "source": self.source,
            "pv": [column + 1 for column in self.line],
            "pv_complete": self.line_complete,
            "depth": self.depth,
            "nodes": self.nodes,
            "time": round(self.time, 4),
            "stopped": self.stopped,
        }

    def describe(self) -> str:
        """The value in words: the exact score's, else what is proven, then the estimate.

        ``"win in 5 moves"``, ``"unknown (time limit): between draw and win in 9 moves"``,
        ``"estimate +12.5 (not proven)"``; without a score, the bounds on the solver's scale.
        """
        score, lower, upper = self.score, self.lower, self.upper
        if score is not None and score.proven:
            return score.describe()
        unknown = f"unknown ({self.stopped or 'stopped'})"
        if score is None:
            bounds = [f"at least {lower}"] * (lower is not None) + [f"at most {upper}"] * (upper is not None)
            return ": ".join([unknown, ", ".join(bounds)] if bounds else [unknown])
        if lower is None or upper is None:
            return score.describe() if self.stopped is None else f"{unknown}; {score.describe()}"
        if lower == upper:
            return Score.proven_value(
                lower, cells=score.cells, stones=score.stones, weak=score.weak
            ).describe()
        return f"{unknown}: {_between(lower, upper, score)}; {score.describe()}"

    def __repr__(self) -> str:
        column = "no column" if self.column is None else f"column {self.column + 1}"
        proven = "proven" if self.proven else "not proven"
        line = " ".join(str(move + 1) for move in self.line) or "-"
        depth = "" if self.depth is None else f", depth {self.depth}"
        stopped = "" if self.stopped is None else f", stopped: {self.stopped}"
        return (
            f"PlayResult({column}: {self.describe()}, {self.source}, {proven}, line {line}{depth}, "
            f"{self.nodes} nodes, {self.time:.3f} s{stopped})"
        )


def _between(lower: int, upper: int, like: Score) -> str:
    """Proven bounds of a position's score in words, a bound that proves nothing left out (a score
    ``like`` its own gives the board and the scale): ``"between draw and win in 9 moves"``."""
    cells, stones, weak = like.cells, like.stones, like.weak
    if proves_nothing(lower, upper, cells, stones, weak):
        return "nothing proven"
    low, high = (-1, 1) if weak else open_range(cells, stones)
    if lower <= low:
        return f"at most {_article(score_words(upper, cells, stones, weak))}"
    if upper >= high:
        return f"at least {_article(score_words(lower, cells, stones, weak))}"
    return f"between {score_words(lower, cells, stones, weak)} and {score_words(upper, cells, stones, weak)}"


def _article(words: str) -> str:
    """``"a draw"`` for ``"draw"``; the other words as they are."""
    return "a draw" if words == "draw" else words
