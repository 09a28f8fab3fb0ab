"""Game review: every move of a game scored, mistakes marked, the better line shown.

:func:`review_game` (also :meth:`c4engine.search.analysis.Analyst.review`)
asks the analyst about every position of a game -- from the last move back
to the first, so that the solver's table, warm from the end of the game,
makes the earlier positions cheap, and the opening book answers the
opening -- and compares the move played with the best one:

* **best** -- the move kept the mover's score;
* **inaccuracy** -- same result, but a slower win or a quicker loss;
* **mistake** -- a win thrown to a draw, or a draw to a loss;
* **blunder** -- a win thrown to a loss;
* **not proven** -- the limit ran out (or the board is too big for the
  solver) before the comparison was proven: the ply carries the proven
  bounds and the engine's estimate, and no verdict it has not proven.

Every score is on the solver's scale (see :mod:`c4engine.search.solver`),
from the mover's view: ``score_before`` is the best any column gets,
``score_after`` what the played column gets.  Where only bounds are proven,
a verdict is still given when the bounds prove it (a proven win answered by
a move proven to be at most a draw is at least a mistake: ``or_worse``
says when the move may be worse than its verdict).

>>> from c4engine.search.analysis import Analyst
>>> from c4engine.search.limit import UNLIMITED
>>> review = Analyst().review("44556", UNLIMITED)      # no cap a ply: every score and line proven
>>> print(review)
ply  side  col  before      after       verdict
  1  X     4    win in 21   win in 21   best
  2  O     4    loss in 20  loss in 20  best
  3  X     5    win in 20   loss in 19  ?? blunder  (best 4: 4 4 4 4 3 2 6 5 ...)
  4  O     5    win in 19   loss in 2   ?? blunder  (best 3: 3 3 4 4 4 4 6 6 ...)
  5  X     6    win in 2    win in 2    best
<BLANKLINE>
X: 3 moves, accuracy 67 %, 0 inaccuracies, 0 mistakes, 1 blunder
O: 2 moves, accuracy 50 %, 0 inaccuracies, 0 mistakes, 1 blunder
>>> review.summary.turning_points, review.to_json()["plies"][2]["verdict"]
((3, 4), 'blunder')
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol

from c4engine.board import Board, Player
from c4engine.errors import NotationError
from c4engine.notation import format_moves
from c4engine.search.limit import Limit
from c4engine.search.results import PositionAnalysis, Verdict, bound_words
from c4engine.search.scale import score_range

if TYPE_CHECKING:
    from c4engine.search.analysis import Analyst, Poll

__all__ = [
    "DEFAULT_PLY_LIMIT",
    "MARKS",
    "VERDICTS",
    "GameLike",
    "PlyReview",
    "Review",
    "ReviewProgress",
    "ReviewSummary",
    "SideSummary",
    "review_game",
]

PlyVerdict = Literal["best", "inaccuracy", "mistake", "blunder", "not proven"]

VERDICTS: Final[tuple[PlyVerdict, ...]] = ("best", "inaccuracy", "mistake", "blunder", "not proven")
"""Every verdict a ply can get, from the best to none."""

MARKS: Final[dict[str, str]] = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The annotation marks of the verdicts that cost something."""

DEFAULT_PLY_LIMIT: Final = Limit(time=1.0)
"""What one ply's analysis may cost by default: about a second."""

SOLVE_SHARE: Final = 0.7
"""The part of a ply's time for the exact way (the solver); the rest, if that does not prove it all,
for the full analysis with the engine's estimates."""


class GameLike(Protocol):
    """Anything that can give the board its moves lead to (a :class:`c4engine.play.record.GameRecord`)."""

    def to_board(self) -> Board: ...


