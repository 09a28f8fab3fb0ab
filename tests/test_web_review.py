"""The game review on the web: ``POST /api/review`` on a real server, and the page's Review view.

The API: the analysis service's review (:func:`~c4engine.search.review.game.review_game`) as JSON,
bad input answered with 4xx JSON, a review too long for the server's cap
coming back whole with shorter plies, and a review whose client hangs up
cancelled.  The page (Debian's Chromium, driven by Playwright): the
evaluation graph, the move list with its marks, stepping by click, keys and
the browser's Back/Forward, a link opening on a move, a mistake's better
line drawn on the board, the Review button of a finished game; a phone's
screenshot goes to ``test-artifacts/``.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.conftest import REPO
from tests.web_server import c4_serve, error_of, server_in_thread

from c4engine.board import Board
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import Limit
from c4engine.search.review.game import review_game
from c4engine.search.review.verdicts import VERDICTS
from c4engine.web.app import ServerCaps

# Level 2 against level 5 (38 plies, 0-1): twelve mistakes, the result changing back and forth.
GAME = "55555444444513336133113116266622622277"
BLUNDERS = "44556"  # plies 3 and 4 throw a win away to a loss
FINISHED = "4455667"  # the same, played out: X wins
CAPS = ServerCaps(workers=1, max_pending=8, per_client=100, max_time=2, review_time=45)
# Too big for the solver (9 x 15 = 135 bits, more than 128): nothing is proven but by the rules.
BIG = {"moves": "5" * 6 + "4" * 6 + "6" * 6, "size": "9x14", "connect": 5}


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with server_in_thread(CAPS) as url:
        yield url


@pytest.fixture(scope="module")
def client(base: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base, timeout=120) as session:
        yield session


# ---------------------------------------------------------------- the API


def exact_review(base: str, moves: str, rounds: int = 6) -> dict[str, Any]:
    """The server's review of ``moves``, asked again until every ply is proven.

    On a loaded machine a cold worker may not prove a few middle-game plies
    in their second; its solver keeps what it learnt, so a later round does.
    """
    for _ in range(rounds):
        answer = httpx.post(f"{base}/api/review", json={"moves": moves, "time_per_ply": 2}, timeout=180)
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        for ply in body["plies"]:  # unproven or not, nothing unproven is marked
            assert ply["verdict"] != "not proven" or (ply["mark"] == "" and ply["pv"] == [])
        if body["proven"]:
            return body
    raise AssertionError(f"{moves} was not proven in {rounds} rounds")


def test_review_is_the_analysis_service_s(base: str) -> None:
    got = exact_review(base, GAME)
    expected = review_game(Analyst(), GAME, Limit(time=60)).to_json()
    assert got["complete"] and expected["proven"]
    assert (got["moves"], got["size"], got["connect"], got["result"]) == (GAME, "7x6", 4, "0-1")
    assert got["summary"] == expected["summary"]
    assert [ply["ply"] for ply in got["plies"]] == list(range(1, len(GAME) + 1))
    assert [set(ply) for ply in got["plies"]] == [set(ply) for ply in expected["plies"]]  # every field
    # What depends on the time a ply had: the best columns compared in it, and the line (one among
    # equally good ones, as the table's contents have it).
    # the coach's reasons end with the solver's refutation, one line among equally good ones too
    timed = {"best", "best_proven", "best_complete", "pv", "pv_complete", "why"}
    for mine, theirs in zip(got["plies"], expected["plies"], strict=True):
        assert {k: v for k, v in mine.items() if k not in timed} == {
            k: v for k, v in theirs.items() if k not in timed
        }
        if mine["best_proven"]:
            assert set(mine["best"]) <= set(theirs["best"])  # never a column that is not best
        if mine["best_proven"] and mine["best_complete"] and theirs["best_complete"]:
            assert mine["best"] == theirs["best"]
    assert {ply["verdict"] for ply in got["plies"]} == {"best", "mistake"}
    theirs_why = {ply["ply"]: ply["why"] for ply in expected["plies"]}
    lines = 0
    for ply in got["plies"]:
        assert ply["player"] == 2 - ply["ply"] % 2 and ply["column"] == int(GAME[ply["ply"] - 1])
        if ply["verdict"] == "best":
            assert ply["pv"] == [] and ply["mark"] == "" and ply["why"] is None
            continue
        assert ply["mark"] == "?" and ply["column"] not in ply["best"]
        # every mistake has its reasons -- on the server too, unless the review's total time ran out
        # before they were all asked (the coach's proof search is bounded by no limit: docs/review.md)
        assert theirs_why[ply["ply"]] and (ply["why"] or got["time"] >= CAPS.review_time)
        if not ply["pv"]:  # no column proven best in the ply's time: no line
            assert not ply["best_proven"]
            continue
        # The better line starts with a best column and is legal from the position before the move.
        lines += 1
        assert ply["pv"][0] in ply["best"]
        board = Board.from_moves(GAME[: ply["ply"] - 1])
        for column in ply["pv"]:
            board.play(column - 1)
        assert board.is_over == ply["pv_complete"]
    assert lines > 0
    assert got["ply_time"] == 2  # a board the solver holds: every ply gets the time asked for


def test_review_marks_blunders(client: httpx.Client) -> None:
    got = client.post("/api/review", json={"moves": BLUNDERS, "size": "7x6", "connect": 4}).json()
    assert got["proven"]  # the book knows these positions
    assert [ply["verdict"] for ply in got["plies"]] == ["best", "best", "blunder", "blunder", "best"]
    assert [ply["mark"] for ply in got["plies"]] == ["", "", "??", "??", ""]
    assert got["summary"]["turning_points"] == [3, 4] and got["result"] == "*"  # not over yet
    assert got["plies"][3]["words_before"] == "win in 19" and got["plies"][3]["words_after"] == "loss in 2"
    # the result first; too few proven moves for an accuracy; nothing left open, no advice
    assert (got["result_words"], got["result_reason"], got["opening_plies"]) == (
        "unfinished, O to move",
        None,
        0,
    )
    first = got["summary"]["first"]
    assert (first["accuracy"], first["proven"], first["not_chosen"], got["advice"]) == (None, 3, 0, None)
    assert all(ply["chosen"] for ply in got["plies"])
    # the coach's reasons for the two blunders, and for nothing else
    assert [bool(ply["why"]) for ply in got["plies"]] == [False, False, True, True, False]
    assert got["plies"][3]["why"].startswith("X answers in column 3 with a double threat")


def test_a_long_review_comes_back_whole_within_the_cap() -> None:
    """Each ply gets the cap's share: every ply is there, the unproven ones marked 'not proven'."""
    with server_in_thread(ServerCaps(workers=1, max_time=2, review_time=10)) as url:
        got = httpx.post(f"{url}/api/review", json=BIG | {"time_per_ply": 2}, timeout=120).json()
    plies = len(BIG["moves"])
    assert got["complete"] and got["ply_time"] == pytest.approx(10 / 2 / plies, abs=1e-3)
    assert [ply["ply"] for ply in got["plies"]] == list(range(1, plies + 1))
    assert not got["proven"]
    for ply in got["plies"]:
        if not ply["proven"]:
            assert ply["score_after"] is None or ply["score_before"] is None
            assert ply["lower"] < ply["upper"] or ply["before_lower"] < ply["before_upper"]
        if ply["verdict"] == "not proven":
            assert ply["mark"] == "" and ply["pv"] == []
    assert any(ply["verdict"] == "not proven" for ply in got["plies"])


