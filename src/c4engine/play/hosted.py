"""An external player in a process of its own, so that a move that takes too long can be stopped.

A player given as ``package.module:NAME`` is somebody else's code: it may
sleep, loop or wait for ever.  :class:`HostedPlayer` runs it in a child
process (started by :class:`PlayerHost`) and waits at most ``move_timeout``
seconds for each move; a player that has not answered by then raises
:class:`~c4engine.errors.MoveTimeoutError` (a match scores that game as lost
on time) and its process is killed -- the next game starts a fresh one.
The process also reports the CPU time the player used for the move, so the
player's own work is timed, not the messages.

The host process leaves Ctrl-C to its parent and ends with it
(:mod:`c4engine.processes`), and one host serves every game a process plays
with that player (starting one costs a Python start-up and the module's
import), making the player afresh for each game with that game's seed.

>>> player = HostedPlayer("c4engine.play.players:RandomPlayer", seed=1, move_timeout=60)
>>> from c4engine.board import Board
>>> player.choose_move(Board()) in range(7)
True
>>> stop_hosts()
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path

from c4engine.board import Board
from c4engine.errors import MoveTimeoutError, PlayerFailedError, PlayerSpecError
from c4engine.processes import die_with_parent, sigint_ignored, starts_pdeathsig
from c4engine.search.limit import Limit

__all__ = ["DEFAULT_MOVE_TIMEOUT", "START_TIMEOUT", "HostedPlayer", "PlayerHost", "main", "stop_hosts"]

DEFAULT_MOVE_TIMEOUT = 30.0
"""Seconds an external player may take for one move before it loses on time.

The built-in levels answer within a few seconds even on a loaded machine,
and a Python player that needs more than half a minute for one move is
almost surely stuck; 30 s still leaves room for a first move that loads a
model or compiles code.
"""

_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
"""The folder that holds the ``c4engine`` package."""

START_TIMEOUT = 60.0
"""Seconds a host may take to start: Python, c4engine and the player's module imported, player made."""