@dataclass(frozen=True)
class PlyReview:
    """One move of a reviewed game, from the mover's view, on the solver's scale.

    ``index`` is 0-based (the ply number less one), ``column`` the 0-based
    column played.  ``before_lower``/``before_upper`` bound the best score
    any column gets, ``lower``/``upper`` the score of the column played
    (equal when exact).  ``estimate`` and ``best_estimate`` are the
    engine's estimates (its own units) of the played and the best column,
    None where exact.  ``best`` are the best columns (0-based): proven when
    ``best_proven`` (all of them when ``best_complete``: the limit may run
    out before every column is compared), else the analysis' recommendation.  ``pv`` is the
    proven best column's line, to the end of the game when ``pv_complete``,
    where the move was not proven best (empty when it was, or when no
    column is proven best).
    """

    index: int
    player: Player
    column: int
    cells: int
    before_lower: int
    before_upper: int
    lower: int
    upper: int
    estimate: float | None
    best_estimate: float | None
    best: tuple[int, ...]
    best_proven: bool
    best_complete: bool
    verdict: PlyVerdict
    or_worse: bool
    pv: tuple[int, ...]
    pv_complete: bool

    @property
    def ply(self) -> int:
        """The 1-based ply number."""
        return self.index + 1

    @property
    def exact(self) -> bool:
        """Whether both scores, before and after the move, are proven exactly."""
        return self.lower == self.upper and self.before_lower == self.before_upper

    @property
    def score_before(self) -> int | None:
        """The best any column gets, exact; None when not proven."""
        return self.before_lower if self.before_lower == self.before_upper else None

    @property
    def score_after(self) -> int | None:
        """What the played column gets, exact; None when not proven."""
        return self.lower if self.lower == self.upper else None

    @property
    def mark(self) -> str:
        """``"?!"``, ``"?"`` or ``"??"`` for a costly move, else ``""``."""
        return MARKS.get(self.verdict, "")

    @property
    def changed_result(self) -> bool:
        """Whether the move is proven to have changed the game's result (a mistake or a blunder)."""
        return self.verdict in ("mistake", "blunder")

    def first_player_bounds(self) -> tuple[int, int]:
        """The played column's bounds from the first player's view (the evaluation graph's scale)."""
        if self.player is Player.FIRST:
            return self.lower, self.upper
        return -self.upper, -self.lower

    def words_before(self) -> str:
        """The best score in words: ``"win in 5"``, ``"at least a draw"``, ``"≈ +12.0"``..."""
        return _bound_words(self.before_lower, self.before_upper, self.best_estimate, self.cells, self.index)

    def words_after(self) -> str:
        """The played column's score in words."""
        return _bound_words(self.lower, self.upper, self.estimate, self.cells, self.index)

    def to_json(self) -> dict[str, Any]:
        """The ply's JSON (1-based plies and columns): see :meth:`Review.to_json`."""
        return {
            "ply": self.ply,
            "player": int(self.player),
            "column": self.column + 1,
            "score_before": self.score_before,
            "score_after": self.score_after,
            "exact": self.exact,
            "lower": self.lower,
            "upper": self.upper,
            "before_lower": self.before_lower,
            "before_upper": self.before_upper,
            "estimate": _rounded(self.estimate),
            "best_estimate": _rounded(self.best_estimate),
            "words_before": self.words_before(),
            "words_after": self.words_after(),
            "best": [column + 1 for column in self.best],
            "best_proven": self.best_proven,
            "best_complete": self.best_complete,
            "verdict": self.verdict,
            "or_worse": self.or_worse,
            "mark": self.mark,
            "pv": [column + 1 for column in self.pv],
            "pv_complete": self.pv_complete,
        }


