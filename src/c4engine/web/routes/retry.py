"""``/api/retry``: another try at a mistake of one's own game (docs/puzzles.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request

from c4engine.search.limit import Limit
from c4engine.web import worker
from c4engine.web.caps import ServerCaps
from c4engine.web.clients import run_in_lane
from c4engine.web.errors import ERROR_RESPONSES
from c4engine.web.models import RetryIn, RetryOut
from c4engine.web.pool import Lane
from c4engine.web.positions import board_of, check_playing

__all__ = ["retry_routes"]


def retry_routes(caps: ServerCaps, analyses: Lane) -> APIRouter:
    """The retry route; its searches queue in the ``analyses`` lane within ``caps``."""
    router = APIRouter()

    @router.post("/api/retry", response_model=RetryOut, responses=ERROR_RESPONSES, tags=["api"])
    async def retry(request: Request, body: Annotated[RetryIn, Body()]) -> dict[str, Any]:
        """Another try at a mistake: ``column`` instead of the move played after ``moves``; right when it
        keeps the position's best outcome (proven), wrong with the opponent's best reply."""
        board = board_of(body.moves, body.size, body.connect)
        check_playing(board)
        board.copy().play(body.column - 1)  # a full or missing column: 400 before any search
        limit = Limit(time=caps.max_time)
        return await run_in_lane(request, analyses, worker.retry_mistake, board, body.column - 1, limit)

    return router
