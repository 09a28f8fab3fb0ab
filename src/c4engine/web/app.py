"""The web front-end: a FastAPI app serving the page and a JSON API.

``c4 serve`` runs :func:`create_app` on uvicorn.  The page (``static/``) is
plain HTML, CSS and JavaScript.  The API, documented at ``/docs`` (OpenAPI
at ``/openapi.json``):

* ``GET /api/position`` -- the board of a move string, whose turn, the winner and its line;
* ``GET /api/analyze`` -- every column's proven bounds, score or estimate and line, the best
  columns by dominance (time-capped; says what is proven): ``c4 analyze --json``'s shape;
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
import ipaddress
import json
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from typing import Annotated, Any, Literal

from fastapi import Body, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from swagger_ui_bundle import swagger_ui_path

from c4engine import __version__
from c4engine.board import Board
from c4engine.errors import C4Error, GameOverError
from c4engine.geometry import MAX_SIZE
from c4engine.notation import parse_size
from c4engine.play import levels
from c4engine.play.perfect import check_perfect_board
from c4engine.play.record import GameRecord
from c4engine.player import Player
from c4engine.search.limit import MAX_NODES, Limit
from c4engine.web import worker
from c4engine.web.pool import Client, ClientBusyError, Function, Lane, PoolBusyError

__all__ = ["ServerCaps", "create_app"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

STATIC = resources.files("c4engine.web") / "static"


@dataclass(frozen=True)
class ServerCaps:
    """The server's caps on its workers, queues, time, request sizes and connections (``c4 serve``).

    ``workers`` analyse, ``move_workers`` play moves (their own processes, so
    a move never waits behind analyses); ``max_pending`` jobs may wait per
    lane, ``per_client`` per client and lane, ``per_address`` per network
    address and lane (all its clients together: a client making up tokens
    gets no more than that); time caps and timeouts in
    seconds, request sizes in bytes.  A review gives each ply
    ``review_ply_time`` (a client may ask up to ``max_time``) and takes at
    most ``review_time`` in all.  ``read_timeout`` bounds how long a
    client may take to send its request (head and body); ``max_connections``
    how many connections and requests the server holds at once.
    """

    workers: int = max(1, (os.cpu_count() or 2) - 1)
    move_workers: int = 1
    max_pending: int = 64
    per_client: int = 4
    per_address: int = 16
    move_time: float = 3.0
    analyze_time: float = 1.0
    max_time: float = 3.0
    review_ply_time: float = 1.0
    review_time: float = 30.0
    max_body: int = 16 * 1024
    max_query: int = 8 * 1024
    read_timeout: float = 5.0
    max_connections: int = 1000
    retry_after: int = 1


# ----------------------------------------------------------------- models


class ErrorOut(BaseModel):
    error: str = Field(description="What was wrong, for a person to read.")


class Cell(BaseModel):
    column: int = Field(description="1-based, from the left")
    row: int = Field(description="1-based, from the bottom")


class PositionOut(BaseModel):
    pos: str = Field(description="The moves, as a move string")
    size: str = Field(examples=["7x6"])
    width: int
    height: int
    connect: int
    moves: int = Field(description="Stones on the board")
    grid: list[list[Literal["X", "O"] | None]] = Field(description="Rows, top row first; X moves first")
    to_move: Literal["X", "O"] | None = Field(description="The side to move; null once the game is over")
    winner: Literal["X", "O"] | None
    draw: bool
    over: bool
    result: str = Field(description='"1-0", "0-1", "1/2-1/2" or "*"')
    legal: list[int] = Field(description="Playable columns (1-based)")
    last_move: int | None = Field(description="The column of the last move (1-based)")
    winning_cells: list[Cell]


class ColumnOut(BaseModel):
    column: int = Field(description="1-based")
    lower: int = Field(
        description="The proven lower bound of the exact score (solver scale: positive = the side to "
        "move wins by playing here, (cells + 1 - stones before the winning stone) // 2; 0 = draw)"
    )
    upper: int = Field(description="The proven upper bound of the exact score; equal to lower when exact")
    score: int | None = Field(description="The exact score (solver scale); null when not proven")
    exact: bool
    estimate: float | None = Field(description="The engine's estimate (its own units); null when exact")
    pv: list[int] = Field(description="Best play starting with this column (1-based columns)")
    pv_complete: bool = Field(description="Whether pv reaches the end of the game")
    label: str = Field(
        examples=["win in 5", "at least a draw", "draw or loss", "loss in 8", "estimate, not proven"]
    )
    source: Literal["rules", "book", "solver", "engine"]
    outcome: Literal["win", "loss", "draw", "unknown"] = Field(description="unknown when not proven")
    moves: int | None = Field(description="When exact: the winner's moves to the end (win or loss)")
    moves_at_most: int | None = Field(
        description="When a win or a loss is proven but not its distance: the most moves its winner makes "
        "to the end"
    )
    lean: float | None = Field(
        description="Estimates only: the estimate on a human scale, -1 (clearly worse) to +1 (clearly better)"
    )


class PositionScoreOut(BaseModel):
    lower: int = Field(description="The proven lower bound of the position's own score (solver scale)")
    upper: int = Field(description="The proven upper bound; equal to lower when exact")
    score: int | None = Field(description="The exact score; null when not proven")
    exact: bool
    label: str = Field(examples=["win in 17", "at least a draw"])
    source: Literal["rules", "book", "solver", "engine"] = Field(
        description="book when the opening book holds the position, else the weakest source of the columns"
    )


class AnalysisOut(BaseModel):
    position: str = Field(description="The moves, as a move string")
    size: str
    connect: int
    to_move: Literal["X", "O"]
    position_score: PositionScoreOut = Field(
        description="The position's own score for the side to move: the opening book's, or the best column's"
    )
    columns: list[ColumnOut | None] = Field(description="One per column; null for a full column")
    best: list[int] = Field(
        description="The best column(s), 1-based, by dominance: never a column another is proven better than"
    )
    best_proven: bool = Field(description="Whether best is proven: its lower bound reaches every other upper")
    source: Literal["rules", "book", "solver", "engine"] = Field(description="The weakest source used")
    exact: bool = Field(description="Whether every score is proven (false: the time cap stopped a search)")
    move: int = Field(description="The recommended column: the most central of best")
    pv: list[int] = Field(description="The recommended column's line (1-based columns)")
    pv_proven: bool = Field(description="Whether pv is proven best play to the end of the game")
    elapsed: float


LevelNumber = Annotated[int, Field(ge=1, le=len(levels.LEVELS), strict=True)]


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    pos: str = Field("", max_length=4096, description="The moves so far", examples=["4453"])
    size: str = Field("7x6", max_length=16, examples=["7x6"])
    connect: int = Field(4, ge=2, le=MAX_SIZE, strict=True)
    level: LevelNumber | Literal["perfect"] = Field(
        levels.DEFAULT_LEVEL,
        description="1 (beginner) to 7 (master), or perfect: the analysis service's best move, "
        "proven wherever the book or the solver can prove one within the time cap; refused (400) on "
        "boards the exact solver cannot hold (width * (height + 1) > 64)",
    )
    time: float | None = Field(
        None, gt=0, allow_inf_nan=False, strict=True, description="Seconds, at most the server's limit"
    )


class MoveOut(BaseModel):
    column: int = Field(description="The computer's column (1-based)")
    pos: str = Field(description="The position after it")
    level: int | Literal["perfect"]
    exact: bool = Field(
        description="Whether the move is proven best: the opening book's or the solver's, or the engine "
        "saw the end of the game"
    )
    complete: bool = Field(description="False when the time cap stopped the search before it finished")
    elapsed: float
    position: PositionOut


class ReviewIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    moves: str = Field(max_length=4096, description="The game's moves, as a move string", examples=["44556"])
    size: str = Field("7x6", max_length=16, examples=["7x6"])
    connect: int = Field(4, ge=2, le=MAX_SIZE, strict=True)
    time_per_ply: float | None = Field(
        None,
        gt=0,
        allow_inf_nan=False,
        strict=True,
        description="Seconds for each ply's analysis, at most the server's time cap (default 1); "
        "less on long games, so the whole review stays within the server's review cap",
    )


class PlyOut(BaseModel):
    ply: int = Field(description="1-based")
    player: Literal[1, 2] = Field(description="1: the first player (X), 2: the second (O)")
    column: int = Field(description="The column played, 1-based")
    score_before: int | None = Field(
        description="The best score any column gets, the mover's view, solver scale; null when not proven"
    )
    score_after: int | None = Field(
        description="The score of the column played, the mover's view, solver scale; null when not proven"
    )
    exact: bool = Field(description="Whether both scores are proven")
    lower: int = Field(description="Proven lower bound of score_after")
    upper: int = Field(description="Proven upper bound of score_after")
    before_lower: int = Field(description="Proven lower bound of score_before")
    before_upper: int = Field(description="Proven upper bound of score_before")
    estimate: float | None = Field(description="The engine's estimate of the column played; null when exact")
    best_estimate: float | None = Field(
        description="The engine's estimate of the best column; null when exact"
    )
    words_before: str = Field(examples=["win in 5", "at least a draw", "≈ +3.5, not proven"])
    words_after: str = Field(examples=["draw"])
    best: list[int] = Field(description="The best columns, 1-based")
    best_proven: bool = Field(
        description="Whether the best columns are proven best (else the engine's choice)"
    )
    best_complete: bool = Field(
        description="Whether every column was compared within the ply's time (else best may miss some)"
    )
    verdict: Literal["best", "inaccuracy", "mistake", "blunder", "not proven", "not chosen"] = Field(
        description="best: kept the score; inaccuracy: same result, a slower win or a quicker loss; "
        "mistake: win to draw or draw to loss; blunder: win to loss; not proven: the time ran out first; "
        "not chosen: nobody chose the move (a match's random opening), judged for no one"
    )
    or_worse: bool = Field(description="The move is proven at least this bad, and may be worse")
    mark: Literal["", "?!", "?", "??"]
    pv: list[int] = Field(description="Where the move was not best: the best column's line (1-based columns)")
    pv_complete: bool = Field(description="Whether pv reaches the end of the game")
    chosen: bool = Field(description="False for a move nobody chose (a match's random opening)")


class SideSummaryOut(BaseModel):
    player: Literal[1, 2]
    moves: int
    best: int
    accuracy: float | None = Field(
        description="Share of best moves among the proven ones; null below 5 proven moves (too few to say)"
    )
    proven: int = Field(description="The side's moves with a proven verdict")
    inaccuracies: int
    mistakes: int
    blunders: int
    not_proven: int
    not_chosen: int = Field(description="The side's moves of a random opening, in no other count")
    turning_points: list[int] = Field(description="Plies where this side's move changed the result")


class ReviewSummaryOut(BaseModel):
    first: SideSummaryOut
    second: SideSummaryOut
    turning_points: list[int] = Field(description="Plies where a move is proven to have changed the result")


class ReviewOut(BaseModel):
    moves: str
    size: str = Field(examples=["7x6"])
    connect: int
    result: str = Field(description='"1-0", "0-1", "1/2-1/2" or "*" (unfinished)')
    result_words: str = Field(examples=["X won", "a draw", "unfinished, O to move"])
    result_reason: str | None = Field(description='How a game that did not end on the board ended ("time")')
    opening_plies: int = Field(description="The first plies, chosen by nobody (a random opening)")
    complete: bool = Field(
        description="False when the server's review cap stopped the review: "
        "plies then holds the game's last plies"
    )
    exact: bool = Field(description="Whether every ply was reviewed and proven")
    plies: list[PlyOut]
    summary: ReviewSummaryOut
    ply_time: float = Field(description="The seconds each ply's analysis was given")
    ply_nodes: int | None = Field(description="The nodes each ply's analysis was given; null: no node limit")
    advice: str | None = Field(
        description="What would prove the plies left not proven, where anything would; else null"
    )
    elapsed: float


class HealthOut(BaseModel):
    status: Literal["ok"]
    version: str
    workers: int = Field(description="Analysis processes")
    move_workers: int = Field(description="Processes playing moves")
    pending: int = Field(description="Analyses queued or running")
    pending_moves: int = Field(description="Moves queued or running")
    max_pending: int = Field(description="Per kind of work")


# ---------------------------------------------------------------- helpers


def _board(pos: str, size: str, connect: int) -> Board:
    width, height = parse_size(size)
    return Board.from_moves(pos, width, height, connect)


def _symbol(player: Player | None) -> Literal["X", "O"] | None:
    if player is None:
        return None
    return "X" if player is Player.FIRST else "O"


def position_payload(board: Board) -> dict[str, Any]:
    """The JSON of :class:`PositionOut` for ``board``."""
    return {
        "pos": board.move_string,
        "size": board.size,
        "width": board.width,
        "height": board.height,
        "connect": board.connect,
        "moves": board.move_count,
        "grid": [[_symbol(cell) for cell in row] for row in board.rows()],
        "to_move": None if board.is_over else _symbol(board.turn),
        "winner": _symbol(board.winner),
        "draw": board.is_draw,
        "over": board.is_over,
        "result": board.result,
        "legal": [column + 1 for column in board.legal_moves()],
        "last_move": board.moves[-1] + 1 if board.moves else None,
        "winning_cells": [{"column": c + 1, "row": r + 1} for c, r in board.winning_cells()],
    }


def _check_playing(board: Board) -> None:
    if board.winner is not None:
        raise GameOverError(f"the game is over: {board.winner.symbol} has won")
    if board.is_full:
        raise GameOverError("the game is over: the board is full (a draw)")


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


_JSON_TYPES = {
    dict: "an object",
    list: "an array",
    str: "a string",
    bool: "true or false",
    type(None): "null",
}


def _body_message(error: RequestValidationError) -> str | None:
    """What is wrong with a JSON body as a whole -- not JSON, empty, not an object -- or None when
    the body is an object and the errors are about its fields."""
    for item in error.errors():
        location = tuple(item.get("loc", ()))
        if item.get("type") == "json_invalid":
            reason = item.get("ctx", {}).get("error", "it cannot be read")
            return f"the body is not JSON: {reason} (at character {location[-1]})"
        if location != ("body",):
            continue
        given = item.get("input")
        if item.get("type") == "missing":
            return "the body is empty: send a JSON object"
        if isinstance(given, bytes):  # a Content-Type other than JSON: FastAPI left the bytes unread
            return 'the body is not JSON: send a JSON object with "Content-Type: application/json"'
        what = _JSON_TYPES.get(type(given), "a number")
        return f"the body must be a JSON object, not {what}"
    return None


def _validation_message(error: RequestValidationError) -> str:
    parts = []
    for item in error.errors():
        where = ".".join(str(part) for part in item.get("loc", ()) if part not in ("query", "body"))
        message = str(item.get("msg", "invalid value"))
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts) or "invalid request"


CLIENT_HEADER = "X-C4-Client"
"""The header carrying the token a page makes up for itself (8-64 letters, digits, ``-``, ``_``)."""
_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")


def _address(host: str) -> str:
    """The peer's address for quotas; a whole IPv6 /64 is one address (one subscriber's network).

    >>> _address("2001:db8:1:2:aaaa::1"), _address("127.0.0.1")
    ('2001:db8:1:2::/64', '127.0.0.1')
    """
    try:
        parsed = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _client(request: Request) -> Client:
    """Who is asking, for the per-client share of the engine: the peer's address and the page's
    token (a missing or malformed token counts as none: the address alone)."""
    token = request.headers.get(CLIENT_HEADER, "")
    address = _address(request.client.host) if request.client is not None else "unknown"
    return Client(address, token if _TOKEN.fullmatch(token) else "")


class _ClientGoneError(Exception):
    """The client closed the connection before its answer was ready."""


async def _disconnected(request: Request) -> None:
    """Return once the client has closed the connection."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _run_in_lane(request: Request, lane: Lane, function: Function, *args: Any) -> dict[str, Any]:
    """Queue ``function(*args)`` in ``lane`` for this request's client and wait for its answer; cancel
    the job if the client leaves first."""
    job = lane.submit(_client(request), function, *args)
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait((job.future, gone), return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
    if not job.future.done():
        lane.cancel(job)
        raise _ClientGoneError
    return job.future.result()


class _RequestCapsMiddleware:
    """Refuse long query strings (414), large bodies (413) and bodies sent too slowly (408).

    The body is read here, before the app sees it, within ``read_timeout``
    seconds of the request's head; a client trickling it byte by byte to
    hold a connection gets a 408 and the connection is closed.
    """

    def __init__(self, app: ASGIApp, max_body: int, max_query: int, read_timeout: float) -> None:
        self.app = app
        self.max_body = max_body
        self.max_query = max_query
        self.read_timeout = read_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if len(scope.get("query_string", b"")) > self.max_query:
            await _error(414, f"the query string is too long (limit {self.max_query} bytes)")(
                scope, receive, send
            )
            return
        too_large = _error(413, f"the request body is too large (limit {self.max_body} bytes)")
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_body):
                await too_large(scope, receive, send)
                return
        body = bytearray()
        try:
            async with asyncio.timeout(self.read_timeout):
                more = True
                while more:
                    message = await receive()
                    if message["type"] != "http.request":
                        return  # the client went away: nobody to answer
                    body += message.get("body", b"")
                    more = message.get("more_body", False)
                    if len(body) > self.max_body:
                        await too_large(scope, receive, send)
                        return
        except TimeoutError:
            slow = _error(
                408, f"the request was not sent within {self.read_timeout:g} seconds", {"Connection": "close"}
            )
            await slow(scope, receive, send)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


