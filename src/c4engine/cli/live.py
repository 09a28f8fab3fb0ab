"""The drawing of :class:`c4engine.cli.progress.Progress`, by rich: imported only when a line is drawn."""

from __future__ import annotations

import time
from collections.abc import Iterable

from rich.console import Console, RenderableType
from rich.progress import (
    BarColumn,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as _RichProgress
from rich.table import Column
from rich.text import Text

from c4engine.cli.line_task import LineTask

__all__ = ["LiveLine"]

_REFRESH_PER_SECOND = 5


class _DelayedProgress(_RichProgress):
    """rich's progress display, empty until ``show_after`` seconds have passed."""

    def __init__(self, *columns: ProgressColumn, show_after: float, console: Console) -> None:
        self._show_at = time.monotonic() + show_after  # rich renders once while it sets up
        super().__init__(
            *columns,
            console=console,
            transient=True,  # cleared when done
            refresh_per_second=_REFRESH_PER_SECOND,
            redirect_stdout=False,  # the answer goes to standard output untouched
        )

    def get_renderables(self) -> Iterable[RenderableType]:
        if time.monotonic() >= self._show_at:
            yield from super().get_renderables()


class _Count(ProgressColumn):
    """``done/total unit``, or ``done unit`` while the total is unknown (nothing without a unit)."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        if task.total is not None:
            return Text(f"{task.completed:,.0f}/{task.total:,.0f}{self.unit}")
        return Text(f"{task.completed:,.0f}{self.unit}" if self.unit else "")


class _WhenTotal(ProgressColumn):
    """``column``, shown only while the task's total is known (``known``) or only while it is not."""

    def __init__(self, column: ProgressColumn, *, known: bool) -> None:
        super().__init__()
        self.column = column
        self.known = known

    def render(self, task: Task) -> RenderableType:
        return self.column.render(task) if (task.total is not None) == self.known else Text("")


class _TimeLeft(ProgressColumn):
    """``~H:MM:SS`` to the finish the caller reckoned (the task's field ``finish``, a
    ``time.monotonic()`` value; it counts down between updates), else rich's own guess."""

    def __init__(self) -> None:
        super().__init__()
        self.guess = TimeRemainingColumn()

    def render(self, task: Task) -> RenderableType:
        finish = task.fields.get("finish")
        if finish is None:
            return self.guess.render(task)
        minutes, seconds = divmod(max(0, round(finish - time.monotonic())), 60)
        hours, minutes = divmod(minutes, 60)
        return Text(f"~{hours}:{minutes:02d}:{seconds:02d}", style="progress.remaining")


class LiveLine:
    """One task of a rich progress display on ``stream``: label, bar, count, times, note."""

    def __init__(self, task: LineTask, *, force: bool) -> None:
        # Short enough for 80 columns: a spinner while the total is unknown, a bar and the time
        # left once it is known.  Where the line is too long the note gives way (cut at its end),
        # never what runs or the time it has taken.
        self._display = _DelayedProgress(
            _WhenTotal(SpinnerColumn(), known=False),
            TextColumn(
                "{task.description}",
                markup=False,
                table_column=Column(no_wrap=True, min_width=min(len(task.label), 40)),
            ),
            _WhenTotal(BarColumn(bar_width=20), known=True),
            _Count(task.unit),
            TimeElapsedColumn(table_column=Column(no_wrap=True, min_width=7)),
            _WhenTotal(_TimeLeft(), known=True),
            TextColumn(
                "{task.fields[note]}",
                markup=False,
                table_column=Column(no_wrap=True, overflow="ellipsis", ratio=1),
            ),
            show_after=task.show_after,
            console=Console(file=task.stream, force_terminal=True if force else None),
        )
        self._task = self._display.add_task(
            task.label, total=task.total, completed=task.done, note="", finish=None
        )
        self._display.start()

    def advance(self, count: int, note: str | None) -> None:
        if note is None:
            self._display.advance(self._task, count)
        else:
            self._display.update(self._task, advance=count, note=note)

    def update(
        self, note: str, done: int | None = None, total: int | None = None, left: float | None = None
    ) -> None:
        """Set the note, and the count and total when given (rich keeps those given as None), and
        the seconds left as the caller reckons them (None: rich's guess)."""
        finish = None if left is None else time.monotonic() + left
        self._display.update(self._task, completed=done, total=total, note=note, finish=finish)

    def stop(self) -> None:
        self._display.stop()
