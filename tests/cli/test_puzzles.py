"""``c4 puzzles``: games in, one JSON puzzle a line out, resumed from its checkpoint; one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_c4

from c4engine.search.analysis.analyst import Analyst
from c4engine.search.puzzles.check import check_puzzle
from c4engine.search.puzzles.puzzle import Puzzle

GAMES = "6443433251\n256555756663576622222111117143337744\n"


def test_games_become_checked_puzzles_one_json_object_a_line(tmp_path: Path) -> None:
    games = tmp_path / "games.txt"
    games.write_text(GAMES)
    out = tmp_path / "out.jsonl"
    result = run_c4("puzzles", str(games), "-o", str(out))
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) >= 5 and f"wrote {len(rows)} puzzles to {out} from 2 games" in result.stdout
    for row in rows:
        assert {"position", "solution", "size", "connect", "goal", "theme", "difficulty", "source"} <= set(
            row
        )
        assert row["size"] == "7x6" and row["connect"] == 4 and all(1 <= c <= 7 for c in row["solution"])
    analyst = Analyst(book=None)  # the book out: the solver alone checks each one
    for row in rows:
        assert check_puzzle(Puzzle.from_json(row), analyst).ok, row
    again = run_c4("puzzles", str(games), "-o", str(out))
    assert "2 from the checkpoint" in again.stdout and Path(f"{out}.sqlite").exists()
    assert [json.loads(line) for line in out.read_text().splitlines()] == rows


def test_bad_input_is_one_line_and_status_2(tmp_path: Path) -> None:
    missing = run_c4("puzzles", str(tmp_path / "none.txt"), "-o", str(tmp_path / "o.jsonl"))
    assert missing.returncode == 2 and "GAMES_FILE" in missing.stderr and "no such file" in missing.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("4444444\n")
    refused = run_c4("puzzles", str(bad), "-o", str(tmp_path / "o.jsonl"))
    assert (
        refused.returncode == 2 and "bad.txt:1: " in refused.stderr and len(refused.stderr.splitlines()) == 1
    )
    moves = run_c4("puzzles", str(bad), "-o", str(tmp_path / "o.jsonl"), "--max-moves", "0")
    assert moves.returncode == 2 and "--max-moves" in moves.stderr
