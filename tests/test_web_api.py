"""The web API on a real server (uvicorn in a thread, one warm engine worker).

Answers for good input, 4xx JSON for bad input, 503 with Retry-After when
the engine queue is full, a fast health check while the engine works, and a
fuzz run from the OpenAPI document (schemathesis): never a 5xx.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.conftest import PONS
from tests.web_server import c4_serve, error_of, server_in_thread

from c4engine.board import Board
from c4engine.geometry import SOLVER_BITS
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import Limit
from c4engine.web.app import ServerCaps
from c4engine.web.pool import Client, ClientBusyError, Lane, PoolBusyError
from c4engine.web.positions import position_payload
from c4engine.web.worker import analyze, analyze_position, engine_move

CAPS = ServerCaps(
    workers=1, max_pending=8, per_client=100, move_time=0.5, analyze_time=0.5, max_time=2, review_time=2
)

# Positions whose analysis the classic engine proves at once (the solver must agree).
LOSSES = "425645445333223554433225266"  # O to move; columns 2-5 full
MIXED = "4256454453332235547477771116615"  # X to move: a loss, wins with the last stone, a draw


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with server_in_thread(CAPS) as url:
        yield url


@pytest.fixture(scope="module")
def client(base: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base, timeout=30) as session:
        yield session


# ------------------------------------------------------------- good input


def test_health(client: httpx.Client) -> None:
    body = client.get("/healthz").json()
    assert body["status"] == "ok" and body["workers"] == 1 and body["move_workers"] == 1
    assert body["pending"] == body["pending_moves"] == 0


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
    body = client.get("/api/analyze", params={"pos": LOSSES, "time": 1}).json()
    assert body["to_move"] == "O" and body["proven"] and body["best_proven"]
    assert [c and c["score"] for c in body["columns"]] == [-7, None, None, None, None, -5, -5]
    assert [c and (c["lower"], c["upper"]) for c in body["columns"]][-2:] == [(-5, -5), (-5, -5)]
    assert "scores" not in body and body["position"] == LOSSES
    assert [c and c["label"] for c in body["columns"]] == [
        "loss in 1", None, None, None, None, "loss in 3", "loss in 3"
    ]  # fmt: skip
    assert body["best"] == [6, 7]
    mixed = analyze(Board.from_moves(MIXED), Limit(time=5))
    assert [c and c["label"] for c in mixed["columns"]] == [
        "loss in 5", "win in 6", "draw", None, None, "win in 6", "win in 6"
    ]  # fmt: skip
    assert [c and c["score"] for c in mixed["columns"]] == [-1, 1, 0, None, None, 1, 1]


def test_analyze_from_the_book(client: httpx.Client) -> None:
    """The scores come from the book at once, the position's own too, and so does the line: the
    book's own, then taken further within a share of the cap -- proven where it reaches the end."""
    body = client.get("/api/analyze", params={"pos": "44", "time": CAPS.max_time}).json()
    assert body["proven"] and body["best"] == [4] and body["pv"][:3] == [4, 4, 4]
    board = Board.from_moves("44")
    for column in body["pv"]:
        board.play(column - 1)
    assert body["pv_proven"] == board.is_over
    assert body["position_score"] == {
        "lower": 1, "upper": 1, "score": 1, "proven": True, "label": "win in 20", "source": "book"
    }  # fmt: skip
    assert [c["label"] for c in body["columns"]] == [
        "loss in 18", "loss in 18", "loss in 19", "win in 20", "loss in 19", "loss in 18", "loss in 18"
    ]  # fmt: skip


def test_analyze_gives_the_best_line_to_the_winning_stone(client: httpx.Client) -> None:
    """The API's answer is the worker's (with the side to move): searched, its line goes to the
    winning stone when the cap leaves time for it -- a generous one here, as the machine may be
    loaded.  (From the book, 133524's line is the book's own: the served one.)"""
    served = client.get("/api/analyze", params={"pos": "133524", "time": 2}).json()
    assert served["best"] == [6] and served["best_proven"] and served["move"] == 6
    assert served["pv"][0] == 6 and served["to_move"] == "X"
    searched = Analyst(book=None).analyze(Board.from_moves("133524"), Limit(time=120))
    body = searched.to_json("133524", "7x6", 4)
    assert body["best"] == [6] and body["best_proven"] and body["pv_proven"] and body["move"] == 6
    board = Board.from_moves("133524")
    for column in body["pv"]:
        assert not board.is_over
        board.play(column - 1)
    assert board.winner is not None and board.winner.symbol == served["to_move"]
    assert len(body["pv"]) == 2 * 17 - 1  # win in 17: the mover's 17th stone