def test_a_review_past_the_cap_stops_with_the_last_plies() -> None:
    with server_in_thread(ServerCaps(workers=1, review_time=0.001)) as url:
        got = httpx.post(f"{url}/api/review", json={"moves": GAME}, timeout=120).json()
    assert not got["complete"] and not got["proven"]
    reviewed = [ply["ply"] for ply in got["plies"]]
    assert reviewed == list(range(len(GAME) - len(reviewed) + 1, len(GAME) + 1))  # the end: reviewed first
    assert 0 < len(reviewed) < len(GAME)
    assert got["summary"]["first"]["moves"] + got["summary"]["second"]["moves"] == len(reviewed)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"moves": ""}, 400, "no moves to review"),
        ({"moves": "4444444"}, 400, "column 4 is full"),
        ({"moves": "44x"}, 400, "not a column number"),
        ({"moves": "11223344"}, 400, "the game is over"),  # a move after X's four in a row
        ({"moves": "44", "size": "7by6"}, 400, "board size"),
        ({"moves": "44", "connect": 9}, 400, "connect 9 cannot fit"),
        ({"moves": "44", "connect": True}, 422, "connect"),
        ({"moves": "44", "time_per_ply": 3}, 422, "at most 2 seconds"),
        ({"moves": "44", "time_per_ply": 0}, 422, "time_per_ply"),
        ({"moves": "44", "pos": "44"}, 422, "pos"),
        ({"size": "7x6"}, 422, "moves"),
        ({"moves": 44}, 422, "moves"),
        ({"moves": "4" * 5000}, 422, "moves"),
    ],
)
def test_bad_reviews(client: httpx.Client, body: Any, status: int, words: str) -> None:
    assert words in error_of(client.post("/api/review", json=body), status)


