"""``GET /api/record``: the game as a JSON game record (:mod:`c4engine.play.record`)."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import Response

from c4engine.play.record import GameRecord
from c4engine.web.errors import ERROR_RESPONSES
from c4engine.web.positions import QueryBoard

__all__ = ["record_routes"]

FirstQuery = Annotated[str, Query(max_length=80, description="Name of the first player (X)")]
SecondQuery = Annotated[str, Query(max_length=80, description="Name of the second player (O)")]


def record_routes() -> APIRouter:
    """The game record's route; it needs no engine."""
    router = APIRouter()

    @router.get("/api/record", responses=ERROR_RESPONSES, tags=["api"])
    async def record(
        board: QueryBoard, first: FirstQuery = "First", second: SecondQuery = "Second"
    ) -> Response:
        """The game as a c4engine JSON game record (see ``c4engine.play.record``)."""
        game = GameRecord.from_board(board, players=(first or "First", second or "Second"))
        return Response(
            json.dumps(game.to_dict(), indent=2) + "\n",
            media_type="application/json",
            headers={"Content-Disposition": 'attachment; filename="c4-game.json"'},
        )

    return router