@pytest.mark.parametrize("bound", [{"depth": 1}, {"depth": 2}, {"nodes": 300}, {"nodes": 300, "depth": 1}])
def test_analyze_takes_a_depth_and_nodes(client: httpx.Client, bound: dict[str, int]) -> None:
    """On 9x14 (135 bits) the solver cannot help: every column is the engine's estimate, searched within
    the query's bounds (the time cap too), the same as the worker's answer within the same Limit."""
    served = client.get("/api/analyze", params={"pos": "55", "size": "9x14", "time": 2} | bound).json()
    expected = analyze(Board.from_moves("55", 9, 14), Limit(time=2, **bound))
    assert not served["proven"]
    assert [c["estimate"] for c in served["columns"]] == [c["estimate"] for c in expected["columns"]]


def test_a_deeper_analysis_estimates_differently(client: httpx.Client) -> None:
    """The depth is not ignored: one ply and two plies give different estimates."""
    shallow, deeper = (
        client.get("/api/analyze", params={"pos": "55", "size": "9x14", "time": 2, "depth": depth}).json()
        for depth in (1, 2)
    )
    assert [c["estimate"] for c in shallow["columns"]] != [c["estimate"] for c in deeper["columns"]]


def test_analyze_capped_is_not_exact(client: httpx.Client) -> None:
    """Past the book (8 stones), a cap proves the six columns that lose at once, not the block (its
    proof takes 17 million nodes on one thread): it is still best.  A node cap, not a time cap, so
    a fast machine cannot finish the proof within it."""
    body = client.get("/api/analyze", params={"pos": "57271713", "nodes": 300_000}).json()
    assert not body["proven"] and not body["pv_proven"]
    labels = [column["label"] for column in body["columns"]]
    assert labels.count("loss in 1") == 6 and body["best"] == [7] and body["move"] == 7
    block = body["columns"][6]
    assert block["outcome"] == "unknown" and not block["proven"] and -1 <= block["lean"] <= 1
    assert block["score"] is None and isinstance(block["estimate"], float)
    # proven best only once the block is proven no worse than the losses at once
    others = max(column["upper"] for column in body["columns"] if column["column"] != 7)
    assert body["best_proven"] == (block["lower"] >= others)


def test_a_bound_gives_the_most_moves_to_the_end(client: httpx.Client) -> None:
    """A loss proven without its distance says the most moves its winner makes, as its label does
    ("loss in ≤ 15"); an exact win or loss says its moves; the page writes no formula of its own."""
    body = client.get("/api/analyze", params={"pos": "157564142155", "nodes": 50_000}).json()
    bounds = 0
    for column in body["columns"]:
        label = column["label"]
        if "≤" in label:
            assert (column["moves_at_most"], column["moves"]) == (int(label.split()[-1]), None), label
            bounds += 1
        elif column["proven"] and column["outcome"] != "draw":
            assert (column["moves"], column["moves_at_most"]) == (int(label.split()[-1]), None), label
        else:
            assert column["moves_at_most"] is None, label
    assert bounds > 0


def test_move(client: httpx.Client) -> None:
    body = client.post("/api/move", json={"pos": "121212", "level": 1}).json()
    assert body["column"] == 1 and body["pos"] == "1212121"  # every level takes a win in one
    assert body["position"]["winner"] == "X"
    assert body["proven"] and body["complete"]  # a win on the spot: proven best
    for level in (3, 5):
        body = client.post(
            "/api/move", json={"pos": "4453", "size": "7x6", "connect": 4, "level": level}
        ).json()
        assert body["pos"] == "4453" + str(body["column"]) and body["level"] == level
        assert isinstance(body["proven"], bool) and isinstance(body["complete"], bool)


def test_perfect_level(client: httpx.Client) -> None:
    """``perfect`` asks the analysis service: from the book after 44, the only winning column."""
    body = client.post("/api/move", json={"pos": "44", "level": "perfect"}).json()
    assert body["column"] == 4 and body["proven"] and body["complete"] and body["level"] == "perfect"


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


