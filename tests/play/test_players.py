"""Players: random, engine with levels and noise, parsing a player description."""

from __future__ import annotations

import pytest

from c4engine.board import Board
from c4engine.errors import GameOverError, PlayerSpecError
from c4engine.play import levels
from c4engine.play.players import Agent, EnginePlayer, HumanPlayer, RandomPlayer, parse_agent
from c4engine.search.results import WIN_SCORE, PlayResult, Score


def test_random_player_is_seeded_and_legal() -> None:
    board = Board.from_moves("444444")
    first = [RandomPlayer(seed=9).choose_move(board) for _ in range(5)]
    assert len(set(first)) == 1
    player = RandomPlayer(seed=9)
    assert all(player.choose_move(board) != 3 for _ in range(50))


def test_players_meet_the_agent_protocol() -> None:
    for agent in (HumanPlayer(), RandomPlayer(), EnginePlayer(level=1)):
        assert isinstance(agent, Agent)


@pytest.mark.parametrize("number", [1, 2, 3])
def test_noisy_levels_still_take_wins_and_block(number: int) -> None:
    win = Board.from_moves("121212")  # X to move, wins in column 1
    block = Board.from_moves("12121")  # O to move, X threatens column 1
    for seed in range(20):
        player = EnginePlayer(level=number, seed=seed)
        assert player.choose_move(win) == 0
        assert player.choose_move(block) == 0


def test_noise_makes_low_levels_vary() -> None:
    board = Board()
    choices = {EnginePlayer(level=1, seed=seed).choose_move(board) for seed in range(30)}
    assert len(choices) > 1
    assert {EnginePlayer(level=5, seed=seed).choose_move(board) for seed in range(3)} == {3}


def test_finished_game_has_no_move() -> None:
    board = Board.from_moves("1212121")
    for player in (RandomPlayer(), EnginePlayer(level=2)):
        with pytest.raises(GameOverError):
            player.choose_move(board)


def test_parse_agent() -> None:
    assert isinstance(parse_agent("Human"), HumanPlayer)
    assert isinstance(parse_agent("random", seed=1), RandomPlayer)
    engine = parse_agent("4")
    assert isinstance(engine, EnginePlayer) and engine.level is not None and engine.level.number == 4
    with pytest.raises(PlayerSpecError, match="unknown player"):
        parse_agent("grandmaster")


def test_explicit_depth_overrides_level() -> None:
    player = EnginePlayer(depth=3, evaluator="areas")
    assert player.level is None and player.noise == 0.0
    assert player.name == "computer, depth 3"


