"""The web API on a real server (uvicorn in a thread, one warm engine worker).

Answers for good input, 4xx JSON for bad input, 503 with Retry-After when
the engine queue is full, a fast health check while the engine works, and a
fuzz run from the OpenAPI document (schemathesis): never a 5xx.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.conftest import PONS
from tests.web_server import server_in_thread

from c4engine.board import Board
from c4engine.web.app import Limits, position_payload
from c4engine.web.worker import analyze

LIMITS = Limits(workers=1, max_pending=8, move_time=0.5, analyze_time=0.5, max_time=1.0)

# Positions whose analysis the classic engine proves at once (the solver must agree).
LOSSES = "425645445333223554433225266"  # O to move; columns 2-5 full
MIXED = "4256454453332235547477771116615"  # X to move: a loss, wins with the last stone, a draw


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with server_in_thread(LIMITS) as url:
        yield url


@pytest.fixture(scope="module")
def client(base: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base, timeout=30) as session:
        yield session


def error_of(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    message: str = body["error"]
    assert message and "Traceback" not in message
    return message


# ------------------------------------------------------------- good input


def test_health(client: httpx.Client) -> None:
    body = client.get("/healthz").json()
    assert body["status"] == "ok" and body["workers"] == 1 and body["pending"] == 0


def test_position(client: httpx.Client) -> None:
    body = client.get("/api/position", params={"pos": "4453"}).json()
    assert body["to_move"] == "X" and body["moves"] == 4 and body["last_move"] == 3
    assert body["grid"][-1] == [None, None, "O", "X", "X", None, None]
    assert body["grid"][-2][3] == "O"
    assert body["winning_cells"] == [] and body["winner"] is None and not body["over"]
    assert body == position_payload(Board.from_moves("4453"))


def test_position_won_game(client: httpx.Client) -> None:
    body = client.get("/api/position", params={"pos": "4455332"}).json()
    assert body["winner"] == "X" and body["over"] and body["to_move"] is None and body["result"] == "1-0"
    assert body["winning_cells"] == [{"column": c, "row": 1} for c in (2, 3, 4, 5)]
    assert body["legal"] == []


def test_position_other_size(client: httpx.Client) -> None:
    body = client.get("/api/position", params={"pos": "10,3,4", "size": "12x8", "connect": 5}).json()
    assert (body["width"], body["height"], body["connect"], body["pos"]) == (12, 8, 5, "10,3,4")


def test_analyze_known_positions(client: httpx.Client) -> None:
    body = client.get("/api/analyze", params={"pos": LOSSES, "time_cap": 1}).json()
    assert body["to_move"] == "O" and body["exact"]
    assert body["scores"] == [-7, None, None, None, None, -5, -5]
    assert [c and c["label"] for c in body["columns"]] == [
        "loss in 1", None, None, None, None, "loss in 3", "loss in 3"
    ]  # fmt: skip
    assert body["best"] == [6, 7]
    mixed = analyze(Board.from_moves(MIXED), time_cap=5)
    assert [c and c["label"] for c in mixed["columns"]] == [
        "loss in 5", "win in 6", "draw", None, None, "win in 6", "win in 6"
    ]  # fmt: skip
    assert [c and c["score"] for c in mixed["columns"]] == [-1, 1, 0, None, None, 1, 1]


def test_analyze_time_capped_is_not_exact(client: httpx.Client) -> None:
    started = time.monotonic()
    body = client.get("/api/analyze", params={"pos": "4455", "time_cap": 0.3}).json()
    # a full analysis of 4455 takes ~25 s; the capped one stops long before (generous: loaded CI)
    assert time.monotonic() - started < 12
    assert not body["exact"]
    labels = [column["label"] for column in body["columns"]]
    assert labels[2] == labels[5] == "win in 2" and body["best"] == [3, 6]
    assert {column["outcome"] for column in body["columns"]} >= {"win", "unknown"}


def test_move(client: httpx.Client) -> None:
    body = client.post("/api/move", json={"pos": "121212", "level": 1}).json()
    assert body["column"] == 1 and body["pos"] == "1212121"  # every level takes a win in one
    assert body["position"]["winner"] == "X"
    for level in (3, 5):
        body = client.post(
            "/api/move", json={"pos": "4453", "size": "7x6", "connect": 4, "level": level}
        ).json()
        assert body["pos"] == "4453" + str(body["column"]) and body["level"] == level
        assert isinstance(body["exact"], bool)


def test_record(client: httpx.Client) -> None:
    response = client.get("/api/record", params={"pos": "4455332", "first": "Ann", "second": "Bo"})
    record = response.json()
    assert record["format"] == "c4engine-game" and record["moves"] == "4455332" and record["result"] == "1-0"
    assert record["players"] == {"first": "Ann", "second": "Bo"}


def test_openapi_documents_the_api(client: httpx.Client) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/analyze", "/api/move", "/api/position", "/healthz"} <= set(paths)


def test_page_is_served(client: httpx.Client) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "app.js" in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200


# -------------------------------------------------------------- bad input

BAD_GETS: list[tuple[str, dict[str, Any], int, str]] = [
    ("/api/position", {"pos": "4444444"}, 400, "column 4 is full"),
    ("/api/position", {"pos": "44x"}, 400, "not a column number"),
    ("/api/position", {"pos": "48"}, 400, "out of range 1..7"),
    ("/api/position", {"pos": "12121212"}, 400, "the game is over"),
    ("/api/position", {"size": "0x6"}, 400, "width must be between 1 and 32"),
    ("/api/position", {"size": "99x6"}, 400, "between 1 and 32"),
    ("/api/position", {"size": "seven"}, 400, "not WIDTHxHEIGHT"),
    ("/api/position", {"connect": "9"}, 400, "cannot fit"),
    ("/api/position", {"connect": "1"}, 422, "connect"),
    ("/api/position", {"connect": "four"}, 422, "connect"),
    ("/api/analyze", {"pos": "1212121"}, 409, "the game is over: X has won"),
    ("/api/analyze", {"time_cap": "-1"}, 422, "time_cap"),
    ("/api/analyze", {"pos": "4" * 5000}, 422, "pos"),
    ("/api/nowhere", {}, 404, "Not Found"),
]


@pytest.mark.parametrize(("path", "params", "status", "words"), BAD_GETS)
def test_bad_queries(
    client: httpx.Client, path: str, params: dict[str, Any], status: int, words: str
) -> None:
    assert words in error_of(client.get(path, params=params), status)


BAD_MOVES: list[tuple[Any, int, str]] = [
    ({"pos": "1212121"}, 409, "the game is over"),
    ({"pos": "4444444"}, 400, "column 4 is full"),
    ({"pos": "", "level": 9}, 422, "level"),
    ({"pos": "", "level": "strong"}, 422, "level"),
    ({"pos": "", "size": "3x"}, 400, "WIDTHxHEIGHT"),
    ({"pos": "", "colour": "red"}, 422, "colour"),
    ({"pos": 44}, 422, "pos"),
    ([1, 2], 422, ""),
]


@pytest.mark.parametrize(("body", "status", "words"), BAD_MOVES)
def test_bad_moves(client: httpx.Client, body: Any, status: int, words: str) -> None:
    assert words in error_of(client.post("/api/move", json=body), status)


def test_malformed_json(client: httpx.Client) -> None:
    response = client.post("/api/move", content=b"{not json", headers={"content-type": "application/json"})
    assert "JSON" in error_of(response, 422)


def test_huge_body_and_query(client: httpx.Client) -> None:
    big = b'{"pos": "' + b"4" * 100_000 + b'"}'
    assert "too large" in error_of(client.post("/api/move", content=big), 413)
    assert "too long" in error_of(client.get("/api/position?pos=" + "4" * 20_000), 414)

    def chunks() -> Iterator[bytes]:  # no Content-Length: the size is counted as it arrives
        for _ in range(40):
            yield b" " * 1024

    assert "too large" in error_of(client.post("/api/move", content=chunks()), 413)


# ------------------------------------------------------------ under load


def test_busy_engine_answers_503_and_health_stays_fast(base: str, client: httpx.Client) -> None:
    """Fill the queue with time-capped analyses: extra work is refused, /healthz answers at once."""
    results: list[int] = []

    def analyse() -> None:
        with httpx.Client(base_url=base, timeout=60) as own:
            results.append(own.get("/api/analyze", params={"pos": "", "time_cap": 0.4}).status_code)

    threads = [threading.Thread(target=analyse) for _ in range(LIMITS.max_pending + 4)]
    for thread in threads:
        thread.start()
    time.sleep(0.3)
    latencies = []
    for _ in range(10):
        started = time.perf_counter()
        assert client.get("/healthz").status_code == 200
        latencies.append(time.perf_counter() - started)
        time.sleep(0.02)
    for thread in threads:
        thread.join()
    # health never waits behind engine work: not even one analysis's time cap
    assert sorted(latencies)[-2] < 0.4, latencies
    assert results.count(503) >= 4 and set(results) == {200, 503}, results
    refused = client.get("/api/analyze", params={"pos": "", "time_cap": 0.1})
    assert refused.status_code == 200  # the queue drained


def test_503_has_retry_after(base: str, client: httpx.Client) -> None:
    busy: list[httpx.Response] = []

    def analyse() -> None:
        with httpx.Client(base_url=base, timeout=60) as own:
            busy.append(own.get("/api/analyze", params={"pos": "", "time_cap": 0.3}))

    threads = [threading.Thread(target=analyse) for _ in range(LIMITS.max_pending + 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    refused = [response for response in busy if response.status_code == 503]
    assert refused
    assert refused[0].headers["retry-after"] == "1"
    assert "busy" in refused[0].json()["error"]


# ------------------------------------------------------------------ fuzz


def test_fuzz_from_openapi(base: str) -> None:
    """Every operation, with generated valid and invalid input: never a server error."""
    import schemathesis
    from hypothesis import HealthCheck, given, settings
    from hypothesis.errors import Unsatisfiable
    from schemathesis import GenerationMode

    schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 5
    seen: dict[int, int] = {}

    def fuzz(operation: Any, mode: GenerationMode) -> None:
        @settings(max_examples=30, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(mode))
        def check(case: Any) -> None:
            response = case.call(base_url=base, timeout=30)
            seen[response.status_code] = seen.get(response.status_code, 0) + 1
            assert response.status_code < 500, (case.path, case.query, case.body, response.text)
            if response.status_code >= 400:
                assert "error" in response.json(), response.text
            elif mode is GenerationMode.POSITIVE:
                case.operation.validate_response(response)

        try:
            check()
        except Unsatisfiable:  # no invalid input exists (an operation without parameters)
            assert mode is GenerationMode.NEGATIVE and not operation.query

    for operation, mode in itertools.product(operations, GenerationMode):
        fuzz(operation, mode)
    assert seen.get(200, 0) > 0 and any(400 <= status < 500 for status in seen), seen


def test_analysis_agrees_with_the_solver_on_middle_game_positions() -> None:
    from c4engine.search.solver import Solver

    solver = Solver(table_size_mb=16)
    lines = (PONS / "Test_L2_R1").read_text().split("\n")[:20]
    for line in lines:
        board = Board.from_moves(line.split()[0])
        expected = solver.analyze(board, pv=False).scores
        got = analyze(board, time_cap=30)
        assert got["exact"]
        assert [c and c["score"] for c in got["columns"]] == list(expected), line
        best = max(s for s in expected if s is not None)
        assert got["best"] == [c + 1 for c, s in enumerate(expected) if s == best]
