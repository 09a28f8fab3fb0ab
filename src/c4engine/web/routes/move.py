"""``POST /api/move``: the computer's move at a skill level, and the position after it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request

from c4engine.play.perfect import check_perfect_board
from c4engine.search.limit import Limit
from c4engine.web import worker
from c4engine.web.caps import ServerCaps
from c4engine.web.clients import run_in_lane
from c4engine.web.errors import ERROR_RESPONSES
from c4engine.web.models import MoveIn, MoveOut
from c4engine.web.pool import Lane
from c4engine.web.positions import board_of, check_playing, position_payload

__all__ = ["move_routes"]


def move_routes(caps: ServerCaps, moves: Lane) -> APIRouter:
    """The move route; moves queue in the ``moves`` lane within ``caps``."""
    router = APIRouter()

    @router.post("/api/move", response_model=MoveOut, responses=ERROR_RESPONSES, tags=["api"])
    async def move(request: Request, body: Annotated[MoveIn, Body()]) -> dict[str, Any]:
        """The computer's move at ``level`` and the position after it.

        ``perfect`` is refused (400) on a board the exact solver cannot hold,
        before any search."""
        board = board_of(body.pos, body.size, body.connect)
        if body.level == worker.PERFECT:
            check_perfect_board(board.width, board.height, "level perfect")
        check_playing(board)
        limit = Limit(time=caps.seconds(body.time, caps.move_time))
        result = await run_in_lane(request, moves, worker.engine_move, board, body.level, limit)
        board.play(result["column"] - 1)
        return {**result, "pos": board.move_string, "level": body.level, "position": position_payload(board)}

    return router
