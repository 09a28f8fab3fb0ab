"""Game review: every move of a game scored, mistakes marked, the better line shown.

:func:`review_game` asks the analysis service (an
:class:`~c4engine.search.analysis.Analyst`, as any of its clients does)
about every position of a game -- from the last move back to the first, so
that the solver's table, warm from the end of the game, makes the earlier
positions cheap, and the opening book answers the opening -- and compares
the move played with the best one:

* **best** -- the move kept the mover's score;
* **inaccuracy** -- same result, but a slower win or a quicker loss;
* **mistake** -- a win thrown to a draw, or a draw to a loss;
* **blunder** -- a win thrown to a loss;
* **not proven** -- the limit ran out (or the board is too big for the
  solver) before the comparison was proven: the ply carries the proven
  bounds and the engine's estimate, and no verdict it has not proven;
* **not chosen** -- nobody chose the move (a match's random opening,
  ``opening_plies``): scored, but judged for no one and out of every count.

A side's accuracy is its share of best moves among its proven ones, given
only from :data:`MIN_PROVEN_MOVES` proven moves on (fewer say too little).

Every score is on the solver's scale (see :mod:`c4engine.search.solver`),
from the mover's view: ``score_before`` is the best any column gets,
``score_after`` what the played column gets.  Where only bounds are proven,
a verdict is still given when the bounds prove it (a proven win answered by
a move proven to be at most a draw is at least a mistake: ``or_worse``
says when the move may be worse than its verdict).

>>> from c4engine.search.analysis import Analyst
>>> from c4engine.search.limit import UNLIMITED
>>> review = review_game(Analyst(), "44556", UNLIMITED)   # no cap a ply: every score and line proven
>>> print(review)
Result: unfinished, O to move (*)
<BLANKLINE>
ply  side  col  before      after       verdict
  1  X     4    win in 21   win in 21   best
  2  O     4    loss in 20  loss in 20  best
  3  X     5    win in 20   loss in 19  ?? blunder  (best 4: 4 4 4 4 3 2 6 5 ...)
  4  O     5    win in 19   loss in 2   ?? blunder  (best 3: 3 3 4 4 4 4 6 6 ...)
  5  X     6    win in 2    win in 2    best
<BLANKLINE>
X: 3 moves, accuracy: not enough proven moves (3 proven, 5 needed), 0 inaccuracies, 0 mistakes, 1 blunder
O: 2 moves, accuracy: not enough proven moves (2 proven, 5 needed), 0 inaccuracies, 0 mistakes, 1 blunder
>>> review.summary.turning_points, review.to_json()["plies"][2]["verdict"]
((3, 4), 'blunder')
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Final, Literal, Protocol, get_args
from weakref import WeakKeyDictionary

from c4engine.board import Board
from c4engine.errors import NotationError, ReviewError
from c4engine.geometry import fits_64_bits
from c4engine.notation import format_moves
from c4engine.player import Player
from c4engine.search.analysis import Analyst
from c4engine.search.limit import UNLIMITED, Budget, Limit
from c4engine.search.progress import Hook, Progress
from c4engine.search.results import PlayResult, PositionAnalysis, bound_words
from c4engine.search.scale import score_range, win_score

__all__ = [
    "DEFAULT_PLY_LIMIT",
    "MARKS",
    "MIN_PROVEN_MOVES",
    "VERDICTS",
    "GameLike",
    "PlyReview",
    "Review",
    "ReviewSummary",
    "SideSummary",
    "board_of_game",
    "review_game",
]

PlyVerdict = Literal["best", "inaccuracy", "mistake", "blunder", "not proven", "not chosen"]

VERDICTS: Final[tuple[PlyVerdict, ...]] = get_args(PlyVerdict)
"""Every verdict a ply can get, from the best to none (a ply nobody chose is judged for no one)."""

MIN_PROVEN_MOVES: Final = 5
"""The fewest proven moves of a side that give it an accuracy: a share of fewer says too little."""

RESULT_WORDS: Final[dict[str, str]] = {"1-0": "X won", "0-1": "O won", "1/2-1/2": "a draw"}
"""A finished game's result (:attr:`c4engine.board.Board.result`) in words."""

MARKS: Final[dict[str, str]] = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The annotation marks of the verdicts that cost something."""

DEFAULT_PLY_LIMIT: Final = Limit(time=1.0)
"""What one ply's analysis may cost by default: about a second."""

