"""Puzzles from a game: the positions right after a mistake, where the side to move has only moves.

:func:`puzzles_from_game` walks a game from its last move back to its first
(the solver's table, warm from the end, makes the earlier positions cheap;
the opening book answers the opening) and asks the analysis service the
outcome -- win, draw or loss -- of every position.  A move is a *mistake*
when it lowers its mover's outcome (a draw thrown to a loss, a win to a
draw: ``"mistake"``; a win to a loss: ``"blunder"``, as the review's
verdicts, :mod:`c4engine.search.review.verdicts`, say).  After each mistake by a
side that chose its move (a match's random opening is chosen by nobody),
the position is a puzzle when its side to move

* now wins within ``max_moves + 1`` of its own moves (one null-window
  search tells), or now holds a draw the mistake handed it, and
* has an only-move line from there (:func:`~c4engine.search.puzzles.line.only_move_line`):
  exactly one move keeps the outcome at each of its turns, until the win is
  forced or the draw held.

A position whose outcome is not proven within ``value_limit`` is skipped
(counted in :attr:`GameScan.unproven`), never guessed.

>>> from c4engine.search.analysis.analyst import Analyst
>>> scan = puzzles_from_game(Analyst(), "6443433251", opening_plies=4, label="a level 1 game")
>>> [(p.position, p.solution_string, p.goal, p.ends, p.source.mistake) for p in scan.puzzles]
[('64434', '2', 'win', 'forced win', 'blunder'), ('6443433', '2', 'win', 'forced win', 'blunder')]
>>> scan.puzzles[0].themes, scan.mistakes, scan.unproven
(('double threat',), 3, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from c4engine.board import Board
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import Limit
from c4engine.search.puzzles.difficulty import rating
from c4engine.search.puzzles.line import LINE_LIMIT, MAX_SOLVER_MOVES, only_move_line
from c4engine.search.puzzles.puzzle import Puzzle, PuzzleSource
from c4engine.search.puzzles.themes import ThemeSource, coach_themes
from c4engine.search.scale import win_score

__all__ = ["VALUE_LIMIT", "GameScan", "mistake_verdict", "puzzles_from_game"]

VALUE_LIMIT: Final = Limit(nodes=2_000_000)
"""What finding one position's outcome may search (under a second on one core); beyond it the
position is skipped.  A node limit: every run finds the same puzzles."""


@dataclass(frozen=True)
class GameScan:
    """What :func:`puzzles_from_game` found in one game: its puzzles (in the order of the game), the
    mistakes it saw, and the positions skipped because their outcome was not proven within the limit."""

    puzzles: tuple[Puzzle, ...]
    mistakes: int
    unproven: int


def mistake_verdict(before: int, after: int) -> str | None:
    """The verdict of a move from its mover's outcome before and after it (1 win, 0 draw, -1 loss):
    ``"blunder"`` (a win to a loss), ``"mistake"`` (one step down), or None (no worse).

    >>> mistake_verdict(1, -1), mistake_verdict(0, -1), mistake_verdict(1, 0), mistake_verdict(0, 0)
    ('blunder', 'mistake', 'mistake', None)
    """
    drop = before - after
    return "blunder" if drop >= 2 else "mistake" if drop == 1 else None


def puzzles_from_game(
    analyst: Analyst,
    game: str | Board,
    *,
    width: int = 7,
    height: int = 6,
    connect: int = 4,
    opening_plies: int = 0,
    label: str | None = None,
    limit: Limit = LINE_LIMIT,
    value_limit: Limit = VALUE_LIMIT,
    max_moves: int = MAX_SOLVER_MOVES,
    themes: ThemeSource = coach_themes,
) -> GameScan:
    """The puzzles after the mistakes of ``game`` (a move string on a ``width`` x ``height``
    connect-``connect`` board, or a :class:`Board` with its history); see the module's notes.

    The first ``opening_plies`` moves were chosen by nobody: no puzzle follows them.  ``label`` names
    the game in each puzzle's source; ``themes`` names what each solution shows
    (:mod:`c4engine.search.puzzles.themes`; the default adds the coach's checked rules, a few
    milliseconds a puzzle).  ``limit`` bounds each analysis along a solution.
    """
    final = Board.from_moves(game, width, height, connect) if isinstance(game, str) else game.copy()
    moves = final.moves
    positions = [Board(final.width, final.height, final.connect)]
    for column in moves:
        positions.append(positions[-1].copy())
        positions[-1].play(column)
    outcomes: dict[int, int | None] = {}

    def outcome(stones: int) -> int | None:
        if stones not in outcomes:
            outcomes[stones] = _outcome(analyst, positions[stones], value_limit)
        return outcomes[stones]

    found: list[Puzzle] = []
    mistakes = unproven = 0
    for stones in range(len(moves), opening_plies, -1):
        position = positions[stones]
        if position.is_over:
            continue
        # the cheap question first: most positions after a mistake that make puzzles are quick wins
        quick = _wins_within(analyst, position, max_moves + 1, value_limit)
        after = 1 if quick else None if quick is None else outcome(stones)
        if after is None or after < 0:
            unproven += after is None
            continue
        before = outcome(stones - 1)
        if before is None:
            unproven += 1
            continue
        verdict = mistake_verdict(before, -after)
        if verdict is None:
            continue
        mistakes += 1
        if after > 0 and not quick:
            continue  # a win too long for a puzzle
        line = only_move_line(analyst, position, limit, max_moves=max_moves)
        if line is None:
            continue
        found.append(
            Puzzle(
                position=position.move_string,
                solution=line.solution,
                goal=line.goal,
                ends=line.ends,
                score=line.score,
                themes=themes(position, line.solution, line.goal, line.ends),
                tempting=line.tempting,
                rating=rating(length=len(line.solution[::2]), tempting=line.tempting),
                width=final.width,
                height=final.height,
                connect=final.connect,
                source=PuzzleSource(final.move_string, stones, verdict, label),
            )
        )
    return GameScan(tuple(reversed(found)), mistakes, unproven)


def _outcome(analyst: Analyst, board: Board, limit: Limit) -> int | None:
    """``board``'s outcome for the side to move (1, 0, -1), None when not proven within ``limit``."""
    if board.is_over:
        return 0 if board.winner is None else -1  # the side to move did not make the last line
    result = analyst.solve(board, limit, weak=True, best_move=False)
    if result.score is None or not result.score.proven:
        return None
    value = result.score.value
    return (value > 0) - (value < 0)


def _wins_within(analyst: Analyst, board: Board, moves: int, limit: Limit) -> bool | None:
    """Whether the side to move wins with at most ``moves`` of its own stones: the book's exact score
    where it has one, else one null-window search; None when not proven within ``limit``."""
    cells = board.width * board.height
    target = win_score(cells, board.move_count + 2 * (moves - 1))  # its last stone's score
    if target < 1:
        return True  # the game ends before: a win is one within ``moves``
    if board.winning_columns():
        return True
    known = analyst.book_score(board)
    if known is not None:
        return known >= target
    return analyst.is_at_least(board, target, limit)
