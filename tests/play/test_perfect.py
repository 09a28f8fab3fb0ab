"""The perfect player and the book-then-solver analyst."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tests.conftest import PONS
from tests.positions import assert_ends_as_scored, fewest_stones, scored_positions

from c4engine.board import Board
from c4engine.errors import GameOverError, UnsupportedBoardError
from c4engine.experiments.book_builder import build_book
from c4engine.play.perfect import PerfectPlayer, check_perfect_board
from c4engine.play.players import EnginePlayer, RandomPlayer, parse_agent
from c4engine.search.book.file import OpeningBook
from c4engine.search.choice import best_column
from c4engine.search.limit import UNLIMITED, Limit
from c4engine.search.solver.exact import Solver


def _held(name: str, count: int) -> list[tuple[str, int]]:
    path = PONS / name
    cases = []
    for line in path.read_text().splitlines()[:count]:
        moves, score = line.split()
        cases.append((moves, int(score)))
    return cases


@pytest.fixture(scope="module")
def judge() -> Solver:
    return Solver(table_size_mb=16)


def _score_of_move(board: Board, column: int, judge: Solver) -> int:
    """The exact score the side to move gets by playing ``column``."""
    if board.is_winning_move(column):
        return (board.width * board.height + 1 - board.move_count) // 2
    child = board.copy()
    child.play(column)
    if child.is_full:
        return 0
    score = judge.solve(child, best_move=False).score
    assert score is not None
    return -score


@pytest.mark.parametrize(("name", "count"), [("Test_L3_R1", 200), ("Test_L2_R1", 100)])
def test_moves_on_held_positions_reach_the_published_score(name: str, count: int, judge: Solver) -> None:
    """The published score is the position's value: a best move keeps it, any other loses some."""
    player = PerfectPlayer(book=None, table_size_mb=16, limit=UNLIMITED)
    for moves, published in _held(name, count):
        board = Board.from_moves(moves)
        column = player.choose_move(board)
        assert player.last is not None and player.last.proven
        assert player.last.lower == published, moves
        assert _score_of_move(board, column, judge) == published, moves
    assert player.unproven == 0


def _play_out(board: Board, first: object, second: object) -> Board:
    agents = (first, second)
    side = 0
    while not board.is_over:
        board.play(agents[side].choose_move(board.copy()))  # type: ignore[attr-defined]
        side = 1 - side
    return board


def test_never_loses_a_won_position_against_random_and_levels() -> None:
    """From held positions that the side to move wins, the perfect player wins every game."""
    won = [(m, s) for m, s in _held("Test_L2_R1", 200) if s > 0 and len(m) % 2 == 0][:6]
    assert len(won) >= 4
    perfect = PerfectPlayer(book=None, table_size_mb=16)
    opponents = [
        RandomPlayer(seed=1),
        RandomPlayer(seed=2),
        EnginePlayer(level=3, seed=1),
        EnginePlayer(level=5),
    ]
    games = 0
    for moves, _score in won:
        for opponent in opponents:
            start = Board.from_moves(moves)
            mover = start.turn
            end = _play_out(start, perfect, opponent)
            assert end.winner == mover, f"{moves} against {opponent}: {end.move_string}"
            games += 1
    assert games >= 16
    assert perfect.unproven == 0


def test_an_immediate_win_needs_no_search() -> None:
    player = PerfectPlayer(book=None, table_size_mb=8)
    assert player.choose_move(Board.from_moves("112233")) == 3
    assert player.last is not None and player.last.source == "rules" and player.last.lower == 18


def test_a_limit_still_moves_and_marks_the_move_unproven() -> None:
    player = PerfectPlayer(book=None, table_size_mb=8, limit=Limit(time=0.001))
    board = Board.from_moves("44")
    column = player.choose_move(board)
    assert board.can_play(column)
    assert player.last is not None and not player.last.proven
    assert player.unproven == 1 and player.moves == 1


def test_ties_are_broken_centre_first_or_at_random_with_a_seed() -> None:
    board = Board()
    scores: list[int | None] = [0, 0, 0, -1, 0, 0, -3]
    assert best_column(board, scores, None) == 2  # nearest the centre, left first
    picks = [best_column(board, scores, random.Random(seed)) for seed in range(30)]
    assert set(picks) == {0, 1, 2, 4, 5}
    assert picks == [best_column(board, scores, random.Random(seed)) for seed in range(30)]


def test_random_ties_are_repeatable_with_a_seed() -> None:
    board = Board.from_moves("4455", 5, 4, 4)

    def choices(seed: int) -> list[int]:
        player = PerfectPlayer(book=None, table_size_mb=8, random_ties=True, seed=seed)
        walk = board.copy()
        out = []
        while not walk.is_over:
            column = player.choose_move(walk)
            out.append(column)
            walk.play(column)
        return out

    assert choices(3) == choices(3)


