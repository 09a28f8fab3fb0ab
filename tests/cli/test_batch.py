import io
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest
from tests.cli.test_interrupts import spawn
from tests.conftest import run_c4

from c4engine.cli.batch import WAITING_LINE, answer_json_lines, answer_lines
from c4engine.errors import C4Error


def _answer(line: str) -> str:
    if line == "bad":
        raise C4Error("no answer")
    return line.upper() or "-"


def test_failed_lines_are_reported_and_the_batch_goes_on(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert answer_lines(_answer, io.StringIO("ab\nbad\n\n  cd  \n"), out) == 1
    assert out.getvalue() == "ab AB\n\n -\ncd CD\n"
    assert capsys.readouterr().err == "line 2: no answer\n"


def test_all_answered_is_status_0() -> None:
    out = io.StringIO()
    assert answer_lines(_answer, io.StringIO("x\n"), out) == 0
    assert out.getvalue() == "x X\n"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("batch", [answer_lines, answer_json_lines])
def test_a_batch_typed_at_a_terminal_says_what_it_waits_for(
    batch: Callable[..., int], capsys: pytest.CaptureFixture[str]
) -> None:
    assert batch(lambda line: {"position": line}, _Terminal(""), io.StringIO()) == 0
    assert capsys.readouterr().err == f"{WAITING_LINE}\n"
    assert batch(lambda line: {"position": line}, io.StringIO(""), io.StringIO()) == 0  # a pipe: nothing
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("command", [["solve"], ["analyze"], ["move", "--level", "perfect"]])
def test_solve_analyze_and_move_without_a_position_tell_a_person_they_read_standard_input(
    tmp_path: Path, command: list[str]
) -> None:
    piped = run_c4(*command, stdin="44\n")  # the same batch from a pipe: the answer, and no word of waiting
    assert piped.returncode == 0 and piped.stderr == "", piped.stderr
    child = spawn(command, tmp_path)
    child.expect_exact(WAITING_LINE)
    child.sendline("44")
    child.expect_exact(piped.stdout.strip())
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