def test_the_page_offers_perfect_play_on_the_boards_the_solver_holds(client: httpx.Client) -> None:
    """The page's limit is the solver's (``c4engine.geometry.SOLVER_BITS``), and ``perfect`` is
    refused past it, never before: 10x6 and 11x10 are played, 9x14 is not."""
    script = client.get("/static/app.js").text
    assert f"const SOLVER_CELLS = {SOLVER_BITS};" in script
    for size in ("10x6", "11x10"):
        answer = client.post("/api/move", json={"pos": "1", "size": size, "level": "perfect"})
        assert answer.status_code == 200 and answer.json()["level"] == "perfect", answer.text
    refused = client.post("/api/move", json={"pos": "", "size": "9x14", "level": "perfect"})
    assert refused.status_code == 400 and f"<= {SOLVER_BITS}" in refused.text


def test_security_headers(client: httpx.Client) -> None:
    for path in ("/", "/api/position", "/docs", "/api/nowhere"):
        headers = client.get(path).headers
        assert "script-src" not in headers["content-security-policy"]  # default-src 'self' covers it
        assert "default-src 'self'" in headers["content-security-policy"]
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"


def test_docs_are_served_locally(client: httpx.Client) -> None:
    page = client.get("/docs").text
    assert "/docs-assets/swagger-ui-bundle.js" in page and "https://" not in page
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
        assert client.get(f"/docs-assets/{asset}").status_code == 200


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
    ("/api/analyze", {"time": "-1"}, 422, "time"),
    ("/api/analyze", {"time": "1e999"}, 422, "time"),
    ("/api/analyze", {"time": "nan"}, 422, "time"),
    ("/api/analyze", {"time": "2.5"}, 422, "at most 2 seconds"),
    ("/api/analyze", {"pos": "4" * 5000}, 422, "pos"),
    ("/api/analyze", {"nodes": "0"}, 422, "nodes"),
    ("/api/analyze", {"nodes": "1.5"}, 422, "nodes"),
    ("/api/analyze", {"nodes": "many"}, 422, "nodes"),
    ("/api/analyze", {"nodes": str(10**13)}, 422, "nodes"),
    ("/api/analyze", {"depth": "0"}, 422, "depth"),
    ("/api/analyze", {"depth": "-3"}, 422, "depth"),
    ("/api/analyze", {"depth": "43"}, 422, "depth: at most 42, the cells of a 7x6 board"),
    ("/api/analyze", {"depth": "2000"}, 422, "depth"),
    ("/api/nowhere", {}, 404, "Not Found"),
]


@pytest.mark.parametrize(("path", "params", "status", "words"), BAD_GETS)
def test_bad_queries(
    client: httpx.Client, path: str, params: dict[str, Any], status: int, words: str
) -> None:
    assert words in error_of(client.get(path, params=params), status)


BAD_MOVES: list[tuple[Any, int, str]] = [
    ({"pos": "", "level": True}, 422, 'level: true is not allowed: a level number 1..7 or "perfect"'),
    (
        {"pos": "", "level": "Perfect"},
        422,
        'level: "Perfect" is not allowed: a level number 1..7 or "perfect"',
    ),
    ({"pos": "", "level": 2.0}, 422, 'level: 2.0 is not allowed: a level number 1..7 or "perfect"'),
    ({"pos": "", "level": 9}, 422, 'level: 9 is not allowed: a level number 1..7 or "perfect"'),
    ({"pos": "", "connect": "4"}, 422, "connect"),
    ({"pos": "", "time": 2.5}, 422, "at most 2 seconds"),
    ({"pos": "", "time": True}, 422, "time"),
    ({"pos": "1212121"}, 409, "the game is over"),
    ({"pos": "4444444"}, 400, "column 4 is full"),
    ({"pos": "", "level": 9}, 422, "level"),
    ({"pos": "", "size": "9x14", "connect": 5, "level": "perfect"}, 400, "9x14 needs 135"),
    ({"pos": "", "level": "strong"}, 422, "level"),
    ({"pos": "", "size": "3x"}, 400, "WIDTHxHEIGHT"),
    ({"pos": "", "colour": "red"}, 422, "colour"),
    ({"pos": 44}, 422, "pos"),
    ([1, 2], 400, "the body must be a JSON object, not an array"),
]


