"""``c4 serve``: the web page and its JSON API (:mod:`c4engine.web`), on a local address."""

from __future__ import annotations

import argparse

from c4engine.cli.command import Command
from c4engine.cli.options import add_worker_count
from c4engine.errors import C4Error

__all__ = ["COMMANDS", "SERVE", "run_serve"]


def _serve_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    add_worker_count(
        parser,
        "analysis processes; moves have their own (default: cores - 1, at least 1; at most the cores)",
        least=1,
    )
    parser.add_argument(
        "--queue", type=int, default=64, help="engine requests queued before 503 (default 64)"
    )


def run_serve(args: argparse.Namespace) -> int:
    """Handler of ``c4 serve``: serves until stopped; bad options raise :class:`C4Error`."""
    try:
        from c4engine.web.server import serve
    except ImportError as error:  # pragma: no cover - fastapi and uvicorn are dependencies
        raise C4Error(
            f"the web server needs fastapi and uvicorn ({error}); install them: pip install fastapi uvicorn"
        ) from error
    if args.queue < 1:
        raise C4Error(f"--queue must be at least 1, not {args.queue}")
    if not 0 <= args.port <= 65535:
        raise C4Error(f"--port must be 0..65535, not {args.port}")
    return serve(args.host, args.port, workers=args.workers, max_pending=args.queue)


SERVE = Command(
    "serve",
    summary="play and analyse in the browser",
    description="Serve the web page and its JSON API (OpenAPI document at /docs). "
    "Open the address it prints in a browser.",
    add_options=_serve_options,
    run=run_serve,
)
COMMANDS = (SERVE,)
