"""One try at a puzzle's move: right advances with the reply, wrong is refuted by a proven best reply."""

from __future__ import annotations

import pytest

from c4engine.errors import ColumnFullError, PuzzleError
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.puzzles.attempt import PuzzleSession, hints, position_at, try_move
from c4engine.search.puzzles.puzzle import Puzzle

TWO_MOVES = Puzzle(
    "531455454475516624",
    solution=(1, 2, 1, 1, 0),
    goal="win",
    ends="forced win",
    score=9,
    themes=("threat above threat",),
)


@pytest.fixture(scope="module")
def analyst() -> Analyst:
    return Analyst()


def test_a_wrong_move_is_refused_with_the_opponents_best_reply(analyst: Analyst) -> None:
    attempt = try_move(TWO_MOVES, 0, 3, analyst)
    assert not attempt.right and attempt.refutation is not None and attempt.outcome is not None
    board = position_at(TWO_MOVES, 0)
    board.play(3)
    best = analyst.analyze(board, pv=False)
    assert attempt.refutation in best.best_columns and best.best_proven
    assert attempt.outcome == best.score.label()
    assert attempt.words.startswith(f"{board.turn.symbol} plays {attempt.refutation + 1}: ")
    assert attempt.to_json()["column"] == 4


def test_a_session_advances_on_right_moves_and_stays_on_wrong_ones(analyst: Analyst) -> None:
    session = PuzzleSession(TWO_MOVES, analyst)
    assert not session.play(3).right and session.step == 0 and session.wrong_tries == 1
    first = session.play(1)
    assert first.right and not first.solved and first.reply == 2 and session.step == 1
    assert session.board.move_string == "53145545447551662423"
    second = session.play(1)
    assert second.right and not second.solved
    last = session.play(0)
    assert last.right and last.solved and session.solved and last.words == "solved"
    with pytest.raises(PuzzleError, match="solved"):
        session.play(0)


def test_a_full_column_and_a_step_off_the_solution_are_refused(analyst: Analyst) -> None:
    board = position_at(TWO_MOVES, 0)
    full = next(c for c in range(board.width) if not board.can_play(c))
    with pytest.raises(ColumnFullError):
        try_move(TWO_MOVES, 0, full, analyst)
    with pytest.raises(PuzzleError, match="step 5"):
        position_at(TWO_MOVES, 5)


def test_hints_go_from_the_goal_to_the_move() -> None:
    given = hints(TWO_MOVES, 1)
    assert given[0].endswith("only one move keeps the win")
    assert given[1] == "the theme: threat above threat"
    assert given[-1] == "the move: column 2"
