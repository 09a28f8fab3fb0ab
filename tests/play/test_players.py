"""Players: random, engine with levels and noise, parsing a player description."""

from __future__ import annotations

from typing import Any

import pytest

from c4engine.board import Board
from c4engine.errors import GameOverError, PlayerSpecError
from c4engine.play import levels
from c4engine.play.players import Agent, EnginePlayer, HumanPlayer, RandomPlayer, parse_agent
from c4engine.search.limit import UNLIMITED, Limit


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
    player = EnginePlayer(limit=Limit(depth=3), evaluator="areas")
    assert player.level is None and player.noise == 0.0
    assert player.name == "computer, depth 3"


def test_weights_files_as_players(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from c4engine.errors import WeightsError
    from c4engine.play.players import FALLBACK_WEIGHTS_DEPTH, weights_player
    from c4engine.search.engine.evaluators import WindowsEvaluator
    from c4engine.search.engine.weights import WindowWeights

    weights = WindowWeights(own=(2, 20, 200), opponent=(-2, -20, -250), center=5)
    path = tmp_path / "tuned.json"
    weights.save(path, {"depth": 3})
    for spec in (f"weights:{path}", str(path), f"  weights:{path} "):
        player = parse_agent(spec)
        assert isinstance(player, EnginePlayer)
        assert player.engine.limit.depth == 3 and player.name == "tuned.json, depth 3"
        assert isinstance(player.engine.evaluator, WindowsEvaluator)
        assert player.engine.evaluator.weights == weights
    assert parse_agent(f"weights:{path}@6").engine.limit.depth == 6  # type: ignore[attr-defined]
    assert parse_agent(f"{path}@2").engine.limit.depth == 2  # type: ignore[attr-defined]
    weights.save(path)  # no depth recorded
    assert weights_player(str(path)).engine.limit.depth == FALLBACK_WEIGHTS_DEPTH
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
    assert (player.engine.limit.depth, player.noise) == (4, 0.25)
    assert player.name == "depth=4,evaluator=areas,noise=0.25"
    based = parse_agent("level=6,noise=0.1")
    assert isinstance(based, EnginePlayer) and based.engine.limit.depth == levels.level(6).limit.depth
    assert based.noise == 0.1
    for spec, message in [
        ("depth=x", r"depth is a whole number of plies, at least 1, not 'x'"),
        ("noise=x", r"noise is a probability 0\.\.1, not 'x'"),
        ("level=x", r"level is a level number 1\.\.7, not 'x'"),
        ("speed=3", "settings are"),
        ("noise=2", "probability"),
        ("depth=2,evaluator=best", "unknown evaluator"),
        ("level=12", "does not exist"),
    ]:
        with pytest.raises(PlayerSpecError, match=message):
            parse_agent(spec)


def test_an_exact_player_plays_the_analysts_move() -> None:
    player = EnginePlayer(level=7)
    # the book: columns 3, 6 and 7 are equally good, the one nearest the centre is played
    assert player.choose_move(Board.from_moves("4453")) == 2
    assert player.last is not None and player.last.source == "book" and player.last.proven
    big = Board.from_moves("5564", 9, 14, 5)  # no solver for boards over 128 bits: the engine's estimate
    assert player.choose_move(big) in big.legal_moves()
    assert player.last is not None and player.last.source == "engine" and not player.last.proven


def test_level_7_asks_the_analyst_once_with_its_whole_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis service is the one place that splits a budget: the player hands it the level's
    limit, whole, once a move, and searches nothing itself."""
    from c4engine.search.analysis.analyst import Analyst
    from c4engine.search.engine.negamax import Engine
    from c4engine.search.results import PlayResult

    asked: list[Limit] = []
    real_solve = Analyst.solve

    def spy(self: Analyst, board: Board, limit: Limit = UNLIMITED, **options: Any) -> PlayResult:
        asked.append(limit)
        return real_solve(self, board, limit, **options)

    searches: list[Engine] = []
    real_search = Engine.search

    def searched(self: Engine, board: Board, limit: Limit | None = None) -> PlayResult:
        searches.append(self)
        return real_search(self, board, limit)

    monkeypatch.setattr(Analyst, "solve", spy)
    monkeypatch.setattr(Engine, "search", searched)
    player = EnginePlayer(level=7)
    board = Board.from_moves("3111551243532617333255")  # 22 stones: the solver proves a move at once
    assert player.choose_move(board) in board.legal_moves()
    assert asked == [levels.level(7).limit] and player.last is not None and player.last.source == "solver"
    assert player.engine not in searches


def test_an_exact_player_with_its_own_evaluator_shares_the_solver() -> None:
    from c4engine.search.analysis.analyst import shared_analyst

    assert EnginePlayer(level=7).analyst is shared_analyst()
    own = EnginePlayer(level=7, evaluator="windows").analyst
    assert own is not shared_analyst() and own.solver is shared_analyst().solver


def test_exact_and_time_settings() -> None:
    player = parse_agent("depth=13,evaluator=areas,noise=0,time=2.5,exact=1")
    assert isinstance(player, EnginePlayer) and player.exact
    assert (player.engine.limit.depth, player.engine.limit.time) == (13, 2.5)
    no = parse_agent("level=7,exact=no")
    assert isinstance(no, EnginePlayer) and not no.exact
    for spec, message in [
        ("depth=5,exact=1", "needs a time limit"),
        ("level=7,exact=maybe", "exact is 1 or 0"),
    ]:
        with pytest.raises(PlayerSpecError, match=message):
            parse_agent(spec)


def test_a_depth_setting_keeps_the_level_budget_and_a_time_setting_replaces_it() -> None:
    capped = parse_agent("level=6,depth=3")
    assert isinstance(capped, EnginePlayer)
    assert capped.limit == Limit(depth=3, time=levels.level(6).limit.time)
    timed = parse_agent("level=6,time=0.5")
    assert isinstance(timed, EnginePlayer) and timed.limit == Limit(time=0.5)
    # a limit given to the player replaces the level's whole
    assert EnginePlayer(level=6, limit=Limit(depth=3)).limit == Limit(depth=3)
