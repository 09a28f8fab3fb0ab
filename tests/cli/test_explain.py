"""``c4 explain``: the board with its threats, the sentences; ``--json`` one object."""

from __future__ import annotations

import json

from tests.conftest import run_c4


def test_json_is_one_object_with_threats_proof_and_sentences() -> None:
    result = run_c4("explain", "333244442525155", "--json")
    assert result.returncode == 0, result.stderr
    (line,) = result.stdout.strip().split("\n")
    data = json.loads(line)
    assert data["proof"]["claim"] == "first player wins"
    assert {"player": 1, "column": 1, "row": 3, "parity": "odd", "playable": False}.items() <= data[
        "threats"
    ][0].items()
    assert data["sentences"]


def test_text_marks_odd_and_even_threats_by_their_brackets() -> None:
    result = run_c4("explain", "333244442525155")
    assert result.returncode == 0, result.stderr
    assert "(x)" in result.stdout and "{o}" in result.stdout
    assert "first player wins" in result.stdout


def test_bad_input_is_one_line_and_exit_2() -> None:
    result = run_c4("explain", "4444444")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "column 4 is full" in result.stderr
