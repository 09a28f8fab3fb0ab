"""The ``c4`` command: output of the simple commands and one-line errors on bad input."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest
from tests.conftest import run_c4

from c4engine.cli.main import _COMMANDS, build_parser
from c4engine.errors import BoardSizeError
from c4engine.notation import parse_size
from c4engine.perft import PUBLISHED_7X6


def assert_one_line_error(result, *words: str) -> None:  # type: ignore[no-untyped-def]
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0]


def test_perft_prints_published_counts() -> None:
    result = run_c4("perft", "--depth", "6")
    assert result.returncode == 0, result.stderr
    lines = [tuple(map(int, line.split())) for line in result.stdout.splitlines()]
    assert lines == list(enumerate(PUBLISHED_7X6[:7]))


def test_perft_other_size() -> None:
    result = run_c4("perft", "--depth", "3", "--size", "3x3", "--connect", "3")
    assert result.stdout.split() == ["0", "1", "1", "3", "2", "9", "3", "24"]


def test_show_prints_position() -> None:
    result = run_c4("play", "--moves", "4453", "--show")
    assert result.returncode == 0
    assert " .  .  O  X  X  .  ." in result.stdout
    assert "X to move" in result.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("play", "--moves", "44x", "--show"), ("'x'", "move 3")),
        (("play", "--size", "0x6"), ("width", "must be 1..32")),
        (("play", "--size", "seven", "--show"), ("WIDTHxHEIGHT",)),
        (("play", "--size", "3x3", "--connect", "4", "--show"), ("cannot fit",)),
        (("play", "--moves", "4444444", "--show"), ("column 4 is full",)),
        (("play", "--level", "99"), ("level 99",)),
        (("perft", "--depth", "-1"), ("depth",)),
        (("perft",), ("--depth",)),
        (("nonsense",), ("invalid choice",)),
    ],
)
def test_bad_input_is_one_line_error(args: tuple[str, ...], words: tuple[str, ...]) -> None:
    assert_one_line_error(run_c4(*args), *words)


def test_parse_size() -> None:
    assert parse_size("10x8") == (10, 8)
    with pytest.raises(BoardSizeError):
        parse_size("10")


def test_play_with_a_weights_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from c4engine.search.engine.evaluators import DEFAULT_WEIGHTS

    missing = run_c4("play", "--weights", str(tmp_path / "none.json"), stdin="q\n")
    assert_one_line_error(missing, "cannot read weights file", "no such file")
    path = tmp_path / "w.json"
    DEFAULT_WEIGHTS.save(path)
    watched = run_c4("play", "--watch", "--level", "2", "--weights", str(path), "--seed", "1")
    assert watched.returncode == 0, watched.stderr
    assert "wins" in watched.stdout or "draw" in watched.stdout.lower()


def test_solve_answers_from_the_opening_book() -> None:
    empty = run_c4("solve", "")
    assert empty.returncode == 0, empty.stderr
    assert "score: 1 (win in 21 moves)" in empty.stdout and "best move: 4" in empty.stdout
    assert "nodes: 0 " in empty.stdout
    searched = run_c4("solve", "", "--no-book", "--time", "0.2")
    assert searched.returncode == 0, searched.stderr
    assert "unknown (time limit)" in searched.stdout


def _command_names(parser: argparse.ArgumentParser) -> list[str]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(action.choices)


def test_command_table_lists_every_command_in_help_order() -> None:
    assert _command_names(build_parser()) == list(_COMMANDS)
    assert _command_names(build_parser("no-such-command")) == list(_COMMANDS)


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "4453", "-w", "--time", "2"],
        ["analyze", "44", "--size", "6x5"],
        ["move", "4", "--depth", "3"],
    ],
)
def test_the_chosen_command_alone_parses_the_same(argv: list[str]) -> None:
    alone = build_parser(argv[0])
    assert _command_names(alone) == [argv[0]]
    assert alone.parse_args(argv) == build_parser().parse_args(argv)


# Runs ``c4`` once per argument list in one fresh interpreter; prints whether numba was imported.
_NUMBA_PROBE = """
import contextlib, io, sys
from c4engine.cli import main
for args in (["--help"], ["move", "--help"], ["book", "info"], ["dataset", "--help"]):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main(args)
print("numba" in sys.modules)
"""


def test_help_and_book_info_load_no_compiled_code() -> None:
    """Every command is registered for ``c4 --help``: none may import numba to do it."""
    done = subprocess.run(
        [sys.executable, "-c", _NUMBA_PROBE], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["False"]


def _help_texts(parser: argparse.ArgumentParser) -> Iterator[str]:
    """The prose of a parser's help, its sub-commands' included: description, epilog, every option's
    and every sub-command's help line (not the usage or metavars, which repeat names on purpose)."""
    yield from (text for text in (parser.description, parser.epilog) if text)
    for action in parser._actions:
        if action.help and action.help != argparse.SUPPRESS:
            yield action.help
        if isinstance(action, argparse._SubParsersAction):
            yield from (choice.help for choice in action._choices_actions if choice.help)
            for sub in action.choices.values():
                yield from _help_texts(sub)


_DOUBLED_WORD = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)


def test_no_help_text_doubles_a_word() -> None:
    texts = list(_help_texts(build_parser()))
    assert any("published sets" in text for text in texts)  # c4 bench's description is walked
    doubled = [
        (match.group(0), text)
        for text in texts
        for match in _DOUBLED_WORD.finditer(text)
        if not match.group(1).isupper()  # a metavar names its value: "Play GAMES games"
    ]
    assert doubled == []
    assert _DOUBLED_WORD.search("Default: the the six sets")  # the check can fail
