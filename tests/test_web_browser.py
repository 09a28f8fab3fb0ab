"""The page in a real headless Chromium (Debian's package, driven by Playwright), against ``c4 serve``.

A whole game clicked to its end, undo, hint, the analysis of known
positions (from the book, and one the solver proves in a few rounds) with
the hint agreeing, a full column refused, a reload restoring the position
from the URL, bad settings in the address, Retry after the engine failed,
keys (after Copy, queued, two-digit columns), the live region, a phone with
a touch screen, and ``/docs`` with the network cut.  Screenshots go to
``test-artifacts/``.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.conftest import REPO
from tests.positions import fewest_stones, scored_positions
from tests.web_server import c4_serve, server_in_thread

from c4engine.board import Board
from c4engine.search.results import Score, bound_moves
from c4engine.web.app import ServerCaps

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (test extra)")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:  # scripts/test.sh installs it; only a machine without apt lands here
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = REPO / "test-artifacts"
LOSSES = "425645445333223554433225266"  # O to move; its analysis is exact (see test_web_api)


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with c4_serve("--workers", "1") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def context(browser: Any) -> Iterator[Any]:
    browser_context = browser.new_context(viewport={"width": 900, "height": 1000})
    # Every wait is for an event on the page (a move shown, an analysis drawn); the bound on it is
    # generous, not a measurement: a loaded machine slows the server and the browser alike.
    browser_context.set_default_timeout(90_000)
    yield browser_context
    browser_context.close()


@pytest.fixture
def page(context: Any) -> Iterator[Any]:
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    tab.close()
    assert not errors, errors


def open_page(page: Any, base: str, query: str = "") -> None:
    page.goto(f"{base}/{query}")
    settle(page)


def settle(page: Any) -> None:
    """Wait until the page shows a position and the computer is not thinking."""
    page.wait_for_function(
        "() => { const s = document.getElementById('status'); "
        "return s.dataset.state === 'playing' || s.dataset.state === 'over'; }",
        timeout=30_000,
    )


def moves(page: Any) -> str:
    value: str = page.input_value("#moves")
    return value


def stones(page: Any) -> int:
    count: int = page.locator("#board .piece").count()
    return count


def test_play_a_whole_game_by_clicking(page: Any, base: str) -> None:
    open_page(page, base, "?level=1")
    preference = [4, 3, 5, 2, 6, 1, 7]
    for _ in range(30):
        if page.get_attribute("#status", "data-state") == "over":
            break
        before = len(moves(page))
        full = page.evaluate(
            "() => [...document.querySelectorAll('#board .column')]"
            ".filter(c => c.getAttribute('aria-label').includes('full')).map(c => +c.dataset.column)"
        )
        column = next(c for c in preference if c not in full)
        page.click(f"#board .column[data-column='{column}']")
        page.wait_for_function(f"() => document.getElementById('moves').value.length > {before}")
        settle(page)
    assert page.get_attribute("#status", "data-state") == "over"
    text = page.inner_text("#status-text")
    assert text.startswith("Game over")
    if "draw" not in text:
        assert page.locator("#board .piece.win").count() >= 4
    assert "pos=" + moves(page) in page.url
    ARTIFACTS.mkdir(exist_ok=True)
    page.wait_for_timeout(600)  # let the last stone land
    page.screenshot(path=str(ARTIFACTS / "finished-game.png"), full_page=True)
    assert (ARTIFACTS / "finished-game.png").stat().st_size > 10_000
    # A finished game takes no more moves.
    page.keyboard.press("4")
    assert "game is over" in page.inner_text("#message")


def test_undo_takes_back_your_move_and_the_reply(page: Any, base: str) -> None:
    open_page(page, base, "?pos=44")
    page.keyboard.press("3")
    page.wait_for_function("() => document.getElementById('moves').value.length === 4")
    settle(page)
    assert stones(page) == 4
    page.click("#undo")
    page.wait_for_function("() => document.getElementById('moves').value === '44'")
    assert stones(page) == 2 and "pos=44" in page.url
    page.click("#undo")
    page.wait_for_function("() => document.getElementById('moves').value === ''")
    assert stones(page) == 0
    assert page.is_disabled("#undo")


def test_hint_points_at_the_winning_column(page: Any, base: str) -> None:
    open_page(page, base, "?pos=121212")
    page.click("#hint")
    page.wait_for_function("() => document.getElementById('message').textContent.startsWith('Hint')")
    assert page.inner_text("#message") == "Hint: column 1."
    assert page.get_attribute("#board .column[data-column='1']", "class") == "column hint"
    assert moves(page) == "121212"  # a hint plays nothing


def chips(page: Any) -> list[str]:
    texts: list[str] = page.locator("#analysis .chip").all_text_contents()
    return texts


def best_chips(page: Any) -> list[int]:
    best: list[int] = page.evaluate(
        "() => [...document.querySelectorAll('#analysis .chip.best')].map(c => +c.dataset.column)"
    )
    return best


def ask_hint(page: Any) -> str:
    page.keyboard.press("h")
    page.wait_for_function("() => document.getElementById('message').textContent.startsWith('Hint')")
    hinted = page.evaluate(
        "() => [...document.querySelectorAll('#board .column.hint')].map(c => +c.dataset.column)"
    )
    message: str = page.inner_text("#message")
    assert hinted == [int(message.split()[2].rstrip("."))]
    return message


def test_analysis_shows_the_scores_of_a_known_position(page: Any, base: str) -> None:
    open_page(page, base, f"?pos={LOSSES}&play=second")
    page.click("label.switch")
    page.wait_for_function("() => document.querySelectorAll('#analysis .chip.loss').length === 3")
    assert chips(page) == ["loss in 1", "", "", "", "", "loss in 3", "loss in 3"]
    assert best_chips(page) == [6, 7]


def test_opening_analysis_from_the_book_and_the_hint_agree(page: Any, base: str) -> None:
    """After 44 the book proves column 4 the only win: it is the best chip and the hint."""
    open_page(page, base, "?pos=44")
    page.keyboard.press("a")
    page.wait_for_function("() => document.querySelectorAll('#analysis .chip.win').length === 1")
    assert chips(page) == [
        "loss in 18", "loss in 18", "loss in 19", "win in 20", "loss in 19", "loss in 18", "loss in 18"
    ]  # fmt: skip
    assert "(proven)" in page.inner_text("#analysis-note") and best_chips(page) == [4]
    assert ask_hint(page) == "Hint: column 4."
    # the best line, drawn on the board as numbered stones
    page.click("#show-line")
    assert page.locator("#board .ghost").count() >= 3
    assert page.inner_text("#board .column[data-column='4'] .ghost >> nth=-1") == "1"  # the lowest


def test_analysis_past_the_book_ends_proven(page: Any, base: str) -> None:
    """443554: every column loses; 1, 2 and 4 last longest.  Estimates never outrank a proof
    while the solver works through the rounds, and the hint follows the analysis."""
    open_page(page, base, "?pos=443554&play=both")
    page.keyboard.press("a")
    page.wait_for_function(
        "() => document.querySelectorAll('#analysis .chip.loss').length === 7", timeout=180_000
    )
    assert chips(page) == [
        "loss in 17", "loss in 17", "loss in 14", "loss in 17", "loss in 15", "loss in 14", "loss in 15"
    ]  # fmt: skip
    assert best_chips(page) == [1, 2, 4]
    assert ask_hint(page) == "Hint: column 4. Columns 1, 2 are as good."


def test_perfect_play_and_the_empty_board(page: Any, base: str) -> None:
    page.goto(f"{base}/")
    settle(page)
    page.keyboard.press("n")
    page.select_option("select[name=level]", "perfect")
    page.select_option("select[name=play]", "second")
    page.click("#start")
    page.wait_for_function("() => document.getElementById('moves').value === '4'")  # the book's move
    settle(page)
    assert "perfect play" in page.inner_text("#subtitle") and "level=perfect" in page.url
    open_page(page, base, "?play=both")
    page.keyboard.press("a")
    page.wait_for_function("() => document.querySelectorAll('#analysis .chip.win').length === 1")
    assert chips(page) == [
        "loss in 20",
        "loss in 21",
        "draw",
        "win in 21",
        "draw",
        "loss in 21",
        "loss in 20",
    ]


def test_new_game_clears_the_analysis(page: Any, base: str) -> None:
    open_page(page, base, "?pos=44")
    page.keyboard.press("a")
    page.wait_for_function("() => document.querySelectorAll('#analysis .chip.win').length === 1")
    page.route("**/api/analyze*", lambda route: None)  # hold the new board's analysis: see what is left
    page.keyboard.press("n")
    page.select_option("select[name=size]", "10x8")
    page.click("#start")
    page.wait_for_function("() => document.querySelectorAll('#analysis .chip').length === 10")
    settle(page)
    assert chips(page) == ["…"] * 10 and "proven" not in page.inner_text(".board-wrap")
    page.unroute("**/api/analyze*")


def test_retry_after_the_engine_failed(page: Any, base: str) -> None:
    def busy(route: Any) -> None:
        route.fulfill(
            status=503,
            headers={"Retry-After": "0"},
            content_type="application/json",
            body='{"error": "the engine is busy (64 move requests queued); try again"}',
        )

    page.route("**/api/move", busy)
    page.goto(f"{base}/?play=second")
    page.wait_for_function("() => document.getElementById('status').dataset.state === 'stuck'")
    assert page.inner_text("#status-text") == "Computer's turn (red ✕) — it could not move"
    assert "engine is busy" in page.inner_text("#message") and page.is_visible("#retry")
    page.keyboard.press("4")
    assert "computer's turn" in page.inner_text("#message")
    page.unroute("**/api/move")
    page.click("#retry")
    page.wait_for_function("() => document.getElementById('moves').value.length === 1")
    settle(page)
    assert page.inner_text("#status-text") == "Your move (yellow ◯)" and not page.is_visible("#retry")


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("?connect=50", "connect “50” does not fit"),
        ("?connect=1&pos=44", "connect “1” does not fit"),
        ("?size=99x99", "size “99x99” is not a board"),
        ("?size=64x1&level=9", "level “9” does not exist"),
    ],
)
def test_bad_settings_in_the_address_fall_back(page: Any, base: str, query: str, words: str) -> None:
    open_page(page, base, query)
    message = page.inner_text("#message")
    assert words in message and "Playing with the defaults instead" in message
    assert page.inner_text("h1") == "Connect Four" and page.locator("#board .column").count() == 7
    assert page.inner_text("#status-text") == "Your move (red ✕)"


def test_full_column_is_refused_with_a_message(page: Any, base: str) -> None:
    open_page(page, base, "?pos=444444")
    page.click("#board .column[data-column='4']")
    assert page.inner_text("#message") == "Column 4 is full — choose another column."
    assert moves(page) == "444444" and stones(page) == 6


def test_reload_restores_the_position(page: Any, base: str) -> None:
    open_page(page, base, "?pos=4453")
    assert stones(page) == 4
    page.keyboard.press("5")
    page.wait_for_function("() => document.getElementById('moves').value.length === 6")
    settle(page)
    played = moves(page)
    assert played.startswith("44535") and f"pos={played}" in page.url
    page.reload()
    settle(page)
    assert moves(page) == played and stones(page) == 6
    red = page.locator("#board .piece.x").count()
    assert red == 3 and page.locator("#board .piece.o").count() == 3


def test_other_size_from_the_url(page: Any, base: str) -> None:
    open_page(page, base, "?pos=55&size=9x7&connect=5")
    assert page.locator("#board .column").count() == 9
    assert page.locator("#board .column[data-column='1'] .cell").count() == 7
    assert "Five" in page.inner_text("h1") and stones(page) == 2


def test_bad_position_in_the_url_is_explained(page: Any, base: str) -> None:
    open_page(page, base, "?pos=4x")
    assert "not a column number" in page.inner_text("#message")
    assert stones(page) == 0


def test_phone_with_ten_columns(browser: Any, base: str) -> None:
    """A touch phone: nothing wider than the screen, no number split over two lines, no key legend."""
    phone = browser.new_context(viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True)
    tab = phone.new_page()
    try:
        open_page(tab, base, "?size=10x8&pos=5,6,5,6,4")
        tab.tap("label.switch")
        tab.wait_for_function("() => !document.getElementById('analysis').classList.contains('loading')")
        assert tab.evaluate("() => document.documentElement.scrollWidth") <= 375
        box = tab.locator("#board").bounding_box()
        assert box["width"] <= 375 and box["height"] > 200
        assert not tab.is_visible(".keys")
        # every word or number in a chip and every column label sits on one line inside its box
        overflowing = tab.evaluate(
            """() => [...document.querySelectorAll('#analysis .chip span, #labels div')]
                 .filter(e => e.offsetParent)
                 .filter(e => e.getClientRects().length > 1 || e.scrollWidth > e.clientWidth + 1)
                 .map(e => e.textContent)"""
        )
        assert overflowing == []
        tab.tap("#board .column[data-column='10']")
        tab.wait_for_function("() => document.getElementById('moves').value.split(',').length >= 7")
        settle(tab)
        tab.wait_for_function("() => !document.getElementById('analysis').classList.contains('loading')")
        ARTIFACTS.mkdir(exist_ok=True)
        # the viewport only: a full-page capture resizes the page and drops the touch emulation
        tab.screenshot(path=str(ARTIFACTS / "phone-10-columns.png"))
    finally:
        phone.close()


def test_thirty_two_column_labels_fit(page: Any, base: str) -> None:
    open_page(page, base, "?size=32x6")
    spilled = page.evaluate(
        "() => [...document.querySelectorAll('#labels div')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).length"
    )
    assert spilled == 0 and page.evaluate("() => document.documentElement.scrollWidth") <= 900


def test_shortcuts_work_after_copy(page: Any, base: str) -> None:
    open_page(page, base, "?pos=44&play=both")
    page.click("#copy-moves")
    page.keyboard.press("3")
    page.wait_for_function("() => document.getElementById('moves').value === '443'")
    page.click("#moves")  # even with the read-only field focused
    page.keyboard.press("u")
    page.wait_for_function("() => document.getElementById('moves').value === '44'")


def test_quick_key_presses_are_queued(page: Any, base: str) -> None:
    open_page(page, base, "?play=both")
    for key in "1234567":
        page.keyboard.press(key)
    page.wait_for_function("() => document.getElementById('moves').value === '1234567'")
    open_page(page, base, "?level=1")  # against the computer: a key pressed while it thinks waits
    page.keyboard.press("4")
    page.keyboard.press("3")
    page.wait_for_function("() => document.getElementById('moves').value.length === 4", timeout=60_000)
    played = moves(page)
    assert played[0] == "4" and played[2] == "3"


def test_ten_columns_from_the_keyboard(page: Any, base: str) -> None:
    open_page(page, base, "?size=10x8&play=both")
    page.keyboard.press("1")
    page.keyboard.press("0")
    page.wait_for_function("() => document.getElementById('moves').value === '10'")
    page.keyboard.press("3")  # no column 30: played at once
    page.wait_for_function("() => document.getElementById('moves').value === '10,3'")
    page.keyboard.press("1")  # column 1 or 10..?  after a pause: column 1
    page.wait_for_function("() => document.getElementById('moves').value === '10,3,1'")
    page.keyboard.press("ArrowRight")  # to the board, then along it
    focused = page.evaluate("() => +document.activeElement.dataset.column")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.getElementById('moves').value === '10,3,1,{focused + 1}'")


def test_the_computer_s_move_is_announced(page: Any, base: str) -> None:
    open_page(page, base, "?level=1")
    assert page.get_attribute("#announce", "aria-live") == "polite"
    page.keyboard.press("4")
    page.wait_for_function(
        "() => document.getElementById('announce').textContent.startsWith('Computer played')"
    )
    column = moves(page)[1]
    assert page.inner_text("#announce") == f"Computer played column {column}."


def test_docs_render_with_the_network_cut(page: Any, base: str) -> None:
    outside: list[str] = []

    def only_local(route: Any) -> None:
        if route.request.url.startswith(base):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_local)
    page.goto(f"{base}/docs")
    page.wait_for_selector(".swagger-ui .info .title", timeout=30_000)
    assert "c4engine" in page.inner_text(".swagger-ui .info .title")
    page.get_by_text("/api/analyze", exact=True).wait_for()
    assert outside == []


def test_new_game_dialog_and_computer_first(page: Any, base: str) -> None:
    open_page(page, base)
    page.keyboard.press("n")
    page.select_option("select[name=play]", "second")
    page.select_option("select[name=size]", "6x5")
    page.click("#start")
    page.wait_for_function("() => document.getElementById('moves').value.length === 1")
    settle(page)
    assert page.locator("#board .column").count() == 6
    assert "size=6x5" in page.url and "play=second" in page.url
    assert "Your move" in page.inner_text("#status-text")


# ------------------------------------------------- failures, quotas, labels


def hint_or_no_analysis(page: Any) -> str:
    """Wait until the hint has ended: an answer, or "no analysis now"."""
    page.wait_for_function(
        "() => /^(Hint|No analysis now)/.test(document.getElementById('message').textContent)",
        timeout=90_000,
    )
    message: str = page.inner_text("#message")
    return message


@pytest.mark.parametrize("status", [429, 500])
def test_a_failed_analysis_is_asked_again_and_the_hint_answers(page: Any, base: str, status: int) -> None:
    """The first two analysis requests fail; the chips say it is asked again, then show the answer."""
    failures = [status, status]
    statuses: list[int] = []

    def flaky(route: Any) -> None:
        if failures:
            route.fulfill(
                status=failures.pop(),
                headers={"Retry-After": "1"},
                content_type="application/json",
                body='{"error": "the engine is busy; try again"}',
            )
        else:
            route.continue_()

    page.on("response", lambda response: "/api/analyze" in response.url and statuses.append(response.status))
    page.route("**/api/analyze*", flaky)
    open_page(page, base, "?pos=44")
    page.keyboard.press("a")
    page.wait_for_function("() => document.querySelectorAll('#analysis .chip.retrying').length === 7")
    assert chips(page) == ["↻"] * 7 and "asking again" in page.inner_text("#analysis-note")
    page.keyboard.press("h")
    assert hint_or_no_analysis(page) == "Hint: column 4."
    page.wait_for_function("() => document.querySelectorAll('#analysis .chip.win').length === 1")
    assert "asking again" not in page.inner_text("#analysis-note")
    assert statuses[:3] == [status, status, 200]
    page.unroute("**/api/analyze*")


def test_the_hint_ends_when_the_server_never_answers(page: Any, base: str) -> None:
    """Every analysis request fails: after the backoff the hint says so, and asking again works."""

    def down(route: Any) -> None:
        route.fulfill(status=502, content_type="text/plain", body="bad gateway")

    page.route("**/api/analyze*", down)
    open_page(page, base, "?pos=44")
    page.keyboard.press("h")
    message = hint_or_no_analysis(page)
    assert message.startswith("No analysis now — retry") and "502" in message
    page.unroute("**/api/analyze*")
    page.keyboard.press("h")
    assert hint_or_no_analysis(page) == "Hint: column 4."


LEAN_CASES: list[tuple[int, int, float | None]] = [  # lower, upper, estimate: every kind of words
    (5, 5, None),
    (0, 0, None),
    (-3, -3, None),
    (2, 7, 12.3),
    (0, 4, 3.0),
    (-3, 0, -2.0),
    (-6, 3, -0.04),
    (-6, 3, -6.0),
    (-6, 3, 30.0),
    (-9, -2, -20.0),
]


def every_kind_of_words(width: int, height: int) -> dict[str, Any]:
    """An analysis of the empty board in the API's shape whose columns use every kind of words
    the page has (exact scores, bounds, estimates), the longest numbers of that board."""
    columns = []
    cells = width * height
    for column in range(1, width + 1):
        lower, upper, estimate = LEAN_CASES[(column - 1) % len(LEAN_CASES)]
        exact = lower == upper
        columns.append(
            {
                "column": column,
                "lower": lower,
                "upper": upper,
                "score": lower if exact else None,
                "proven": exact,
                "estimate": estimate,
                "pv": [column],
                "moves": Score.proven_value(lower, cells=cells, stones=0).moves if exact else None,
                "moves_at_most": bound_moves(lower, upper, cells, 0),
            }
        )
    return {
        "position": "",
        "size": f"{width}x{height}",
        "connect": 4,
        "columns": columns,
        "best": [1],
        "best_proven": False,
        "move": 1,
        "source": "solver",
    }


def answer_with(body: str) -> Any:
    """A route handler answering ``body`` as JSON."""

    def answer(route: Any) -> None:
        route.fulfill(content_type="application/json", body=body)

    return answer


def clipped_chips(tab: Any) -> list[str]:
    """Chips whose words spill out of their box, or run over more than two lines."""
    found: list[str] = tab.evaluate(
        """() => [...document.querySelectorAll('#analysis .chip')].filter(chip => {
             const box = chip.getBoundingClientRect();
             const words = [...chip.querySelectorAll('.w')].map(w => w.getBoundingClientRect());
             const lines = new Set(words.map(w => Math.round(w.top))).size;
             return chip.scrollWidth > chip.clientWidth || lines > 2
               || words.some(w => w.left < box.left - 0.5 || w.right > box.right + 0.5);
           }).map(chip => chip.dataset.column + ': ' + chip.textContent)"""
    )
    return found


@pytest.mark.parametrize(
    ("name", "viewport", "phone"), [("desktop", (1000, 1000), False), ("phone", (375, 740), True)]
)
def test_chip_words_fit_every_board_width(
    browser: Any, base: str, name: str, viewport: Any, phone: bool
) -> None:
    """From 4 to 32 columns, on a desktop at 1000 px and on a phone, no chip's words are clipped
    (the page picks shorter words, or none, where the long ones do not fit) and no "-0.0"."""
    width_px, height_px = viewport
    device = browser.new_context(
        viewport={"width": width_px, "height": height_px}, has_touch=phone, is_mobile=phone
    )
    tab = device.new_page()
    try:
        for width in (4, 7, 9, 10, 13, 16, 20, 25, 32):
            fake = json.dumps(every_kind_of_words(width, 6))
            tab.route(
                "**/api/analyze*",
                answer_with(fake),
            )
            open_page(tab, base, f"?size={width}x6&play=both")
            tab.evaluate(
                "() => { const t = document.getElementById('analysis-toggle'); t.checked = true; "
                "t.dispatchEvent(new Event('change')); }"
            )
            tab.wait_for_function(
                f"() => document.querySelectorAll('#analysis .chip[title]').length === {width}"
            )
            assert clipped_chips(tab) == [], (width, name)
            titles = " ".join(
                tab.evaluate("() => [...document.querySelectorAll('#analysis .chip')].map(c => c.title)")
            )
            assert "-0.0" not in titles and "\u22120.0" not in titles
            assert ("(0.0)" in titles) == (width >= 7)  # -0.04 reads 0.0
            if width == 10:
                texts = chips(tab)
                ARTIFACTS.mkdir(exist_ok=True)
                tab.screenshot(path=str(ARTIFACTS / f"chips-10-columns-{name}.png"))
                if not phone:  # room for the words at 1000 px
                    assert texts[:6] == [
                        "win in 26", "draw", "loss in 28", "win in ≤ 29", "at least a draw", "draw or loss"
                    ]  # fmt: skip
            tab.unroute("**/api/analyze*")
    finally:
        device.close()


def test_two_pages_at_one_address_each_have_their_own_quota(browser: Any) -> None:
    """A server allowing one analysis per client: page one keeps the only worker busy (an
    unprovable board), page two at the same address still has its own share: never a 429."""
    with server_in_thread(ServerCaps(workers=1, per_client=1)) as url:
        tabs = [browser.new_page(), browser.new_page()]
        tokens: list[set[str]] = [set(), set()]
        statuses: list[int] = []
        try:
            for number, tab in enumerate(tabs):
                tab.on(
                    "request",
                    lambda request, number=number: (
                        "/api/" in request.url and tokens[number].add(request.headers["x-c4-client"])
                    ),
                )
            tabs[1].on(
                "response",
                lambda response: "/api/analyze" in response.url and statuses.append(response.status),
            )
            open_page(tabs[0], url, "?size=9x14&play=both")
            tabs[0].keyboard.press("a")
            tabs[0].wait_for_function(
                "() => document.querySelectorAll('#analysis .chip[title]').length === 9", timeout=60_000
            )  # its first round answered: the next rounds keep the worker busy for seconds each
            open_page(tabs[1], url, "?pos=44")
            tabs[1].keyboard.press("a")
            tabs[1].wait_for_function(
                "() => document.querySelectorAll('#analysis .chip.win').length === 1", timeout=60_000
            )
            assert statuses == [200]
            assert len(tokens[0]) == len(tokens[1]) == 1 and tokens[0] != tokens[1]
        finally:
            for tab in tabs:
                tab.close()


def test_perfect_is_offered_only_where_the_solver_holds_the_board(page: Any, base: str) -> None:
    open_page(page, base)
    page.keyboard.press("n")
    perfect = "select[name=level] option[value=perfect]"
    page.select_option("select[name=level]", "perfect")
    page.select_option("select[name=size]", "12x10")  # 12 * 11 = 132 cells: beyond the solver
    assert page.is_disabled(perfect) and page.input_value("select[name=level]") == "7"
    for held in ("8x7", "8x8", "9x7", "10x6", "10x8"):  # up to 10 * 9 = 90 cells: the solver holds them
        page.select_option("select[name=size]", held)
        assert not page.is_disabled(perfect), held
    page.keyboard.press("Escape")
    open_page(page, base, "?size=9x14&level=perfect")
    assert "perfect play needs a board the exact solver holds" in page.inner_text("#message")
    assert "level 7" in page.inner_text("#subtitle") and "level=7" in page.url


def final_analysis(page: Any) -> list[str]:
    """Ask for the analysis (``a``) and wait for its last round: the chips' words."""
    page.keyboard.press("a")
    page.wait_for_function(
        "() => document.getElementById('analysis').dataset.final === 'true'", timeout=300_000
    )
    return chips(page)


