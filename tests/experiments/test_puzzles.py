"""Puzzles from many games: the games files read, a run resumed from its checkpoint, repeats left out,
the same puzzles in this process, on worker processes and on a Dask cluster."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from c4engine.board import Board
from c4engine.errors import PuzzleError
from c4engine.experiments.match import MatchConfig, MatchStore, play_game
from c4engine.experiments.puzzles import PuzzleCheckpoint, SourceGame, build_puzzles, read_games
from c4engine.play.record import GameRecord
from c4engine.search.limit import Limit

SHORT = "6443433251"
LATE = "256555756663576622222111117143337744"
GAMES = [SourceGame(SHORT, opening_plies=4, label="short"), SourceGame(LATE, opening_plies=4, label="late")]


def test_a_file_of_move_strings(tmp_path: Path) -> None:
    path = tmp_path / "games.txt"
    path.write_text(f"# two games\n{SHORT} 0-1\n\n{LATE}\n")
    games = read_games(path)
    assert [(game.moves, game.label) for game in games] == [(SHORT, "games.txt:2"), (LATE, "games.txt:4")]
    path.write_text(f"{SHORT}\n44x\n")
    with pytest.raises(PuzzleError, match=r"games\.txt:2: move 3"):
        read_games(path)


def test_game_records_one_or_one_a_line(tmp_path: Path) -> None:
    record = GameRecord.from_board(Board.from_moves(SHORT), players=("a", "b"))
    single = tmp_path / "game.json"
    record.save(single)
    assert [game.moves for game in read_games(single)] == [SHORT]
    lines = tmp_path / "games.jsonl"
    lines.write_text(record.to_json().replace("\n", "") + "\n" + json.dumps({"moves": "44"}) + "\n")
    with pytest.raises(PuzzleError, match=r"games\.jsonl:2: "):
        read_games(lines)


def test_a_match_database_keeps_its_random_openings(tmp_path: Path) -> None:
    config = MatchConfig("1", "3", games=2, seed=5, random_plies=4)
    path = tmp_path / "m.sqlite"
    with MatchStore(path) as store:
        store.start(config)
        for index in range(2):
            store.add(play_game(config, index))
    games = read_games(path)
    assert [game.label for game in games] == ["m.sqlite game 0", "m.sqlite game 1"]
    assert {game.opening_plies for game in games} == {4}


def test_a_run_resumes_from_its_checkpoint_and_leaves_repeats_out(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.sqlite"
    first = build_puzzles(GAMES[:1], checkpoint=checkpoint)
    assert (first.games, first.resumed, len(first.puzzles)) == (1, 0, 2)
    again = build_puzzles([*GAMES, GAMES[0]], checkpoint=checkpoint)
    assert again.resumed == 1 and again.repeats == 2  # the third game repeats the first's puzzles
    assert again.puzzles[:2] == first.puzzles and len(again.puzzles) > 2
    with PuzzleCheckpoint(checkpoint) as store:
        assert sorted(store.scans()) == [0, 1, 2]
    with pytest.raises(PuzzleError, match="holds another puzzle run"):
        build_puzzles(GAMES, checkpoint=checkpoint, limit=Limit(nodes=1000))


def test_worker_processes_give_the_same_puzzles() -> None:
    here = build_puzzles(GAMES, workers=0)
    assert build_puzzles(GAMES, workers=1).puzzles == here.puzzles


def test_a_dask_cluster_gives_the_same_puzzles(dask_scheduler: str) -> None:
    assert build_puzzles(GAMES, scheduler=dask_scheduler).puzzles == build_puzzles(GAMES, workers=0).puzzles