@dataclass(frozen=True)
class SideSummary:
    """How one side played: its moves, the verdicts' counts and the plies where it changed the result.

    ``accuracy`` is the share of best moves among the moves with a proven
    verdict (None when none is proven); ``turning_points`` are 1-based plies.
    """

    player: Player
    moves: int
    best: int
    inaccuracies: int
    mistakes: int
    blunders: int
    not_proven: int
    turning_points: tuple[int, ...]

    @property
    def accuracy(self) -> float | None:
        judged = self.moves - self.not_proven
        return self.best / judged if judged else None

    def to_json(self) -> dict[str, Any]:
        accuracy = self.accuracy
        return {
            "player": int(self.player),
            "moves": self.moves,
            "best": self.best,
            "accuracy": None if accuracy is None else round(accuracy, 4),
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "not_proven": self.not_proven,
            "turning_points": list(self.turning_points),
        }

    def __str__(self) -> str:
        accuracy = "n/a" if self.accuracy is None else f"{round(100 * self.accuracy)} %"
        counts = [
            _count(self.inaccuracies, "inaccuracy", "inaccuracies"),
            _count(self.mistakes, "mistake", "mistakes"),
            _count(self.blunders, "blunder", "blunders"),
        ]
        if self.not_proven:
            counts.append(f"{self.not_proven} not proven")
        return (
            f"{self.player.symbol}: {_count(self.moves, 'move', 'moves')}, accuracy {accuracy}, "
            + ", ".join(counts)
        )


@dataclass(frozen=True)
class ReviewSummary:
    """Both sides' :class:`SideSummary` and the game's turning points (1-based plies)."""

    first: SideSummary
    second: SideSummary

    @property
    def turning_points(self) -> tuple[int, ...]:
        """The plies where a move is proven to have changed the result, in order."""
        return tuple(sorted(self.first.turning_points + self.second.turning_points))

    def to_json(self) -> dict[str, Any]:
        return {
            "first": self.first.to_json(),
            "second": self.second.to_json(),
            "turning_points": list(self.turning_points),
        }


@dataclass(frozen=True)
class ReviewProgress:
    """Handed to a review's progress hook after each ply: ``done`` of ``total`` plies, the last one reviewed.

    Plies are reviewed from the game's end backwards.
    """

    done: int
    total: int
    ply: PlyReview
    elapsed: float


ProgressHook = Callable[[ReviewProgress], bool | None]
"""Called after each reviewed ply; returning True stops the review (it comes back incomplete)."""


