"""Game review (c4engine.search.review.game): verdicts checked against independent, uncapped solves."""

from __future__ import annotations

import functools
import json
import random
from dataclasses import replace

import pytest
from tests.conftest import PONS

from c4engine.board import Board
from c4engine.errors import NotationError, ReviewError
from c4engine.play.record import GameRecord
from c4engine.player import Player
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import UNLIMITED, Limit
from c4engine.search.progress import Progress
from c4engine.search.review.answers import Review, SideSummary
from c4engine.search.review.game import TOTAL_SHARE, review_game
from c4engine.search.review.verdicts import MIN_PROVEN_MOVES
from c4engine.search.scale import moves_to_end
from c4engine.search.solver.exact import Solver

CHECKED_FROM_STONES = 22
"""Plies from this many stones on are checked against a fresh solver (earlier ones cost seconds each)."""


@functools.cache
def _reviews() -> dict[str, Review]:
    """Games of the published sets, reviewed with a small cap a ply: early plies may stay unproven."""
    analyst = Analyst()
    games = [line.split()[0] for name in ("Test_L3_R1", "Test_L2_R1") for line in _lines(name)[:3]]
    return {moves: review_game(analyst, moves, Limit(time=0.3)) for moves in games}


def _lines(name: str) -> list[str]:
    return (PONS / name).read_text().splitlines()


@functools.cache
def _checker() -> Solver:
    return Solver(table_size_mb=16)


def _exact_scores(board: Board) -> dict[int, int]:
    """Every playable column's exact score, by a separate solver without the book and without a cap."""
    analysis = _checker().analyze(board, pv=False)
    assert analysis.proven
    return {column: score for column, score in enumerate(analysis.scores) if score is not None}


def _expected_verdict(before: int, after: int) -> str:
    """The issue's definitions, written out again (not judge()): result classes and distance."""

    def result(score: int) -> int:
        return (score > 0) - (score < 0)

    drop = result(before) - result(after)
    if drop == 2:
        return "blunder"
    if drop == 1:
        return "mistake"
    return "best" if after == before else "inaccuracy"


def _position(moves: str, index: int) -> Board:
    board = Board.from_moves(moves)
    return Board.from_moves(board.moves[:index])


def test_every_proven_verdict_on_published_games_is_right_and_every_kind_appears() -> None:
    seen: set[str] = set()
    for moves, review in _reviews().items():
        assert review.complete and len(review.plies) == len(moves)
        for ply in review.plies:
            if ply.index < CHECKED_FROM_STONES:
                continue
            board = _position(moves, ply.index)
            scores = _exact_scores(board)
            before, after = max(scores.values()), scores[ply.column]
            # what is proven always holds the truth
            assert ply.before_lower <= before <= ply.before_upper, (moves, ply)
            assert ply.lower <= after <= ply.upper, (moves, ply)
            if ply.verdict == "not proven":
                continue
            seen.add(ply.verdict)
            assert ply.verdict == _expected_verdict(before, after), (moves, ply)
            if ply.proven:
                assert (ply.score_before, ply.score_after) == (before, after)
            if ply.best_proven:
                best = {column for column, score in scores.items() if score == before}
                assert set(ply.best) == best if ply.best_complete else set(ply.best) <= best
    assert seen == {"best", "inaccuracy", "mistake", "blunder"}


def test_the_last_ply_agrees_with_the_published_score() -> None:
    for name in ("Test_L3_R1", "Test_L2_R1"):
        for line in _lines(name)[:3]:
            moves, published = line.split()
            last = _reviews()[moves].plies[-1]
            # the published score is the next mover's; the cap may leave bounds on a loaded machine
            assert last.lower <= -int(published) <= last.upper
            if last.proven:
                assert last.score_after == -int(published)


