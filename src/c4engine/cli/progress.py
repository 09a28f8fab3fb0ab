"""The live line of long work on standard error, drawn with rich.

What runs, the time it has taken, how far it got (a bar where the total is
known) and a note -- depth, nodes, the best move so far -- fed by the
library's progress callbacks (a search's poll hook, a counter of games or
positions).  The line is drawn only when standard error is a terminal (or
when a command's ``--progress`` forces it), only once the work has run
:data:`SHOW_AFTER` seconds, and it is cleared when the work ends: quick
commands see nothing of it.  A pipe, a log or a notebook gets plain lines
instead, never redrawn (:class:`PlainLine`): one once the work has run
:data:`SHOW_AFTER` seconds, saying what runs and how to bound it (the
caller's ``hint``), then one every :data:`PLAIN_EVERY` seconds.

>>> import io
>>> stream = io.StringIO()
>>> with ProgressLine("solving", 3, stream=stream, enabled=True, show_after=0) as bar:
...     for _ in range(3):
...         bar.advance(note="so far so good")
>>> "solving" in stream.getvalue() and "3/3" in stream.getvalue()
True
>>> with ProgressLine("solving", 3, stream=io.StringIO(), enabled=False) as quiet:   # nothing drawn
...     quiet.advance()
>>> log = io.StringIO()
>>> with ProgressLine("solving", stream=log, show_after=0, hint="bound it with --time") as plain:
...     plain.note("score between -2 and 5")
>>> log.getvalue()                       # a pipe: one plain line, quick work ended before the next
'c4: solving (bound it with --time)\\n'
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

from c4engine.cli.line_task import LineTask

if TYPE_CHECKING:  # types only: rich (a quarter second) is imported when a line is drawn, never
    # by a command answering at once, and the search (numba) not at all
    from c4engine.cli.live import LiveLine
    from c4engine.play.players import Agent, AnalystPlayer, PerfectPlayer
    from c4engine.search.engine.negamax import Engine
    from c4engine.search.progress import Progress

__all__ = [
    "PLAIN_EVERY",
    "SHOW_AFTER",
    "AgentProgressLine",
    "PlainLine",
    "ProgressLine",
    "describe_search",
    "describe_solve",
    "format_duration",
    "tell_of_compile",
]

SHOW_AFTER = 1.0
"""Seconds of work before the line appears: what ends sooner shows nothing."""

PLAIN_EVERY = 10.0
"""Seconds between the plain lines written where standard error is not a terminal."""


class PlainLine:
    """The live line's plain form for a pipe or a log: after ``show_after`` seconds a line saying what
    runs (``label``) and how to bound it (``hint``), then every ``every`` seconds the time, the count
    and the note, each a line of its own (``c4: ...``), written by the process's one timer thread
    (:class:`_Ticker`)."""

    def __init__(self, task: LineTask, *, hint: str | None = None, every: float = PLAIN_EVERY) -> None:
        self._label, self._total, self._done, self._unit = task.label, task.total, task.done, task.unit
        self._stream, self._hint, self._note = task.stream, hint, ""
        self._start = time.monotonic()
        self._every = every
        self._shown = task.show_after <= 0
        if self._shown:
            self._first()  # at once, before the work starts
        self._ticker = _Ticker.shared()  # the one it leaves at stop(), even after a fork
        self._ticker.add(self, self._start + (every if self._shown else task.show_after))

    def _first(self) -> None:
        self._write(f"{self._label} ({self._hint})" if self._hint else f"{self._label} ...")

    def tick(self) -> float:
        """Write the line due now (the ticker's call); the seconds until the next."""
        if not self._shown:
            self._shown = True
            self._first()
        else:
            count = f"{self._done:,}" + ("" if self._total is None else f"/{self._total:,}") + self._unit
            parts = [format_duration(time.monotonic() - self._start)]
            parts += [count] * (self._total is not None or self._done > 0) + [self._note] * bool(self._note)
            self._write(f"{self._label}: {', '.join(parts)}")
        return self._every

    def _write(self, text: str) -> None:
        print(f"c4: {text}", file=self._stream, flush=True)

    def advance(self, count: int, note: str | None) -> None:
        self._done += count
        if note is not None:
            self._note = note

    def update(
        self, note: str, done: int | None = None, total: int | None = None, left: float | None = None
    ) -> None:
        self._note = note
        self._done = self._done if done is None else done
        self._total = self._total if total is None else total

    def stop(self) -> None:
        """Write no more (once this returns, the ticker is not writing this line either)."""
        self._ticker.remove(self)


class _Ticker:
    """The one timer thread that writes every plain line of the process when it is due.

    Started with the first line; a line joins and leaves it, with no thread of
    its own: a thread started and joined for each position of a batch on a
    pipe (``c4 solve < positions``) took about a millisecond a position.
    A line is written with the ticker's lock held, so :meth:`remove` returns
    only once no write of that line is under way.
    """

    _shared: _Ticker | None = None
    _making = threading.Lock()  # lines made on two threads at once share one ticker

    def __init__(self) -> None:
        self._due: dict[PlainLine, float] = {}
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="c4-plain-lines", daemon=True)
        self._thread.start()

    @classmethod
    def shared(cls) -> _Ticker:
        """The process's ticker (a forked child starts its own: threads do not survive a fork)."""
        with cls._making:
            if cls._shared is None:
                cls._shared = _Ticker()
            return cls._shared

    def add(self, line: PlainLine, due: float) -> None:
        with self._changed:
            self._due[line] = due
            self._changed.notify()

    def remove(self, line: PlainLine) -> None:
        with self._changed:
            self._due.pop(line, None)

    def _run(self) -> None:
        with self._changed:
            while True:
                now = time.monotonic()
                for line, due in list(self._due.items()):
                    if due <= now:
                        self._due[line] = now + line.tick()
                self._changed.wait(min(self._due.values()) - now if self._due else None)


