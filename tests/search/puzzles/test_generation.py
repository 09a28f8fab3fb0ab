"""Puzzles from a game: after each mistake, the positions with only moves; each one checks again."""

from __future__ import annotations

import pytest

from c4engine.search.analysis.analyst import Analyst
from c4engine.search.puzzles.check import check_puzzle
from c4engine.search.puzzles.generation import puzzles_from_game

GAME = "6443433251"
"""A level 1 game (4 random moves first): X's 5th move lets O make a double threat, X's 7th again."""


@pytest.fixture(scope="module")
def analyst() -> Analyst:
    return Analyst(solver_share=1.0)


def test_the_positions_after_the_mistakes(analyst: Analyst) -> None:
    scan = puzzles_from_game(analyst, GAME, opening_plies=4, label="game 1")
    assert [(p.position, p.solution_string, p.goal, p.ends) for p in scan.puzzles] == [
        ("64434", "2", "win", "forced win"),
        ("6443433", "2", "win", "forced win"),
    ]
    source = scan.puzzles[0].source
    assert source is not None and (source.game, source.ply, source.mistake, source.label) == (
        GAME,
        5,
        "blunder",
        "game 1",
    )
    assert (scan.mistakes, scan.unproven) == (3, 0)


def test_no_puzzle_follows_a_move_nobody_chose(analyst: Analyst) -> None:
    scan = puzzles_from_game(analyst, GAME, opening_plies=5)
    assert [p.position for p in scan.puzzles] == ["6443433"]


def test_every_puzzle_of_a_game_checks_with_a_solver_without_the_book(analyst: Analyst) -> None:
    # a level 3 against level 5 game with a run of mistakes: late enough for the solver alone
    game = "256555756663576622222111117143337744"
    scan = puzzles_from_game(analyst, game, opening_plies=4)
    assert len(scan.puzzles) >= 5 and {p.goal for p in scan.puzzles} == {"win", "draw"}
    independent = Analyst(book=None)
    for puzzle in scan.puzzles:
        assert check_puzzle(puzzle, independent).problems == (), puzzle


def test_the_themes_come_from_the_source_given(analyst: Analyst) -> None:
    scan = puzzles_from_game(analyst, GAME, opening_plies=4, themes=lambda *_: ("from the coach",))
    assert {p.themes for p in scan.puzzles} == {("from the coach",)}