def test_every_better_line_is_played_to_the_end_with_the_promised_result() -> None:
    lines = 0
    for moves, review in _reviews().items():
        for ply in review.plies:
            if ply.verdict == "best" or not ply.best_proven:
                assert ply.pv == ()
                continue
            assert ply.pv[0] in ply.best
            if not ply.pv_complete:  # the cap stopped the line: what there is was proven, not checked here
                continue
            board = _position(moves, ply.index)
            for column in ply.pv:
                board.play(column)
            assert board.is_over
            before = ply.score_before
            if before is None:  # the first column proven best by bounds: its score not narrowed down
                continue
            cells = board.width * board.height
            moves_left = moves_to_end(before, cells, ply.index)
            if before > 0:
                assert board.winner is ply.player and board.move_count == ply.index + 2 * moves_left - 1
            elif before < 0:
                assert board.winner is ply.player.other and board.move_count == ply.index + 2 * moves_left
            else:
                assert board.is_draw
            lines += 1
    assert lines > 0


def _forced_win_within(board: Board, plies: int) -> bool:
    """Whether the side to move can force a win within ``plies`` plies: plain minimax, for tiny depths."""
    if plies <= 0:
        return False
    for column in board.legal_moves():
        if board.is_winning_move(column):
            return True
    if plies < 3:
        return False
    for column in board.legal_moves():
        child = board.copy()
        child.play(column)
        if child.is_full:
            continue
        if (
            all(
                _wins_after(child, reply, plies - 2)
                for reply in child.legal_moves()
                if not child.is_winning_move(reply)
            )
            and not child.winning_columns()
        ):
            return True
    return False


def _wins_after(board: Board, reply: int, plies: int) -> bool:
    child = board.copy()
    child.play(reply)
    return not child.is_over and _forced_win_within(child, plies)


def test_a_review_beyond_128_bits_marks_only_what_the_rules_prove() -> None:
    # X stacks column 1, O column 2; at ply 9 X could win at once but plays 3, and O wins.
    moves = "1212121232"
    review = review_game(Analyst(), moves, Limit(time=0.05), width=9, height=14, connect=5)  # 135 bits
    assert [ply.verdict for ply in review.plies] == ["not proven"] * 8 + ["blunder", "best"]
    board = Board.from_moves(moves[:8], 9, 14, 5)
    assert board.winning_columns()  # X could win at once...
    board.play(2)
    assert board.winning_columns()  # ...and after its 3, O wins at once
    assert review.summary.turning_points == (9,)
    # each side has one proven move of five: too few for an accuracy
    for side in (review.summary.first, review.summary.second):
        assert (side.moves, side.proven, side.accuracy) == (5, 1, None)
    for ply in review.plies[:8]:  # nothing claimed beyond what a tiny exhaustive search confirms
        position = Board.from_moves(moves[: ply.index], 9, 14, 5)
        child = position.copy()
        child.play(ply.column)
        if ply.upper < 0:
            assert _forced_win_within(child, 1)
        if ply.lower > 0:
            assert child.is_over or not _forced_win_within(child, 3)
        assert ply.mark == ""


PLY_KEYS = {
    "ply", "player", "column", "score_before", "score_after", "proven", "lower", "upper", "before_lower",
    "before_upper", "estimate", "best_estimate", "words_before", "words_after", "best", "best_proven",
    "best_complete",
    "verdict", "or_worse", "mark", "pv", "pv_complete", "chosen", "why",
}  # fmt: skip
SIDE_KEYS = {
    "player", "moves", "best", "accuracy", "proven", "inaccuracies", "mistakes", "blunders", "not_proven",
    "not_chosen", "turning_points",
}  # fmt: skip


def test_a_total_limit_shares_out_the_plies_of_a_board_the_solver_cannot_hold() -> None:
    """9x14 (135 bits): every ply would spend its whole time on an estimate, so each gets its share of
    half the review's total; on 7x6 the plies keep the time asked for.  (One ply: a review is cut
    short only after its first, so no wait on a busy machine can make it incomplete.)"""
    analyst = Analyst()
    big = review_game(analyst, "5", Limit(time=3), width=9, height=14, total=Limit(time=2))
    assert big.complete and big.ply_limit.time == pytest.approx(TOTAL_SHARE * 2 / 1)
    assert review_game(analyst, "4455", Limit(time=1), total=Limit(time=2)).ply_limit.time == 1


