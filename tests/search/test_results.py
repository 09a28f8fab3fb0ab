"""PlayResult: the one answer of every chosen move, and what "proven" promises."""

from __future__ import annotations

import pytest

from c4engine.board import Board
from c4engine.integrations.kaggle import ConnectXAgent
from c4engine.play.perfect import PerfectPlayer
from c4engine.play.players import AnalystPlayer, EnginePlayer
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.engine.negamax import Engine
from c4engine.search.limit import Limit
from c4engine.search.results import PlayResult, Score
from c4engine.search.solver.exact import Solver

POSITIONS = ["", "4453", "445566", "3522645", "44535", "2336472773465575372554", "152132362111576"]


KNOWN = {"": 1, "4": -1}
"""Exact scores known without a search (John Tromp's and Pascal Pons' solutions of 7x6: the first
player wins with the last stones, by the centre): the solver alone takes minutes on the empty board."""


def _exact(board: Board, judge: Solver) -> int | None:
    known = KNOWN.get(board.move_string)
    return known if known is not None else judge.solve(board).score


def check_proven(board: Board, result: PlayResult, judge: Solver) -> None:
    """A proven result's column keeps its exact score: the solver agrees with both."""
    assert result.column is not None and board.can_play(result.column)
    if not result.proven:
        return
    score = result.score
    assert score is not None and score.proven, result
    assert result.lower == result.upper == score.value or result.source == "engine", result
    assert _exact(board, judge) == score.value, (board.move_string, result)
    child = board.copy()
    child.play(result.column)
    if child.is_over:  # the move ends the game: the rules' score
        return
    assert _exact(child, judge) == -score.value, (board.move_string, result)


@pytest.fixture(scope="module")
def judge() -> Solver:
    return Solver(table_size_mb=16)


@pytest.mark.parametrize("moves", POSITIONS)
def test_every_chosen_move_is_one_play_result(moves: str, judge: Solver) -> None:
    board = Board.from_moves(moves)
    engine = Engine(limit=Limit(depth=4)).search(board)
    solved = Analyst(table_size_mb=16).solve(board, Limit(time=10))
    perfect = PerfectPlayer(limit=Limit(time=10), table_size_mb=16)
    perfect.choose_move(board)
    level = EnginePlayer(level=3, seed=1, noise=0.0)
    level.choose_move(board)
    service = AnalystPlayer(Limit(time=10))
    service.choose_move(board)
    answers = [engine, solved, perfect.last, level.last, service.last]
    assert all(isinstance(answer, PlayResult) for answer in answers)
    for answer in answers:
        assert answer is not None
        check_proven(board, answer, judge)
    assert engine.source == "engine" and engine.depth is not None
    assert solved.depth is None or solved.source == "engine"


def test_the_kaggle_agent_answers_a_play_result() -> None:
    agent = ConnectXAgent(max_think=2, table_size_mb=16)
    observation = {"board": [0] * 42, "mark": 1}
    assert agent(observation, {"rows": 6, "columns": 7, "inarow": 4}) == 3
    assert isinstance(agent.last, PlayResult) and agent.last.source == "book" and agent.last.proven


def test_a_win_on_the_spot_is_the_rules_everywhere() -> None:
    board = Board.from_moves("445566")  # X wins in column 3 (0-based 2)
    perfect = PerfectPlayer(limit=Limit(time=10), table_size_mb=16)
    perfect.choose_move(board)
    solved = Analyst(table_size_mb=16).solve(board)
    assert perfect.last is not None
    for answer in (perfect.last, solved):
        assert (answer.column, answer.source, answer.proven, answer.describe()) == (
            2,
            "rules",
            True,
            "win in 1 move",
        )


def test_an_unproven_answer_says_what_is_known() -> None:
    estimate = Score.estimate(12.5, cells=42, stones=9)
    bounded = PlayResult(column=4, score=estimate, source="engine", proven=False, lower=0, upper=17)
    # 17 is the most a position of 9 stones could score, a win with the next stone: no bound at all
    assert bounded.describe() == "unknown (stopped): at least a draw; estimate +12.5 (not proven)"
    narrowed = PlayResult(column=4, score=estimate, source="engine", proven=False, lower=0, upper=12)
    assert (
        narrowed.describe()
        == "unknown (stopped): between draw and win in 6 moves; estimate +12.5 (not proven)"
    )
    nothing = PlayResult(column=4, score=None, source="solver", proven=False, lower=0, stopped="time limit")
    assert nothing.describe() == "unknown (time limit): at least 0"
    assert "not proven" in repr(nothing) and "column 5" in repr(nothing)