@pytest.mark.parametrize(("body", "status", "words"), BAD_MOVES)
def test_bad_moves(client: httpx.Client, body: Any, status: int, words: str) -> None:
    said = error_of(client.post("/api/move", json=body), status)
    assert words in said and "constrained-int" not in said and "literal[" not in said, said


def test_the_api_and_the_command_line_both_refuse_a_review_of_no_moves(client: httpx.Client) -> None:
    from tests.conftest import run_c4

    assert "no moves to review" in error_of(client.post("/api/review", json={"moves": ""}), 400)
    command = run_c4("review", "")
    assert command.returncode == 2 and command.stdout == "", command.stdout
    assert "GAME '' has no moves to review" in command.stderr


def test_infinite_time_cap_in_json(client: httpx.Client) -> None:
    body = b'{"pos": "", "time": 1e999}'  # JSON has no infinity, but this number overflows to one
    response = client.post("/api/move", content=body, headers={"content-type": "application/json"})
    assert "time" in error_of(response, 422)


JSON_ROUTES = ("/api/move", "/api/puzzle/try", "/api/retry", "/api/review")
"""Every route taking a JSON body."""


@pytest.mark.parametrize("route", JSON_ROUTES)
@pytest.mark.parametrize(
    ("body", "content_type", "message"),
    [
        (
            b"{not json",
            "application/json",
            "the body is not JSON: Expecting property name enclosed in double quotes (at character 1)",
        ),
        (b"\xff\xfe", "application/json", "the body is not JSON: Expecting value (at character 0)"),
        (
            b"hello",
            "text/plain",
            'the body is not JSON: send a JSON object with "Content-Type: application/json"',
        ),
        (b"", "application/json", "the body is empty: send a JSON object"),
        (b'"4453"', "application/json", "the body must be a JSON object, not a string"),
        (b"[4, 4]", "application/json", "the body must be a JSON object, not an array"),
        (b"12", "application/json", "the body must be a JSON object, not a number"),
    ],
)
def test_a_body_that_is_not_a_json_object_is_refused_saying_so(
    client: httpx.Client, route: str, body: bytes, content_type: str, message: str
) -> None:
    response = client.post(route, content=body, headers={"content-type": content_type})
    assert error_of(response, 400) == message


def test_the_routes_checked_are_every_route_taking_a_body(client: httpx.Client) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    taking = {
        path for path, methods in paths.items() for method in methods.values() if "requestBody" in method
    }
    assert taking == set(JSON_ROUTES)


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
    """Fill the queue with time-capped analyses: extra work is refused, /healthz answers at once.

    Each analysis holds the one worker for a second (9x14: the engine uses all its time), so the
    requests need only arrive within about a second of each other to overflow the queue of 8,
    loaded machine or not; how many are refused depends on how fast they came, at least one is.
    """
    results: list[int] = []

    def analyse() -> None:
        with httpx.Client(base_url=base, timeout=60) as own:
            results.append(
                own.get("/api/analyze", params={"pos": "", "size": "9x14", "time": 1.0}).status_code
            )

    threads = [threading.Thread(target=analyse) for _ in range(CAPS.max_pending + 4)]
    for thread in threads:
        thread.start()
    # health never waits behind engine work: it answers while analyses are queued
    assert wait_until(lambda: client.get("/healthz").json()["pending"] > 1)
    for thread in threads:
        thread.join()
    assert results.count(503) >= 1 and set(results) == {200, 503}, results
    refused = client.get("/api/analyze", params={"pos": "", "time": 0.1})
    assert refused.status_code == 200  # the queue drained


def test_503_has_retry_after(base: str, client: httpx.Client) -> None:
    busy: list[httpx.Response] = []

    def analyse() -> None:
        with httpx.Client(base_url=base, timeout=60) as own:
            # a second each (as above): the ten requests overflow the queue of 8 even when slow to come
            busy.append(own.get("/api/analyze", params={"pos": "", "size": "9x14", "time": 1.0}))

    threads = [threading.Thread(target=analyse) for _ in range(CAPS.max_pending + 2)]
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
    from c4engine.search.solver.exact import Solver

    solver = Solver(table_size_mb=16)
    lines = (PONS / "Test_L2_R1").read_text().split("\n")[:20]
    for line in lines:
        board = Board.from_moves(line.split()[0])
        expected = solver.analyze(board, pv=False).scores
        got = analyze(board, Limit(time=30))
        assert got["proven"]
        assert [c and c["score"] for c in got["columns"]] == list(expected), line
        best = max(s for s in expected if s is not None)
        assert got["best"] == [c + 1 for c, s in enumerate(expected) if s == best]


