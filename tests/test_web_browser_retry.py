"""Retry your mistakes in the page's Review view, in a real headless Chromium against ``c4 serve``:
the person's mistake posed again with its answer hidden, a wrong try refused with its refutation, a
right one showing the better line.  A screenshot goes to ``test-artifacts/``."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from tests.conftest import REPO
from tests.web_server import c4_serve

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (test extra)")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
ARTIFACTS = REPO / "test-artifacts"
BLUNDERS = "44556"  # X's 5 (ply 3) throws the win away; O's 5 (ply 4) too -- O is the computer here


@pytest.fixture
def page() -> Iterator[Any]:
    with c4_serve("--workers", "1") as url, playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        context = browser.new_context(viewport={"width": 900, "height": 1100}, base_url=url)
        context.set_default_timeout(90_000)  # a bound on waits for events, not a measurement
        tab = context.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        yield tab
        browser.close()
        assert not errors, errors


def _say(page: Any) -> str:
    text: str = page.inner_text("#retry-text")
    return text


def test_a_mistake_retried_before_its_answer(page: Any) -> None:
    page.goto(f"/?pos={BLUNDERS}&review=1")
    page.wait_for_selector("#review[data-state='ready']")
    page.wait_for_selector("#review-learn:not([hidden])")
    page.click("#review-learn")
    page.wait_for_selector("#retry-bar:not([hidden])")
    assert page.inner_text("#review-text").startswith("Mistake 1 of 1 — move 3: red ✕ played column 5")
    assert page.locator("#board .piece").count() == 2 and page.locator("#board .ghost").count() == 0  # hidden
    page.click("#board .column[data-column='5']")
    page.wait_for_function(
        "() => document.getElementById('retry-text').textContent.startsWith('5 is the move')"
    )
    page.click("#board .column[data-column='1']")
    page.wait_for_function("() => document.getElementById('retry-text').textContent.startsWith('Not 1: ')")
    assert _say(page).endswith("Try again.") and page.get_attribute("#retry-bar", "data-kind") == "wrong"
    assert "O plays " in _say(page) and page.locator("#board .ghost").count() == 0
    page.click("#board .column[data-column='4']")
    page.wait_for_selector("#retry-bar[data-kind='right']")
    assert _say(page) == "Right: 4 keeps the win (win in 20)."
    assert page.locator("#board .ghost").count() >= 3  # the answer now: the better line drawn
    assert page.inner_text("#retry-next") == "Done"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "review-retry.png"))
    page.click("#retry-next")
    page.wait_for_function(
        "() => document.getElementById('retry-text').textContent === 'That was your last mistake.'"
    )
