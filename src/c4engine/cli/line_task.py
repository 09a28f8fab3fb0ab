"""The work a progress line shows (:class:`LineTask`), in a module of its own: both drawings of the
line take it -- :class:`~c4engine.cli.progress.PlainLine` and :class:`~c4engine.cli.live.LiveLine`,
which :mod:`c4engine.cli.progress` imports only when it draws -- and neither imports the other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

__all__ = ["LineTask"]


@dataclass(frozen=True)
class LineTask:
    """The work a line shows, as :class:`~c4engine.cli.progress.Progress` hands it to either drawing:
    its label, total (None: unknown), count done before and the count's unit; the stream it is
    written to and the seconds of work before it appears."""

    label: str
    total: int | None
    done: int
    unit: str
    stream: TextIO
    show_after: float
