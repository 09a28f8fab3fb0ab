"""The evaluators: hand-computed values, symmetries, bounds, weights as data."""

from __future__ import annotations

import math

import pytest
from tests.positions import random_positions

from c4engine.board import Board
from c4engine.errors import C4Error, UnknownEvaluatorError, WeightsError
from c4engine.player import Player
from c4engine.search.engine.evaluators import (
    DEFAULT_WEIGHTS,
    EVAL_LIMIT,
    EVALUATORS,
    WindowsEvaluator,
    area_score,
    areas,
    evaluator_by_name,
    threat_distance,
    window_masks,
    windows,
)
from c4engine.search.engine.weights import WindowWeights

SYMMETRIC = WindowWeights(own=(1, 10, 100), opponent=(-1, -10, -100), center=3)


def swapped(board: Board) -> Board:
    """The same stones with the colours exchanged (the side to move keeps the move).

    Not always a reachable position, but the evaluators only look at the stones.
    """
    twin = board.copy()
    twin._current ^= twin._mask
    return twin


# ------------------------------------------------------------ windows


def test_window_counts() -> None:
    assert len(window_masks(7, 6, 4)) == 69
    assert len(window_masks(3, 3, 3)) == 8
    assert len(window_masks(4, 4, 3)) == 24
    # connect longer than the height: no vertical (or diagonal) windows
    assert len(window_masks(5, 2, 4)) == 4
    for mask in window_masks(7, 6, 4):
        assert mask.bit_count() == 4


# --------------------------------------------------- hand-computed values


def test_empty_board_is_even() -> None:
    for size in ((7, 6, 4), (3, 3, 3), (8, 5, 4), (9, 7, 5)):
        board = Board(*size)
        assert areas(board) == 0
        assert threat_distance(board) == 0
        assert windows(board) == 0


def test_centre_stone_on_standard_board() -> None:
    board = Board.from_moves("4")  # X at the bottom of the centre; O to move
    # X's stone lies in 7 windows (1 vertical, 4 horizontal, 2 diagonal): each worth 2 to X, 0 to O.
    assert area_score(board, Player.FIRST) == 62 + 7 * 2
    assert area_score(board, Player.SECOND) == 62
    assert area_score(board) == 62  # the side to move, O
    assert areas(board) == -14
    # vertical and 4 horizontals lie on the floor (d = 0); each diagonal waits for 1 + 2 + 3 stones
    assert threat_distance(board) == pytest.approx(-(5 + 2 / 7))
    # default weights: 7 X windows of one stone (opponent[0] each) and X's centre stone (-center)
    assert windows(board) == pytest.approx(7 * DEFAULT_WEIGHTS.opponent[0] - DEFAULT_WEIGHTS.center)
    assert WindowsEvaluator(WindowWeights((1, 10, 100), (-1, -10, -120), 3))(board) == -10


def test_3x3_single_stone() -> None:
    board = Board.from_moves("2", 3, 3, 3)  # X bottom centre; 8 windows, X in 2 of them
    assert areas(board) == (8 - 2) - (6 + 2 * 2)
    assert threat_distance(board) == -2
    # connect-3 defaults: own (1, 100), opponent (-1, -120), centre 3
    assert windows(board) == -1 - 1 - 3


def test_3x3_both_players() -> None:
    board = Board.from_moves("21", 3, 3, 3)  # X (1,0), O (0,0); X to move
    # live: X's column 2; O's column 1 and the diagonal (0,0)-(2,2); 4 empty; the bottom row is dead
    assert area_score(board, Player.FIRST) == 4 + 2
    assert area_score(board, Player.SECOND) == 4 + 2 + 2
    assert areas(board) == -2
    # O's diagonal needs (1,1) [0 drops below it] and (2,2) [2 empty cells below]: 1 / (1 + 2)
    assert threat_distance(board) == pytest.approx(1 - (1 + 1 / 3))
    # X: one own window (+1), O: two (-1 each), X's centre stone (+3)
    assert windows(board) == 1 - 2 + 3