def test_a_position_at_the_books_depth_takes_its_score_from_the_book(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the book's last ply the moves are tested against the book's score: the root is not solved."""
    path = tmp_path / "small.c4b"
    build_book(path, 3, width=5, height=4, connect=4, workers=0)
    book = OpeningBook.open(path)
    judge = Solver(table_size_mb=8)
    player = PerfectPlayer(book=book, table_size_mb=8, limit=UNLIMITED)

    def no_root_solve(*args: object, **kwargs: object) -> None:
        raise AssertionError("the root was solved although the book knows its score")

    monkeypatch.setattr(player.analyst.solver, "solve", no_root_solve)
    for moves in ["123", "333", "154", "225"]:
        board = Board.from_moves(moves, 5, 4, 4)
        column = player.choose_move(board)
        assert player.last is not None and player.last.proven and player.last.source == "solver"
        assert player.last.lower == book.score(board)
        assert _score_of_move(board, column, judge) == book.score(board), moves
        best = judge.analyze(board, pv=False).scores
        ties = [c for c in board.geometry.center_order if best[c] == book.score(board)]
        assert column == ties[0], moves  # centre-first among the best


def _reply_after_perfect_move(moves: str, pick: str, judge: Solver) -> tuple[PerfectPlayer, Board, int]:
    """A player that has just moved from ``moves``, the board after the opponent's best or worst reply,
    and the score the player's move kept."""
    board = Board.from_moves(moves)
    player = PerfectPlayer(book=None, table_size_mb=16, limit=UNLIMITED)
    board.play(player.choose_move(board.copy()))
    assert player.last is not None and player.last.lower is not None
    scores = judge.analyze(board, pv=False).scores
    replies = {c: score for c in board.geometry.center_order if (score := scores[c]) is not None}
    reply = (max if pick == "best" else min)(replies, key=replies.__getitem__)
    board.play(reply)
    return player, board, player.last.lower


@pytest.mark.parametrize("moves", [moves for moves, _ in _held("Test_L2_R1", 5)])
def test_after_a_best_reply_the_kept_score_is_confirmed_without_a_solve(
    moves: str, judge: Solver, monkeypatch: pytest.MonkeyPatch
) -> None:
    player, board, kept = _reply_after_perfect_move(moves, "best", judge)
    if board.is_over:
        return
    assert judge.solve(board, best_move=False).score == kept

    def no_solve(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved although the kept score needed one check")

    monkeypatch.setattr(player.analyst.solver, "solve", no_solve)
    column = player.choose_move(board.copy())
    assert player.last is not None and player.last.proven and player.last.lower == kept
    assert _score_of_move(board, column, judge) == kept


@pytest.mark.parametrize("moves", [moves for moves, _ in _held("Test_L2_R1", 5)])
def test_after_a_mistaken_reply_the_player_finds_the_higher_score(moves: str, judge: Solver) -> None:
    player, board, kept = _reply_after_perfect_move(moves, "worst", judge)
    if board.is_over:
        return
    exact = judge.solve(board, best_move=False).score
    assert exact is not None and exact >= kept
    column = player.choose_move(board.copy())
    assert player.last is not None and player.last.proven and player.last.lower == exact
    assert _score_of_move(board, column, judge) == exact


def test_perfect_is_a_player_name() -> None:
    player = parse_agent("perfect", seed=4)
    assert isinstance(player, PerfectPlayer) and not player.is_human
    with pytest.raises(GameOverError):
        PerfectPlayer(book=None, table_size_mb=8).choose_move(Board.from_moves("1212121"))


def test_play_accepts_level_perfect() -> None:
    from c4engine.cli.main import build_parser
    from c4engine.cli.play import computer_player

    args = build_parser().parse_args(["play", "--level", "perfect", "--watch", "--level2", "7"])
    assert args.level == "perfect" and args.level2 == 7
    assert isinstance(computer_player(args.level, 1), PerfectPlayer)
    assert isinstance(computer_player(args.level2, 1), EnginePlayer)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--level", "best"])


def test_the_book_documentation_examples_run() -> None:
    import doctest

    from tests.conftest import REPO

    result = doctest.testfile(str(REPO / "docs" / "book.md"), module_relative=False)
    assert result.attempted >= 3 and result.failed == 0


@pytest.mark.parametrize("size", ["10x6", "8x8"])
def test_past_64_bits_perfect_play_keeps_the_independent_score_to_the_end(size: str) -> None:
    """From positions an independent solver scored (tests/data), the perfect player playing both
    sides keeps the score at every move -- each move proven, at the score the last one left -- and
    the game ends exactly as the score says."""
    player = PerfectPlayer(book=None, table_size_mb=16, limit=UNLIMITED)
    for moves, board, score in fewest_stones(scored_positions(size), 3):
        walk, kept, played = board.copy(), score, []
        while not walk.is_over:
            column = player.choose_move(walk.copy())
            assert player.last is not None and player.last.proven, moves
            assert player.last.score is not None and player.last.score.value == kept, moves
            walk.play(column)
            played.append(column)
            kept = -kept
        assert_ends_as_scored(board, played, score)
    assert player.unproven == 0


def test_a_perfect_move_in_a_10x6_mid_game_keeps_the_independent_score(judge: Solver) -> None:
    """16-20 stones on 10x6: the move is proven at the score an independent solver gave (tests/data),
    and the position it leaves scores exactly that, negated, for the opponent (another solver's table)."""
    moves, board, score = scored_positions("10x6", "mid")[1]
    player = PerfectPlayer(book=None, table_size_mb=64, limit=UNLIMITED)
    column = player.choose_move(board.copy())
    assert player.last is not None and player.last.proven and player.last.score is not None
    assert player.last.score.value == score, moves
    assert _score_of_move(board, column, judge) == score, moves


def test_perfect_play_is_offered_up_to_128_bits() -> None:
    for width, height in ((10, 6), (8, 8), (9, 7), (11, 9), (16, 7)):
        check_perfect_board(width, height)
    with pytest.raises(UnsupportedBoardError, match=r"<= 128: .*; 9x14 needs 135: choose a level 1\.\.7"):
        check_perfect_board(9, 14)
