"""Child processes that leave Ctrl-C to their parent and never outlive it.

Worker processes (:mod:`c4engine.jobs`) and external players run in their
own process (:mod:`c4engine.play.hosted`) follow two rules:

* **Ctrl-C is the parent's.**  A terminal sends SIGINT to every process of
  the foreground group; a child that took it would die with a traceback of
  its own.  Children are started with SIGINT ignored (:func:`sigint_ignored`
  around the start: an ignored signal stays ignored across ``exec``, and
  Python then installs no KeyboardInterrupt handler), so the parent alone
  decides, and stops them.
* **No orphans.**  A child calls :func:`die_with_parent` first thing: on
  Linux the kernel kills it when its parent dies (``PR_SET_PDEATHSIG``,
  even while the child runs compiled code), and everywhere a watcher thread
  checks every :data:`PARENT_CHECK_SECONDS` that the parent is still the
  same process, so ``kill -9`` of the parent leaves no worker behind.

>>> with sigint_ignored():
...     signal.getsignal(signal.SIGINT) is signal.SIG_IGN
True
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["PARENT_CHECK_SECONDS", "die_with_parent", "sigint_ignored", "starts_pdeathsig"]

PARENT_CHECK_SECONDS = 0.5
"""How often a child's watcher thread checks that its parent is alive."""

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


@contextmanager
def sigint_ignored() -> Iterator[None]:
    """SIGINT ignored in this block (in the main thread; elsewhere signals cannot be changed).

    Processes started in the block inherit the ignored SIGINT.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def starts_pdeathsig() -> bool:
    """Whether a child started now by this thread may ask the kernel to die with it.

    Linux sends the signal when the *thread* that started the child ends, so
    only children of the main thread (which lives as long as the process) ask.
    """
    return sys.platform == "linux" and threading.current_thread() is threading.main_thread()


def die_with_parent(parent_pid: int, pdeathsig: bool) -> None:
    """Make this process end when the process ``parent_pid`` (its parent) ends.

    ``pdeathsig`` (from the parent's :func:`starts_pdeathsig`) also asks
    Linux for SIGKILL at the parent's death; the watcher thread covers the
    other cases.  A parent already gone ends this process at once.
    """
    if pdeathsig:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no libc prctl: the watcher is enough
            pass
    if os.getppid() != parent_pid:  # died before the request above was in place
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent_pid,), name="parent watcher", daemon=True).start()


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)  # an orphan: nobody will read what it computes
