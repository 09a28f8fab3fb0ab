"""The puzzles and retries on the web API (a real server in a thread, one warm worker): a puzzle
without its answer, a wrong try refuted, a right one advancing to the last, which says solved; hints;
a mistake retried; 4xx JSON for bad input."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from tests.web_server import server_in_thread

from c4engine.board import Board
from c4engine.search.puzzles.collection import shipped_puzzles
from c4engine.search.puzzles.puzzle import Puzzle
from c4engine.web.app import ServerCaps

CAPS = ServerCaps(workers=1, max_pending=8, per_client=100, move_time=0.5, analyze_time=0.5, max_time=3)


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    with server_in_thread(CAPS) as url, httpx.Client(base_url=url, timeout=30) as session:
        yield session


def _longest_easy() -> tuple[int, Puzzle]:
    ordered = sorted(shipped_puzzles(), key=lambda puzzle: puzzle.rating)
    return next((i, p) for i, p in enumerate(ordered) if p.length >= 2)


def test_a_puzzle_comes_without_its_answer(client: httpx.Client) -> None:
    body = client.get("/api/puzzle", params={"index": 0}).json()
    assert set(body) == {"index", "count", "puzzle", "step", "position"}
    assert body["count"] == len(shipped_puzzles()) and body["step"] == 0
    assert "solution" not in body["puzzle"] and body["puzzle"]["size"] == "7x6"
    assert body["position"]["pos"] == body["puzzle"]["position"]
    hard = client.get("/api/puzzle", params={"difficulty": "hard", "goal": "win"}).json()
    assert hard["puzzle"]["difficulty"] == "hard" and hard["puzzle"]["goal"] == "win"


def test_wrong_refuted_right_advances_the_last_says_solved(client: httpx.Client) -> None:
    index, puzzle = _longest_easy()
    body = client.get("/api/puzzle", params={"index": index}).json()
    assert body["puzzle"]["id"] == puzzle.id
    board = puzzle.board()
    wrong = next(c for c in board.legal_moves() if c != puzzle.solution[0])
    refused = client.post("/api/puzzle/try", json={"id": puzzle.id, "step": 0, "column": wrong + 1}).json()
    assert refused["right"] is False and refused["next_step"] == 0 and refused["solution"] is None
    assert refused["refutation"] is not None and refused["words"].startswith(
        f"{board.turn.other.symbol} plays {refused['refutation']}"
    )
    after = board.copy()
    after.play(wrong)
    after.play(refused["refutation"] - 1)
    assert refused["refuted"]["pos"] == after.move_string and refused["position"]["pos"] == board.move_string
    for step in range(puzzle.length):
        answer = client.post(
            "/api/puzzle/try", json={"id": puzzle.id, "step": step, "column": puzzle.solution[2 * step] + 1}
        ).json()
        assert answer["right"] is True
        if step < puzzle.length - 1:
            assert not answer["solved"] and answer["reply"] == puzzle.solution[2 * step + 1] + 1
            assert answer["next_step"] == step + 1
        else:
            assert answer["solved"] and answer["solution"] == [c + 1 for c in puzzle.solution]
    walk = Board.from_moves(puzzle.position)
    for column in puzzle.solution:
        walk.play(column)
    assert answer["position"]["pos"] == walk.move_string


def test_hints_end_with_the_move(client: httpx.Client) -> None:
    _index, puzzle = _longest_easy()
    first = client.get("/api/puzzle/hint", params={"id": puzzle.id}).json()
    assert first["hint"].endswith(f"only one move keeps the {puzzle.goal}") and not first["last"]
    last = client.get("/api/puzzle/hint", params={"id": puzzle.id, "step": 1, "level": 5}).json()
    assert last == {"hint": f"the move: column {puzzle.solution[2] + 1}", "last": True}


def test_a_mistake_retried(client: httpx.Client) -> None:
    right = client.post("/api/retry", json={"moves": "4455", "column": 6}).json()
    assert right["right"] is True and right["words"] == "Right: 6 keeps the win (win in 2)."
    assert right["best"] == [3, 6]
    wrong = client.post("/api/retry", json={"moves": "4455", "column": 2}).json()
    assert (
        wrong["right"] is False and wrong["refutation"] == 3 and wrong["words"].startswith("Not 2: O plays 3")
    )


@pytest.mark.parametrize(
    ("method", "path", "payload", "status", "words"),
    [
        ("post", "/api/puzzle/try", {"id": "nope", "step": 0, "column": 1}, 404, "no puzzle"),
        ("post", "/api/puzzle/try", {"id": "ID", "step": 40, "column": 1}, 400, "step 40"),
        ("post", "/api/puzzle/try", {"id": "ID", "step": 0, "column": 0}, 422, "column"),
        ("post", "/api/retry", {"moves": "4444444", "column": 1}, 400, "move 7"),
        ("post", "/api/retry", {"moves": "444444", "column": 4}, 400, "full"),
        ("get", "/api/puzzle/hint", {"id": "nope"}, 404, "no puzzle"),
    ],
)
def test_bad_input_is_a_4xx_json_error(
    client: httpx.Client, method: str, path: str, payload: dict[str, object], status: int, words: str
) -> None:
    _index, puzzle = _longest_easy()
    if payload.get("id") == "ID":
        payload = {**payload, "id": puzzle.id}
    answer = client.post(path, json=payload) if method == "post" else client.get(path, params=payload)
    assert answer.status_code == status and words in answer.json()["error"], answer.text
