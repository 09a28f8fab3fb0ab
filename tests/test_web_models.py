"""The web's answers are the library's: each response model holds its ``to_json``'s fields (and the
page's additions, named here), so neither can drift from the other."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from c4engine import Board
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import Limit
from c4engine.search.review.game import review_game
from c4engine.web.models import AnalysisOut, ColumnOut, MoveOut, PlyOut, ReviewOut
from c4engine.web.worker import analyze, engine_move

MOVE_EXTRAS = {"complete", "pos", "level", "position"}
"""What the move route adds to PlayResult.to_json: the search's end in one flag, the position after."""

COLUMN_EXTRAS = {"outcome", "moves", "moves_at_most", "lean"}
"""What the page draws besides a column's JSON (web.worker._for_the_page)."""


def _fields(model: type[BaseModel]) -> set[str]:
    return set(model.model_fields)


def _without_time(answer: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in answer.items() if key != "time"}


def test_the_move_answer_is_the_play_results_json() -> None:
    board = Board.from_moves("4453")
    library = Analyst().solve(board, Limit(time=5)).to_json()
    web = engine_move("4453", 7, 6, 4, "perfect", Limit(time=5))
    assert _fields(MoveOut) == set(library) | MOVE_EXTRAS
    assert _without_time(web) == _without_time(library) | {"complete": True}


def test_the_engines_move_answer_is_the_play_results_json_too() -> None:
    web = engine_move("4453", 7, 6, 4, 1, Limit(time=2), seed=1)
    assert set(web) | {"pos", "level", "position"} == _fields(MoveOut)
    assert web["source"] == "engine" and isinstance(web["proven"], bool)


def test_the_analysis_answer_is_the_position_analysis_json() -> None:
    board = Board.from_moves("4453")
    library = Analyst().analyze(board, Limit(time=5)).to_json(board.move_string, board.size, board.connect)
    web = analyze(board, Limit(time=5))
    assert _fields(AnalysisOut) == set(library) | {"time", "to_move"}  # the route adds the side to move
    column = next(entry for entry in library["columns"] if entry is not None)
    assert _fields(ColumnOut) == set(column) | COLUMN_EXTRAS
    assert [
        None if entry is None else {key: entry[key] for key in column} for entry in web["columns"]
    ] == library["columns"]
    assert {key: web[key] for key in library if key != "columns"} == {
        key: value for key, value in library.items() if key != "columns"
    }


def test_the_review_answer_is_the_reviews_json() -> None:
    library = review_game(Analyst(), Board.from_moves("4453"), Limit(time=2)).to_json()
    assert _fields(ReviewOut) == set(library) | {"time"}
    assert _fields(PlyOut) == set(library["plies"][0])
