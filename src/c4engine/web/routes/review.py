"""``POST /api/review``: every move of a game scored, mistakes marked, the better lines."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from starlette.exceptions import HTTPException as StarletteHTTPException

from c4engine.search.limit import Limit
from c4engine.web import worker
from c4engine.web.caps import ServerCaps
from c4engine.web.clients import run_in_lane
from c4engine.web.errors import ERROR_RESPONSES
from c4engine.web.models import ReviewIn, ReviewOut
from c4engine.web.pool import Lane
from c4engine.web.positions import board_of

__all__ = ["review_routes"]


def review_routes(caps: ServerCaps, analyses: Lane) -> APIRouter:
    """The review route; a review is one job in the ``analyses`` lane, within ``caps``."""
    router = APIRouter()

    @router.post("/api/review", response_model=ReviewOut, responses=ERROR_RESPONSES, tags=["api"])
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
        board = board_of(body.moves, body.size, body.connect)
        if not board.moves:
            raise StarletteHTTPException(400, "moves: the game has no moves to review")
        ply = Limit(time=caps.seconds(body.time_per_ply, caps.review_ply_time, "time_per_ply"))
        return await run_in_lane(
            request, analyses, worker.review_moves, board, ply, Limit(time=caps.review_time)
        )

    return router
