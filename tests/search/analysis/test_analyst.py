"""The analysis service: book, then solver, then engine, each answer saying where it came from."""

from __future__ import annotations

import time

import pytest
from tests.positions import assert_ends_as_scored, fewest_stones, scored_positions

from c4engine import Board
from c4engine.errors import GameOverError, LimitError
from c4engine.kernels import library
from c4engine.search.analysis import analyst as analysis
from c4engine.search.analysis.analyst import Analyst, shared_analyst
from c4engine.search.choice import best_by_bounds, best_column
from c4engine.search.limit import Limit
from c4engine.search.results import Score
from c4engine.search.scale import WIN_SCORE
from c4engine.search.solver.answers import Analysis, SolveResult
from c4engine.search.solver.exact import Solver


@pytest.fixture(scope="module")
def judge() -> Solver:
    return Solver(table_size_mb=16)


def test_the_empty_board_is_answered_from_the_book() -> None:
    analysis = Analyst().analyze(Board())
    assert analysis.proven_values() == (-2, -1, 0, 1, 0, -1, -2)
    assert analysis.sources == ("book",) * 7
    assert analysis.best_columns == (3,)
    assert analysis.proven and analysis.best_proven and analysis.pv[0] == 3
    # the line is the book's own, which ends long before the game does: no search
    assert len(analysis.pv) > 1 and not analysis.pv_proven and analysis.nodes == 0
    assert analysis.book_score == 1 and analysis.score_bounds == (1, 1)


def test_without_the_book_the_solver_answers_exactly(judge: Solver) -> None:
    board = Board.from_moves("2252576253462244111563365343671351")
    analysis = Analyst(book=None, table_size_mb=8).analyze(board, pv=False)
    assert analysis.source in ("solver", "rules")
    assert analysis.proven_values() == judge.analyze(board, pv=False).scores


def test_an_immediate_win_comes_from_the_rules() -> None:
    analysis = Analyst(book=None, table_size_mb=8).analyze(Board.from_moves("445566"), Limit(time=2))
    assert analysis.sources[2] == "rules" and analysis.sources[6] == "rules"
    assert analysis.scores[2] == Score.proven_value(18, cells=42, stones=6)
    assert analysis.best_columns == (2, 6)


def test_a_time_limit_leaves_estimates_marked_as_estimates() -> None:
    analysis = Analyst(book=None, table_size_mb=8).analyze(Board(), Limit(time=0.2))
    assert not analysis.proven
    assert all(source == "engine" for source in analysis.sources)
    assert all(not score.proven for score in analysis.scores if score is not None)
    assert not analysis.pv_proven


