"""Objects holding a resource until :meth:`~Closing.close`, which a ``with`` block calls on the way out.

The opening book (a memory map), the job runner (worker processes) and
every SQLite store hold something the operating system must get back; each
says how in ``close`` and inherits the ``with`` block from :class:`Closing`.

>>> class Tap(Closing):
...     def close(self) -> None:
...         print("closed")
>>> with Tap() as tap:
...     print(type(tap).__name__)
Tap
closed
"""

from __future__ import annotations

from types import TracebackType
from typing import Self

__all__ = ["Closing"]


class Closing:
    """A base whose ``with`` block gives the object itself and calls :meth:`close` on leaving."""

    def close(self) -> None:
        """Give back what the object holds; a subclass says how."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()