# ------------------------------------------------------------ fair sharing

FAIR = ServerCaps(
    workers=1, max_pending=16, per_client=2, move_time=0.5, analyze_time=0.5, max_time=30, read_timeout=1
)
LONG = {"pos": "", "size": "9x14", "time": 30}  # too big for the solver: the engine uses all the time


@pytest.fixture(scope="module")
def fair() -> Iterator[str]:
    with server_in_thread(FAIR) as url:
        yield url


def pending(base: str) -> tuple[int, int]:
    body = httpx.get(f"{base}/healthz").json()
    return body["pending"], body["pending_moves"]


def wait_until(condition: Any, seconds: float = 20) -> bool:
    """Poll ``condition`` until true or ``seconds`` pass (a generous bound, not a measurement)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_gone_client_s_analysis_is_cancelled(fair: str) -> None:
    """A 30-second analysis whose client hangs up frees the worker long before its time cap."""
    with pytest.raises(httpx.ReadTimeout):
        httpx.get(f"{fair}/api/analyze", params=LONG, timeout=0.5)
    assert wait_until(lambda: pending(fair) == (0, 0))
    assert httpx.get(f"{fair}/api/analyze", params={"pos": "44"}, timeout=30).json()["proven"]


def test_moves_do_not_wait_behind_analyses_and_a_client_has_a_share(fair: str) -> None:
    statuses: list[int] = []

    def analyse() -> None:
        with httpx.Client(base_url=fair, timeout=60) as own:
            statuses.append(own.get("/api/analyze", params=LONG | {"time": 3}).status_code)

    threads = [threading.Thread(target=analyse) for _ in range(3)]
    for thread in threads:
        thread.start()
    assert wait_until(lambda: pending(fair)[0] == 2)
    # the analysis lane is busy for seconds; a move is answered meanwhile from its own lane
    move = httpx.post(f"{fair}/api/move", json={"pos": "4453", "level": 2}, timeout=30)
    assert move.status_code == 200 and pending(fair)[0] > 0
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 200, 429]  # the third is over this client's share of 2


def test_429_says_why_and_when(fair: str) -> None:
    def analyse() -> None:  # 3 s each: both are pending together however late the second comes
        httpx.get(f"{fair}/api/analyze", params=LONG | {"time": 3}, timeout=30)

    threads = [threading.Thread(target=analyse) for _ in range(2)]
    for thread in threads:
        thread.start()
    assert wait_until(lambda: pending(fair)[0] == 2)
    refused = httpx.get(f"{fair}/api/analyze", params={"pos": "44"}, timeout=30)
    for thread in threads:
        thread.join()
    assert "under way" in error_of(refused, 429) and refused.headers["retry-after"] == "1"


def test_two_pages_at_one_address_have_their_own_shares(fair: str) -> None:
    """Quotas follow the page's X-C4-Client token: page one's share of 2 is full, page two's not."""
    statuses: list[int] = []

    def analyse(token: str) -> None:
        headers = {"X-C4-Client": token}
        reply = httpx.get(f"{fair}/api/analyze", params=LONG | {"time": 1}, headers=headers, timeout=60)
        statuses.append(reply.status_code)

    threads = [threading.Thread(target=analyse, args=("page-one",)) for _ in range(2)]
    for thread in threads:
        thread.start()
    assert wait_until(lambda: pending(fair)[0] == 2)
    third = httpx.get(
        f"{fair}/api/analyze", params={"pos": "44"}, headers={"X-C4-Client": "page-one"}, timeout=60
    )
    other = httpx.get(
        f"{fair}/api/analyze", params={"pos": "44"}, headers={"X-C4-Client": "page-two"}, timeout=60
    )
    for thread in threads:
        thread.join()
    assert "this client already has 2" in error_of(third, 429)
    assert other.status_code == 200 and statuses == [200, 200]


def test_slow_clients_are_cut_off(fair: str) -> None:
    """A body trickled too slowly gets a 408; a head never finished gets the connection closed."""
    host, port = fair.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as slow_body:
        slow_body.sendall(
            b"POST /api/move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"pos": '
        )
        slow_body.settimeout(20)
        answer = b""
        while chunk := slow_body.recv(4096):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 408") and b"not sent within 1 seconds" in answer
    with socket.create_connection((host, int(port))) as slow_head:
        slow_head.sendall(b"GET /healthz HTTP/1.1\r\nHost:")
        slow_head.settimeout(20)
        assert slow_head.recv(4096) == b""  # closed without an answer


