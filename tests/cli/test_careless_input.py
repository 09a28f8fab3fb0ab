"""Careless input to ``c4``: one line naming what is wrong and what is allowed, exit status 2, no traceback.

Each test drives the command in a fresh interpreter, as a user would.
"""

from __future__ import annotations

import subprocess

import pytest
from tests.conftest import run_c4

from c4engine.cli.solve import BENCH_SETS

EXIT_USAGE = 2


def assert_usage_error(result: subprocess.CompletedProcess[str], command: str, *words: str) -> str:
    """The one error line of ``c4 COMMAND``, checked for the exit status, the prefix and ``words``."""
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == EXIT_USAGE, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"c4 {command}: error: "), lines[0]
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


# ------------------------------------------------------------------ bench


def test_bench_finds_the_shipped_sets() -> None:
    result = run_c4("bench", "--limit", "2", "--table-mb", "8")
    assert result.returncode == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines()[1:]]
    assert [row[0] for row in rows] == list(BENCH_SETS)
    assert all(row[1:3] == ["2", "2"] for row in rows), result.stdout


@pytest.mark.parametrize("limit", ["0", "-1"])
def test_bench_limit_must_be_positive(limit: str) -> None:
    assert_usage_error(run_c4("bench", "--limit", limit), "bench", "--limit", "at least 1", limit)


def test_bench_names_the_source_of_missing_sets(tmp_path: pytest.TempPathFactory) -> None:
    line = assert_usage_error(run_c4("bench", "--data", str(tmp_path)), "bench", "cannot read")
    assert "gamesolver.org" in line


# ------------------------------------------------------------- --table-mb

ENDGAME = "2252576253462244111563365343671351441"


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (("solve", ENDGAME, "--table-mb", "1e9"), ("--table-mb", "more than this machine's memory", "8..")),
        (("solve", ENDGAME, "--table-mb", "nan"), ("--table-mb", "not nan")),
        (("analyze", ENDGAME, "--table-mb", "4"), ("--table-mb", "too small", "8..")),
        (("dataset", "-o", "x.csv", "--count", "3", "--table-mb", "1e9"), ("--table-mb", "memory")),
        (("book", "build", "--depth", "1", "--table-mb", "inf"), ("--table-mb", "not inf")),
    ],
)
def test_table_size_is_checked_before_allocating(command: tuple[str, ...], words: tuple[str, ...]) -> None:
    name = " ".join(command[:2]) if command[0] == "book" else command[0]
    assert_usage_error(run_c4(*command), name, *words)
