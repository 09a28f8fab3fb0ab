"""A small progress bar for long commands (perft, bench, book building).

It draws on standard error, only when that is a terminal (or when forced),
so piped output and logs stay clean.  Redraws are throttled to a few per
second so the bar never slows the work it measures.

>>> import io
>>> stream = io.StringIO()
>>> with Progress(3, "solving", stream=stream, enabled=True) as bar:
...     for _ in range(3):
...         bar.advance()
>>> "3/3" in stream.getvalue()
True
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO

__all__ = ["Progress"]

_BAR_WIDTH = 24
_REDRAW_SECONDS = 0.2


def _clock(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


class Progress:
    """``label [#####.....] done/total rate/s ETA m:ss`` on one redrawn line."""

    def __init__(
        self,
        total: int | None,
        label: str,
        *,
        stream: TextIO | None = None,
        enabled: bool | None = None,
        unit: str = "",
    ) -> None:
        self.total = total
        self.label = label
        self.unit = unit
        self.done = 0
        self.note = ""
        self._stream = stream if stream is not None else sys.stderr
        self._enabled = self._stream.isatty() if enabled is None else enabled
        self._started = time.monotonic()
        self._last_draw = 0.0

    def advance(self, count: int = 1, note: str | None = None) -> None:
        """Count ``count`` more items done; ``note`` replaces the text after the bar."""
        self.done += count
        if note is not None:
            self.note = note
        now = time.monotonic()
        if self._enabled and (now - self._last_draw >= _REDRAW_SECONDS or self.done == self.total):
            self._draw(now)

    def _draw(self, now: float) -> None:
        self._last_draw = now
        elapsed = max(now - self._started, 1e-9)
        rate = self.done / elapsed
        parts = [self.label]
        if self.total:
            filled = int(_BAR_WIDTH * min(self.done, self.total) / self.total)
            parts.append("[" + "#" * filled + "." * (_BAR_WIDTH - filled) + "]")
            parts.append(f"{self.done}/{self.total}")
        else:
            parts.append(str(self.done))
        parts.append(f"{rate:,.1f}{self.unit}/s")
        if self.total and rate > 0 and self.done < self.total:
            parts.append(f"ETA {_clock((self.total - self.done) / rate)}")
        else:
            parts.append(_clock(elapsed))
        if self.note:
            parts.append(self.note)
        self._stream.write("\r\x1b[K" + " ".join(parts))
        self._stream.flush()

    def close(self) -> None:
        """Draw the final state and end the line."""
        if self._enabled:
            self._draw(time.monotonic())
            self._stream.write("\n")
            self._stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