TOTAL_SHARE: Final = 0.5
"""On a board the solver cannot hold, where every ply spends its whole time on an estimate, the part of
a review's ``total`` time its plies share (the rest for what a ply costs beyond its limit)."""

SOLVE_SHARE: Final = 0.7
"""The part of a ply's time for the exact way (the solver); the rest, if that does not prove it all,
for the full analysis with the engine's estimates."""


SOLVE_POLL_INTERVAL: Final = 0.02
"""CPU seconds between the solver's looks at the clock when the review searches a position's value:
on a loaded machine a CPU second takes several of the wall clock, and a ply's time is short."""


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
    column is proven best).  ``chosen`` is False for a move nobody chose (a
    match's random opening): its verdict is then ``"not chosen"``.
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
    chosen: bool = True

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
            "chosen": self.chosen,
        }


@dataclass(frozen=True)
class SideSummary:
    """How one side played: its moves, the verdicts' counts and the plies where it changed the result.

    ``moves`` are the moves the side chose; ``not_chosen`` its moves of a
    random opening, in no other count.  ``turning_points`` are 1-based plies.
    """

    player: Player
    moves: int
    best: int
    inaccuracies: int
    mistakes: int
    blunders: int
    not_proven: int
    turning_points: tuple[int, ...]
    not_chosen: int = 0

    @property
    def proven(self) -> int:
        """The side's chosen moves with a proven verdict."""
        return self.moves - self.not_proven

    @property
    def accuracy(self) -> float | None:
        """The share of best moves among the proven ones; None below :data:`MIN_PROVEN_MOVES` of them."""
        return self.best / self.proven if self.proven >= MIN_PROVEN_MOVES else None

    def to_json(self) -> dict[str, Any]:
        accuracy = self.accuracy
        return {
            "player": int(self.player),
            "moves": self.moves,
            "best": self.best,
            "accuracy": None if accuracy is None else round(accuracy, 4),
            "proven": self.proven,
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "not_proven": self.not_proven,
            "not_chosen": self.not_chosen,
            "turning_points": list(self.turning_points),
        }

    def __str__(self) -> str:
        moves = _count(self.moves, "move", "moves")
        if self.not_chosen:
            moves += f" (and {self.not_chosen} of the opening, not chosen)"
        if self.accuracy is None:
            accuracy = f"accuracy: not enough proven moves ({self.proven} proven, {MIN_PROVEN_MOVES} needed)"
        else:
            accuracy = f"accuracy {round(100 * self.accuracy)} % of {self.proven} proven"
        counts = [
            _count(self.inaccuracies, "inaccuracy", "inaccuracies"),
            _count(self.mistakes, "mistake", "mistakes"),
            _count(self.blunders, "blunder", "blunders"),
        ]
        if self.not_proven:
            counts.append(f"{self.not_proven} not proven")
        return f"{self.player.symbol}: {moves}, {accuracy}, " + ", ".join(counts)


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
class Review:
    """A reviewed game: its moves, board, every ply's :class:`PlyReview` and the :class:`ReviewSummary`.

    ``complete`` is False when the progress hook or the review's total time
    stopped it: ``plies`` then holds the plies reviewed, the game's last ones.
    ``ply_time`` is the seconds each ply's analysis was given (None: no time
    limit), ``ply_nodes`` its node budget (None: none).  ``result`` is the
    board's (:attr:`c4engine.board.Board.result`) or, for a game that ended
    off the board, the recorded one, ``result_reason`` then saying how
    (``"time"``: the loser ran out of time).  The first ``opening_plies``
    moves were chosen by nobody (a match's random opening).  In Jupyter a review
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
    ply_time: float | None = None
    ply_nodes: int | None = None
    opening_plies: int = 0
    result_reason: str | None = None

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
    def result_words(self) -> str:
        """The game's result in words: ``"X won"``, ``"O won on time"``, ``"a draw"``,
        ``"unfinished, X to move"``."""
        if self.result not in RESULT_WORDS:
            mover = Player.FIRST if len(self.moves) % 2 == 0 else Player.SECOND
            return f"unfinished, {mover.symbol} to move"
        reason = " on time" if self.result_reason == "time" else ""
        return RESULT_WORDS[self.result] + reason

    @property
    def advice(self) -> str | None:
        """What would prove the plies left "not proven", where anything would; None when nothing is
        left open, or when no budget bounded the search (then only the board stops the solver)."""
        unproven = sum(ply.verdict == "not proven" for ply in self.plies)
        if not unproven:
            return None
        plies = _count(unproven, "ply", "plies")
        if not fits_64_bits(self.width, self.height):
            bits = self.width * (self.height + 1)
            # timed estimates vary with the machine's load: say how to get the same ones every run
            timed = (
                ""
                if self.ply_time is None
                else " (a depth limit without a time limit gives the same estimates every run)"
            )
            return (
                f"{plies} not proven: the exact solver cannot hold a {self.size} board "
                f"({self.width} x ({self.height} + 1) = {bits} bits, more than 64), so only the rules "
                "and the wins the engine sees to the end prove anything here; "
                f"more time does not change that{timed}."
            )
        if self.ply_time is not None:
            return f"{plies} not proven within {self.ply_time:g} s a ply: more time a ply may prove them."
        if self.ply_nodes is not None:
            return f"{plies} not proven within {self.ply_nodes} nodes a ply: more nodes may prove them."
        return None

    @property
    def summary(self) -> ReviewSummary:
        return ReviewSummary(self._side(Player.FIRST), self._side(Player.SECOND))

    def _side(self, player: Player) -> SideSummary:
        mine = [ply for ply in self.plies if ply.player is player]
        own = [ply for ply in mine if ply.chosen]

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
            len(mine) - len(own),
        )

    def to_json(self) -> dict[str, Any]:
        """The review as JSON-ready data (1-based plies and columns), stable for programs::

            {"moves": "4455...", "size": "7x6", "connect": 4, "result": "1-0",
             "result_words": "X won", "result_reason": null, "opening_plies": 0,
             "complete": true, "exact": true, "ply_time": 1.0, "ply_nodes": null, "advice": null,
             "plies": [{"ply", "player" (1 or 2), "column", "score_before", "score_after"
                        (solver scale, the mover's view; null when not proven), "exact",
                        "lower", "upper" (bounds of score_after), "before_lower", "before_upper",
                        "estimate", "best_estimate" (engine units; null when exact),
                        "words_before", "words_after", "best" (columns), "best_proven", "best_complete",
                        "verdict" ("best" | "inaccuracy" | "mistake" | "blunder" | "not proven"
                        | "not chosen"), "or_worse", "mark" ("?!" | "?" | "??" | ""), "pv",
                        "pv_complete", "chosen"}, ...],
             "summary": {"first": {...}, "second": {...}, "turning_points": [plies]}}

        Each side's summary: ``player``, ``moves`` (chosen), ``best``,
        ``accuracy`` (share of best moves among the proven ones, null below
        :data:`MIN_PROVEN_MOVES` of them), ``proven``, ``inaccuracies``,
        ``mistakes``, ``blunders``, ``not_proven``, ``not_chosen``,
        ``turning_points``.
        """
        return {
            "moves": self.move_string,
            "size": self.size,
            "connect": self.connect,
            "result": self.result,
            "result_words": self.result_words,
            "result_reason": self.result_reason,
            "opening_plies": self.opening_plies,
            "complete": self.complete,
            "exact": self.exact,
            "ply_time": None if self.ply_time is None else round(self.ply_time, 4),
            "ply_nodes": self.ply_nodes,
            "advice": self.advice,
            "plies": [ply.to_json() for ply in self.plies],
            "summary": self.summary.to_json(),
        }

    def table(self, style: Callable[[str, str], str] | None = None) -> str:
        """The plain-text table (what ``str`` gives): one line a ply, then each side's summary.

        ``style(mark, text)`` may dress each verdict (colour on a terminal).
        """
        rows = [("ply", "side", "col", "before", "after", "verdict")]
        for ply in self.plies:
            verdict = (
                ply.verdict + (" or worse" if ply.or_worse else "") + ("" if ply.chosen else " (opening)")
            )
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
        lines = [f"Result: {self.result_words} ({self.result})"]
        if self.opening_plies:
            lines.append(
                f"Plies 1-{self.opening_plies}: a random opening, chosen by nobody: judged for no one"
                if self.opening_plies > 1
                else "Ply 1: a random opening, chosen by nobody: judged for no one"
            )
        lines.append("")
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
            [GraphPoint(*ply.first_player_bounds(), ply.mark, ply.chosen) for ply in self.plies],
            top_score=win_score(self.width * self.height, 0),
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
    progress: Hook | None = None,
    poll: Hook | None = None,
    beside: bool | None = None,
    total: Limit | None = None,
    opening_plies: int = 0,
    result: tuple[str, str | None] | None = None,
) -> Review:
    """Every move of ``game`` scored and judged by ``analyst``, each ply within ``limit``: the review's
    one entry point, a client of the analysis service.

    ``game`` is a move string (on a ``width`` x ``height`` connect-``connect``
    board), a :class:`Board` with its history, or a game record
    (:func:`board_of_game`).
    The first ``opening_plies`` moves were chosen by nobody (a match's random
    opening): they are scored but judged for no one (``"not chosen"``).
    ``result`` is the game's result and how it ended (``("0-1", "time")``)
    where it did not end on the board (a match game lost on time); by
    default the board's.  Without a time limit the review gives the same
    answer every run, as long as the analyst's solver runs on one thread (a
    node budget counts the nodes of every thread, which share the work
    differently each run).

    ``poll`` is handed to every analysis (it can stop a search);
    ``progress`` is called after each ply and stops the review by returning
    True.  ``total``'s time bounds the whole review (each ply's nodes and
    depth are ``limit``'s): it stops once it has run that long, and on a
    board the solver cannot hold each ply gets at most its share of
    :data:`TOTAL_SHARE` of it.  What nothing else waits for --
    the better lines of the costly moves, and the best columns of the plies
    whose value the book gives -- is searched in a thread beside the
    review, by a second analyst (its own solver and table), when ``beside``
    -- by default when the machine has more than one core: the solver's
    kernel runs without the interpreter's lock, so with a core free that
    work costs little wall time (and some more CPU: the second table is not
    warm from the game).
    Either way the review is the same (each line is the most central best
    move at every step, whichever table found it).
    """
    budget = (total or UNLIMITED).start()
    final = board_of_game(game, width, height, connect)
    moves = final.moves
    if not 0 <= opening_plies <= len(moves):
        raise ReviewError(f"{opening_plies} opening plies: the game has {len(moves)} moves")
    walk = Board(final.width, final.height, final.connect)
    positions: list[Board] = []
    for column in moves:
        positions.append(walk.copy())
        walk.play(column)
    if beside is None:
        beside = (os.cpu_count() or 1) > 1
    if budget.limit.time is not None and limit.time is not None and not final.geometry.fits_64_bits:
        ply_share = budget.limit.share(TOTAL_SHARE / max(1, len(moves)))
        limit = replace(limit, time=min(limit.time, ply_share.time or limit.time))
    reviewed: list[PlyReview] = []
    complete = True
    with _Aside(analyst, limit, beside=beside and final.geometry.fits_64_bits) as aside:
        # the value of the position after each move (the next mover's view), as bounds: known from
        # the ply after it, reviewed first; the game's last position is asked for when the game goes on
        after_move: tuple[int, int] | None = None
        if moves and not final.is_over and final.geometry.fits_64_bits:
            after_move = _value_bounds(analyst.solve(final, limit, poll=poll))
        for index in reversed(range(len(moves))):
            chosen = index >= opening_plies
            ply = _review_ply(analyst, positions[index], moves[index], limit, poll, after_move, aside, chosen)
            after_move = (ply.before_lower, ply.before_upper)
            reviewed.append(ply)
            done = Progress(time=budget.time_spent, plies_done=len(reviewed), plies=len(moves), ply=ply)
            stopped = progress is not None and progress(done)
            if (stopped is True or budget.expired) and index > 0:
                complete = False
                aside.stop()
                break
        plies = [aside.finish(ply) for ply in reversed(reviewed)]
    outcome, reason = result if result is not None else (final.result, None)
    return Review(
        moves=moves,
        width=final.width,
        height=final.height,
        connect=final.connect,
        result=outcome,
        plies=_agreeing(plies),
        complete=complete,
        elapsed=budget.time_spent,
        ply_time=limit.time,
        ply_nodes=limit.nodes,
        opening_plies=opening_plies,
        result_reason=reason,
    )


@dataclass(frozen=True)
class _Found:
    """What was searched apart for a ply: its best columns (None: found in the ply's own review) and
    whether they are complete, and its better line and whether it reaches the end."""

    best: tuple[int, ...] | None
    best_complete: bool
    line: tuple[int, ...]
    line_complete: bool


class _Aside:
    """The work of a ply that nothing else waits for, done at once or in a thread beside the review.

    The better line of a costly move (:meth:`line`), and the best columns
    of a ply whose value and played score are known without a search
    (:meth:`best`: the book's positions, whose other columns each cost a
    null-window search of a child the book lacks).  :meth:`finish` gives the
    ply with what was found (waiting for it when it is searched beside).  The
    second analyst for the thread is kept with the first (see
    :func:`_beside`), so a server reviewing game after game keeps its table
    warm too.
    """

    def __init__(self, analyst: Analyst, limit: Limit, *, beside: bool) -> None:
        self._analyst = analyst
        self._limit = limit
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="review-aside") if beside else None
        self._found: dict[int, Future[_Found] | _Found] = {}

    def __enter__(self) -> _Aside:
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)

    def line(self, board: Board, first: int, value: int | None) -> None:
        """Find best play from ``board`` (a ply's position) from ``first``, a proven best column, which
        scores ``value`` (None: not known exactly yet)."""
        self._submit(board, _line_found, first, value)

    def best(self, board: Board, value: int, columns: Bounds, share: Limit, with_line: bool) -> None:
        """Find the best columns of ``board``, whose value is ``value``, from the bounds ``columns``
        within ``share``; then, ``with_line``, the line from the most central of them."""
        self._submit(board, _best_found, value, dict(columns), share, with_line)

    def _submit(self, board: Board, job: Callable[..., _Found], *args: object) -> None:
        if self._pool is None:
            self._found[board.move_count] = job(self._analyst, board, *args, self._limit)
        else:
            helper = _beside(self._analyst, board)
            # a copy: the thread's searches freeze the board they are given while they run
            self._found[board.move_count] = self._pool.submit(job, helper, board.copy(), *args, self._limit)

    def stop(self) -> None:
        """Start nothing more (the review was stopped): plies whose work had not begun keep none of it."""
        for found in self._found.values():
            if isinstance(found, Future):
                found.cancel()

    def finish(self, ply: PlyReview) -> PlyReview:
        """``ply`` with what was found for it apart, if anything was asked (and not stopped first)."""
        found = self._found.get(ply.index)
        if found is None or (isinstance(found, Future) and found.cancelled()):
            return ply
        if isinstance(found, Future):
            found = found.result()
        if found.best is not None:
            proven = bool(found.best)
            complete = found.best_complete and proven
            ply = replace(ply, best=found.best, best_proven=proven, best_complete=complete)
        return replace(ply, pv=found.line, pv_complete=found.line_complete)


def _line_found(analyst: Analyst, board: Board, first: int, value: int | None, limit: Limit) -> _Found:
    return _Found(None, False, *_best_line(analyst, board, first, value, limit))


def _best_found(
    analyst: Analyst,
    board: Board,
    value: int,
    columns: Bounds,
    share: Limit,
    with_line: bool,
    limit: Limit,
) -> _Found:
    best, complete = _columns_reaching(analyst, board, value, columns, share.start())
    if not (with_line and best):
        return _Found(best, complete, (), False)
    first = next(column for column in board.geometry.center_order if column in best)
    return _Found(best, complete, *_best_line(analyst, board, first, value, limit))


def _best_line(
    analyst: Analyst, board: Board, first: int, value: int | None, limit: Limit
) -> tuple[tuple[int, ...], bool]:
    """Best play from ``board`` starting with ``first``, a best column scoring ``value`` (found first
    when None), and whether it reaches the game's end: the whole line within ``limit``."""
    budget = limit.start()
    if value is None:
        child = board.copy()
        child.play(first)
        if child.is_over:
            return (first,), True
        found = analyst.solve(child, limit, best_move=False)
        if not found.proven or found.score is None:
            return (first,), False
        value = -int(found.score.value)
    if budget.expired:
        return (first,), False
    return analyst.line(board, first, value, budget.remaining())


_BESIDE: Final[WeakKeyDictionary[Analyst, dict[tuple[int, int, int], Analyst]]] = WeakKeyDictionary()
_BESIDE_LOCK: Final = threading.Lock()

BESIDE_TABLE_MB: Final = 16
"""The table of the analyst searching lines beside a review: lines are short searches, mostly past
the opening, and a small table is quick to make."""


def _beside(analyst: Analyst, board: Board) -> Analyst:
    """The second analyst kept with ``analyst`` for the lines searched beside its reviews of boards
    like ``board``: the same book, its own solver (made now, so it never takes the pure-Python
    search's way, whose lines may differ from the solver's)."""
    geometry = (board.width, board.height, board.connect)
    with _BESIDE_LOCK:
        helpers = _BESIDE.setdefault(analyst, {})
        if geometry not in helpers:
            from c4engine.search.solver import Solver

            helpers[geometry] = Analyst(analyst.book_for(board), solver=Solver(table_size_mb=BESIDE_TABLE_MB))
        return helpers[geometry]


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
    verdict, or_worse = _verdict(ply.before_lower, ply.before_upper, ply.lower, ply.upper, ply.chosen)
    judged = replace(ply, verdict=verdict, or_worse=or_worse)
    if verdict == "best":
        judged = replace(judged, pv=(), pv_complete=False)
    return replace(
        judged,
        estimate=None if ply.lower == ply.upper else ply.estimate,
        best_estimate=None if ply.before_lower == ply.before_upper else ply.best_estimate,
    )


def board_of_game(game: str | Board | GameLike, width: int = 7, height: int = 6, connect: int = 4) -> Board:
    """The final board of ``game``, its history the game: a move string (on a ``width`` x ``height``
    connect-``connect`` board), a :class:`Board` (copied) or a game record (anything with ``to_board()``).

    >>> board_of_game("4455").moves
    (3, 3, 4, 4)
    """
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
    poll: Hook | None,
    after_move: tuple[int, int] | None,
    aside: _Aside,
    chosen: bool,
) -> PlyReview:
    """One ply: the position's value and the best columns proven the cheap way where the solver can,
    else from a full analysis within what is left.  A move nobody chose (not ``chosen``) is scored
    the same way but not judged, and gets no better line.

    ``after_move`` bounds the value of the position the move leads to, for
    its next mover (known from the ply after it, reviewed first): so the
    played column's score needs no search, and the position's value is
    searched from it up (:func:`_solve_value`).  The columns the rules or the
    book score need no search either; each other column is one null-window
    search of its child against the value.  A costly move's better line is
    asked of ``lines``.
    """
    cells, stones = board.width * board.height, board.move_count
    lowest, highest = _score_range(board)
    columns = _known_columns(analyst, board)
    if played not in columns:
        columns[played] = (-after_move[1], -after_move[0]) if after_move is not None else (lowest, highest)
    lower, upper = columns[played]
    before_lower, before_upper = lower, highest  # the best column is at least the one played
    best: tuple[int, ...] = ()
    proven_best: tuple[int, ...] = ()
    best_complete = False
    estimate = best_estimate = None
    budget = limit.start()
    fast = (limit.share(SOLVE_SHARE) if limit.time is not None else limit).start()  # the cheap way's part
    if board.geometry.fits_64_bits:
        before_lower, before_upper = _intersect((before_lower, before_upper), _best_bounds(board, columns))
        if (known := analyst.book_score(board)) is not None:
            before_lower, before_upper = known, known
        # the book's value and the played score known: nothing in this ply needs a search but its best
        # columns (and line), which nothing else waits for: they are found apart (see _Aside)
        apart = known is not None and lower == upper and len(columns) < len(board.legal_moves())
        if apart:
            costly = chosen and lower < before_lower  # the played column below the value: a line is wanted
            aside.best(board, before_lower, columns, fast.limit, costly)
        if before_lower != before_upper:
            with budget.paused(), fast.paused():  # loading the solver is no ply's time
                analyst.solver.load(board)
            solved = _solve_value(analyst, board, before_lower, fast, poll)
            before_lower, before_upper = _intersect((before_lower, before_upper), solved)
        if before_lower == before_upper and not apart:
            proven_best, best_complete = _columns_reaching(analyst, board, before_lower, columns, fast)
    if not (lower == upper and before_lower == before_upper):
        # what the cheap way left, and a quarter of the ply's time at least, whatever it took
        left = budget.remaining(at_least=(limit.time or 0.0) / 4)
        analysis = analyst.analyze(board, left, pv=False, poll=poll)
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
    verdict_name, or_worse = _verdict(before_lower, before_upper, lower, upper, chosen)
    if verdict_name not in ("best", "not chosen") and proven_best:
        # the line is searched apart (see _Aside) and joins the ply at the end of the review
        value = before_lower if before_lower == before_upper else None
        aside.line(board, next(c for c in board.geometry.center_order if c in proven_best), value)
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
        (),
        False,
        chosen,
    )