def test_weights_files_as_players(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from c4engine.errors import WeightsError
    from c4engine.play.players import FALLBACK_WEIGHTS_DEPTH, weights_player
    from c4engine.search.evaluators import WindowsEvaluator, WindowWeights

    weights = WindowWeights(own=(2, 20, 200), opponent=(-2, -20, -250), center=5)
    path = tmp_path / "tuned.json"
    weights.save(path, {"depth": 3})
    for spec in (f"weights:{path}", str(path), f"  weights:{path} "):
        player = parse_agent(spec)
        assert isinstance(player, EnginePlayer)
        assert player.engine.depth == 3 and player.name == "tuned.json, depth 3"
        assert isinstance(player.engine.evaluator, WindowsEvaluator)
        assert player.engine.evaluator.weights == weights
    assert parse_agent(f"weights:{path}@6").engine.depth == 6  # type: ignore[attr-defined]
    assert parse_agent(f"{path}@2").engine.depth == 2  # type: ignore[attr-defined]
    weights.save(path)  # no depth recorded
    assert weights_player(str(path)).engine.depth == FALLBACK_WEIGHTS_DEPTH
    with pytest.raises(WeightsError, match="no such file"):
        parse_agent("weights:nowhere.json")
    with pytest.raises(PlayerSpecError, match="names no weights file"):
        parse_agent("weights:")
    with pytest.raises(PlayerSpecError, match="at least 1"):
        parse_agent(f"weights:{path}@0")


# ------------------------------------------------------- specs: settings, external players

EXTERNAL = """
from c4engine.play.players import RandomPlayer

def centre(board):
    return board.width // 2

class Lefty:
    name = "lefty"
    is_human = False
    def choose_move(self, board):
        return board.legal_moves()[0]

INSTANCE = Lefty()
NOT_A_PLAYER = 42

def factory():
    return RandomPlayer(seed=3, name="made")

def bad_factory():
    return "no player"

class WithSeed(RandomPlayer):
    pass
"""


@pytest.fixture
def external(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    import sys

    (tmp_path / "ext_players_mod.py").write_text(EXTERNAL)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "ext_players_mod"
    sys.modules.pop("ext_players_mod", None)


def test_external_players_by_python_path(external: str) -> None:
    board = Board.from_moves("1")
    function = parse_agent(f"{external}:centre")
    assert function.name == f"{external}:centre" and not function.is_human
    assert function.choose_move(board) == 3
    assert parse_agent(f"{external}:Lefty").choose_move(board) == 0  # a class is instantiated
    assert parse_agent(f"{external}:INSTANCE").name == "lefty"  # an Agent object is used as it is
    assert parse_agent(f"{external}:factory()").name == "made"  # NAME() calls a factory
    seeded = parse_agent(f"{external}:WithSeed", seed=17)  # a class that takes seed= gets the seed
    assert isinstance(seeded, RandomPlayer) and seeded.seed == 17


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing", "has no 'missing'"),
        ("NOT_A_PLAYER", "neither a player nor a function"),
        ("bad_factory()", "did not make a player"),
        ("", "package.module:NAME"),
    ],
)
def test_bad_external_players_are_spec_errors(external: str, name: str, message: str) -> None:
    with pytest.raises(PlayerSpecError, match=message):
        parse_agent(f"{external}:{name}")


def test_engine_settings_as_a_spec() -> None:
    player = parse_agent("depth=4,evaluator=areas,noise=0.25", seed=1)
    assert isinstance(player, EnginePlayer)
    assert (player.engine.depth, player.noise, player.name) == (4, 0.25, "depth=4,evaluator=areas,noise=0.25")
    based = parse_agent("level=6,noise=0.1")
    assert isinstance(based, EnginePlayer) and based.engine.depth == levels.level(6).depth
    assert based.noise == 0.1
    for spec, message in [
        ("depth=x", "invalid literal"),
        ("speed=3", "settings are"),
        ("noise=2", "probability"),
        ("depth=2,evaluator=best", "unknown evaluator"),
        ("level=12", "does not exist"),
    ]:
        with pytest.raises(PlayerSpecError, match=message):
            parse_agent(spec)


def test_an_exact_player_plays_proved_moves_and_searches_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    from c4engine.play.perfect import PerfectPlayer

    player = EnginePlayer(level=7)
    # the book: columns 3, 6 and 7 are equally good, the one nearest the centre is played
    assert player.choose_move(Board.from_moves("4453")) == 2
    assert player.last is not None and player.last.source == "book" and player.last.proven
    big = Board.from_moves("5564", 9, 7, 5)  # no solver for boards over 64 bits: always searched
    assert player.choose_move(big) in big.legal_moves()
    assert player.last is not None and player.last.source == "engine" and player.last.depth is not None

    def unproven(self: PerfectPlayer, board: Board) -> int:
        self.last = PlayResult(column=0, score=None, source="solver", proven=False, time=1.0)
        return 0

    monkeypatch.setattr(PerfectPlayer, "choose_move", unproven)
    column = player.choose_move(Board.from_moves("445536"))
    assert player.last is not None and player.last.source == "engine"  # the guess was not played
    assert player.last.column == column


