"""Matches: reproducible paired games, the SQLite store and resuming, parallel paths."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

from c4engine.board import Board
from c4engine.errors import MatchError
from c4engine.experiments.match import (
    ON_TIME,
    GameOutcome,
    MatchConfig,
    MatchStore,
    opening,
    play_game,
    play_match,
)

# ------------------------------------------------------------- games


def test_openings_are_seeded_paired_and_leave_a_game() -> None:
    config = MatchConfig("random", "random", games=40, seed=7, random_plies=6)
    openings = [opening(config, pair) for pair in range(20)]
    assert openings == [opening(config, pair) for pair in range(20)]
    assert len(set(openings)) > 15
    for moves in openings:
        board = Board.from_moves(moves)
        assert len(moves) == 6 and not board.is_over and not board.winning_columns()
    other = MatchConfig("random", "random", games=40, seed=8, random_plies=6)
    assert openings != [opening(other, pair) for pair in range(20)]


def test_a_short_match_is_reproducible_with_its_seed() -> None:
    config = MatchConfig("random", "3", games=6, seed=11, random_plies=2)
    first = play_match(config, workers=0)
    again = play_match(config, workers=0)
    assert [game.moves for game in first.games] == [game.moves for game in again.games]
    assert [game.score for game in first.games] == [game.score for game in again.games]
    assert first.wins + first.draws + first.losses == 6
    assert first.losses >= 4  # level 3 beats a random player nearly always
    for even, odd in zip(first.games[::2], first.games[1::2], strict=True):
        assert even.a_first and not odd.a_first
        assert even.moves[:2] == odd.moves[:2]  # the same opening, colours swapped
    reseeded = play_match(MatchConfig("random", "3", games=6, seed=12, random_plies=2), workers=0)
    assert [game.moves for game in reseeded.games] != [game.moves for game in first.games]


def test_scores_and_times_belong_to_the_right_player() -> None:
    config = MatchConfig("1", "random", games=2, seed=1, random_plies=0)
    for index in (0, 1):
        game = play_game(config, index)
        board = Board.from_moves(game.moves)
        a_player = board.winner is not None and (board.winner.value == 1) == game.a_first
        assert game.score == (0.5 if board.winner is None else 1.0 if a_player else 0.0)
        assert len(game.times_of(True)) + len(game.times_of(False)) == len(game.moves)
        a_moves = len(game.moves[0 if game.a_first else 1 :: 2])
        assert len(game.times_of(True)) == a_moves


def test_summary_report_counts_and_times() -> None:
    summary = play_match(MatchConfig("random", "2", games=4, seed=2), workers=0)
    report = summary.report()
    assert f"A wins {summary.wins}, draws {summary.draws}, B wins {summary.losses}" in report
    assert "Elo A - B" in report and "B's CPU time per move" in report
    assert summary.times(False).moves > 0 and summary.times(False).max >= summary.times(False).median


def test_bad_configs_are_match_errors() -> None:
    with pytest.raises(MatchError, match="at least 1"):
        MatchConfig("1", "2", games=0)
    with pytest.raises(MatchError, match="random plies"):
        MatchConfig("1", "2", games=2, random_plies=-1)
    with pytest.raises(MatchError, match="do not leave a game"):
        MatchConfig("1", "2", games=2, random_plies=11, width=3, height=4, connect=3)
    with pytest.raises(MatchError, match="computer players"):
        play_match(MatchConfig("human", "2", games=2), workers=0)


# ---------------------------------------------------------- store, resume


def _moves_and_scores(games: tuple[GameOutcome, ...]) -> list[tuple[tuple[int, ...], float]]:
    return [(game.moves, game.score) for game in games]


class _Stop(Exception):
    pass


def test_an_interrupted_match_resumes_to_the_same_games(tmp_path: Path) -> None:
    config = MatchConfig("random", "2", games=6, seed=4, random_plies=2)
    uninterrupted = play_match(config, workers=0)
    path = tmp_path / "match.sqlite"

    def stop_after_three(outcome: GameOutcome) -> None:
        if outcome.index == 2:
            raise _Stop

    with MatchStore(path) as store, pytest.raises(_Stop):
        play_match(config, store=store, workers=0, on_game=stop_after_three)
    with MatchStore(path) as store:
        assert sorted(store.games()) == [0, 1, 2]
        replayed: list[int] = []
        resumed = play_match(config, store=store, workers=0, on_game=lambda game: replayed.append(game.index))
    assert replayed == [3, 4, 5]
    assert _moves_and_scores(resumed.games) == _moves_and_scores(uninterrupted.games)
    with MatchStore(path) as store:  # stored moves read back as played, times kept
        stored = store.games()
        assert [stored[index].moves for index in range(6)] == [game.moves for game in resumed.games]
        assert all(len(game.times) == len(game.moves) - game.opening_plies for game in stored.values())
        assert store.config() == config


def test_a_store_refuses_another_match_but_accepts_more_games(tmp_path: Path) -> None:
    path = tmp_path / "match.sqlite"
    with MatchStore(path) as store:
        play_match(MatchConfig("random", "1", games=2, seed=1), store=store, workers=0)
    with MatchStore(path) as store, pytest.raises(MatchError, match=r"seed 1 \(asked 2\)"):
        store.start(MatchConfig("random", "1", games=2, seed=2))
    with MatchStore(path) as store:
        more = play_match(MatchConfig("random", "1", games=4, seed=1), store=store, workers=0)
        fewer = play_match(MatchConfig("random", "1", games=1, seed=1), store=store, workers=0)
    assert [game.index for game in more.games] == [0, 1, 2, 3] and len(fewer.games) == 1


def test_a_file_that_is_not_a_database_is_a_match_error(tmp_path: Path) -> None:
    path = tmp_path / "text.sqlite"
    path.write_text("not a database, just some text that is long enough to have a header" * 10)
    with pytest.raises(MatchError, match="cannot use"):
        MatchStore(path)


# ---------------------------------------------------------- parallel


def test_a_process_pool_plays_the_same_games() -> None:
    config = MatchConfig("random", "1", games=4, seed=3, random_plies=2)
    assert _moves_and_scores(play_match(config, workers=2).games) == _moves_and_scores(
        play_match(config, workers=0).games
    )


def test_the_dask_path_plays_the_same_games(dask_scheduler: str) -> None:
    config = MatchConfig("random", "1", games=4, seed=5, random_plies=2)
    on_dask = play_match(config, scheduler=dask_scheduler)
    assert _moves_and_scores(on_dask.games) == _moves_and_scores(play_match(config, workers=0).games)


# ---------------------------------------------------------- external players

AGENTS = """
from c4engine.play.players import RandomPlayer