Bounds = dict[int, tuple[int, int]]
"""Proven bounds of columns' scores (solver scale, the mover's view), by 0-based column."""


def _known_columns(analyst: Analyst, board: Board) -> Bounds:
    """The columns whose scores come without a search: a win on the spot, the board's last cell, the book."""
    highest = _score_range(board)[1]
    known: Bounds = {}
    child = board.copy()
    for column in board.legal_moves():
        if board.is_winning_move(column):
            known[column] = (highest, highest)
            continue
        child.play(column)
        if child.is_full:
            known[column] = (0, 0)
        elif (score := analyst.book_score(child)) is not None:
            known[column] = (-score, -score)
        child.undo()
    return known


def _best_bounds(board: Board, columns: Bounds) -> tuple[int, int]:
    """The bounds of the best score: every legal column's bounds, the unknown ones the whole range."""
    lowest, highest = _score_range(board)
    every = [columns.get(column, (lowest, highest)) for column in board.legal_moves()]
    return max(low for low, _ in every), max(high for _, high in every)


def _probe(analyst: Analyst, board: Board, score: int, budget: Budget) -> bool | None:
    """Whether ``board`` scores at least ``score`` for its mover: one null-window search within what is
    left of ``budget``; None when nothing is left or it ran out."""
    if budget.expired:
        return None
    return analyst.is_at_least(board, score, budget.remaining())