@dataclass(frozen=True)
class Review:
    """A reviewed game: its moves, board, every ply's :class:`PlyReview` and the :class:`ReviewSummary`.

    ``complete`` is False when the progress hook stopped the review: ``plies``
    then holds the plies reviewed, the game's last ones.  In Jupyter a review
    shows as its evaluation graph (:meth:`_repr_svg_`); ``str`` is a table.
    """

    moves: tuple[int, ...]
    width: int
    height: int
    connect: int
    result: str
    plies: tuple[PlyReview, ...]
    complete: bool
    elapsed: float

    @property
    def move_string(self) -> str:
        return format_moves(self.moves, self.width)

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"

    @property
    def exact(self) -> bool:
        """Whether every ply was reviewed and proven exactly."""
        return self.complete and all(ply.exact for ply in self.plies)

    @property
    def summary(self) -> ReviewSummary:
        return ReviewSummary(self._side(Player.FIRST), self._side(Player.SECOND))

    def _side(self, player: Player) -> SideSummary:
        own = [ply for ply in self.plies if ply.player is player]

        def count(verdict: PlyVerdict) -> int:
            return sum(ply.verdict == verdict for ply in own)

        return SideSummary(
            player,
            len(own),
            count("best"),
            count("inaccuracy"),
            count("mistake"),
            count("blunder"),
            count("not proven"),
            tuple(ply.ply for ply in own if ply.changed_result),
        )

    def to_json(self) -> dict[str, Any]:
        """The review as JSON-ready data (1-based plies and columns), stable for programs::

            {"moves": "4455...", "size": "7x6", "connect": 4, "result": "1-0",
             "complete": true, "exact": true,
             "plies": [{"ply", "player" (1 or 2), "column", "score_before", "score_after"
                        (solver scale, the mover's view; null when not proven), "exact",
                        "lower", "upper" (bounds of score_after), "before_lower", "before_upper",
                        "estimate", "best_estimate" (engine units; null when exact),
                        "words_before", "words_after", "best" (columns), "best_proven", "best_complete",
                        "verdict" ("best" | "inaccuracy" | "mistake" | "blunder" | "not proven"),
                        "or_worse", "mark" ("?!" | "?" | "??" | ""), "pv", "pv_complete"}, ...],
             "summary": {"first": {...}, "second": {...}, "turning_points": [plies]}}

        Each side's summary: ``player``, ``moves``, ``best``, ``accuracy``
        (share of best moves among the proven ones, null when none is),
        ``inaccuracies``, ``mistakes``, ``blunders``, ``not_proven``,
        ``turning_points``.
        """
        return {
            "moves": self.move_string,
            "size": self.size,
            "connect": self.connect,
            "result": self.result,
            "complete": self.complete,
            "exact": self.exact,
            "plies": [ply.to_json() for ply in self.plies],
            "summary": self.summary.to_json(),
        }

    def table(self, style: Callable[[str, str], str] | None = None) -> str:
        """The plain-text table (what ``str`` gives): one line a ply, then each side's summary.

        ``style(mark, text)`` may dress each verdict (colour on a terminal).
        """
        rows = [("ply", "side", "col", "before", "after", "verdict")]
        for ply in self.plies:
            verdict = ply.verdict + (" or worse" if ply.or_worse else "")
            verdict = f"{ply.mark} {verdict}" if ply.mark else verdict
            if style is not None:
                verdict = style(ply.mark, verdict)
            if ply.verdict != "best" and ply.pv:
                line = " ".join(str(column + 1) for column in ply.pv[:8])
                more = " ..." if len(ply.pv) > 8 else ""
                verdict += f"  (best {ply.pv[0] + 1}: {line}{more})"
            rows.append(
                (
                    str(ply.ply),
                    ply.player.symbol,
                    str(ply.column + 1),
                    ply.words_before(),
                    ply.words_after(),
                    verdict,
                )
            )
        widths = [max(len(row[i]) for row in rows) for i in range(5)]
        lines = []
        for row in rows:
            cells = [row[0].rjust(widths[0])] + [cell.ljust(widths[i]) for i, cell in enumerate(row[1:5], 1)]
            lines.append("  ".join([*cells, row[5]]).rstrip())
        summary = self.summary
        lines += ["", str(summary.first), str(summary.second)]
        if not self.complete:
            lines.append(f"stopped: {len(self.plies)} of {len(self.moves)} plies reviewed (the last ones)")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def _repr_svg_(self) -> str:
        from c4engine.review_svg import GraphPoint, review_graph_svg

        return review_graph_svg(
            [GraphPoint(*ply.first_player_bounds(), ply.mark) for ply in self.plies],
            cells=self.width * self.height,
            first_ply=self.plies[0].index if self.plies else 0,
        )


def review_game(
    analyst: Analyst,
    game: str | Board | GameLike,
    limit: Limit = DEFAULT_PLY_LIMIT,
    *,
    width: int = 7,
    height: int = 6,
    connect: int = 4,
    progress: ProgressHook | None = None,
    poll: Poll | None = None,
) -> Review:
    """Review every move of ``game`` with ``analyst``, each ply's analysis within ``limit``.

    ``game`` is a move string (on a ``width`` x ``height`` connect-``connect``
    board), a :class:`Board` (its history is the game) or a game record
    (anything with ``to_board()``).  ``poll`` is handed to every analysis (it
    can stop a search); ``progress`` is called after each ply and stops the
    review by returning True.
    """
    start = time.perf_counter()
    final = _board_of(game, width, height, connect)
    moves = final.moves
    walk = Board(final.width, final.height, final.connect)
    positions: list[Board] = []
    for column in moves:
        positions.append(walk.copy())
        walk.play(column)
    reviewed: list[PlyReview] = []
    complete = True
    # the value of the position after each move (the next mover's view), as bounds: known from the
    # ply after it, reviewed first; the game's last position is asked for when the game goes on
    after_move: tuple[int, int] | None = None
    if moves and not final.is_over and final.geometry.fits_64_bits:
        after_move = _value_bounds(analyst.solve(final, limit, poll=poll))
    for index in reversed(range(len(moves))):
        ply = _review_ply(analyst, positions[index], moves[index], limit, poll, after_move)
        after_move = (ply.before_lower, ply.before_upper)
        reviewed.append(ply)
        if progress is not None:
            update = ReviewProgress(len(reviewed), len(moves), ply, time.perf_counter() - start)
            if progress(update) is True and index > 0:
                complete = False
                break
    return Review(
        moves,
        final.width,
        final.height,
        final.connect,
        final.result,
        _agreeing(list(reversed(reviewed))),
        complete,
        time.perf_counter() - start,
    )


