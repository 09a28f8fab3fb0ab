"""Running the web app on uvicorn (``c4 serve``)."""

from __future__ import annotations

import socket
import sys
from dataclasses import replace

import uvicorn

from c4engine.errors import ServeError
from c4engine.web.app import Limits, create_app

__all__ = ["listen", "serve", "uvicorn_config"]


def uvicorn_config(
    host: str = "127.0.0.1", port: int = 8000, *, limits: Limits | None = None, log_level: str = "info"
) -> uvicorn.Config:
    """The uvicorn settings ``c4 serve`` uses (h11, a large request-line limit so the app's own
    414 answers long query strings with JSON)."""
    return uvicorn.Config(
        create_app(limits),
        host=host,
        port=port,
        http="h11",
        h11_max_incomplete_event_size=1024 * 1024,
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


def serve(host: str, port: int, *, workers: int | None = None, max_pending: int = 64) -> int:
    """Serve until interrupted; returns the exit status."""
    limits = Limits(max_pending=max_pending)
    if workers is not None:
        limits = replace(limits, workers=workers)
    sock = listen(host, port)
    port = sock.getsockname()[1]  # the one the system chose for --port 0
    shown = f"[{host}]" if ":" in host else host
    print(
        f"c4 serve: open http://{shown}:{port}/ in a browser (API docs at /docs); Ctrl-C stops",
        file=sys.stderr,
    )
    server = uvicorn.Server(uvicorn_config(host, port, limits=limits))
    server.run(sockets=[sock])
    return 0 if server.started else 1
