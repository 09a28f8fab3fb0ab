"""``c4 explain POS``: the coach's explanation of a position -- the board with its threats marked,
then the sentences; ``--json`` prints the one object of
:meth:`~c4engine.search.coach.explanation.Explanation.to_json` (docs/explain.md).

On the board an empty cell that is a threat shows whose it is and its parity by its brackets, so no
colour is needed: ``(x)`` an odd threat of X, ``{o}`` an even threat of O, ``*`` a threat of both.
"""

from __future__ import annotations

import argparse
import json

from c4engine.board import Board
from c4engine.cli.command import Command
from c4engine.cli.options import MAX_SECONDS, add_board_options, number
from c4engine.cli.render import render_board
from c4engine.notation import parse_size
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.analysis.books import DEFAULT_BOOK
from c4engine.search.coach.explanation import Explanation, explain
from c4engine.search.limit import Limit

__all__ = ["COMMANDS", "EXPLAIN", "render_threats", "run_explain"]

DEFAULT_SECONDS = 0.5
"""The solver's time for the score by default: the answer comes within about a second."""


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("position", help="moves played so far ('' for the empty board)")
    add_board_options(parser)
    parser.add_argument(
        "--time",
        type=number(0, MAX_SECONDS, above=True, unit=" seconds"),
        default=DEFAULT_SECONDS,
        metavar="SECONDS",
        help=f"the solver's time for the score (default {DEFAULT_SECONDS:g}); a score not proven "
        "within it is said to be unproven, and no proof by rules is shown without a proven score",
    )
    parser.add_argument("--no-book", action="store_true", help="do not read the opening book")
    parser.add_argument("--json", action="store_true", help="one JSON object (docs/explain.md)")


def render_threats(explanation: Explanation) -> str:
    """The board with every threat on an empty cell marked: ``(x)`` odd, ``{o}`` even, ``*`` both.

    >>> from c4engine.search.coach.explanation import explain
    >>> from c4engine.search.results import Score
    >>> board = Board.from_moves("112233")
    >>> print(render_threats(explain(board, score=Score.proven_value(18, cells=42, stones=6))))
     .  .  .  .  .  .  .
     .  .  .  .  .  .  .
     .  .  .  .  .  .  .
     .  .  .  .  .  .  .
     O  O  O {o} .  .  .
     X  X  X (x) .  .  .
     1  2  3  4  5  6  7
    """
    board = explanation.board
    marks: dict[tuple[int, int], tuple[set[str], str]] = {}
    for threat in explanation.threats:
        players, _ = marks.get(threat.cell, (set(), threat.parity))
        players.add(threat.player.symbol.lower())
        marks[threat.cell] = (players, threat.parity)
    lines = render_board(board).split("\n")
    for (column, row), (players, parity) in marks.items():
        line_index = board.height - 1 - row
        who = players.pop() if len(players) == 1 else "*"
        text = f"({who})" if parity == "odd" else f"{{{who}}}"
        line = lines[line_index]
        lines[line_index] = line[: 3 * column] + text + line[3 * column + 3 :]
    return "\n".join(lines)


def run_explain(args: argparse.Namespace) -> int:
    """Handler of ``c4 explain``; bad input raises :class:`~c4engine.errors.C4Error` (one line)."""
    width, height = parse_size(args.size)
    board = Board.from_moves(args.position, width, height, args.connect)
    analyst = Analyst(None if args.no_book else DEFAULT_BOOK)
    explanation = explain(board, analyst=analyst, limit=Limit(time=args.time))
    if args.json:
        print(json.dumps(explanation.to_json(), ensure_ascii=False))
        return 0
    print(render_threats(explanation))
    print("(x) odd threat of X, {o} even threat of O, * both")
    for sentence in explanation.sentences:
        print(f"- {sentence}")
    return 0


EXPLAIN = Command(
    "explain",
    summary="explain a position: threats, zugzwang, a proof by Allis' rules",
    description="Show the board with every threat marked, then the coach's explanation: the threats "
    "(odd and even), what the next move must do, who controls the zugzwang, a proof by Allis' rules "
    "where they settle the position (checked, and confirmed by the solver), and the solver's score.",
    add_options=_options,
    run=run_explain,
)
COMMANDS = (EXPLAIN,)