# The page and the API docs load only their own scripts and styles; nothing may frame them.
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        b"form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]


class _SecurityHeadersMiddleware:
    """Add :data:`SECURITY_HEADERS` to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


# -------------------------------------------------------------------- app

PosQuery = Annotated[
    str, Query(max_length=4096, description="The moves, e.g. 4453 (10,3,4 on boards wider than 9)")
]
SizeQuery = Annotated[str, Query(max_length=16, description="WIDTHxHEIGHT", examples=["7x6"])]
ConnectQuery = Annotated[int, Query(ge=2, le=MAX_SIZE, description="Stones in a row to win")]

_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": description}
    for status, description in (
        (400, "Bad position, size or level, or a body that is not a JSON object"),
        (408, "The request was sent too slowly"),
        (409, "The game is already over"),
        (422, "Malformed parameters"),
        (
            429,
            "This client (address and X-C4-Client token), or its address with all its clients, already "
            "has its share of engine work under way; retry after Retry-After",
        ),
        (503, "The engine is busy; retry after Retry-After seconds"),
    )
}


def create_app(caps: ServerCaps | None = None) -> FastAPI:
    """The ASGI app within ``caps``; its engine workers start and stop with the app's lifespan."""
    caps = caps or ServerCaps()
    analyses = Lane("analysis", caps.workers, caps.max_pending, caps.per_client, caps.per_address)
    moves = Lane("move", caps.move_workers, caps.max_pending, caps.per_client, caps.per_address)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(None, lane.start) for lane in (analyses, moves)))
        try:
            yield
        finally:
            analyses.stop()
            moves.stop()

    app = FastAPI(
        title="c4engine",
        version=__version__,
        description="Play and analyse Connect-N. Columns and rows count from 1; positions are move strings.",
        lifespan=lifespan,
        docs_url=None,  # served below from local files: no CDN
        redoc_url=None,
    )
    app.state.caps = caps

    @app.exception_handler(C4Error)
    async def _c4_error(request: Request, error: C4Error) -> JSONResponse:
        return _error(409 if isinstance(error, GameOverError) else 400, str(error))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        body_problem = _body_message(error)
        if body_problem is not None:  # not a bad field: no body the route could read at all
            return _error(400, body_problem)
        return _error(422, _validation_message(error))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        return _error(error.status_code, str(error.detail), getattr(error, "headers", None))

    @app.exception_handler(PoolBusyError)
    async def _busy(request: Request, error: PoolBusyError) -> JSONResponse:
        return _error(503, str(error), {"Retry-After": str(caps.retry_after)})

    @app.exception_handler(ClientBusyError)
    async def _client_busy(request: Request, error: ClientBusyError) -> JSONResponse:
        return _error(429, str(error), {"Retry-After": str(caps.retry_after)})

    @app.exception_handler(_ClientGoneError)
    async def _gone(request: Request, error: _ClientGoneError) -> JSONResponse:
        return _error(499, "the client closed the connection; the request was cancelled")

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, error: Exception) -> JSONResponse:  # pragma: no cover
        return _error(500, "internal error: the server could not answer this request")

    def cap(requested: float | None, default: float, name: str = "time") -> float:
        if requested is None:
            return min(default, caps.max_time)
        if requested > caps.max_time:
            raise StarletteHTTPException(422, f"{name}: at most {caps.max_time:g} seconds")
        return requested

    @app.get("/healthz", response_model=HealthOut, tags=["service"])
    async def healthz() -> dict[str, Any]:
        """Liveness: answered by the event loop, never waits for the engine."""
        return {
            "status": "ok",
            "version": __version__,
            "workers": analyses.size,
            "move_workers": moves.size,
            "pending": analyses.pending,
            "pending_moves": moves.pending,
            "max_pending": caps.max_pending,
        }

    @app.get("/api/position", response_model=PositionOut, responses=_ERRORS, tags=["api"])
    async def position(
        pos: PosQuery = "", size: SizeQuery = "7x6", connect: ConnectQuery = 4
    ) -> dict[str, Any]:
        """The board after the moves ``pos``: grid, side to move, winner and winning cells."""
        return position_payload(_board(pos, size, connect))

    @app.get("/api/analyze", response_model=AnalysisOut, responses=_ERRORS, tags=["api"])
    async def analyze(
        request: Request,
        pos: PosQuery = "",
        size: SizeQuery = "7x6",
        connect: ConnectQuery = 4,
        seconds: Annotated[
            float | None,
            Query(alias="time", gt=0, allow_inf_nan=False, description="Seconds, at most the server's limit"),
        ] = None,
        nodes: Annotated[
            int | None,
            Query(ge=1, le=MAX_NODES, description="At most this many positions searched (within the time)"),
        ] = None,
        depth: Annotated[
            int | None,
            Query(
                ge=1,
                le=MAX_SIZE * MAX_SIZE,
                description="The engine's estimates at most this many plies deep",
            ),
        ] = None,
    ) -> dict[str, Any]:
        """Every column's proven bounds, exact score or estimate, and line; the best column(s) by
        dominance and whether they are proven best (docs/analysis.md).  ``time``, ``nodes`` and
        ``depth`` bound the analysis together (one :class:`~c4engine.search.limit.Limit`); the
        server's time cap always applies."""
        board = _board(pos, size, connect)
        _check_playing(board)
        cells = board.width * board.height
        if depth is not None and depth > cells:
            raise StarletteHTTPException(422, f"depth: at most {cells}, the cells of a {board.size} board")
        limit = Limit(time=cap(seconds, caps.analyze_time), nodes=nodes, depth=depth)
        result = await _run_in_lane(
            request,
            analyses,
            worker.analyze_position,
            board.move_string,
            board.width,
            board.height,
            board.connect,
            limit,
        )
        return result | {"to_move": _symbol(board.turn)}

    @app.post("/api/move", response_model=MoveOut, responses=_ERRORS, tags=["api"])
    async def move(request: Request, body: Annotated[MoveIn, Body()]) -> dict[str, Any]:
        """The computer's move at ``level`` and the position after it.

        ``perfect`` is refused (400) on a board the exact solver cannot hold,
        before any search."""
        board = _board(body.pos, body.size, body.connect)
        if body.level == worker.PERFECT:
            check_perfect_board(board.width, board.height, "level perfect")
        _check_playing(board)
        limit = Limit(time=cap(body.time, caps.move_time))
        result = await _run_in_lane(
            request,
            moves,
            worker.engine_move,
            board.move_string,
            board.width,
            board.height,
            board.connect,
            body.level,
            limit,
        )
        board.play(result["column"] - 1)
        return {
            "column": result["column"],
            "pos": board.move_string,
            "level": body.level,
            "exact": result["exact"],
            "complete": result["complete"],
            "elapsed": result["elapsed"],
            "position": position_payload(board),
        }

    @app.post("/api/review", response_model=ReviewOut, responses=_ERRORS, tags=["api"])
    async def review(request: Request, body: Annotated[ReviewIn, Body()]) -> dict[str, Any]:
        """Every move of the game scored exactly where it can be proven, and judged.

        For each ply: the mover's best score and the played column's score
        (solver scale, the mover's view; null when not proven, with the proven
        bounds), the best columns, the verdict and, where the move was not
        best, the best column's line.  One request in the analysis lane,
        answered whole: the plies are reviewed from the end backwards, each
        within ``time_per_ply`` (on boards too big for the solver, within its
        share of the server's review cap), a ply not proven in its time
        marked "not proven".  A review still running at the cap stops there:
        ``complete`` is false and ``plies`` holds the game's last plies.
        Asking again proves more: the worker's solver keeps what it learnt.
        """
        board = _board(body.moves, body.size, body.connect)
        if not board.moves:
            raise StarletteHTTPException(400, "moves: the game has no moves to review")
        ply = Limit(time=cap(body.time_per_ply, caps.review_ply_time, "time_per_ply"))
        result = await _run_in_lane(
            request,
            analyses,
            worker.review_moves,
            board.move_string,
            board.width,
            board.height,
            board.connect,
            ply,
            Limit(time=caps.review_time),
        )
        return result

    @app.get("/api/record", responses=_ERRORS, tags=["api"])
    async def record(
        pos: PosQuery = "",
        size: SizeQuery = "7x6",
        connect: ConnectQuery = 4,
        first: Annotated[str, Query(max_length=80, description="Name of the first player (X)")] = "First",
        second: Annotated[str, Query(max_length=80, description="Name of the second player (O)")] = "Second",
    ) -> Response:
        """The game as a c4engine JSON game record (see ``c4engine.play.record``)."""
        board = _board(pos, size, connect)
        game = GameRecord.from_board(board, players=(first or "First", second or "Second"))
        return Response(
            json.dumps(game.to_dict(), indent=2) + "\n",
            media_type="application/json",
            headers={"Content-Disposition": 'attachment; filename="c4-game.json"'},
        )

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"), headers={"Cache-Control": "no-cache"})

    @app.get("/docs", include_in_schema=False)
    async def docs() -> FileResponse:
        return FileResponse(str(STATIC / "docs.html"), headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.mount("/docs-assets", StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")
    app.add_middleware(
        _RequestCapsMiddleware,
        max_body=caps.max_body,
        max_query=caps.max_query,
        read_timeout=caps.read_timeout,
    )
    app.add_middleware(_SecurityHeadersMiddleware)
    return app