def test_the_json_schema_is_stable() -> None:
    data = review_game(Analyst(), "44556", UNLIMITED).to_json()  # no cap: the lines always reach the end
    assert json.loads(json.dumps(data)) == data
    assert set(data) == {
        "moves",
        "size",
        "connect",
        "result",
        "result_words",
        "result_reason",
        "opening_plies",
        "complete",
        "proven",
        "ply_time",
        "ply_nodes",
        "advice",
        "plies",
        "summary",
    }
    assert data["ply_time"] is None and data["ply_nodes"] is None  # no limit
    assert (data["result_words"], data["result_reason"], data["opening_plies"], data["advice"]) == (
        "unfinished, O to move",
        None,
        0,
        None,
    )
    assert (data["moves"], data["size"], data["connect"], data["result"]) == ("44556", "7x6", 4, "*")
    assert all(set(ply) == PLY_KEYS for ply in data["plies"])
    assert [ply["ply"] for ply in data["plies"]] == [1, 2, 3, 4, 5]
    assert [ply["player"] for ply in data["plies"]] == [1, 2, 1, 2, 1]
    assert [ply["column"] for ply in data["plies"]] == [4, 4, 5, 5, 6]
    assert set(data["summary"]) == {"first", "second", "turning_points"}
    assert set(data["summary"]["first"]) == SIDE_KEYS == set(data["summary"]["second"])
    blunder = data["plies"][2]
    assert blunder["verdict"] == "blunder" and blunder["mark"] == "??"
    assert blunder["score_before"] == 1 and blunder["score_after"] == -2 and blunder["best"] == [4]
    assert blunder["pv"][0] == 4 and blunder["pv_complete"]


def test_a_board_and_a_game_record_review_as_their_moves() -> None:
    analyst = Analyst()
    board = Board.from_moves("4455667")
    expected = review_game(analyst, "4455667", UNLIMITED).to_json()
    assert review_game(analyst, board, UNLIMITED).to_json() == expected
    assert review_game(analyst, GameRecord.from_board(board), UNLIMITED).to_json() == expected
    assert expected["result"] == "1-0" and expected["plies"][-1]["words_after"] == "win in 1"
    with pytest.raises(NotationError):
        review_game(analyst, "4x")
    with pytest.raises(NotationError):
        review_game(analyst, 42)  # type: ignore[arg-type]


def test_progress_is_reported_from_the_end_and_can_stop_the_review() -> None:
    seen: list[Progress] = []

    def stop_after_two(update: Progress) -> bool:
        seen.append(update)
        return len(seen) == 2

    review = review_game(Analyst(), "445566", progress=stop_after_two)
    assert [update.ply.ply for update in seen if update.ply] == [6, 5]
    assert [update.plies_done for update in seen] == [1, 2] and seen[0].plies == 6
    assert not review.complete and [ply.ply for ply in review.plies] == [5, 6]
    assert "stopped: 2 of 6 plies reviewed" in str(review)


def test_the_graph_marks_each_costly_move() -> None:
    review = review_game(Analyst(), "44556")
    svg = review._repr_svg_()
    assert svg.count('class="mark blunder"') == 2 and svg.count('class="point exact"') == 5
    assert review.plies[0].player is Player.FIRST


