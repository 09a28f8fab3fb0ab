"""Batch mode of the ``c4`` commands: one position a line in, one answer a line out.

The format is the published solver's, so outputs can be compared line by
line: each input line's position is echoed with its answer (``POSITION
ANSWER``).  A line is read as its position, its moves up to the first
blank (blanks around commas do not count): what comes after is ignored, so the
output of a batch (``4453 -2``) or a benchmark file is input too.  An empty
line is the empty board; a line that cannot be answered prints an error
naming its line number on standard error and an empty line on standard
output, and the batch goes on.  When standard input is a terminal, a line
on standard error first says that the command waits for positions there
(a person who forgot the position would otherwise see nothing happen).

>>> import io
>>> out = io.StringIO()
>>> answer_lines(lambda line: str(len(line)), io.StringIO("4453\\n\\n4453 -2\\n"), out)
0
>>> out.getvalue()
'4453 4\\n 0\\n4453 4\\n'
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from typing import Any, TextIO

from c4engine.errors import C4Error

__all__ = ["END_OF_INPUT_KEY", "WAITING_LINE", "answer_json_lines", "answer_lines", "position_of"]


def position_of(line: str) -> str:
    """The position a batch line holds: its moves, without what follows them.

    Blanks around a comma are dropped (a wide board's ``10, 3, 4`` is ``10,3,4``).

    >>> position_of("  4453 -2"), position_of("10, 3, 4 7"), position_of("")
    ('4453', '10,3,4', '')
    """
    text = re.sub(r"\s*,\s*", ",", line.strip())
    return text.split(maxsplit=1)[0] if text else ""


END_OF_INPUT_KEY = "Ctrl-Z then Enter" if os.name == "nt" else "Ctrl-D"
"""What ends standard input typed on this system's terminal."""

WAITING_LINE = f"c4: reading positions from standard input, one a line; {END_OF_INPUT_KEY} ends"
"""Said on standard error when a batch reads a terminal."""


def _tell_if_typed(stdin: TextIO) -> None:
    """Say on standard error that positions are awaited, when ``stdin`` is a terminal."""
    if stdin.isatty():
        print(WAITING_LINE, file=sys.stderr, flush=True)


def answer_lines(answer: Callable[[str], str], stdin: TextIO, out: TextIO) -> int:
    """Write ``POSITION ANSWER`` for each line of ``stdin``; 0, or 1 when some line failed.

    ``answer`` gets the line's position (:func:`position_of`) and raises
    :class:`C4Error` for one it cannot answer.
    """
    _tell_if_typed(stdin)
    status = 0
    for number, raw in enumerate(stdin, start=1):
        position = position_of(raw)
        try:
            out.write(f"{position} {answer(position)}\n")
        except C4Error as error:
            print(f"line {number}: {error}", file=sys.stderr)
            out.write("\n")
            status = 1
        out.flush()
    return status


def answer_json_lines(answer: Callable[[str], dict[str, Any]], stdin: TextIO, out: TextIO) -> int:
    """Write one JSON object a line for each line of ``stdin``, in order; 0, or 1 when some line failed.

    A line that cannot be answered writes ``{"position": ..., "error": ...}``
    (and the error on standard error, with its line number).

    >>> import io
    >>> out = io.StringIO()
    >>> answer_json_lines(lambda line: {"position": line}, io.StringIO("4453 -2\\n"), out)
    0
    >>> out.getvalue()
    '{"position": "4453"}\\n'
    """
    import json  # here: a batch of plain answers never loads it (docs/benchmarks-log.md, "a second round")

    _tell_if_typed(stdin)
    status = 0
    for number, raw in enumerate(stdin, start=1):
        position = position_of(raw)
        try:
            found = answer(position)
        except C4Error as error:
            print(f"line {number}: {error}", file=sys.stderr)
            found = {"position": position, "error": str(error)}
            status = 1
        out.write(json.dumps(found, ensure_ascii=False) + "\n")
        out.flush()
    return status