def test_review_is_in_the_openapi_document(client: httpx.Client) -> None:
    document = client.get("/openapi.json").json()
    operation = document["paths"]["/api/review"]["post"]
    assert set(operation["responses"]) >= {"200", "400", "422", "429", "503"}
    ply = document["components"]["schemas"]["PlyOut"]["properties"]
    assert {"ply", "player", "column", "score_before", "score_after", "proven", "lower", "upper"} <= set(ply)
    assert set(ply["verdict"]["enum"]) == set(VERDICTS)  # every verdict the review gives
    assert "why" in ply and "mistake or a blunder" in ply["why"]["description"]


def test_a_gone_client_s_review_is_cancelled() -> None:
    """A review of a minute whose client hangs up frees the worker long before it would end."""
    caps = ServerCaps(workers=1, max_time=3, review_time=120)
    with server_in_thread(caps) as url:
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(f"{url}/api/review", json=BIG | {"time_per_ply": 3}, timeout=1)
        deadline = time.monotonic() + 30  # the review itself would take 18 plies x 3 s
        while httpx.get(f"{url}/healthz").json()["pending"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert httpx.get(f"{url}/healthz").json()["pending"] == 0
        after = httpx.post(f"{url}/api/review", json={"moves": BLUNDERS}, timeout=60)
        assert after.status_code == 200 and after.json()["proven"]


# --------------------------------------------------------------- the page

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (test extra)")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get chromium)")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
ARTIFACTS = REPO / "test-artifacts"


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    with c4_serve("--workers", "1") as url:
        yield url


@pytest.fixture(scope="module")
def review_json(served: str) -> dict[str, Any]:
    """The server's exact review of GAME, for the page's checks; the page then asks for its own,
    which the worker's warm solver proves as well."""
    return exact_review(served, GAME)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 900, "height": 1100})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    context.close()
    assert not errors, errors


def open_review(page: Any, served: str, query: str) -> None:
    page.goto(f"{served}/?{query}")
    page.wait_for_selector("#review[data-state='ready']", timeout=120_000)


def shown_ply(page: Any) -> int:
    return int(page.get_attribute("#review", "data-ply"))


def wait_ply(page: Any, ply: int) -> None:
    page.wait_for_function(f"() => document.getElementById('review').dataset.ply === '{ply}'", timeout=30_000)


def stones(page: Any) -> int:
    count: int = page.locator("#board .piece").count()
    return count


@needs_chromium
def test_the_graph_and_the_marks(page: Any, served: str, review_json: dict[str, Any]) -> None:
    open_review(page, served, f"pos={GAME}&review=1")
    assert shown_ply(page) == len(GAME) and stones(page) == len(GAME)  # opens on the last move
    assert "ply=38" in page.url and "review=1" in page.url
    marked = [ply["ply"] for ply in review_json["plies"] if ply["mark"]]
    dots = page.eval_on_selector_all("#review-graph circle.mark", "dots => dots.map(d => +d.dataset.ply)")
    assert dots == marked
    assert page.locator("#review-graph path.curve").get_attribute("d").count("L") == len(GAME)
    labels = page.eval_on_selector_all("#review-moves .review-move", "items => items.map(i => i.textContent)")
    assert len(labels) == len(GAME)
    assert [n + 1 for n, label in enumerate(labels) if label.endswith("?")] == marked
    summary = page.inner_text("#review-summary")
    assert "63 %" in summary and "74 %" in summary and "move 27" in summary
    assert summary.startswith("Result: yellow ◯ won")
    # The game's own controls are put away while reviewing; a click on the board plays nothing.
    assert page.locator("#new-game").is_hidden()
    page.click("#board .column[data-column='1']")
    assert stones(page) == len(GAME) and "pos=" + GAME + "&" in page.url


@needs_chromium
def test_stepping_with_keys_clicks_and_history(page: Any, served: str, review_json: dict[str, Any]) -> None:
    open_review(page, served, f"pos={GAME}&review=1&ply=8")
    assert shown_ply(page) == 8 and stones(page) == 8  # a shared link opens on its move
    assert "best move" in page.inner_text("#review-text")
    page.keyboard.press("ArrowRight")
    wait_ply(page, 9)
    assert "ply=9" in page.url and stones(page) == 9
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    wait_ply(page, 7)
    page.click("#review-moves .review-move[data-ply='20']")
    wait_ply(page, 20)
    assert stones(page) == 20
    page.go_back()
    wait_ply(page, 7)
    assert "ply=7" in page.url and stones(page) == 7
    page.go_back()
    wait_ply(page, 8)
    page.go_forward()
    wait_ply(page, 7)
    page.keyboard.press("Home")
    wait_ply(page, 0)
    assert stones(page) == 0 and "red ✕ to move: win in 21" in page.inner_text("#review-text")
    page.click("#review-graph rect.target[data-ply='17']")  # the graph is a way to go to a move, too
    wait_ply(page, 17)
    page.keyboard.press("End")
    wait_ply(page, len(GAME))
    assert page.locator("#board .piece.win").count() >= 4  # the final position, its four in a row