def _forget_ticker() -> None:
    _Ticker._shared = None
    _Ticker._making = threading.Lock()


if hasattr(os, "register_at_fork"):  # no fork on Windows
    os.register_at_fork(after_in_child=_forget_ticker)


class ProgressLine:
    """One live line for a piece of work: ``label``, a bar (pulsing while ``total`` is unknown),
    ``done/total``, the elapsed and remaining time, and a note.

    ``enabled`` None draws when ``stream`` (default standard error) is a
    terminal, and writes plain lines (:class:`PlainLine`, with ``hint``: how to
    bound the work) when it is not; True draws anyway (``--progress``), False
    never; ``show_after`` defaults to :data:`SHOW_AFTER`.  ``done``
    counts work finished before (a resumed match).  Use it as a context
    manager: leaving the block clears the line.
    """

    def __init__(
        self,
        label: str,
        total: int | None = None,
        *,
        done: int = 0,
        unit: str = "",
        stream: TextIO | None = None,
        enabled: bool | None = None,
        show_after: float | None = None,
        hint: str | None = None,
    ) -> None:
        self._line: LiveLine | PlainLine | None = None
        stream = stream if stream is not None else sys.stderr
        task = LineTask(label, total, done, unit, stream, SHOW_AFTER if show_after is None else show_after)
        if stream.isatty() if enabled is None else enabled:
            from c4engine.cli.live import LiveLine

            self._line = LiveLine(task, force=bool(enabled))
        elif enabled is None:  # a pipe or a log: plain lines, now and then
            self._line = PlainLine(task, hint=hint)

    def advance(self, count: int = 1, note: str | None = None) -> None:
        """Count ``count`` more items done; ``note`` replaces the text at the end of the line."""
        if self._line is not None:
            self._line.advance(count, note)

    def note(self, text: str) -> None:
        """Replace the text at the end of the line (what the work has reached)."""
        if self._line is not None:
            self._line.update(note=text)

    def update(self, done: int, total: int, note: str, *, left: float | None = None) -> None:
        """Set how much is done of how much (the total may become known late) and the note.

        ``left`` is the caller's own reckoning of the seconds still to go, shown
        instead of the line's guess from the last half-minute's pace (which has
        nothing to go on while items take minutes each).
        """
        if self._line is not None:
            self._line.update(note, done, total, left)

    def poll(self, progress: Progress) -> None:
        """A poll hook for the engine, the solver or the analysis service: shows how far it got."""
        if progress.lower is not None:  # the solver's: its proven bounds
            self.note(describe_solve(progress))
        else:
            self.note(describe_search(progress))

    def close(self) -> None:
        """Clear the line (nothing is left on the terminal)."""
        if self._line is not None:
            self._line.stop()
            self._line = None

    def __enter__(self) -> ProgressLine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class AgentProgressLine(ProgressLine):
    """The live line of a computer choosing its move: how far its search got, for an engine, the
    perfect player or the analysis service (depth or score bounds, nodes, best move so far).

    The player's poll hook is borrowed while the line is drawn and given back
    when it closes; other players show the label and the time.
    """

    def __init__(
        self,
        agent: Agent,
        label: str,
        *,
        stream: TextIO | None = None,
        enabled: bool | None = None,
        hint: str | None = None,
    ) -> None:
        from c4engine.play.players import AnalystPlayer, EnginePlayer, PerfectPlayer

        super().__init__(label, stream=stream, enabled=enabled, hint=hint)
        self._searcher: Engine | AnalystPlayer | PerfectPlayer | None = None
        if self._line is not None:
            if isinstance(agent, EnginePlayer):
                self._searcher = agent.engine
            elif isinstance(agent, AnalystPlayer | PerfectPlayer):
                self._searcher = agent
        if self._searcher is not None:
            self._lent = self._searcher.poll
            self._searcher.poll = self.poll

    def close(self) -> None:
        if self._searcher is not None:
            self._searcher.poll = self._lent
            self._searcher = None
        super().close()