def _solve_value(
    analyst: Analyst, board: Board, at_least: int, budget: Budget, poll: Hook | None
) -> tuple[int, int]:
    """The proven bounds of ``board``'s value: the solver's search from ``at_least`` (a score already
    proven, say the played column's), within what is left of ``budget``.

    The solver itself, not :meth:`Analyst.solve`: the review wants no estimate of the engine where
    the solver runs out (an analysis follows, which gives one), and the search starts from the bound.
    """
    lowest, highest = _score_range(board)
    if budget.expired:
        return lowest, highest
    result = analyst.solver.solve(
        board,
        budget.remaining(),
        poll=poll,
        poll_interval=SOLVE_POLL_INTERVAL,
        best_move=False,
        at_least=at_least if at_least > lowest else None,
    )
    return result.lower, result.upper


def _columns_reaching(
    analyst: Analyst,
    board: Board,
    value: int,
    columns: Bounds,
    budget: Budget,
) -> tuple[tuple[int, ...], bool]:
    """The columns proven to score the position's exact ``value`` (its best columns), and whether
    they are all of them (no column left unanswered when the limit ran out).

    ``columns`` are the bounds proven so far; each column they leave open
    is one null-window search of its child ("can the opponent then get
    more than ``-value``?").
    """
    reaching: list[int] = []
    complete = True
    child = board.copy()
    for column in board.geometry.center_order:
        if not board.can_play(column):
            continue
        known = columns.get(column)
        if known is not None and (known[0] >= value or known[1] < value):
            reaches: bool | None = known[0] >= value
        else:
            child.play(column)
            beaten = _probe(analyst, child, 1 - value, budget)
            child.undo()
            reaches = None if beaten is None else not beaten
        if reaches is None:
            complete = False
        elif reaches:
            reaching.append(column)
    return tuple(sorted(reaching)), complete


def _value_bounds(result: PlayResult) -> tuple[int, int]:
    """What an analyst's answer proves of the position's value: its bounds (never the engine's guess)."""
    assert result.lower is not None and result.upper is not None  # the analyst always bounds the score
    return result.lower, result.upper


def _intersect(first: tuple[int, int], second: tuple[int, int]) -> tuple[int, int]:
    return max(first[0], second[0]), min(first[1], second[1])


def _verdict(
    before_lower: int, before_upper: int, lower: int, upper: int, chosen: bool
) -> tuple[PlyVerdict, bool]:
    """:func:`judge`'s verdict for a move someone chose, ``"not chosen"`` for one nobody did."""
    return judge(before_lower, before_upper, lower, upper) if chosen else ("not chosen", False)


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