QUICK_MOVE = ("4453", 7, 6, 4, 1, Limit(time=0.5))  # engine_move's arguments: level 1, a few milliseconds


async def _finishing_order(lane: Lane, clients: list[Client]) -> list[Client]:
    """Queue a quick move for each client in turn on ``lane`` (started here, stopped after): the
    clients in the order their jobs finish."""
    await asyncio.get_running_loop().run_in_executor(None, lane.start)
    try:
        order: list[Client] = []
        waiting = [(client, lane.submit(client, engine_move, *QUICK_MOVE)) for client in clients]
        for client, job in waiting:
            job.future.add_done_callback(lambda _done, client=client: order.append(client))
        await asyncio.gather(*(job.future for _, job in waiting))
        return order
    finally:
        lane.stop()


def test_the_least_served_client_goes_first() -> None:
    """One worker, client a queues three moves, then b one: b's runs second, not last."""
    lane = Lane("move", workers=1, max_pending=8, per_client=4, per_address=8)
    order = asyncio.run(_finishing_order(lane, [Client(name) for name in ("a", "a", "a", "b")]))
    assert [client.address for client in order] == ["a", "b", "a", "a"]


def test_a_client_spread_over_many_addresses_does_not_hold_up_a_newcomer() -> None:
    """Ten addresses of one network (two page tokens each) queue twenty jobs; a newcomer from
    another network runs right after the job already running, not after theirs: they take one
    network's turn, not twenty clients' turns."""
    crowd = [Client(f"10.0.0.{n}", token) for n in range(1, 11) for token in ("page-one", "page-two")]
    newcomer = Client("10.0.1.1", "newcomer")
    lane = Lane("analysis", workers=1, max_pending=64, per_client=4, per_address=8)
    order = asyncio.run(_finishing_order(lane, [*crowd, newcomer]))
    assert order.index(newcomer) == 1


def test_tokens_have_their_own_quota_and_an_address_a_bounded_one() -> None:
    """Two pages behind one address each have ``per_client``; tokens made up at one address
    together get ``per_address``; each refusal says whose requests are under way."""

    async def run() -> list[str]:
        lane = Lane("analysis", workers=1, max_pending=64, per_client=2, per_address=3)
        await asyncio.get_running_loop().run_in_executor(None, lane.start)
        refusals: list[str] = []
        jobs = []
        try:
            for client in [Client("a", "page-one")] * 3 + [Client("a", "page-two")] * 2 + [Client("b")]:
                try:
                    jobs.append(lane.submit(client, engine_move, *QUICK_MOVE))
                except ClientBusyError as refused:
                    refusals.append(f"{client.token}: {refused}")
            await asyncio.gather(*(job.future for job in jobs))
            assert len(jobs) == 4  # two for page one, one for page two (the address's third), b's
            return refusals
        finally:
            lane.stop()

    refusals = asyncio.run(run())
    assert refusals == [
        "page-one: this client already has 2 analysis requests under way; wait for them",
        "page-two: 3 analysis requests from your network address (all its clients together) are under way;"
        " try again shortly",
    ]


def test_a_full_lane_makes_room_for_a_client_who_has_had_less() -> None:
    """When the lane is full, a newcomer takes the place of the busiest client's last queued job
    (refused as busy); a client who has had more is refused instead."""

    async def run() -> tuple[str, bool, str]:
        lane = Lane("analysis", workers=1, max_pending=3, per_client=4, per_address=8)
        await asyncio.get_running_loop().run_in_executor(None, lane.start)
        busy, light = Client("busy"), Client("light")
        try:
            jobs = [lane.submit(busy, engine_move, *QUICK_MOVE) for _ in range(3)]
            await jobs[0].future  # busy has had engine time, and has work under way
            jobs.append(lane.submit(busy, engine_move, *QUICK_MOVE))  # the lane is full
            newcomer = lane.submit(light, engine_move, *QUICK_MOVE)
            with pytest.raises(PoolBusyError) as full:
                lane.submit(busy, engine_move, *QUICK_MOVE)
            with pytest.raises(PoolBusyError) as shed:
                await jobs[-1].future
            await asyncio.gather(newcomer.future, *(job.future for job in jobs[:3]))
            return str(shed.value), newcomer.future.done(), str(full.value)
        finally:
            lane.stop()

    shed, served, full = asyncio.run(run())
    assert "busy" in shed and served and "busy" in full


