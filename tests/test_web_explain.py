"""The coach on the web: ``GET /api/explain`` on a real server (uvicorn in a thread, one warm worker).

The answer is the coach's own (:func:`~c4engine.search.coach.explanation.explain`), key for key and
threat for threat, its threats checked again by walking the grid; the documented model has exactly
the coach's keys; bad input is answered with a 4xx JSON error.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from pydantic import BaseModel
from tests.web_server import error_of, server_in_thread

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.coach.explanation import explain
from c4engine.search.limit import Limit
from c4engine.web.app import ServerCaps
from c4engine.web.models import (
    ExplanationOut,
    ExplanationScoreOut,
    FollowUpOut,
    ImmediateOut,
    PlanOut,
    ProofOut,
    RuleOut,
    ThreatOut,
    ZugzwangOut,
)

CAPS = ServerCaps(workers=1, max_pending=8, per_client=100, analyze_time=2, max_time=3)

POSITIONS = {
    "34444445": "second player at least draws",  # Allis' Diagram 6.1: claimeven only
    "333244442525155": "first player wins",  # Diagram 8.1: the odd threat at a3
    "112233": None,  # X wins at once in column 4
    "4455": None,  # from the book
    "": None,  # the first player wins, and no odd threat exists yet: no proof
}


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    with server_in_thread(CAPS) as url, httpx.Client(base_url=url, timeout=60) as session:
        yield session


def _threats_by_walking(board: Board) -> list[dict[str, Any]]:
    """Must-show 1's threat fields, found again by walking the four directions from each empty cell."""
    found = []
    for player in (Player.FIRST, Player.SECOND):
        for column in range(board.width):
            for row in range(board.height):
                if board.cell(column, row) is not None:
                    continue
                longest = 1
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    run = 1
                    for sign in (1, -1):
                        c, r = column + sign * dc, row + sign * dr
                        while 0 <= c < board.width and 0 <= r < board.height and board.cell(c, r) is player:
                            run, c, r = run + 1, c + sign * dc, r + sign * dr
                    longest = max(longest, run)
                if longest >= board.connect:
                    found.append(
                        {
                            "player": int(player),
                            "column": column + 1,
                            "row": row + 1,
                            "parity": "odd" if row % 2 == 0 else "even",
                            "playable": row == board.column_height(column),
                        }
                    )
    return sorted(found, key=lambda threat: sorted(threat.items()))


@pytest.mark.parametrize("pos", list(POSITIONS))
def test_the_explanation_is_the_coach_s(client: httpx.Client, pos: str) -> None:
    for _ in range(5):  # a cold worker on a loaded machine may not prove the score in its first cap
        response = client.get("/api/explain", params={"pos": pos})
        assert response.status_code == 200, response.text
        got = response.json()
        if got["score"]["proven"]:
            break
    board = Board.from_moves(pos)
    shown = [
        {key: threat[key] for key in ("player", "column", "row", "parity", "playable")}
        for threat in got["threats"]
    ]
    assert sorted(shown, key=lambda threat: sorted(threat.items())) == _threats_by_walking(board)
    claim = POSITIONS[pos]
    assert (got["proof"] and got["proof"]["claim"]) == claim, got["proof"]
    assert got["sentences"] and got["time"] >= 0 and got["score"]["proven"]  # these are quick to prove
    # the coach's own answer, the score from a separate analyst: every key the same
    expected = explain(board, analyst=Analyst(), limit=Limit(time=60)).to_json()
    assert {key: value for key, value in got.items() if key != "time"} == expected


def test_a_finished_game_is_explained_too(client: httpx.Client) -> None:
    got = client.get("/api/explain", params={"pos": "4455667"}).json()
    assert (got["to_move"], got["score"], got["proof"]) == (None, None, None)
    assert got["sentences"] == ["The game is over: X won."]


def test_other_boards(client: httpx.Client) -> None:
    got = client.get("/api/explain", params={"pos": "1122", "size": "5x4", "connect": 3}).json()
    assert (got["size"], got["connect"]) == ("5x4", 3)
    assert {(t["player"], t["column"], t["row"]) for t in got["threats"]} == {(1, 3, 1), (2, 3, 2)}


BAD: list[tuple[dict[str, Any], int, str]] = [
    ({"pos": "4444444"}, 400, "column 4 is full"),
    ({"pos": "48"}, 400, "out of range 1..7"),
    ({"size": "seven"}, 400, "not WIDTHxHEIGHT"),
    ({"connect": "9"}, 400, "cannot fit"),
    ({"connect": "1"}, 422, "connect"),
    ({"time": "-1"}, 422, "time"),
    ({"time": "nan"}, 422, "time"),
    ({"time": "4"}, 422, "at most 3 seconds"),
    ({"pos": "4" * 5000}, 422, "pos"),
]


@pytest.mark.parametrize(("params", "status", "words"), BAD)
def test_bad_input_is_a_4xx_json_error(
    client: httpx.Client, params: dict[str, Any], status: int, words: str
) -> None:
    assert words in error_of(client.get("/api/explain", params=params), status)


def test_the_api_documents_the_explanation(client: httpx.Client) -> None:
    document = client.get("/openapi.json").json()
    operation = document["paths"]["/api/explain"]["get"]
    assert set(operation["responses"]) >= {"200", "400", "422", "429", "503"}
    assert operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/ExplanationOut"
    )
    threat = document["components"]["schemas"]["ThreatOut"]["properties"]
    assert set(threat["parity"]["enum"]) == {"odd", "even"}


def _keys(model: type[BaseModel]) -> set[str]:
    return set(model.model_fields)


def test_the_models_have_exactly_the_coach_s_keys() -> None:
    """Each model against the coach's JSON of positions that hold every part: a threat, each immediate
    fact, a proof with a rule of its own group (oddthreat) and one without."""
    proved = explain(Board.from_moves("333244442525155"), analyst=Analyst()).to_json()
    assert set(proved) | {"time"} == _keys(ExplanationOut)
    assert set(proved["threats"][0]) == _keys(ThreatOut)
    assert set(proved["immediate"][0]) == _keys(ImmediateOut)
    assert set(proved["zugzwang"]) == _keys(ZugzwangOut)
    assert set(proved["zugzwang"]["follow_up"]) == _keys(FollowUpOut)
    assert set(proved["score"]) == _keys(ExplanationScoreOut)
    proof = proved["proof"]
    assert set(proof) == _keys(ProofOut) and set(proof["plan"]) == _keys(PlanOut)
    rules = {rule["rule"]: set(rule) for rule in proof["rules"]}
    assert rules["oddthreat"] == _keys(RuleOut) and rules["claimeven"] == _keys(RuleOut) - {"group"}
    for pos in POSITIONS:
        ExplanationOut.model_validate(explain(Board.from_moves(pos)).to_json() | {"time": 0.0})