@pytest.mark.parametrize("size", ["8x8", "10x6"])
def test_past_64_bits_the_page_analyses_exactly_and_plays_perfect(page: Any, base: str, size: str) -> None:
    """8 x 9 = 72 and 10 x 7 = 70 bits: the page offers perfect play and proves its analysis, as on 7x6.
    The best chips say the score an independent solver gave (tests/data); the perfect player's move,
    proven, leaves the opponent exactly that score negated, which the page's next analysis proves."""
    position, board, score = fewest_stones(scored_positions(size), 1)[0]  # the most left to prove
    cells = board.width * board.height
    wanted = Score.proven_value(score, cells=cells, stones=board.move_count).label()
    open_page(page, base, f"?pos={position}&size={size}&play=both")
    labels = final_analysis(page)
    assert "(proven)" in page.inner_text("#analysis-note")
    assert best_chips(page) and all(labels[column - 1] == wanted for column in best_chips(page)), labels
    page.keyboard.press("n")
    page.select_option("select[name=size]", size)
    assert not page.is_disabled("select[name=level] option[value=perfect]")
    page.keyboard.press("Escape")
    replies: list[Any] = []
    page.on("response", lambda response: "/api/move" in response.url and replies.append(response))
    human = "first" if board.move_count % 2 else "second"  # the computer is the side to move
    open_page(page, base, f"?pos={position}&size={size}&level=perfect&play={human}")
    page.wait_for_function(f"() => document.getElementById('moves').value !== {json.dumps(position)}")
    settle(page)
    assert "perfect play" in page.inner_text("#subtitle")
    answers = [reply.json() for reply in replies if reply.status == 200]
    assert len(answers) == 1 and answers[0]["proven"] and answers[0]["level"] == "perfect", answers
    left = Board.from_moves(answers[0]["pos"], board.width, board.height)
    assert left.moves[:-1] == board.moves and moves(page) == answers[0]["pos"]
    assert not left.is_over  # the data's positions have no win at once, and 6 or more empty cells
    kept = Score.proven_value(-score, cells=cells, stones=left.move_count).label()
    labels = final_analysis(page)
    assert best_chips(page) and all(labels[column - 1] == kept for column in best_chips(page)), labels


