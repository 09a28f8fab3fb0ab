"""Batch mode of the ``c4`` commands: one position a line in, one answer a line out.

The format is the published solver's, so outputs can be compared line by
line: each input line is echoed with its answer (``POSITION ANSWER``); an
empty line is the empty board; a line that cannot be answered prints an
error naming its line number on standard error and an empty line on
standard output, and the batch goes on.

>>> import io
>>> out = io.StringIO()
>>> answer_lines(lambda line: str(len(line)), io.StringIO("4453\\n\\n"), out)
0
>>> out.getvalue()
'4453 4\\n 0\\n'
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from c4engine.errors import C4Error

__all__ = ["answer_lines"]


def answer_lines(answer: Callable[[str], str], stdin: TextIO, out: TextIO) -> int:
    """Write ``LINE ANSWER`` for each line of ``stdin``; 0, or 1 when some line failed.

    ``answer`` gets the stripped line and raises :class:`C4Error` for one it
    cannot answer.
    """
    status = 0
    for number, raw in enumerate(stdin, start=1):
        line = raw.strip()
        try:
            out.write(f"{line} {answer(line)}\n")
        except C4Error as error:
            print(f"line {number}: {error}", file=sys.stderr)
            out.write("\n")
            status = 1
        out.flush()
    return status