def test_an_exact_player_cancels_the_solver_at_its_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """A timer armed for the exact share of the budget cancels the solver, and is disarmed after the move."""
    import threading

    from c4engine.play import players
    from c4engine.search.analysis import shared_analyst

    timers: list[tuple[float, object, list[str]]] = []

    class Timer:
        def __init__(self, seconds: float, function: object) -> None:
            self.events: list[str] = []
            timers.append((seconds, function, self.events))

        def start(self) -> None:
            self.events.append("start")

        def cancel(self) -> None:
            self.events.append("cancel")

    monkeypatch.setattr(threading, "Timer", Timer)
    player = EnginePlayer(level=7)
    board = Board.from_moves("3111551243532617333255")  # 22 stones: the solver proves a move at once
    assert player.choose_move(board) in board.legal_moves()
    assert player.last is not None and player.last.source == "solver" and player.last.proven
    # the player's own timer (the analysis service arms its own for its shares, inside the move)
    share = players.EXACT_SHARE * levels.level(7).time_limit
    [(function, events)] = [(function, events) for seconds, function, events in timers if seconds == share]
    assert function == shared_analyst().solver.cancel and events == ["start", "cancel"]
    assert all(events == ["start", "cancel"] for _, _, events in timers)  # every timer disarmed


def test_exact_and_time_settings() -> None:
    player = parse_agent("depth=13,evaluator=areas,noise=0,time=2.5,exact=1")
    assert isinstance(player, EnginePlayer) and player.exact
    assert (player.engine.depth, player.engine.time_limit) == (13, 2.5)
    no = parse_agent("level=7,exact=no")
    assert isinstance(no, EnginePlayer) and not no.exact
    for spec, message in [
        ("depth=5,exact=1", "needs a time limit"),
        ("level=7,exact=maybe", "exact is 1 or 0"),
    ]:
        with pytest.raises(PlayerSpecError, match=message):
            parse_agent(spec)


def test_a_depth_keeps_the_level_budget_and_a_time_limit_replaces_it() -> None:
    capped = EnginePlayer(level=6, depth=3)
    assert (capped.engine.depth, capped.engine.time_limit) == (3, levels.level(6).time_limit)
    timed = EnginePlayer(level=6, time_limit=0.5)
    assert (timed.engine.depth, timed.engine.time_limit) == (None, 0.5)


def test_level_7_prefers_a_move_the_solver_proved_at_least_a_draw_to_an_estimate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When the solver runs out of time having proved one move at least a draw, and the engine
    prefers another without seeing a win, the proven move is played (dominance)."""
    from c4engine.play.perfect import PerfectPlayer
    from c4engine.search.engine import Engine

    def unfinished_proof(self: PerfectPlayer, board: Board) -> int:
        # column 2 proved at least a draw
        self.last = PlayResult(column=1, score=None, source="solver", proven=False, lower=0)
        return 1

    def engine_answer(value: float, stopped: str | None) -> PlayResult:
        score = Score.from_engine(value, cells=42, stones=4)
        proven = score.is_exact
        return PlayResult(column=3, score=score, source="engine", proven=proven, line=(3,), stopped=stopped)

    def estimate(self: Engine, board: Board, *, time_limit: float | None = None) -> PlayResult:
        return engine_answer(25.0, "time limit")

    monkeypatch.setattr(PerfectPlayer, "choose_move", unfinished_proof)
    monkeypatch.setattr(Engine, "search", estimate)
    board = Board.from_moves("4453")
    assert EnginePlayer(level=7).choose_move(board) == 1
    # a win the engine saw beats a draw; a proof of a loss does not outrank the estimate
    monkeypatch.setattr(
        Engine,
        "search",
        lambda self, board, time_limit=None: engine_answer(WIN_SCORE - 5, None),
    )
    assert EnginePlayer(level=7).choose_move(board) == 3
    monkeypatch.setattr(Engine, "search", estimate)

    def losing_proof(self: PerfectPlayer, board: Board) -> int:
        self.last = PlayResult(column=1, score=None, source="solver", proven=False, lower=-3)
        return 1

    monkeypatch.setattr(PerfectPlayer, "choose_move", losing_proof)
    assert EnginePlayer(level=7).choose_move(board) == 3
