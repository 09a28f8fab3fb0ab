"""Running the web app on uvicorn (``c4 serve``)."""

from __future__ import annotations

import sys
from dataclasses import replace

import uvicorn

from c4engine.web.app import Limits, create_app

__all__ = ["serve", "uvicorn_config"]


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


def serve(host: str, port: int, *, workers: int | None = None, max_pending: int = 64) -> int:
    """Serve until interrupted; returns the exit status."""
    limits = Limits(max_pending=max_pending)
    if workers is not None:
        limits = replace(limits, workers=workers)
    shown = f"[{host}]" if ":" in host else host
    print(
        f"c4 serve: open http://{shown}:{port}/ in a browser (API docs at /docs); Ctrl-C stops",
        file=sys.stderr,
    )
    server = uvicorn.Server(uvicorn_config(host, port, limits=limits))
    server.run()
    return 0 if server.started else 1
