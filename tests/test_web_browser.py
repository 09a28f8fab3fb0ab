"""The page in a real headless Chromium (Debian's package, driven by Playwright), against ``c4 serve``.

A whole game clicked to its end, undo, hint, the analysis of a known
position, a full column refused, a reload restoring the position from the
URL, keys 1..9, a phone-sized screen.  A screenshot of the finished game
goes to ``test-artifacts/``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from tests.conftest import REPO
from tests.web_server import c4_serve

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
def context(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    profile = tmp_path_factory.mktemp("chromium-profile")
    with playwright_api.sync_playwright() as driver:
        browser_context = driver.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            args=ARGS,
            headless=True,
            viewport={"width": 900, "height": 1000},
        )
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


def test_analysis_shows_the_scores_of_a_known_position(page: Any, base: str) -> None:
    open_page(page, base, f"?pos={LOSSES}&play=second")
    page.click("label.switch")
    page.wait_for_function("() => document.querySelectorAll('#analysis .chip.loss').length === 3")
    chips = page.locator("#analysis .chip").all_inner_texts()
    assert chips == ["loss in 1", "", "", "", "", "loss in 3", "loss in 3"]
    best = page.evaluate(
        "() => [...document.querySelectorAll('#analysis .chip.best')].map(c => +c.dataset.column)"
    )
    assert best == [6, 7]


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


def test_phone_sized_screen(context: Any, base: str) -> None:
    tab = context.new_page()
    tab.set_viewport_size({"width": 375, "height": 740})
    try:
        open_page(tab, base, "?pos=4453")
        assert tab.evaluate("() => document.documentElement.scrollWidth") <= 375
        box = tab.locator("#board").bounding_box()
        assert box["width"] <= 375 and box["height"] > 200
        ARTIFACTS.mkdir(exist_ok=True)
        tab.screenshot(path=str(ARTIFACTS / "phone.png"), full_page=True)
    finally:
        tab.close()


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
