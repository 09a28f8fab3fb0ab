"""The page's Puzzles view in a real headless Chromium (Debian's package, driven by Playwright),
against ``c4 serve``: a wrong answer refused with its refutation drawn, a right one answered by the
reply, the last one says solved.  Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from tests.conftest import REPO
from tests.web_server import c4_serve

from c4engine.search.puzzles.collection import shipped_puzzles

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (test extra)")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
ARTIFACTS = REPO / "test-artifacts"


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with c4_serve("--workers", "1") as url:
        yield url


@pytest.fixture
def page(base: str) -> Iterator[Any]:
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        context = browser.new_context(viewport={"width": 900, "height": 1000})
        context.set_default_timeout(90_000)  # a bound on waits for events, not a measurement
        tab = context.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        yield tab
        browser.close()
        assert not errors, errors


def _column(page: Any, column: int) -> None:
    page.click(f"#puzzle-board .column[data-column='{column}']")


def test_a_puzzle_wrong_refuted_right_advances_last_solved(page: Any, base: str) -> None:
    puzzle = next(p for p in shipped_puzzles() if p.length == 2)
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(f"{base}/?puzzle={puzzle.id}")
    page.wait_for_selector(f"#puzzle-board[data-pos='{puzzle.position}']")
    text = page.locator("#puzzle-text")
    assert "to move and" in text.inner_text() and page.locator("#board").is_hidden()
    board = puzzle.board()
    wrong = next(c for c in board.legal_moves() if c != puzzle.solution[0])
    _column(page, wrong + 1)
    page.wait_for_selector("#puzzle-text[data-kind='wrong']")
    said = text.inner_text()
    assert said.startswith(f"Not {wrong + 1}: {board.turn.other.symbol} plays ") and said.endswith(
        "Try again."
    )
    refuted = page.locator("#puzzle-board").get_attribute("data-pos")
    assert refuted is not None and refuted.startswith(
        puzzle.position + str(wrong + 1)
    )  # its refutation drawn
    page.screenshot(path=str(ARTIFACTS / "puzzle-refuted.png"))
    page.wait_for_selector(f"#puzzle-board[data-pos='{puzzle.position}']")  # and the puzzle back
    _column(page, puzzle.solution[0] + 1)
    page.wait_for_selector("#puzzle-text[data-kind='right']")
    assert f"replies {puzzle.solution[1] + 1}" in text.inner_text()
    after = board.copy()
    after.play(puzzle.solution[0])
    after.play(puzzle.solution[1])
    page.wait_for_selector(f"#puzzle-board[data-pos='{after.move_string}']")
    page.click("#puzzle-hint")
    page.wait_for_function(
        "() => document.getElementById('puzzle-hint-text').textContent.startsWith('Hint: ')"
    )
    _column(page, puzzle.solution[2] + 1)
    page.wait_for_selector("#puzzle-text[data-kind='solved']")
    assert text.inner_text().startswith(f"Solved! {puzzle.solution[2] + 1} is right")
    assert page.locator("#puzzle-next").inner_text() == "Next puzzle"
    page.screenshot(path=str(ARTIFACTS / "puzzle-solved.png"))
    page.click("#puzzle-next")
    page.wait_for_function("() => document.getElementById('puzzle-text').dataset.kind === ''")
    page.click("#puzzle-close")
    assert page.locator("#board").is_visible()
