"""A tiny progress bar on stderr, drawn only on a terminal (or when forced).

>>> import io
>>> out = io.StringIO()
>>> bar = ProgressBar(4, "demo", stream=out, force=True, width=8)
>>> for _ in range(4):
...     bar.advance()
>>> bar.close()
>>> out.getvalue().splitlines()[-1].split("\\r")[-1]
'demo [########] 4/4'
"""

from __future__ import annotations

import sys
from typing import TextIO


class ProgressBar:
    """``total`` steps; :meth:`advance` after each, :meth:`close` at the end."""

    def __init__(
        self,
        total: int,
        label: str = "",
        *,
        stream: TextIO | None = None,
        force: bool = False,
        width: int = 30,
    ) -> None:
        self.total = max(total, 0)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.done = 0
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = force or bool(isatty and isatty())
        self._drawn = -1

    def advance(self, steps: int = 1) -> None:
        self.done += steps
        self._draw()

    def _draw(self) -> None:
        if not self.enabled:
            return
        filled = self.width * self.done // self.total if self.total else self.width
        if filled == self._drawn and self.done != self.total:
            return
        self._drawn = filled
        bar = "#" * filled + "." * (self.width - filled)
        prefix = f"{self.label} " if self.label else ""
        self.stream.write(f"\r{prefix}[{bar}] {self.done}/{self.total}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self._drawn = -1
            self._draw()
            self.stream.write("\n")
            self.stream.flush()