def _agreeing(plies: list[PlyReview]) -> tuple[PlyReview, ...]:
    """The plies with what each proves of its neighbour shared: a ply's score after its move is the
    next mover's score before, negated (a ply's fallback analysis may have proven it after the next
    ply, reviewed first, was judged), and every changed ply judged again."""
    for index in range(len(plies) - 1):
        earlier, later = plies[index], plies[index + 1]
        lower, upper = _intersect((earlier.lower, earlier.upper), (-later.before_upper, -later.before_lower))
        if (lower, upper) != (earlier.lower, earlier.upper):
            plies[index] = _judged(replace(earlier, lower=lower, upper=upper))
        if (-upper, -lower) != (later.before_lower, later.before_upper):
            plies[index + 1] = _judged(replace(later, before_lower=-upper, before_upper=-lower))
    return tuple(plies)


def _judged(ply: PlyReview) -> PlyReview:
    """``ply`` with its verdict from its bounds (a move now proven best loses its better line)."""
    verdict, or_worse = judge(ply.before_lower, ply.before_upper, ply.lower, ply.upper)
    estimate = None if ply.lower == ply.upper else ply.estimate
    best_estimate = None if ply.before_lower == ply.before_upper else ply.best_estimate
    line, complete = ((), False) if verdict == "best" else (ply.pv, ply.pv_complete)
    return replace(
        ply,
        verdict=verdict,
        or_worse=or_worse,
        estimate=estimate,
        best_estimate=best_estimate,
        pv=line,
        pv_complete=complete,
    )


def _board_of(game: str | Board | GameLike, width: int, height: int, connect: int) -> Board:
    if isinstance(game, str):
        return Board.from_moves(game.strip(), width, height, connect)
    if isinstance(game, Board):
        return game.copy()
    to_board = getattr(game, "to_board", None)
    if to_board is None:
        raise NotationError(f"a game is a move string, a Board or a game record, not {type(game).__name__}")
    board = to_board()
    if not isinstance(board, Board):
        raise NotationError(f"{type(game).__name__}.to_board() gave {type(board).__name__}, not a Board")
    return board