def test_4x4_corner() -> None:
    board = Board.from_moves("1", 4, 4, 3)
    assert area_score(board, Player.FIRST) == 27
    assert area_score(board, Player.SECOND) == 21
    assert areas(board) == -6
    # column and row on the floor, the diagonal waits for 1 + 2 stones
    assert threat_distance(board) == pytest.approx(-(1 + 1 + 1 / 4))


def test_threats_weigh_more() -> None:
    # X has three in the bottom row (cols 1-3) with col 4 open; O has a vertical two.
    board = Board.from_moves("15253")
    assert board.turn is Player.SECOND
    # from O's point of view, X's open three dominates
    assert windows(board) < -100  # X's three alone is -120
    assert threat_distance(board) < -50  # X's three alone is -100
    # the classic areas score only doubles per stone: O's live windows still outweigh it
    assert areas(board) == 2


def test_weights_evaluator_hand_values() -> None:
    evaluate = WindowsEvaluator(WindowWeights(own=(2, 20), opponent=(-3, -30), center=0.5))
    board = Board.from_moves("21", 3, 3, 3)  # see test_3x3_both_players
    assert evaluate(board) == 2 * 1 - 3 * 2 + 0.5 * 1
    board = Board.from_moves("212", 3, 3, 3)  # O to move; X's second stone kills O's diagonal
    # O: column 1 (+2); X: column 2 with two (-30), row 2 and the anti-diagonal with one (-3 each),
    # X's two centre stones (-0.5 each)
    assert evaluate(board) == 2 - 30 - 3 - 3 - 0.5 * 2


def test_even_width_has_two_centre_columns() -> None:
    evaluate = WindowsEvaluator(WindowWeights(own=(0, 0, 0), opponent=(0, 0, 0), center=1))
    assert evaluate(Board.from_moves("3", 6, 6, 4)) == -1
    assert evaluate(Board.from_moves("4", 6, 6, 4)) == -1
    assert evaluate(Board.from_moves("2", 6, 6, 4)) == 0
    assert evaluate(Board.from_moves("34", 6, 6, 4)) == 0


# ----------------------------------------------------------- symmetries


@pytest.mark.parametrize("evaluate", [areas, threat_distance, WindowsEvaluator(SYMMETRIC)])
def test_colour_swap_flips_the_sign(evaluate) -> None:  # type: ignore[no-untyped-def]
    """Own minus opponent with the same weights for both: exchanging the colours negates the score."""
    for board in random_positions(60, seed=11):
        assert evaluate(swapped(board)) == pytest.approx(-evaluate(board))


def test_default_windows_is_not_antisymmetric() -> None:
    """The default opponent weights are heavier for threes, so the swap does not simply negate."""
    board = Board.from_moves("15253")
    assert windows(swapped(board)) != -windows(board)


@pytest.mark.parametrize("name", sorted(EVALUATORS))
def test_mirror_invariance(name: str) -> None:
    evaluate = EVALUATORS[name]
    for board in random_positions(40, seed=12) + random_positions(20, seed=13, size=(6, 5, 4)):
        assert evaluate(board.mirror()) == pytest.approx(evaluate(board))


def test_areas_is_the_difference_of_area_scores() -> None:
    for board in random_positions(40, seed=14):
        own = area_score(board, board.turn)
        other = area_score(board, board.turn.other)
        assert areas(board) == own - other
        assert area_score(swapped(board), board.turn) == other


# ---------------------------------------------------------------- bounds


@pytest.mark.parametrize("name", sorted(EVALUATORS))
def test_bounded_on_random_positions(name: str) -> None:
    evaluate = EVALUATORS[name]
    sizes = [(7, 6, 4), (4, 4, 3), (9, 7, 5), (12, 10, 4), (10, 3, 2), (16, 16, 6)]
    for index, size in enumerate(sizes):
        for board in random_positions(15, seed=20 + index, size=size, stones=(0, size[0] * size[1] - 1)):
            assert -EVAL_LIMIT < evaluate(board) < EVAL_LIMIT