class PlayerHost:
    """A child process that runs the external player ``spec`` and answers one request at a time.

    Requests and answers are pickled tuples on a socket pair: ``("start",
    sys.path, spec)`` first, then ``("player", seed)`` makes the player for a
    game and ``("move", moves, width, height, connect)`` asks its move.
    :meth:`ask` waits a given number of seconds for the answer and kills the
    process if none comes.
    """

    def __init__(self, spec: str) -> None:
        self.spec = spec
        ours, theirs = socket.socketpair()
        # c4engine's own folder appended to the child's path: found even where this process was
        # given it by hand, and never in front of anything
        bootstrap = (
            f"import sys; sys.path.append({_PACKAGE_ROOT!r}); from c4engine.play.hosted import main; main()"
        )
        command = [sys.executable, "-c", bootstrap, str(theirs.fileno()), str(os.getpid())]
        command.append("1" if starts_pdeathsig() else "0")
        with sigint_ignored():  # Ctrl-C is the parent's: it stops the host itself
            self.process = subprocess.Popen(command, pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
        theirs.close()
        self.connection = Connection(ours.detach())
        # with this process's module search path (a module in the current folder, for one)
        self.ask(("start", sys.path, spec), START_TIMEOUT)

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def ask(self, request: tuple[object, ...], seconds: float) -> object:
        """The answer to ``request`` within ``seconds``: MoveTimeoutError (and the host killed) if none.

        An error the player raised comes back as :class:`PlayerFailedError`
        (its message in one line); a host that died, as one too.
        """
        try:
            self.connection.send(request)
            if not self.connection.poll(seconds):
                self.stop()
                raise MoveTimeoutError(f"no answer within {seconds:g} s")
            kind, value = self.connection.recv()
        except (EOFError, OSError):
            self.stop()
            raise PlayerFailedError(
                f"the player's process ended (exit status {self.process.returncode})"
            ) from None
        if kind == "error":
            raise PlayerFailedError(str(value))
        if kind == "spec":
            raise PlayerSpecError(str(value))
        return value

    def stop(self) -> None:
        """Kill the process (at once: it may be stuck in the player's code)."""
        if self.alive:
            self.process.kill()
        self.process.wait()
        self.connection.close()


class _Hosts(threading.local):
    """This thread's hosts, by player spec: each serves the games of that player one after the other.

    Per thread, as a Dask worker plays several games at once in threads, and
    a host answers one request at a time.
    """

    def __init__(self) -> None:
        self.by_spec: dict[str, PlayerHost] = {}


_HOSTS = _Hosts()


def _host(spec: str) -> PlayerHost:
    host = _HOSTS.by_spec.get(spec)
    if host is None or not host.alive or host.connection.closed:
        host = _HOSTS.by_spec[spec] = PlayerHost(spec)
    return host


def stop_hosts() -> None:
    """Stop every host this thread started (a match ends, or is interrupted)."""
    while _HOSTS.by_spec:
        _HOSTS.by_spec.popitem()[1].stop()


class HostedPlayer:
    """The external player ``spec`` (``package.module:NAME``), made with ``seed``, in a host process.

    :meth:`choose_move` raises :class:`~c4engine.errors.MoveTimeoutError` when
    the player takes more than ``move_timeout`` wall-clock seconds.
    :attr:`last_cpu` is the CPU time the player's process spent on the last
    move.
    """

    is_human = False

    def __init__(
        self, spec: str, *, seed: int | None = None, move_timeout: float = DEFAULT_MOVE_TIMEOUT
    ) -> None:
        self.name = spec.strip()
        self.move_timeout = move_timeout
        self.last_cpu = 0.0
        starting = Limit(time=START_TIMEOUT).start()
        self._host = _host(spec)
        left = starting.remaining(at_least=move_timeout).time  # what is left, at least a move's time
        self._host.ask(("player", seed), move_timeout if left is None else left)

    def choose_move(self, board: Board) -> int:
        request = ("move", board.moves, board.width, board.height, board.connect)
        answer = self._host.ask(request, self.move_timeout)
        assert isinstance(answer, tuple)
        column, self.last_cpu = answer
        return column  # type: ignore[no-any-return]  # whatever the player returned: the caller checks it

    def __repr__(self) -> str:
        return f"HostedPlayer({self.name!r})"


def _serve(connection: Connection) -> None:
    """The host's loop: make the player, answer its moves, until the parent closes the pipe."""
    from c4engine.play.players import describe_error, load_external_agent

    spec = ""
    player = None
    while True:
        try:
            request = connection.recv()
        except EOFError:
            return
        kind = request[0]
        try:
            if kind == "start":
                sys.path[:], spec = request[1], request[2]
                answer: tuple[str, object] = ("ok", None)
            elif kind == "player":
                player = load_external_agent(spec, seed=request[1])
                answer = ("ok", None)
            else:
                assert player is not None, "a move asked before the player was made"
                board = Board.from_moves(request[1], request[2], request[3], request[4])
                started = time.process_time()
                column = player.choose_move(board)
                answer = ("ok", (column, time.process_time() - started))
        except PlayerSpecError as error:
            answer = ("spec", str(error))
        except Exception as error:  # the player's bug, reported in one line by the parent
            answer = ("error", describe_error(error))
        try:
            connection.send(answer)
        except Exception as error:  # a move that does not pickle
            connection.send(("error", f"the player returned something that cannot be sent: {error}"))


def main() -> None:  # pragma: no cover - runs in the host process
    """The host process: ``python -c BOOTSTRAP DESCRIPTOR PARENT_PID PDEATHSIG`` (see :class:`PlayerHost`)."""
    descriptor, parent, pdeathsig = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
    die_with_parent(parent, pdeathsig)
    _serve(Connection(descriptor))
