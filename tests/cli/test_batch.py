import io

import pytest

from c4engine.cli.batch import answer_lines
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