def test_bounded_on_extreme_boards() -> None:
    # 32x32 connect 32: X's 31 stones in the bottom row make a window worth 2**31 to the areas score;
    # O stacks its stones two high on top of them (at most 2**16 for its rows).
    board = Board(32, 32, 32)
    for move in range(31):
        board.play(move)
        board.play(move // 2)
    assert not board.is_over and board.turn is Player.FIRST
    assert areas(board) == EVAL_LIMIT - 1
    assert -EVAL_LIMIT < windows(board) < EVAL_LIMIT
    # 20x20 connect 10: X's nine in a row weighs 10**8 for threat_distance.
    board = Board(20, 20, 10)
    for column in range(9):
        board.play(column)
        board.play(column)
    assert threat_distance(board) == EVAL_LIMIT - 1
    huge = WindowsEvaluator(WindowWeights(own=(1e12,) * 3, opponent=(-1e12,) * 3, center=1e12))
    assert huge(Board.from_moves("4")) == -(EVAL_LIMIT - 1)
    assert huge(Board.from_moves("45")) == EVAL_LIMIT - 1  # X to move, with the centre stone
    for board in random_positions(20, seed=30):
        assert -EVAL_LIMIT < huge(board) < EVAL_LIMIT


# --------------------------------------------------------------- weights


def test_default_weights() -> None:
    # tuned (docs/tuning.md): steeply growing own weights, threats of the opponent weigh more, centre counts
    assert DEFAULT_WEIGHTS.own[0] < DEFAULT_WEIGHTS.own[1] < DEFAULT_WEIGHTS.own[2]
    assert DEFAULT_WEIGHTS.opponent[2] < DEFAULT_WEIGHTS.opponent[1] < DEFAULT_WEIGHTS.opponent[0] < 0
    assert DEFAULT_WEIGHTS.center > 0
    assert DEFAULT_WEIGHTS.connect == 4
    assert WindowWeights.for_connect(4) == WindowWeights((1, 10, 100), (-1, -10, -120), 3)


@pytest.mark.parametrize("connect", range(2, 9))
def test_for_connect(connect: int) -> None:
    weights = WindowWeights.for_connect(connect)
    assert len(weights.own) == len(weights.opponent) == connect - 1
    assert list(weights.own) == sorted(weights.own)
    assert all(weight < 0 for weight in weights.opponent)
    board = Board(connect + 3, connect + 2, connect)
    for column in (0, 1, 1, 2, 3, 3) if connect > 2 else (0,):
        board.play(column)
    default = WindowsEvaluator(DEFAULT_WEIGHTS if connect == 4 else weights)  # connect 4: tuned
    assert default(board) == windows(board)


def test_weights_for_the_wrong_connect() -> None:
    evaluate = WindowsEvaluator(DEFAULT_WEIGHTS)
    assert evaluate(Board.from_moves("4")) == windows(Board.from_moves("4"))
    with pytest.raises(WeightsError, match="for connect 4, not connect 5"):
        evaluate(Board(9, 7, 5))
    with pytest.raises(WeightsError, match="for connect 4, not connect 3"):
        evaluate(Board(4, 4, 3))
    with pytest.raises(WeightsError):
        WindowsEvaluator({"own": [1]})  # type: ignore[arg-type]


# ----------------------------------------------------------------- names


def test_evaluators_by_name() -> None:
    assert set(EVALUATORS) == {"areas", "threat_distance", "windows"}
    for name, evaluate in EVALUATORS.items():
        assert evaluator_by_name(name) is evaluate
        result = evaluate(Board.from_moves("4453"))
        assert isinstance(result, int | float) and math.isfinite(result)


def test_unknown_evaluator() -> None:
    with pytest.raises(UnknownEvaluatorError) as info:
        evaluator_by_name("minimax")
    assert isinstance(info.value, C4Error)
    for name in EVALUATORS:
        assert name in str(info.value)
    with pytest.raises(UnknownEvaluatorError):
        evaluator_by_name(None)  # type: ignore[arg-type]