def leftmost(board):
    return board.legal_moves()[0]

def cheat(board):
    return 99

def first_column(board):
    return 0

class Seeded(RandomPlayer):
    def __init__(self):
        super().__init__(seed=1, name="seeded")

def make():
    return Seeded()
"""


@pytest.fixture
def agents_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "my_match_agents.py").write_text(AGENTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "my_match_agents"
    sys.modules.pop("my_match_agents", None)


def test_external_players_play_a_match(agents_module: str) -> None:
    config = MatchConfig(f"{agents_module}:leftmost", "4", games=2, seed=1, random_plies=2)
    summary = play_match(config, workers=0)
    assert summary.losses == 2  # always playing the leftmost column loses to level 4
    for game in summary.games:  # every move of A after the opening is the leftmost legal column
        board = Board.from_moves(game.moves[: game.opening_plies])
        for column in game.moves[game.opening_plies :]:
            if (board.move_count % 2 == 0) == game.a_first:
                assert column == board.legal_moves()[0]
            board.play(column)
    for spec in (f"{agents_module}:Seeded", f"{agents_module}:make()"):
        assert len(play_match(MatchConfig(spec, "random", games=2), workers=0).games) == 2


def test_an_illegal_move_of_an_external_player_stops_the_match(agents_module: str) -> None:
    with pytest.raises(MatchError, match="it returned 99, not a column of a 7-wide board"):
        play_match(MatchConfig(f"{agents_module}:cheat", "1", games=2), workers=0)


SLEEPY = "import time\n\ndef choose(board):\n    time.sleep(1000)\n"


def test_a_player_over_the_move_timeout_loses_on_time_and_the_match_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sleepy_player.py").write_text(SLEEPY)
    monkeypatch.syspath_prepend(str(tmp_path))
    config = MatchConfig("sleepy_player:choose", "random", games=2, move_timeout=0.5)
    with MatchStore(tmp_path / "m.sqlite") as store:
        summary = play_match(config, store=store, workers=0)
        assert [(game.score, game.reason) for game in store.games().values()] == [(0.0, ON_TIME)] * 2
    assert summary.losses == 2 and summary.lost_on_time(True) == 2 and summary.lost_on_time(False) == 0
    assert "lost on time (no move within 0.5 s): A 2, B 0" in summary.report()
    # the opponent won on time, not on the board: the game stops where the player hung
    assert all(not Board.from_moves(game.moves).is_over for game in summary.games)


def test_a_database_written_before_games_had_a_reason_resumes(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    config = MatchConfig("random", "random", games=4, seed=2)
    with sqlite3.connect(path) as old:  # the layout of c4engine before the move timeout
        old.executescript(
            "CREATE TABLE match (id INTEGER PRIMARY KEY CHECK (id = 1), schema INTEGER NOT NULL,"
            " parameters TEXT NOT NULL, games INTEGER NOT NULL, created TEXT NOT NULL);"
            "CREATE TABLE games (game INTEGER PRIMARY KEY, a_first INTEGER NOT NULL, opening_plies INTEGER"
            " NOT NULL, moves TEXT NOT NULL, score REAL NOT NULL, times TEXT NOT NULL,"
            " finished TEXT NOT NULL);"
        )
        old.execute(
            "INSERT INTO match VALUES (1, 1, ?, 4, '2026-01-01T00:00:00+00:00')",
            (json.dumps(config.parameters(), sort_keys=True),),
        )
        first = play_game(config, 0)
        old.execute(
            "INSERT INTO games VALUES (0, 1, ?, ?, ?, '[]', '2026-01-01T00:00:00+00:00')",
            (first.opening_plies, first.move_string(), first.score),
        )
    with MatchStore(path) as store:
        summary = play_match(config, store=store, workers=0)
        assert sorted(store.games()) == [0, 1, 2, 3] and store.games()[0].reason is None
    assert [game.moves for game in summary.games] == [play_game(config, i).moves for i in range(4)]


def test_a_full_column_is_named_one_based_with_the_moves_so_far(agents_module: str) -> None:
    both = f"{agents_module}:first_column"  # both fill column 1, alternating: nobody wins there
    config = MatchConfig(both, both, games=1, random_plies=0)
    with pytest.raises(
        MatchError, match=r"illegal move in game 0: column 1 is full \(moves so far: 111111\)"
    ):
        play_match(config, workers=0)
