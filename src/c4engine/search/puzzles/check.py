"""A puzzle checked again from scratch: the uniqueness check.

:func:`check_puzzle` replays a puzzle and asks the analysis service, with no
limit (every score exact), about each position of its solution.  It shares
no code with the generation's line (:mod:`c4engine.search.puzzles.line`) but
the rules and the analyst, and says what it finds wrong:

* at each of the solver's turns exactly one column keeps the goal's outcome
  (a win; a draw, no column winning) and it is the solution's;
* the position's exact score is the puzzle's ``score``;
* each reply of the opponent is its most resilient: its best exact score
  (a win puzzle's slowest loss; a draw puzzle's draw);
* the line ends as the puzzle claims (:data:`~c4engine.search.puzzles.puzzle.ENDINGS`).

>>> from c4engine.search.analysis.analyst import Analyst
>>> puzzle = Puzzle("246343446633441556", solution=(2, 4, 4, 5, 5), goal="draw", ends="draw held", score=0)
>>> check_puzzle(puzzle, Analyst()).ok
True
>>> wrong = Puzzle("246343446633441556", solution=(1,), goal="draw", ends="draw held", score=0)
>>> check_puzzle(wrong, Analyst()).problems
('move 1: the only column keeping the draw is 3, not 2',)
"""

from __future__ import annotations

from dataclasses import dataclass

from c4engine.board import Board
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.puzzles.puzzle import Puzzle

__all__ = ["PuzzleCheck", "check_puzzle"]


@dataclass(frozen=True)
class PuzzleCheck:
    """What :func:`check_puzzle` found: nothing wrong (``ok``), or the problems, in order."""

    puzzle: Puzzle
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, object]:
        return {"id": self.puzzle.id, "ok": self.ok, "problems": list(self.problems)}


def check_puzzle(puzzle: Puzzle, analyst: Analyst) -> PuzzleCheck:
    """Check ``puzzle`` step by step with ``analyst`` (exact scores; see the module's notes)."""
    problems: list[str] = []
    board = puzzle.board()
    kept = 1 if puzzle.goal == "win" else 0
    for index, column in enumerate(puzzle.solution):
        name = f"move {index + 1}"
        if board.is_over:
            problems.append(f"{name}: the game is already over")
            break
        # outcomes decide the solver's turns and a draw's replies; a win's replies need exact scores
        scores = _scores(analyst, board, weak=index % 2 == 0 or puzzle.goal == "draw")
        if scores is None:
            problems.append(f"{name}: not every column's score is proven")
            break
        if index % 2 == 0:
            keepers = [c for c, score in scores.items() if score == kept]
            if max(scores.values()) != kept:
                problems.append(f"{name}: the best outcome is not a {puzzle.goal}")
            elif keepers != [column]:
                found = " and ".join(str(c + 1) for c in keepers)
                problems.append(
                    f"{name}: the only column keeping the {puzzle.goal} is {found}, not {column + 1}"
                )
            if index == 0 and (score := _score(analyst, board)) != puzzle.score:
                problems.append(f"{name}: the position scores {score}, not {puzzle.score}")
        elif scores.get(column) != max(scores.values()):
            problems.append(f"{name}: the reply {column + 1} is not the opponent's most resilient")
        board.play(column)
    if not problems:
        problems.extend(_ending_problems(puzzle, board, analyst))
    return PuzzleCheck(puzzle, tuple(problems))


def _scores(analyst: Analyst, board: Board, *, weak: bool) -> dict[int, int] | None:
    """Every legal column's exact score (``weak``: its outcome, 1, 0 or -1), None if one is unproven."""
    values = analyst.analyze(board, weak=weak, pv=False).proven_values()
    scores = {column: value for column in board.legal_moves() if (value := values[column]) is not None}
    if len(scores) != len(board.legal_moves()):
        return None
    return {column: _sign(score) for column, score in scores.items()} if weak else scores


def _score(analyst: Analyst, board: Board) -> int | None:
    """The position's exact score, None if unproven."""
    score = analyst.solve(board, best_move=False).score
    return None if score is None or not score.proven else int(score.value)


def _ending_problems(puzzle: Puzzle, board: Board, analyst: Analyst) -> list[str]:
    """What is wrong with the claimed ending of ``puzzle``, whose solution ``board`` has played."""
    if puzzle.ends == "win":
        return [] if board.winner is not None else ["the last move does not win the game"]
    if puzzle.ends == "forced win":
        for reply in board.legal_moves():
            after = board.copy()
            after.play(reply)
            if after.is_over or not after.winning_columns():
                return [f"after the reply {reply + 1} the solver has no immediate win"]
        return [] if board.legal_moves() else ["the board is full: no win"]
    if board.winner is not None:
        return ["the game is won, not drawn"]
    if board.is_full:
        return []
    replies = _scores(analyst, board, weak=True)
    if replies is None:
        return ["not every reply's outcome is proven"]
    for reply, outcome in replies.items():
        if outcome != 0:
            continue
        after = board.copy()
        after.play(reply)
        if after.is_over:
            continue
        answers = _scores(analyst, after, weak=True)
        if answers is None:
            return [f"after the reply {reply + 1} not every outcome is proven"]
        holding = [c for c, answer in answers.items() if answer == 0]
        if len(holding) < 2:
            return [f"after the reply {reply + 1} the draw hangs on {len(holding)} move(s)"]
    return []


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)
