"""What a game review gives: every ply's :class:`PlyReview`, each side's :class:`SideSummary`, the
:class:`ReviewSummary` and the whole :class:`Review` -- its JSON, its table and its graph.

:func:`c4engine.search.review.game.review_game` makes them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from c4engine.geometry import SOLVER_BITS, solver_holds
from c4engine.notation import format_moves
from c4engine.player import Player
from c4engine.search.limit import UNLIMITED, Limit
from c4engine.search.results import bound_words
from c4engine.search.review.verdicts import MARKS, MIN_PROVEN_MOVES, PlyVerdict
from c4engine.search.scale import win_score

__all__ = ["PlyReview", "Review", "ReviewSummary", "SideSummary"]

RESULT_WORDS: Final[dict[str, str]] = {"1-0": "X won", "0-1": "O won", "1/2-1/2": "a draw"}
"""A finished game's result (:attr:`c4engine.board.Board.result`) in words."""


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
    match's random opening): its verdict is then ``"not chosen"``.  ``why`` is
    the coach's reasons for a mistake or a blunder
    (:mod:`c4engine.search.review.reasons`), None for every other verdict.
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
    why: str | None = None

    @property
    def ply(self) -> int:
        """The 1-based ply number."""
        return self.index + 1

    @property
    def proven(self) -> bool:
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
            "proven": self.proven,
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
            "why": self.why,
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
    ``ply_limit`` is the :class:`~c4engine.search.limit.Limit` each ply's
    analysis was given (its JSON: ``ply_time``, ``ply_nodes``).  ``result`` is the
    board's (:attr:`c4engine.board.Board.result`) or, for a game that ended
    off the board, the recorded one, ``result_reason`` then saying how
    (``"time"``: the loser ran out of time).  The first ``opening_plies``
    moves were chosen by nobody (a match's random opening).  In Jupyter a review
    shows as its evaluation graph (``_repr_svg_``); ``str`` is a table.
    """

    moves: tuple[int, ...]
    width: int
    height: int
    connect: int
    result: str
    plies: tuple[PlyReview, ...]
    complete: bool
    time: float
    ply_limit: Limit = UNLIMITED
    opening_plies: int = 0
    result_reason: str | None = None

    @property
    def move_string(self) -> str:
        return format_moves(self.moves, self.width)

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"

    @property
    def proven(self) -> bool:
        """Whether every ply was reviewed and proven exactly."""
        return self.complete and all(ply.proven for ply in self.plies)

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
        if not solver_holds(self.width, self.height):
            bits = self.width * (self.height + 1)
            # timed estimates vary with the machine's load: say how to get the same ones every run
            timed = (
                ""
                if self.ply_limit.time is None
                else " (a depth limit without a time limit gives the same estimates every run)"
            )
            return (
                f"{plies} not proven: the exact solver cannot hold a {self.size} board "
                f"({self.width} x ({self.height} + 1) = {bits} bits, more than {SOLVER_BITS}), so only "
                "the rules and the wins the engine sees to the end prove anything here; "
                f"more time does not change that{timed}."
            )
        time, nodes = self.ply_limit.time, self.ply_limit.nodes
        if time is not None:
            return f"{plies} not proven within {time:g} s a ply: more time a ply may prove them."
        if nodes is not None:
            return f"{plies} not proven within {nodes} nodes a ply: more nodes may prove them."
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
             "complete": true, "proven": true, "ply_time": 1.0, "ply_nodes": null, "advice": null,
             "plies": [{"ply", "player" (1 or 2), "column", "score_before", "score_after"
                        (solver scale, the mover's view; null when not proven), "proven",
                        "lower", "upper" (bounds of score_after), "before_lower", "before_upper",
                        "estimate", "best_estimate" (engine units; null when exact),
                        "words_before", "words_after", "best" (columns), "best_proven", "best_complete",
                        "verdict" ("best" | "inaccuracy" | "mistake" | "blunder" | "not proven"
                        | "not chosen"), "or_worse", "mark" ("?!" | "?" | "??" | ""), "pv",
                        "pv_complete", "chosen", "why" (the coach's reasons for a mistake or a
                        blunder, else null)}, ...],
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
            "proven": self.proven,
            "ply_time": None if self.ply_limit.time is None else round(self.ply_limit.time, 4),
            "ply_nodes": self.ply_limit.nodes,
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
        from c4engine.search.review.graph import GraphPoint, review_graph_svg

        return review_graph_svg(
            [GraphPoint(*ply.first_player_bounds(), ply.mark, ply.chosen) for ply in self.plies],
            top_score=win_score(self.width * self.height, 0),
            first_ply=self.plies[0].index if self.plies else 0,
        )


def _bound_words(lower: int, upper: int, estimate: float | None, cells: int, stones: int) -> str:
    """A proven interval in a player's words (:func:`bound_words`), with the estimate where nothing is."""
    if lower < 0 < upper:
        # + 0.0 turns an estimate of -0.0 into 0.0: no "≈ -0.0"
        return "not proven" if estimate is None else f"≈ {round(estimate, 1) + 0.0:+.1f}, not proven"
    return bound_words(lower, upper, cells, stones)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1) + 0.0


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"