def test_a_dead_worker_is_replaced() -> None:
    """A worker killed mid-search fails its request with 'retry', and the lane carries on."""

    async def run() -> tuple[str, dict[str, Any]]:
        lane = Lane("analysis", workers=1, max_pending=8, per_client=4, per_address=8)
        await asyncio.get_running_loop().run_in_executor(None, lane.start)
        try:
            job = lane.submit(Client("a"), analyze_position, "", 9, 7, 4, Limit(time=10.0))
            deadline = time.monotonic() + 30  # generous: it is handed to the idle worker at once
            while job.worker is None and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            assert job.worker is not None
            os.kill(job.worker.process.pid, signal.SIGKILL)
            with pytest.raises(PoolBusyError) as failed:
                await job.future
            after = await lane.submit(Client("a"), analyze_position, "44", 7, 6, 4, Limit(time=1.0)).future
            return str(failed.value), after
        finally:
            lane.stop()

    message, after = asyncio.run(run())
    assert "restarted" in message and after["proven"]


def test_the_workers_answer_book_positions_from_the_book(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scores and the perfect move of a position the book knows need no search (its lines go on
    past the book with null-window searches)."""
    from c4engine.search.solver.exact import Solver
    from c4engine.web import worker

    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver was asked")

    for name in ("solve", "analyze"):
        monkeypatch.setattr(Solver, name, fail)
    empty = worker.analyze_position("", 7, 6, 4, Limit(time=1.0))
    assert empty["proven"] and empty["best"] == [4] and empty["source"] == "book"
    assert [c["label"] for c in empty["columns"]] == [
        "loss in 20", "loss in 21", "draw", "win in 21", "draw", "loss in 21", "loss in 20"
    ]  # fmt: skip
    move = worker.engine_move("44", 7, 6, 4, "perfect", Limit(time=1.0))
    assert move["column"] == 4 and move["proven"] and move["complete"]


def test_a_move_is_exact_only_when_proven_and_complete_only_within_the_cap() -> None:
    """``proven`` says the move is proven best; ``complete`` that the search ended within the cap."""
    # a board the solver cannot hold, a level searching deeper than 0.05 s allows: stopped, unproven
    capped = engine_move("5564", 9, 7, 5, 6, Limit(time=0.05), seed=0)
    assert not capped["complete"] and not capped["proven"]
    # a win on the spot: proven, whatever the level
    won = engine_move("11223344", 9, 7, 5, 6, Limit(time=3.0), seed=0)  # X's four in the bottom row
    assert won["column"] == 5 and won["proven"] and won["complete"]


SERVER_WITH_A_WORKER = """
import time
from c4engine.web.pool import _Worker

def nap(seconds, stop):
    time.sleep(seconds)

if __name__ == "__main__":
    worker = _Worker()
    worker.connection.send((1, nap, (1000,)))  # busy: it cannot notice a closed pipe
    print(worker.process.pid, flush=True)
    time.sleep(1000)
"""


def test_a_worker_ends_when_the_server_is_killed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    import psutil

    (tmp_path / "server.py").write_text(SERVER_WITH_A_WORKER)
    server = subprocess.Popen(
        [sys.executable, str(tmp_path / "server.py")], stdout=subprocess.PIPE, text=True
    )
    assert server.stdout is not None
    worker = psutil.Process(int(server.stdout.readline()))  # up and warmed
    server.kill()
    server.wait()
    worker.wait(timeout=30)  # about 0.5 s (the parent watcher's period)


def test_serve_on_every_interface_tells_an_address_a_browser_can_open() -> None:
    told: list[str] = []
    with c4_serve("--host", "0.0.0.0", "--workers", "1", told=told) as url:
        assert url.startswith("http://127.0.0.1:")
        assert httpx.get(f"{url}/healthz", timeout=30).status_code == 200  # it is reachable there
    assert not any("0.0.0.0:" in line for line in told), told
    note = next(line for line in told if "every interface" in line)
    assert (
        note.startswith("c4 serve: listening on every interface (0.0.0.0)") and url.rsplit(":", 1)[1] in note
    )