@needs_chromium
def test_a_mistake_s_better_line_is_drawn(page: Any, served: str, review_json: dict[str, Any]) -> None:
    open_review(page, served, f"pos={GAME}&review=1&ply=5")
    mistake = review_json["plies"][12]  # move 13: red plays 1 where 2 kept the draw
    assert mistake["verdict"] == "mistake"
    page.click("#review-moves .review-move[data-ply='13']")
    wait_ply(page, 13)
    # The position before the move, the played column outlined, the better line's first stones numbered.
    assert stones(page) == 12
    assert page.get_attribute("#board .column.played", "data-column") == "1"
    ghosts = page.eval_on_selector_all(
        "#board .ghost",
        "gs => gs.map(g => [+g.textContent, +g.closest('.column').dataset.column])",
    )
    line = (mistake["pv"] or mistake["best"][:1])[:10]  # no proven line in time: the best move alone
    assert sorted(ghosts) == [[n + 1, column] for n, column in enumerate(line)]
    text = page.inner_text("#review-text")
    assert "Move 13" in text and "mistake" in text and "draw → loss" in text and "Better: column 2" in text
    # the coach's reasons, as the page's own review gives them (its line may be another equally good one)
    given = page.evaluate("() => review.plies[12].why")  # the page's own review's (None: out of time)
    assert page.is_visible("#review-why") == bool(given)
    assert page.inner_text("#review-why") == (f"Why: {given}" if given else "")
    reasoned = page.evaluate("() => review.plies.filter(p => p && p.why).map(p => p.ply)")
    listed = page.eval_on_selector_all(
        "#review-summary .review-whys li", "items => items.map(i => +i.dataset.ply)"
    )
    assert listed == reasoned
    # A move that kept the score draws no line.
    page.keyboard.press("ArrowRight")
    wait_ply(page, 14)
    page.keyboard.press("ArrowRight")
    wait_ply(page, 15)
    page.keyboard.press("ArrowRight")
    wait_ply(page, 16)
    page.keyboard.press("ArrowRight")
    wait_ply(page, 17)
    assert page.locator("#board .ghost").count() == 0 and page.locator("#board .column.played").count() == 0
    assert page.is_hidden("#review-why")  # nor any reasons


@needs_chromium
def test_review_button_of_a_finished_game_and_back_to_it(page: Any, served: str) -> None:
    page.goto(f"{served}/?pos={FINISHED}")
    page.wait_for_function("() => document.getElementById('status').dataset.state === 'over'", timeout=30_000)
    page.click("#review-open")
    page.wait_for_selector("#review[data-state='ready']", timeout=120_000)
    wait_ply(page, 7)
    assert page.locator("#review-moves .review-move.blunder").count() == 2
    assert page.locator("#review-graph circle.mark.blunder").count() == 2
    page.go_back()  # the review was a step in the history: Back returns to the game
    page.wait_for_selector("#review", state="hidden")
    assert "review" not in page.url and page.locator("#new-game").is_visible() and stones(page) == 7
    page.go_forward()
    wait_ply(page, 7)
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")


@needs_chromium
def test_nothing_unproven_is_marked_on_a_board_too_big_for_the_solver(page: Any, served: str) -> None:
    size = f"size={BIG['size']}&connect={BIG['connect']}"
    open_review(page, served, f"pos={BIG['moves']}&{size}&review=1&ply=9")
    plies = len(BIG["moves"])
    classes = page.eval_on_selector_all("#review-moves .review-move", "items => items.map(i => i.className)")
    labels = page.eval_on_selector_all("#review-moves .review-move", "items => items.map(i => i.textContent)")
    assert len(labels) == plies
    for name, label in zip(classes, labels, strict=True):
        if "not-proven" in name:
            assert not label.endswith("?") and not label.endswith("?!")
    assert sum("not-proven" in name for name in classes) > plies // 2
    marks = page.locator("#review-graph circle.mark").count()
    assert marks == sum(label.endswith("?") or label.endswith("?!") for label in labels)
    assert page.locator("#review-graph rect.unproven").count() > 0
    if "not-proven" in classes[8]:
        text = page.inner_text("#review-text")
        assert "not proven" in text and "no mark" in text
        assert page.locator("#board .ghost").count() == 0


@needs_chromium
def test_review_on_a_phone(browser: Any, served: str, review_json: dict[str, Any]) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        open_review(page, served, f"pos={GAME}&review=1&ply=13")
        assert page.locator("#board .ghost").count() == 10
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        graph = page.locator("#review-graph svg").bounding_box()
        assert graph is not None and graph["width"] > 300
        page.tap("#review-next")
        wait_ply(page, 14)
        page.tap("#review-prev")
        wait_ply(page, 13)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "review-phone.png"), full_page=True)
        assert (ARTIFACTS / "review-phone.png").stat().st_size > 20_000
    finally:
        context.close()