def _review_ply(
    analyst: Analyst,
    board: Board,
    played: int,
    limit: Limit,
    poll: Poll | None,
    after_move: tuple[int, int] | None,
) -> PlyReview:
    """One ply: the position's value and the best columns proven the cheap way where the solver can
    (one solve, then a null-window search a column), else from a full analysis within what is left.

    ``after_move`` bounds the value of the position the move leads to, for its next mover.
    """
    start = time.perf_counter()
    cells, stones = board.width * board.height, board.move_count
    lowest, highest = _score_range(board)
    if board.is_winning_move(played):
        lower, upper = highest, highest
    elif stones + 1 == cells:
        lower, upper = 0, 0
    elif after_move is not None:
        lower, upper = -after_move[1], -after_move[0]
    else:
        lower, upper = lowest, highest
    before_lower, before_upper = lower, highest  # the best column is at least the one played
    best: tuple[int, ...] = ()
    proven_best: tuple[int, ...] = ()
    best_complete = False
    estimate = best_estimate = None
    fast_share = limit.share(SOLVE_SHARE) if limit.time is not None else limit
    if board.geometry.fits_64_bits:
        # the value alone: the solver's own search for a best move solves children exactly, while
        # the best columns below cost one null-window search each
        verdict = analyst.solve(board, fast_share, poll=poll, best_move=False)
        before_lower, before_upper = _intersect((before_lower, before_upper), _value_bounds(verdict))
        if before_lower == before_upper:
            proven_best, best_complete = _columns_reaching(
                analyst, board, before_lower, (played, lower, upper), fast_share, start
            )
    if not (lower == upper and before_lower == before_upper):
        left = None if limit.time is None else max(limit.time - (time.perf_counter() - start), limit.time / 4)
        analysis = analyst.analyze(
            board, Limit(time=left, nodes=limit.nodes, depth=limit.depth), pv=False, poll=poll
        )
        bounds = {column: _column_bounds(analysis, column, board) for column in board.legal_moves()}
        lower, upper = _intersect((lower, upper), bounds[played])
        bounds[played] = (lower, upper)
        before_lower, before_upper = _intersect(
            (before_lower, before_upper),
            (max(low for low, _ in bounds.values()), max(high for _, high in bounds.values())),
        )
        if not best_complete:
            proven_best = tuple(
                column
                for column, (low, _) in bounds.items()
                if all(low >= high for other, (_, high) in bounds.items() if other != column)
            )
            # complete when every other column is proven below a best one
            floor = min((bounds[column][0] for column in proven_best), default=None)
            best_complete = floor is not None and all(
                high < floor for column, (_, high) in bounds.items() if column not in proven_best
            )
        best = proven_best or analysis.best_columns
        played_score = analysis.scores[played]
        estimate = None if played_score is None or lower == upper else float(played_score.value)
        best_estimate = None if before_lower == before_upper else float(analysis.score.value)
    verdict_name, or_worse = judge(before_lower, before_upper, lower, upper)
    line: tuple[int, ...] = ()
    complete_line = False
    if verdict_name != "best" and proven_best:
        first = next(column for column in board.geometry.center_order if column in proven_best)
        line, complete_line = _line_to_end(analyst, board, first, limit)
    return PlyReview(
        stones,
        board.turn,
        played,
        cells,
        before_lower,
        before_upper,
        lower,
        upper,
        estimate,
        best_estimate,
        tuple(sorted(proven_best)) if proven_best else best,
        bool(proven_best),
        best_complete and bool(proven_best),
        verdict_name,
        or_worse,
        line,
        complete_line,
    )


def _columns_reaching(
    analyst: Analyst,
    board: Board,
    value: int,
    played: tuple[int, int, int],
    limit: Limit,
    start: float,
) -> tuple[tuple[int, ...], bool]:
    """The columns proven to score the position's exact ``value`` (its best columns), and whether
    they are all of them (no column left unanswered when the limit ran out).

    ``played`` is the column played with its bounds.  Each other column is
    one null-window search of its child ("can the opponent then get more
    than ``-value``?"), with the rules and the book first.
    """
    column_played, played_lower, played_upper = played
    reaching: list[int] = []
    complete = True
    for column in board.geometry.center_order:
        if not board.can_play(column):
            continue
        if column == column_played and (played_lower >= value or played_upper < value):
            reaches: bool | None = played_lower >= value
        elif board.is_winning_move(column):
            reaches = value == _score_range(board)[1]
        else:
            child = board.copy()
            child.play(column)
            left = None if limit.time is None else limit.time - (time.perf_counter() - start)
            if child.is_full:
                reaches = value == 0
            elif (known := analyst.book_score(child)) is not None:
                reaches = -known >= value
            elif left is not None and left <= 0:
                reaches = None
            else:
                beaten = analyst.is_at_least(child, 1 - value, Limit(time=left, nodes=limit.nodes))
                reaches = None if beaten is None else not beaten
        if reaches is None:
            complete = False
        elif reaches:
            reaching.append(column)
    return tuple(sorted(reaching)), complete


