"""``GET /api/explain``: the coach's explanation of a position -- its threats, the immediate facts,
the zugzwang, a proof by Allis' rules where they settle it, the solver's score and the sentences."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from c4engine.search.limit import Limit
from c4engine.web import worker
from c4engine.web.caps import ServerCaps
from c4engine.web.clients import run_in_lane
from c4engine.web.errors import ERROR_RESPONSES
from c4engine.web.models import ExplanationOut
from c4engine.web.pool import Lane
from c4engine.web.positions import QueryBoard
from c4engine.web.routes.position import TimeQuery

__all__ = ["explain_routes"]


def explain_routes(caps: ServerCaps, analyses: Lane) -> APIRouter:
    """The explanation's route; an explanation is one job in the ``analyses`` lane, within ``caps``."""
    router = APIRouter()

    @router.get("/api/explain", response_model=ExplanationOut, responses=ERROR_RESPONSES, tags=["api"])
    async def explain(request: Request, board: QueryBoard, seconds: TimeQuery = None) -> Any:
        """What a player reasons with in the position ``pos`` (docs/explain.md): every threat of each
        player (its cell, parity, whether it is playable now or useless), a win now, a forced block,
        a double threat, a move giving a win directly above, who controls the zugzwang and why, a
        proof by Allis' rules (shown only when its checker accepts it and the exact score agrees),
        the solver's score for the side to move within ``time`` (the server's analysis cap by
        default; an unproven score says so) and the sentences, each rendered from a checked fact.

        The answer is ``c4 explain --json``'s object as the coach gives it, with ``time`` added.  A
        finished game is explained too: its threats, and a sentence saying who won."""
        limit = Limit(time=caps.seconds(seconds, caps.analyze_time))
        result: dict[str, Any] = await run_in_lane(request, analyses, worker.explain_position, board, limit)
        ExplanationOut.model_validate(result)  # the documented shape, key for key (extra keys refused)
        # answered as the coach gives it: a rule without a group of its own has no "group" key at all
        return JSONResponse(result)

    return router
