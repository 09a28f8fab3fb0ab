"""``GET /api/position`` (the board of a move string) and ``GET /api/analyze`` (every column's proven
bounds, score or estimate and line)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from starlette.exceptions import HTTPException as StarletteHTTPException

from c4engine.board import Board
from c4engine.geometry import MAX_SIZE
from c4engine.search.limit import MAX_NODES, Limit
from c4engine.web import worker
from c4engine.web.caps import ServerCaps
from c4engine.web.clients import run_in_lane
from c4engine.web.errors import ERROR_RESPONSES
from c4engine.web.models import AnalysisOut, PositionOut
from c4engine.web.pool import Lane
from c4engine.web.positions import QueryBoard, check_playing, position_payload, symbol

__all__ = ["position_routes"]

TimeQuery = Annotated[
    float | None,
    Query(alias="time", gt=0, allow_inf_nan=False, description="Seconds, at most the server's limit"),
]
NodesQuery = Annotated[
    int | None,
    Query(ge=1, le=MAX_NODES, description="At most this many positions searched (within the time)"),
]
DepthQuery = Annotated[
    int | None,
    Query(ge=1, le=MAX_SIZE * MAX_SIZE, description="The engine's estimates at most this many plies deep"),
]


def _check_depth(board: Board, depth: int | None) -> None:
    """Refuse (422) a depth beyond the board's cells."""
    cells = board.width * board.height
    if depth is not None and depth > cells:
        raise StarletteHTTPException(422, f"depth: at most {cells}, the cells of a {board.size} board")


def position_routes(caps: ServerCaps, analyses: Lane) -> APIRouter:
    """The routes reading a position; analyses queue in the ``analyses`` lane within ``caps``."""
    router = APIRouter()

    @router.get("/api/position", response_model=PositionOut, responses=ERROR_RESPONSES, tags=["api"])
    async def position(board: QueryBoard) -> dict[str, Any]:
        """The board after the moves ``pos``: grid, side to move, winner and winning cells."""
        return position_payload(board)

    @router.get("/api/analyze", response_model=AnalysisOut, responses=ERROR_RESPONSES, tags=["api"])
    async def analyze(
        request: Request,
        board: QueryBoard,
        seconds: TimeQuery = None,
        nodes: NodesQuery = None,
        depth: DepthQuery = None,
    ) -> dict[str, Any]:
        """Every column's proven bounds, exact score or estimate, and line; the best column(s) by
        dominance and whether they are proven best (docs/analysis.md).  ``time``, ``nodes`` and
        ``depth`` bound the analysis together (one :class:`~c4engine.search.limit.Limit`); the
        server's time cap always applies."""
        check_playing(board)
        _check_depth(board, depth)
        limit = Limit(time=caps.seconds(seconds, caps.analyze_time), nodes=nodes, depth=depth)
        result = await run_in_lane(request, analyses, worker.analyze_position, board, limit)
        return result | {"to_move": symbol(board.turn)}

    return router