def test_perfect_level_early_on_8x8_says_its_move_is_not_proven(page: Any, base: str) -> None:
    """4453 on 8x8: no proof comes within the server's time for a move (nothing is proven on 8x8 before
    about 20 stones), so the move the page plays is the best estimate, and it says so -- in its move
    line and in its header, which no longer says "perfect play" -- as the API's answer does."""
    replies: list[Any] = []
    page.on("response", lambda response: "/api/move" in response.url and replies.append(response))
    open_page(page, base, "?pos=4453&size=8x8&level=perfect&play=second")  # the computer is X, to move
    assert len(moves(page)) == 5
    answers = [reply.json() for reply in replies if reply.status == 200]
    assert len(answers) == 1 and answers[0]["level"] == "perfect" and not answers[0]["proven"], answers
    column = answers[0]["column"]
    assert page.inner_text("#announce") == f"Computer played column {column} (not proven: best estimate)."
    subtitle = page.inner_text("#subtitle")
    assert "perfect play" not in subtitle and "not proven" in subtitle, subtitle
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "perfect-8x8-not-proven.png"), full_page=True)


def test_show_the_best_line_draws_it_to_the_end_and_steps_through_it(page: Any, base: str) -> None:
    """133524: the side to move wins in 17; the line drawn ends with the winning stone."""
    open_page(page, base, "?pos=133524&play=both")
    page.keyboard.press("a")
    page.wait_for_function(
        "() => document.getElementById('analysis').dataset.final === 'true'", timeout=120_000
    )
    page.click("#show-line")
    count = page.locator("#board .ghost").count()
    drawn = page.evaluate(
        """() => [...document.querySelectorAll('#board .ghost')]
             .sort((a, b) => +a.textContent - +b.textContent)
             .map(g => +g.closest('.column').dataset.column)"""
    )
    assert count == len(drawn) and page.inner_text("#line-where") == f"stone {count} of {count}"
    position = httpx.get(f"{base}/api/position", params={"pos": "133524" + "".join(map(str, drawn))}).json()
    assert position["over"] and position["winner"] == "X"  # X is to move after six stones
    assert drawn[0] in best_chips(page) and count == 2 * 17 - 1  # X's 17 stones, O's 16 replies
    assert page.text_content(f"#analysis .chip[data-column='{drawn[0]}']") == "win in 17"
    page.click("#line-back")
    assert page.locator("#board .ghost").count() == count - 1
    assert page.inner_text("#line-where") == f"stone {count - 1} of {count}"
    page.click("#line-forward")
    assert page.locator("#board .ghost").count() == count and page.is_disabled("#line-forward")