def _value_bounds(verdict: Verdict) -> tuple[int, int]:
    """What a :class:`Verdict` proves of the position's value: its bounds (never the engine's guess)."""
    return verdict.lower, verdict.upper


def _intersect(first: tuple[int, int], second: tuple[int, int]) -> tuple[int, int]:
    return max(first[0], second[0]), min(first[1], second[1])


def judge(before_lower: int, before_upper: int, lower: int, upper: int) -> tuple[PlyVerdict, bool]:
    """A ply's verdict from what is proven, and whether the move may be worse than it says.

    ``before_*`` bound the best score the mover could get, ``lower``/``upper``
    the score of the move played (solver scale).  Only what the bounds prove
    is claimed; the rest is ``"not proven"``.

    >>> judge(3, 3, 3, 3), judge(3, 3, 1, 1), judge(3, 3, 0, 0), judge(0, 0, -2, -2), judge(3, 3, -2, -2)
    (('best', False), ('inaccuracy', False), ('mistake', False), ('mistake', False), ('blunder', False))
    >>> judge(2, 9, -20, 0)      # a proven win answered by a move proven no better than a draw
    ('mistake', True)
    >>> judge(2, 9, -20, 5)      # the move may still win: nothing proven
    ('not proven', False)
    """
    if lower >= before_upper:
        return "best", False
    least_drop = _sign(before_lower) - _sign(upper)
    most_drop = _sign(before_upper) - _sign(lower)
    if least_drop >= 2:
        return "blunder", False
    if least_drop == 1:
        return "mistake", most_drop > 1
    if most_drop == 0 and _sign(before_lower) == _sign(before_upper) and upper < before_lower:
        return "inaccuracy", False
    return "not proven", False


def _column_bounds(analysis: PositionAnalysis, column: int, board: Board) -> tuple[int, int]:
    """The proven bounds of ``column``'s score (solver scale, the mover's view).

    The analysis' bounds, but a win or loss the heuristic engine saw to the
    end counts only as what such a search proves: at least that win, or at
    most that loss.
    """
    lower, upper = analysis.lowers[column], analysis.uppers[column]
    assert lower is not None and upper is not None  # a playable column
    if analysis.sources[column] != "engine" or lower != upper:
        return lower, upper
    lowest, highest = _score_range(board)
    return (lower, highest) if lower > 0 else (lowest, upper) if upper < 0 else (lowest, highest)


def _line_to_end(analyst: Analyst, board: Board, first: int, limit: Limit) -> tuple[tuple[int, ...], bool]:
    """Best play from ``board`` starting with ``first`` (0-based), and whether it reaches the game's end.

    The whole line shares ``limit`` (a line may pass through hard positions
    off the game's path): where it runs out, the line stops, proven so far.
    """
    start = time.perf_counter()
    walk = board.copy()
    line = [first]
    walk.play(first)
    while not walk.is_over:
        left = None if limit.time is None else limit.time - (time.perf_counter() - start)
        if left is not None and left <= 0:
            return tuple(line), False
        verdict = analyst.solve(walk, Limit(time=left, nodes=limit.nodes), best_move=True)
        if not verdict.exact or not verdict.move_proven or verdict.best_move is None:
            return tuple(line), False
        line.append(verdict.best_move)
        walk.play(verdict.best_move)
    return tuple(line), True


def _bound_words(lower: int, upper: int, estimate: float | None, cells: int, stones: int) -> str:
    """A proven interval in a player's words (:func:`bound_words`), with the estimate where nothing is."""
    if lower < 0 < upper:
        # + 0.0 turns an estimate of -0.0 into 0.0: no "≈ -0.0"
        return "not proven" if estimate is None else f"≈ {round(estimate, 1) + 0.0:+.1f}, not proven"
    return bound_words(lower, upper, cells, stones)


def _score_range(board: Board) -> tuple[int, int]:
    """The lowest and highest score a move of ``board`` can have: lost to the opponent's next stone,
    won by this one."""
    cells, stones = board.width * board.height, board.move_count
    return score_range(cells, stones)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1) + 0.0


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"
