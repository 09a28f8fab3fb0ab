"""Running the web app on uvicorn (``c4 serve``)."""

from __future__ import annotations

import asyncio
import socket
import sys
from dataclasses import replace

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from c4engine.errors import ServeError
from c4engine.web.app import ServerCaps, create_app

__all__ = ["browser_address", "listen", "serve", "uvicorn_config"]


class _HeadTimeoutProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for every request's head.

    uvicorn closes an idle connection only once a response has been sent
    (``timeout_keep_alive``); a client that connects and sends nothing, or
    half a request line, would hold its connection for ever.  Here the
    connection is closed unless a request's head arrives within
    ``read_timeout`` seconds of the connection or of the previous response.
    The body has its own deadline in the app (answered with a 408).
    """

    read_timeout = ServerCaps.read_timeout
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        cycle = self.cycle
        super().data_received(data)
        if self.cycle is not cycle:  # a request's head was parsed
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self._head_timer = self.loop.call_later(self.read_timeout, self._expired)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _expired(self) -> None:
        self._head_timer = None
        if self.cycle is None or self.cycle.response_complete:  # no request under way: waiting for a head
            self.transport.close()


def uvicorn_config(
    host: str = "127.0.0.1", port: int = 8000, *, caps: ServerCaps | None = None, log_level: str = "info"
) -> uvicorn.Config:
    """The uvicorn settings ``c4 serve`` uses: h11 with a deadline for request heads, at most
    ``caps.max_connections`` connections (503 beyond), and a large request-line limit so the
    app's own 414 answers long query strings with JSON."""
    chosen = caps or ServerCaps()

    class Protocol(_HeadTimeoutProtocol):
        read_timeout = chosen.read_timeout

    return uvicorn.Config(
        create_app(chosen),
        host=host,
        port=port,
        http=Protocol,
        h11_max_incomplete_event_size=1024 * 1024,
        limit_concurrency=chosen.max_connections,
        timeout_keep_alive=5,
        log_level=log_level,
        access_log=False,
        timeout_graceful_shutdown=5,
    )


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``, or :class:`ServeError` saying why not (a port in use ...).

    Binding before anything is printed means a busy port is reported at once,
    not after the address the user is told to open.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: restart at once
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        reason = error.strerror or str(error)
        raise ServeError(f"cannot listen on {host} port {port} (--host, --port): {reason}") from None
    return sock


_EVERY_INTERFACE = ("", "0.0.0.0", "::")
"""The hosts that mean every interface of this machine: no browser can open them."""


def browser_address(host: str, port: int) -> tuple[str, str | None]:
    """The address to open in a browser on this machine, and a note when ``host`` is every interface
    (``0.0.0.0`` or ``::``, which no browser can open).

    >>> browser_address("127.0.0.1", 8080)
    ('http://127.0.0.1:8080/', None)
    >>> browser_address("::1", 8080)
    ('http://[::1]:8080/', None)
    >>> address, note = browser_address("0.0.0.0", 8080)
    >>> address
    'http://127.0.0.1:8080/'
    >>> note
    "listening on every interface (0.0.0.0): from another machine open this machine's address, port 8080"
    """
    note = None
    if host in _EVERY_INTERFACE:
        note = (
            f"listening on every interface ({host or '0.0.0.0'}): from another machine open this "
            f"machine's address, port {port}"
        )
        host = "::1" if host == "::" else "127.0.0.1"
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/", note


def serve(host: str, port: int, *, workers: int | None = None, max_pending: int = 64) -> int:
    """Serve until interrupted; returns the exit status.  ``workers``: analysis processes."""
    caps = ServerCaps(max_pending=max_pending)
    if workers is not None:
        caps = replace(caps, workers=workers)
    sock = listen(host, port)
    port = sock.getsockname()[1]  # the one the system chose for --port 0
    address, note = browser_address(host, port)
    print(f"c4 serve: open {address} in a browser (API docs at /docs); Ctrl-C stops", file=sys.stderr)
    if note:
        print(f"c4 serve: {note}", file=sys.stderr)
    server = uvicorn.Server(uvicorn_config(host, port, caps=caps))
    server.run(sockets=[sock])
    return 0 if server.started else 1