def test_the_threats_are_drawn_and_the_explanation_shown(page: Any, base: str) -> None:
    """Allis' Diagram 8.1 (333244442525155): X's odd threat at a3 and O's even threat at f2 marked
    on their cells -- a letter for whose, a round mark for an odd row and a square one for an even
    row, and a legend -- and the coach's sentences beside the analysis, the proof by rules among
    them: all exactly as ``/api/explain`` gives them."""
    position = "333244442525155"
    open_page(page, base, f"?pos={position}&play=both")
    page.keyboard.press("a")
    page.wait_for_function("() => document.querySelectorAll('#coach-sentences li').length > 1")
    page.wait_for_function("() => document.querySelectorAll('#analysis .chip[title]').length === 7")
    explained = httpx.get(f"{base}/api/explain", params={"pos": position}, timeout=60).json()
    marks = page.eval_on_selector_all(
        "#board .threat",
        """marks => marks.map(m => [+m.dataset.column, +m.dataset.row, m.textContent,
             m.classList.contains('odd') ? 'odd' : m.classList.contains('even') ? 'even' : '?',
             getComputedStyle(m).borderRadius])""",
    )
    expected = [
        (threat["column"], threat["row"], "X" if threat["player"] == 1 else "O", threat["parity"])
        for threat in explained["threats"]
    ]
    assert sorted(tuple(mark[:4]) for mark in marks) == sorted(expected)
    assert {(1, 3, "X", "odd"), (6, 2, "O", "even")} <= set(expected)
    # the shape tells the parity apart without colour: round (50 %) for odd, square corners for even
    shapes = {mark[3]: mark[4] for mark in marks}
    assert shapes["odd"] == "50%" and shapes["even"] != "50%"
    for column, row, _, _ in expected:  # each mark in its own cell: rows count from the bottom
        cell = page.locator(f"#board .column[data-column='{column}'] .cell[data-row='{row}'] .threat")
        assert cell.count() == 1
    assert page.is_visible("#coach-legend") and "odd row" in page.inner_text("#coach-legend")
    sentences = page.eval_on_selector_all("#coach-sentences li", "items => items.map(i => i.textContent)")
    assert sentences == explained["sentences"]
    assert any(sentence.startswith("Proved by Allis' rules") for sentence in sentences)
    assert page.get_attribute("#coach", "data-proof") == "first player wins"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "explanation.png"), full_page=True)
    assert (ARTIFACTS / "explanation.png").stat().st_size > 10_000
    # a move: the marks and the sentences follow the new position; the analysis off, they go
    page.keyboard.press("1")
    page.wait_for_function(f"() => document.getElementById('moves').value === '{position}1'")
    page.wait_for_function(f"() => document.getElementById('coach').dataset.pos === '{position}1'")
    after = httpx.get(f"{base}/api/explain", params={"pos": position + "1"}, timeout=60).json()
    assert page.locator("#board .threat").count() == len({(t["column"], t["row"]) for t in after["threats"]})
    page.keyboard.press("a")
    assert page.is_hidden("#coach") and page.locator("#board .threat").count() == 0
