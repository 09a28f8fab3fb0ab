"""The web front-end: a FastAPI app serving the page and a JSON API.

``c4 serve`` runs :func:`create_app` on uvicorn; it assembles the routes
(:mod:`c4engine.web.routes`), their models (:mod:`c4engine.web.models`),
the error answers (:mod:`c4engine.web.errors`) and the request caps
(:mod:`c4engine.web.middleware`) within the :class:`ServerCaps`.  The page (``static/``) is
plain HTML, CSS and JavaScript.  The API, documented at ``/docs`` (OpenAPI
at ``/openapi.json``):

* ``GET /api/position`` -- the board of a move string, whose turn, the winner and its line;
* ``GET /api/analyze`` -- every column's proven bounds, score or estimate and line, the best
  columns by dominance (time-capped; says what is proven): ``c4 analyze --json``'s shape;
* ``GET /api/explain`` -- the coach's explanation: threats (odd and even), immediate facts, the
  zugzwang, a proof by Allis' rules where they settle it, the sentences: ``c4 explain --json``'s shape;
* ``POST /api/move`` -- the computer's move at a skill level;
* ``POST /api/review`` -- every move of a game scored, mistakes marked, the better lines;
* ``GET /api/record`` -- the game as a JSON game record;
* ``GET /healthz`` -- liveness, answered by the event loop alone.

Columns and rows in the API count from 1, as people and move strings do;
rows from the bottom.  Positions are move strings (``4453``, or ``10,3,4``
on boards wider than 9), sizes ``WxH``.

Engine work runs in warm worker processes (:mod:`c4engine.web.pool`) in two
lanes, moves apart from analyses, shared fairly between clients; a request
whose client goes away is cancelled.  A client is its network address (an
IPv6 /64 counts as one) and the token its page sends in ``X-C4-Client``, so
people behind one address do not share a quota.  Bounds on queued work
answer ``503`` (the server is busy) or ``429`` (this client, or its address
with all its clients, has its share under way) with ``Retry-After`` instead
of letting work pile up.  A client gets
``read_timeout`` seconds to send its request (``408`` after that).  Bad
input answers a 4xx JSON ``{"error": "..."}`` a person can read; never a
500.  Every answer carries security headers (a strict Content-Security-Policy,
``nosniff``, no framing); ``/docs`` is Swagger UI served from this server,
so it works offline.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI

from c4engine import __version__
from c4engine.web.caps import ServerCaps
from c4engine.web.errors import add_error_handlers
from c4engine.web.middleware import RequestCapsMiddleware, SecurityHeadersMiddleware
from c4engine.web.pool import Lane
from c4engine.web.routes.explain import explain_routes
from c4engine.web.routes.move import move_routes
from c4engine.web.routes.position import position_routes
from c4engine.web.routes.puzzle import puzzle_routes
from c4engine.web.routes.record import record_routes
from c4engine.web.routes.retry import retry_routes
from c4engine.web.routes.review import review_routes
from c4engine.web.routes.site import health_routes, mount_static, page_routes

__all__ = ["ServerCaps", "create_app"]


def _lifespan(*lanes: Lane) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's lifespan: start the lanes' worker processes (together) and stop them at the end."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(None, lane.start) for lane in lanes))
        try:
            yield
        finally:
            for lane in lanes:
                lane.stop()

    return lifespan


def create_app(caps: ServerCaps | None = None) -> FastAPI:
    """The ASGI app within ``caps``; its engine workers start and stop with the app's lifespan."""
    caps = caps or ServerCaps()
    analyses = Lane("analysis", caps.workers, caps.max_pending, caps.per_client, caps.per_address)
    moves = Lane("move", caps.move_workers, caps.max_pending, caps.per_client, caps.per_address)
    app = FastAPI(
        title="c4engine",
        version=__version__,
        description="Play and analyse Connect-N. Columns and rows count from 1; positions are move strings.",
        lifespan=_lifespan(analyses, moves),
        docs_url=None,  # served by page_routes from local files: no CDN
        redoc_url=None,
    )
    app.state.caps = caps
    add_error_handlers(app, caps.retry_after)
    for router in (
        health_routes(caps, analyses, moves),
        position_routes(caps, analyses),
        explain_routes(caps, analyses),
        move_routes(caps, moves),
        review_routes(caps, analyses),
        puzzle_routes(caps, analyses),
        retry_routes(caps, analyses),
        record_routes(),
        page_routes(),
    ):
        app.include_router(router)
    mount_static(app)
    app.add_middleware(
        RequestCapsMiddleware,
        max_body=caps.max_body,
        max_query=caps.max_query,
        read_timeout=caps.read_timeout,
    )
    app.add_middleware(SecurityHeadersMiddleware)
    return app