def _random_games(width: int, height: int, count: int, seed: int) -> list[str]:
    """Whole games of random moves (to the end, a win or a full board) on a small board."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = Board(width, height)
        while not board.is_over:
            board.play(rng.choice(board.legal_moves()))
        games.append(board.move_string)
    return games


@pytest.mark.parametrize(("width", "height"), [(5, 4), (6, 4)])
def test_every_ply_of_a_review_matches_every_column_solved_on_its_own(width: int, height: int) -> None:
    # the review takes shortcuts (each position's value reused from the ply after it, the best columns
    # by null-window searches against it, the lines searched beside); solved alone, each must agree
    checker = Solver(table_size_mb=8)
    for moves in _random_games(width, height, 3, seed=width):
        review = review_game(Analyst(), moves, UNLIMITED, width=width, height=height)
        assert review.proven and len(review.plies) == len(moves)
        for ply in review.plies:
            board = Board.from_moves(moves, width, height)
            board = Board.from_moves(board.moves[: ply.index], width, height)
            scores = {c: s for c, s in enumerate(checker.analyze(board, pv=False).scores) if s is not None}
            before = max(scores.values())
            assert (ply.score_before, ply.score_after) == (before, scores[ply.column]), (moves, ply)
            assert ply.best_complete and set(ply.best) == {c for c, s in scores.items() if s == before}
            assert ply.verdict == _expected_verdict(before, scores[ply.column])
            if ply.verdict == "best":
                assert ply.pv == ()
                continue
            # the line: the most central best column, then moves that each keep the score, to the end
            assert ply.pv_complete and ply.pv[0] == next(
                c for c in board.geometry.center_order if c in ply.best
            )
            for column in ply.pv:
                scores = dict(enumerate(checker.analyze(board, pv=False).scores))
                assert scores[column] == max(score for score in scores.values() if score is not None)
                board.play(column)
            assert board.is_over


def test_the_work_done_beside_the_review_gives_the_review_done_in_line() -> None:
    games = [(moves, 6, 4) for moves in _random_games(6, 4, 2, seed=25)]
    games += [("4455667", 7, 6), ("34444443333367", 7, 6)]
    for moves, width, height in games:
        board = Board.from_moves(moves, width, height)
        # a time limit: no pure-Python search, which may choose other lines than the compiled solver
        beside = review_game(Analyst(), board, Limit(time=60), beside=True).to_json()
        in_line = review_game(Analyst(), board, Limit(time=60), beside=False).to_json()
        assert beside == in_line and beside["proven"]
        assert any(ply["pv"] for ply in beside["plies"])


def test_the_result_comes_first_in_words() -> None:
    analyst = Analyst()
    won = review_game(analyst, "4455667", UNLIMITED)
    assert str(won).splitlines()[0] == "Result: X won (1-0)" and won.to_json()["result_words"] == "X won"
    going_on = review_game(analyst, "44556", UNLIMITED)
    assert str(going_on).splitlines()[0] == "Result: unfinished, O to move (*)"
    # a game that ended off the board (a match game lost on time) says so
    on_time = review_game(analyst, "4455", UNLIMITED, result=("1-0", "time"))
    assert str(on_time).startswith("Result: X won on time (1-0)\n")
    assert (on_time.to_json()["result"], on_time.to_json()["result_reason"]) == ("1-0", "time")
    # a draw: 4x4, nobody gets four in a row
    drawn = Board.from_moves("1234123443214321", 4, 4)
    assert drawn.is_draw
    assert review_game(analyst, drawn, UNLIMITED).result_words == "a draw"


def test_opening_plies_are_scored_but_judged_for_no_one() -> None:
    analyst = Analyst()
    whole = review_game(analyst, "44556", UNLIMITED)
    opened = review_game(analyst, "44556", UNLIMITED, opening_plies=3)  # ply 3, X's blunder, was random
    assert [ply.verdict for ply in whole.plies] == ["best", "best", "blunder", "blunder", "best"]
    assert [ply.verdict for ply in opened.plies] == ["not chosen"] * 3 + ["blunder", "best"]
    assert [ply.chosen for ply in opened.plies] == [False] * 3 + [True] * 2
    for mine, theirs in zip(opened.plies, whole.plies, strict=True):  # scored the same
        assert (mine.lower, mine.upper, mine.before_lower, mine.before_upper) == (
            theirs.lower,
            theirs.upper,
            theirs.before_lower,
            theirs.before_upper,
        )
    assert all(ply.mark == "" and ply.pv == () for ply in opened.plies[:3])
    first, second = opened.summary.first, opened.summary.second
    assert (first.moves, first.not_chosen, first.blunders, first.turning_points) == (1, 2, 0, ())
    assert (second.moves, second.not_chosen, second.blunders, second.turning_points) == (1, 1, 1, (4,))
    assert opened.summary.turning_points == (4,)
    text = str(opened)
    assert "Plies 1-3: a random opening, chosen by nobody" in text and "not chosen (opening)" in text
    assert "X: 1 move (and 2 of the opening, not chosen)" in text
    assert opened.to_json()["opening_plies"] == 3 and opened.to_json()["plies"][0]["chosen"] is False
    with pytest.raises(ReviewError, match="6 opening plies: the game has 5 moves"):
        review_game(analyst, "44556", opening_plies=6)


def test_accuracy_needs_enough_proven_moves() -> None:
    def side(moves: int, best: int, not_proven: int) -> SideSummary:
        return SideSummary(Player.FIRST, moves, best, moves - not_proven - best, 0, 0, not_proven, ())

    assert MIN_PROVEN_MOVES == 5
    few = side(moves=9, best=4, not_proven=5)
    assert few.proven == 4 and few.accuracy is None and few.to_json()["accuracy"] is None
    assert "accuracy: not enough proven moves (4 proven, 5 needed)" in str(few)
    enough = side(moves=9, best=4, not_proven=4)
    assert enough.proven == 5 and enough.accuracy == pytest.approx(0.8)
    assert "accuracy 80 % of 5 proven" in str(enough) and enough.to_json()["proven"] == 5


def test_advice_only_where_more_would_prove_something() -> None:
    exact = review_game(Analyst(), "44556", UNLIMITED)
    assert exact.advice is None  # nothing left open
    unproven = replace(exact, plies=(replace(exact.plies[0], verdict="not proven"), *exact.plies[1:]))
    assert unproven.advice is None  # no budget bounded it: nothing more to give
    timed = replace(unproven, ply_limit=Limit(time=0.5)).advice
    assert timed == "1 ply not proven within 0.5 s a ply: more time a ply may prove them."
    counted = replace(unproven, ply_limit=Limit(nodes=1000)).advice
    assert counted == "1 ply not proven within 1000 nodes a ply: more nodes may prove them."
    # an opening ply left open is nobody's: no advice for it
    opening = replace(unproven.plies[0], verdict="not chosen", chosen=False)
    assert replace(unproven, ply_limit=Limit(time=0.5), plies=(opening, *unproven.plies[1:])).advice is None
    # a board the solver cannot hold: more time does not prove it, and no advice says so
    big = review_game(Analyst(), "1212121232", Limit(depth=2), width=9, height=14, connect=5)
    advice = big.advice
    assert advice is not None and advice.startswith("8 plies not proven: the exact solver cannot hold a 9x14")
    assert advice.endswith("more time does not change that.") and "may prove" not in advice
    # timed estimates vary: how to get the same every run
    timed = replace(big, ply_limit=Limit(time=1.0)).advice
    assert timed is not None and timed.endswith("gives the same estimates every run).")


def test_a_review_without_a_time_limit_is_the_same_every_run() -> None:
    # a node budget small enough to leave plies open; a fresh analyst each run
    game = _random_games(6, 5, 1, seed=3)[0]
    runs = [review_game(Analyst(), game, Limit(nodes=2000), width=6, height=5).to_json() for _ in range(2)]
    assert runs[0] == runs[1]
    verdicts = {ply["verdict"] for ply in runs[0]["plies"]}
    assert "not proven" in verdicts and verdicts - {"not proven"}  # some proven, some not
    big = [
        review_game(Analyst(), "1212121232", Limit(depth=3), width=9, height=14, connect=5).to_json()
        for _ in range(2)
    ]
    assert big[0] == big[1]


def test_consecutive_plies_tell_one_estimate_of_the_position_between_them() -> None:
    """445345 on 8x8: nothing proven in 0.3 s a ply; the value after each move, for its mover, is the
    next mover's value before, negated -- never two values of one position of the same sign."""
    from c4engine import Analyst, Board, Limit
    from c4engine.search.review.game import review_game

    review = review_game(Analyst(), Board.from_moves("445345", 8, 8), Limit(time=0.3))
    pairs = list(zip(review.plies, review.plies[1:], strict=False))
    estimated = [(a, b) for a, b in pairs if a.estimate is not None and b.best_estimate is not None]
    assert estimated, review.plies  # early on 8x8 the plies are estimates
    assert all(a.estimate == -b.best_estimate for a, b in estimated), review.plies