def test_boards_beyond_128_bits_get_the_engines_answer() -> None:
    board = Board.from_moves("5565", 9, 14, 5)  # 9 x 15 = 135 bits: beyond the solver
    result = Analyst().solve(board, Limit(time=0.5, depth=4))
    assert result.source == "engine" and result.column is not None
    # nothing proven: the natural range, less a win on the spot (the rules would have played it), as analyze
    assert result.lower == -((126 - 4) // 2) and result.upper == (127 - 4) // 2 - 1


def test_solve_on_the_books_last_ply_finds_a_move_keeping_the_score(judge: Solver) -> None:
    analyst = Analyst()
    board = Board.from_moves("45345")
    result = analyst.solve(board)
    assert result.source == "book" and result.proven
    assert result.column is not None
    child = board.copy()
    child.play(result.column)
    assert judge.is_at_least(child, 1 - int(result.score.value)) is False


def test_weak_answers_come_from_the_strong_book() -> None:
    result = Analyst().solve(Board.from_moves("4"), weak=True, best_move=False)
    assert result.source == "book" and result.score == Score.proven_value(-1, cells=42, stones=1, weak=True)


def test_best_by_bounds_takes_a_proof_only_when_it_is_at_least_as_good_as_what_is_open() -> None:
    board = Board()
    draw = Score.proven_value(0, cells=42, stones=0)
    hopeful = Score.estimate(500.0, cells=42, stones=0)
    loss = Score.proven_value(-3, cells=42, stones=0)
    # a proven draw beats a column estimated better but not proven at least a draw
    assert best_by_bounds(board, [draw, hopeful, loss], [0, -20, -3], [0, 20, -3]) == ((0,), False)
    # ... but not one proven at least a draw, which may win: that one is proven at least as good
    assert best_by_bounds(board, [draw, hopeful, loss], [0, 0, -3], [0, 20, -3]) == ((1,), True)
    # nor one that may win while the draw is not proven: the estimate decides, unproven
    wary = Score.estimate(-2.0, cells=42, stones=0)
    assert best_by_bounds(board, [wary, hopeful], [-5, -20], [0, 20]) == ((1,), False)
    # a proven loss is out against a column proven at least a draw, whatever the estimates
    assert best_by_bounds(board, [loss, hopeful], [-3, 0], [-3, 20]) == ((1,), True)
    # a column whose lower bound reaches every other upper bound is proven best, unproven as it is
    assert best_by_bounds(board, [draw, hopeful], [0, 1], [0, 20]) == ((1,), True)
    # exact ties are all best
    assert best_by_bounds(board, [draw, loss, draw], [0, -3, 0], [0, -3, 0]) == ((0, 2), True)


def test_scores_convert_between_the_engine_and_the_solver() -> None:
    for score in (-18, -2, 1, 5, 18):
        exact = Score.proven_value(score, cells=42, stones=6)
        assert Score.from_engine(exact.engine_value(), cells=42, stones=6) == exact
    assert Score.from_engine(WIN_SCORE - 1, cells=42, stones=6).label() == "win in 1"


def test_limits_are_checked() -> None:
    for bad in ({"time": 0}, {"time": float("nan")}, {"time": True}, {"nodes": 0}, {"depth": -1}):
        with pytest.raises(LimitError):
            Limit(**bad)  # type: ignore[arg-type]


def test_a_finished_game_is_refused() -> None:
    with pytest.raises(GameOverError):
        Analyst().analyze(Board.from_moves("1212121"))
    with pytest.raises(GameOverError):
        Analyst().solve(Board.from_moves("1212121"))


def test_the_shared_analyst_is_one_per_process() -> None:
    assert shared_analyst() is shared_analyst()
    assert best_column(Board(), [0, 0, None, None, None, None, 0]) == 1  # nearest the centre


def test_a_book_score_with_no_time_to_prove_a_move_still_gives_one() -> None:
    """On the book's last full ply (7 stones, its children not in the book) the score is known;
    when the limit ends before a move is proven to keep it, the engine's move is given, marked
    unproven (the terminal hint relies on a move)."""
    result = Analyst().solve(Board.from_moves("3522645"), Limit(time=0.01))
    assert result.score is not None and result.score.proven and result.source == "book"
    assert result.column is not None and not result.proven and result.stopped == "time limit"


def test_solve_plays_the_policy_books_move_without_searching(
    monkeypatch: pytest.MonkeyPatch, judge: Solver
) -> None:
    """Beyond the full book a policy book holds a position and the child its best move leaves."""
    analyst = Analyst()
    book = analyst.book_for(Board())
    assert book is not None
    board = next(
        position
        for key, score in book.items()
        if (position := book.board(key)).move_count > book.depth
        and not position.winning_columns()
        and analyst.book_scores(position) is None
        and book.keeping_move(position, score) is not None
    )

    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver was asked")

    for name in ("solve", "is_at_least", "analyze"):
        monkeypatch.setattr(Solver, name, fail)
    result = analyst.solve(board)
    assert result.source == "book" and result.proven
    monkeypatch.undo()
    assert result.column is not None
    child = board.copy()
    child.play(result.column)
    assert judge.is_at_least(child, 1 - int(result.score.value)) is False


# 37 stones, the side to move loses in 2 moves: a handful of nodes.  And the first line of the
# published Test_L1_R1 set: some 16,000 nodes compiled, far more than the quick search's share.
SMALL, BIG = "2252576253462244111563365343671351441", "32164625"


@pytest.mark.parametrize("with_library", [False, True])
def test_small_searches_run_in_python_until_the_compiled_solver_is_made(
    monkeypatch: pytest.MonkeyPatch, with_library: bool
) -> None:
    # a shared library makes the compiled solver cheap to load: Python then searches less
    monkeypatch.setattr(library, "has_library", lambda width, height, connect: with_library)
    expected = analysis.QUICK_SEARCH_NODES_BESIDE_LIBRARY if with_library else analysis.QUICK_SEARCH_NODES
    limits: list[int] = []
    quick = analysis.solve_quick

    def spy(board: Board, limit: Limit, *, weak: bool, best_move: bool) -> SolveResult | None:
        limits.append(limit.nodes)
        return quick(board, limit, weak=weak, best_move=best_move)

    monkeypatch.setattr(analysis, "solve_quick", spy)
    analyst = Analyst(book=None, table_size_mb=8)
    result = analyst.solve(Board.from_moves(SMALL))
    assert (result.source, result.score.value, result.column) == ("solver", -1, 5)
    assert limits == [expected]
    assert analyst.solve(Board.from_moves(BIG)).score.value == 11  # too big: compiled
    assert analyst.solve(Board.from_moves(SMALL)).source == "solver"
    assert len(limits) == 2  # the compiled solver, once made, answers everything
    # a time or node limit, another connect-N, or a solver handed in: compiled at once
    Analyst(book=None, table_size_mb=8).solve(Board.from_moves(SMALL), Limit(time=5))
    Analyst(book=None, table_size_mb=8).solve(Board.from_moves(SMALL), Limit(nodes=10_000))
    Analyst(book=None, table_size_mb=8).solve(Board.from_moves("4455", 7, 6, 3))
    Analyst(book=None, solver=Solver(table_size_mb=8)).solve(Board.from_moves(SMALL))
    assert len(limits) == 2


def test_a_small_analysis_in_python_is_the_compiled_solvers(judge: Solver) -> None:
    board = Board.from_moves(SMALL[:-2])
    for weak in (False, True):
        found = Analyst(book=None, table_size_mb=8).analyze(board, weak=weak)
        assert found.sources == ("solver", None, None, "solver", None, "solver", "solver") and found.pv_proven
        expected = judge.analyze(board, weak=weak)
        assert found.proven_values() == expected.scores and found.lines[expected.pv[0]] == expected.pv


def test_the_quick_searches_of_an_analyst_share_one_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    found: list[SolveResult | None] = []
    quick = analysis.solve_quick

    def spy(board: Board, limit: Limit, *, weak: bool, best_move: bool) -> SolveResult | None:
        found.append(quick(board, limit, weak=weak, best_move=best_move))
        return found[-1]

    monkeypatch.setattr(analysis, "solve_quick", spy)
    monkeypatch.setattr(analysis, "QUICK_BUDGET_NODES", 8)
    analyst = Analyst(book=None, table_size_mb=8)
    first = analyst.solve(Board.from_moves(SMALL))
    second = analyst.solve(Board.from_moves(SMALL))
    assert first.score == second.score
    first_quick, second_quick = found
    assert first_quick is not None and first_quick.nodes == 5
    assert second_quick is None  # 3 nodes left were not enough: the compiled solver answered


def test_a_capped_solve_plays_a_move_proven_at_least_a_draw_over_an_estimate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The solver stopped having proved column 2 at least a draw; the engine, seeing no win, prefers
    column 4: the proven move is played (dominance), and not called proven best."""
    from c4engine.search.engine.negamax import Engine
    from c4engine.search.results import PlayResult
    from c4engine.search.solver.answers import SolveResult

    def unfinished(self: Solver, board: Board, limit: Limit, **options: object) -> SolveResult:
        return SolveResult(None, False, 0, 5, 1, 1000, 0.1, False, 42, 5, "time limit", best_proven=True)

    def estimate(self: Engine, board: Board, limit: Limit | None = None) -> PlayResult:
        score = Score.estimate(25.0, cells=42, stones=5)
        stopped = "time limit"
        return PlayResult(column=3, score=score, source="engine", proven=False, line=(3,), stopped=stopped)

    monkeypatch.setattr(Solver, "solve", unfinished)
    monkeypatch.setattr(Engine, "search", estimate)
    result = Analyst(book=None, table_size_mb=8).solve(Board.from_moves("44535"), Limit(time=0.5))
    assert result.column == 1 and not result.proven and (result.lower, result.upper) == (0, 5)
    assert result.score is not None and not result.score.proven


def test_loading_the_solver_is_neither_search_time_nor_spent_from_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first use of a geometry's kernel loads it (compiles it, on a fresh machine): here made
    to take 2.5 s, more than the 2 s limit.  The answer is still the solver's, and the time it
    reports leaves the loading out: at most the wall time around the question less the loading."""
    from c4engine.search.solver import exact as solver_module

    loaded: set[tuple[int, int, int]] = set()
    loading: list[float] = []
    real_kernel = solver_module.solver_kernel

    def slow_first_load(width: int, height: int, connect: int) -> library.Kernel:
        if (width, height, connect) not in loaded:  # as functools.cache: only the first call loads
            loaded.add((width, height, connect))
            began = time.perf_counter()
            time.sleep(2.5)
            loading.append(time.perf_counter() - began)
        return real_kernel(width, height, connect)

    monkeypatch.setattr(solver_module, "solver_kernel", slow_first_load)
    monkeypatch.setattr(solver_module, "_LOADED", set())  # as in a fresh process: nothing loaded yet
    board = Board.from_moves("2252576253462244111563365343671351441")  # five cells left: microseconds
    began = time.perf_counter()
    result = Analyst(book=None, table_size_mb=8).solve(board, Limit(time=2))
    wall = time.perf_counter() - began
    assert loading  # the kernel was loaded during the question
    assert result.source == "solver" and result.proven
    assert result.score is not None and result.score.value == -1
    assert result.time <= wall - sum(loading)
    # the same for every column's score, on another geometry (its kernel loaded in the question)
    began = time.perf_counter()
    small = Board.from_moves("1113266335251562464653", 6, 5, 4)  # eight cells left
    analysis = Analyst(book=None, table_size_mb=8).analyze(small, Limit(time=2))
    wall = time.perf_counter() - began
    assert len(loading) == 2
    assert analysis.proven and set(analysis.sources) <= {"solver", "rules", None}  # None: a full column
    assert analysis.time <= wall - loading[-1]


def _refuse_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver was asked")

    for name in ("solve", "is_at_least", "analyze", "load"):
        monkeypatch.setattr(Solver, name, fail)


def test_a_book_answer_comes_at_once_with_the_books_own_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """257771: every column is in the book, so a question without a bound searches nothing -- the
    lines too are the book's, each move keeping the score, cut where the book stops (and said so)."""
    _refuse_searches(monkeypatch)
    analyst = Analyst()
    board = Board.from_moves("257771")
    found = analyst.analyze(board)
    book = analyst.book_for(board)
    assert book is not None and found.proven and found.source == "book" and found.nodes == 0
    assert found.proven_values() == tuple(book.move_scores(board))
    for column, line in enumerate(found.lines):
        walk, value = board.copy(), found.proven_values()[column]
        for move in line:
            assert value is not None and book.move_scores(walk)[move] == value  # each move keeps it
            walk.play(move)
            value = None if walk.is_over else book.score(walk)
        assert found.lines_complete[column] == walk.is_over
        assert found.columns[column].to_json()["pv_complete"] == walk.is_over  # type: ignore[union-attr]
    assert found.pv == found.lines[found.best_columns[0]] and found.pv_proven == found.lines_complete[4]


def test_a_bounded_book_answer_takes_its_recommended_line_past_the_book() -> None:
    """Under a bound, the recommended column's line goes on past the book with the solver, within
    BOOK_LINE_SHARE of it; the other columns' lines stay the book's.  A node bound: the same every run
    (25 million nodes to the end of the game, where the book's line stops after one move)."""
    board = Board.from_moves("257771")
    at_once = Analyst(table_size_mb=16).analyze(board)
    bounded = Analyst(table_size_mb=16).analyze(board, Limit(nodes=250_000_000))
    chosen = bounded.best_columns[0]
    assert bounded.proven_values() == at_once.proven_values() and bounded.source == "book"
    assert not at_once.lines_complete[chosen] and bounded.lines_complete[chosen]
    assert len(bounded.lines[chosen]) > len(at_once.lines[chosen])
    assert bounded.lines[chosen][: len(at_once.lines[chosen])] == at_once.lines[chosen]
    others = [c for c in range(board.width) if c != chosen]
    assert [bounded.lines[c] for c in others] == [at_once.lines[c] for c in others]


def test_the_books_score_caps_every_column_and_the_last_column_left_keeps_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """3775312 scores 2 in the book, its children are not there.  Every column gets the upper bound 2;
    the probes show every column but 3 below 2, while column 3's own proof is too long for them:
    column 3 then keeps the 2 without a search of its own -- exact, and proven best.  Column 3 is
    the engine's choice: it comes last, so it is never searched."""
    board = Board.from_moves("3775312")
    asked: list[tuple[str, int]] = []

    def null_window(self: Solver, child: Board, score: int, limit: Limit) -> tuple[bool | None, int]:
        asked.append((child.move_string, score))
        # column 3: not within the budget
        return (None, limit.nodes or 1) if child.move_string.endswith("3") else (True, 1000)

    def analyze(self: Solver, board: Board, limit: Limit, **options: object) -> Analysis:
        return Analysis((None,) * 7, (), (), 0, 0.0, False, False, 42, 7, (-18,) * 7, (18,) * 7)  # nothing

    monkeypatch.setattr(Solver, "load", lambda self, board: None)
    monkeypatch.setattr(Solver, "null_window", null_window)
    monkeypatch.setattr(Solver, "analyze", analyze)
    found = Analyst().analyze(board, Limit(time=30, depth=2), pv=False)  # the engine: two plies
    # "can the reply score -1 or more?": then the column scores at most 1
    assert {score for _, score in asked} == {-1}
    assert [moves[-1] for moves, _ in asked] == ["4", "5", "2", "6", "1", "7"]  # centre first, 3 last
    assert found.proven_values() == (None, None, 2, None, None, None, None)
    assert found.sources[2] == "book" and found.best_columns == (2,) and found.best_proven
    assert found.uppers == (1, 1, 2, 1, 1, 1, 1) and found.score_bounds == (2, 2)
    assert found.to_json("3775312", "7x6", 4)["position_score"]["label"] == "win in 17"


def test_the_probes_prove_the_books_keeper_within_a_short_caps_nodes() -> None:
    """3775312 (its score 2 in the book, its children not) within a million nodes: what a 0.05 s cap
    gives a machine searching 20 M nodes a second.  The probes refute the six other columns (about
    0.86 M nodes), column 3 keeps the 2: exact, and the proven best.  Node counts do not depend
    on the machine; probing the centre column 3 second, in every round, took 1.1 M."""
    board = Board.from_moves("3775312")
    found = Analyst(table_size_mb=8).analyze(board, Limit(nodes=1_000_000), pv=False)
    assert found.proven_values()[2] == 2 and found.sources[2] == "book"
    assert found.best_columns == (2,) and found.best_proven
    assert all(upper is not None and upper <= 1 for column, upper in enumerate(found.uppers) if column != 2)


def test_a_column_shown_below_the_books_score_is_out() -> None:
    """The book says the position scores 2: a column proven at most 1 is never the recommendation,
    however well the engine thinks of it."""
    board = Board.from_moves("3775312")
    guesses = [Score.estimate(value, cells=42, stones=7) for value in (0.0, 0.0, 5.0, 50.0, 0.0, 0.0, 0.0)]
    lowers, uppers = [-17] * 7, [2, 2, 2, 1, 2, 2, 2]
    assert best_by_bounds(board, guesses, lowers, uppers) == ((3,), False)
    assert best_by_bounds(board, guesses, lowers, uppers, at_least=2) == ((2,), False)


def test_a_solved_answers_time_leaves_out_loading_the_solver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``c4 solve`` past the book on a fresh install: the solver's answer and its line to the end of
    the game, the solver's first load made to take 2.5 s; the time reported leaves it out."""
    from c4engine.search.solver import exact as solver_module

    loading: list[float] = []
    real_kernel = solver_module.solver_kernel

    def slow_first_load(width: int, height: int, connect: int) -> library.Kernel:
        if not loading:
            began = time.perf_counter()
            time.sleep(2.5)
            loading.append(time.perf_counter() - began)
        return real_kernel(width, height, connect)

    monkeypatch.setattr(solver_module, "solver_kernel", slow_first_load)
    monkeypatch.setattr(solver_module, "_LOADED", set())
    began = time.perf_counter()
    result = Analyst(table_size_mb=8).solve(Board.from_moves("274552224131661"), line=True)
    wall = time.perf_counter() - began
    assert result.source == "solver" and result.proven and result.line_complete
    assert loading
    assert result.time <= wall - loading[0]


@pytest.mark.parametrize("size", ["10x6", "8x8", "9x7"])
def test_past_64_bits_the_analysis_proves_the_best_columns_and_their_line_to_the_end(size: str) -> None:
    """Boards of 70 and 72 bits (the solver holds up to 128): every column exact, the best ones at the
    score an independent solver gave (tests/data), their line to the end of the game -- and the line
    ends the game exactly as that score says."""
    analyst = Analyst(book=None, table_size_mb=16)
    for moves, board, score in fewest_stones(scored_positions(size), 3):
        analysis = analyst.analyze(board)
        assert analysis.proven and analysis.best_proven and analysis.pv_proven, moves
        values = analysis.proven_values()
        assert max(v for v in values if v is not None) == score, moves
        assert all(values[column] == score for column in analysis.best_columns), moves
        assert_ends_as_scored(board, analysis.pv, score)


def test_a_10x6_mid_game_position_is_proven_with_its_line_to_the_end() -> None:
    """16-20 stones on 10x6: the best column at the independent score, its line to the end of the game."""
    moves, board, score = scored_positions("10x6", "mid")[0]
    analysis = Analyst(book=None, table_size_mb=64).analyze(board)
    assert analysis.proven and analysis.best_proven and analysis.pv_proven, moves
    assert analysis.score.value == score
    assert_ends_as_scored(board, analysis.pv, score)


def test_an_analyst_with_its_own_evaluator_shares_the_solver_and_the_book() -> None:
    from c4engine.search.engine.evaluators import evaluator_by_name

    base = Analyst(book=None, table_size_mb=8, solver_share=0.5)
    own = base.with_evaluator(evaluator_by_name("windows"))
    assert own is not base and own.solver is base.solver
    assert own.book_for(Board()) is None and own.solver_share == 0.5