def describe_search(progress: Progress) -> str:
    """The engine's progress in words: depth, nodes, best move so far (1-based) and its value.

    >>> from c4engine.search.progress import Progress
    >>> describe_search(Progress(nodes=1_234_567, time=2.0, best_move=3, depth=9, score=12.5, cpu_time=1.9))
    'depth 9, 1,234,567 nodes, best 4 (score +12.5)'
    """
    text = f"depth {progress.depth}, {progress.nodes:,} nodes"
    if progress.best_move is not None:
        text += f", best {progress.best_move + 1}"
        if progress.score is not None:
            text += f" ({_engine_words(progress.score)})"
    return text


def _engine_words(value: float) -> str:
    """An engine value in words: ``"win in 3 moves"`` (the winner's moves) or ``"score +12.5"``.

    >>> from c4engine.search.scale import WIN_SCORE
    >>> _engine_words(WIN_SCORE - 5), _engine_words(-(WIN_SCORE - 8)), _engine_words(-7.0)
    ('win in 3 moves', 'loss in 4 moves', 'score -7')
    """
    from c4engine.search.scale import WIN_SCORE, WIN_THRESHOLD

    if abs(value) < WIN_THRESHOLD:
        return f"score {value:+g}"
    moves = (int(WIN_SCORE - abs(value)) + 1) // 2  # plies from now, the winning stone included
    return f"{'win' if value > 0 else 'loss'} in {moves} move{'' if moves == 1 else 's'}"


def describe_solve(progress: Progress) -> str:
    """The solver's progress in words: nodes, the score's bounds so far, best move (1-based).

    >>> from c4engine.search.progress import Progress
    >>> describe_solve(Progress(nodes=2_000_000, time=3.0, best_move=3, lower=-2, upper=5))
    '2,000,000 nodes, score between -2 and 5, best 4'
    """
    text = f"{progress.nodes:,} nodes, score between {progress.lower} and {progress.upper}"
    if progress.best_move is not None:
        text += f", best {progress.best_move + 1}"
    return text


def tell_of_compile(message: str, stream: TextIO | None = None) -> None:
    """Say ``message`` (a kernel's one-time compile, :func:`c4engine.search.on_compile`) on
    standard error, a terminal or not: the person or the log waiting knows why (on a terminal
    rich prints it above the live line; elsewhere the plain lines' wait is explained).

    >>> import io
    >>> pipe = io.StringIO()
    >>> tell_of_compile("compiling the solver, once, about 30 s", pipe)
    >>> pipe.getvalue().splitlines()
    ['c4: compiling the solver, once, about 30 s']
    """
    stream = stream if stream is not None else sys.stderr
    print(f"c4: {message}", file=stream, flush=True)


_SUBSECOND_UNITS = ((1e-9, "ns"), (1e-6, "us"), (1e-3, "ms"), (1.0, "s"))


def format_duration(seconds: float) -> str:
    """A duration for people: three significant digits in ns, us, ms or s below a minute, then
    minutes and seconds, then hours and minutes.

    >>> [format_duration(s) for s in (0, 4.2e-8, 2.1794931e-3, 0.9996, 2.1794931, 59.96)]
    ['0 s', '42 ns', '2.18 ms', '1 s', '2.18 s', '1 min 0 s']
    >>> format_duration(754.4), format_duration(9000), format_duration(100_000)
    ('12 min 34 s', '2 h 30 min', '27 h 47 min')
    """
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"a duration is a finite number of seconds, at least 0, not {seconds}")
    if seconds == 0:
        return "0 s"
    for scale, unit in _SUBSECOND_UNITS:
        value = float(f"{seconds / scale:.3g}")  # rounded to 3 digits first: 999.96 ms is 1 s
        if value < 1000 and (unit != "s" or value < 60):
            return f"{value:g} {unit}"
    whole = round(seconds)
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    minutes = round(seconds / 60)
    return f"{minutes // 60} h {minutes % 60} min"
