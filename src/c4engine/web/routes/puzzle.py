"""``/api/puzzle``: the shipped puzzles one at a time, a try judged, hints (docs/puzzles.md)."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Request
from starlette.exceptions import HTTPException as StarletteHTTPException

from c4engine.search.limit import Limit
from c4engine.search.puzzles.attempt import hints, position_at
from c4engine.search.puzzles.collection import select_puzzles, shipped_puzzles
from c4engine.search.puzzles.puzzle import Puzzle
from c4engine.web import worker
from c4engine.web.caps import ServerCaps
from c4engine.web.clients import run_in_lane
from c4engine.web.errors import ERROR_RESPONSES
from c4engine.web.models import PuzzleHintOut, PuzzleOut, PuzzleTryIn, PuzzleTryOut
from c4engine.web.pool import Lane
from c4engine.web.positions import position_payload

__all__ = ["puzzle_routes"]

_HIDDEN = ("solution", "ends", "score")
"""What the page is not told before the puzzle is solved: the answer, and what gives it away."""


@cache
def _puzzles() -> tuple[tuple[Puzzle, ...], dict[str, Puzzle]]:
    """The shipped set, easiest first (by rating, then as in the file), and by id."""
    ordered = tuple(sorted(shipped_puzzles(), key=lambda puzzle: puzzle.rating))
    return ordered, {puzzle.id: puzzle for puzzle in ordered}


def _puzzle(identifier: str) -> Puzzle:
    found = _puzzles()[1].get(identifier)
    if found is None:
        raise StarletteHTTPException(404, f"id: no puzzle is called {identifier[:64]!r}")
    return found


def _info(puzzle: Puzzle) -> dict[str, Any]:
    return {key: value for key, value in puzzle.to_json().items() if key not in _HIDDEN}


def puzzle_routes(caps: ServerCaps, analyses: Lane) -> APIRouter:
    """The puzzle and retry routes; a judged try is a job in the ``analyses`` lane, within ``caps``."""
    router = APIRouter()

    @router.get("/api/puzzle", response_model=PuzzleOut, responses=ERROR_RESPONSES, tags=["api"])
    async def puzzle(
        index: Annotated[int, Query(ge=0, le=10**6, description="Which one, from 0: easiest first")] = 0,
        difficulty: Annotated[Literal["easy", "medium", "hard"] | None, Query()] = None,
        goal: Annotated[Literal["win", "draw"] | None, Query()] = None,
        id: Annotated[
            str | None, Query(max_length=64, description="This puzzle (its index: in the whole set)")
        ] = None,
    ) -> dict[str, Any]:
        """One puzzle of the shipped 7x6 set (of ``difficulty`` and ``goal`` when given), without its
        solution; ``index`` past the last one comes round to the first; ``id`` names one."""
        if id is not None:
            named = _puzzle(id)
            ordered = _puzzles()[0]
            return {
                "index": ordered.index(named),
                "count": len(ordered),
                "puzzle": _info(named),
                "step": 0,
                "position": position_payload(named.board()),
            }
        chosen = select_puzzles(_puzzles()[0], difficulty=difficulty, goal=goal)
        if not chosen:
            raise StarletteHTTPException(404, "no puzzle is of the difficulty and goal asked")
        found = chosen[index % len(chosen)]
        return {
            "index": index % len(chosen),
            "count": len(chosen),
            "puzzle": _info(found),
            "step": 0,
            "position": position_payload(found.board()),
        }

    @router.post("/api/puzzle/try", response_model=PuzzleTryOut, responses=ERROR_RESPONSES, tags=["api"])
    async def try_puzzle(request: Request, body: Annotated[PuzzleTryIn, Body()]) -> dict[str, Any]:
        """Judge ``column`` as the solver's move ``step`` of the puzzle ``id``: right (the opponent's
        reply from the solution follows, or it is solved), or wrong with its refutation -- the
        opponent's best reply and what it leads to, proven within the server's time cap."""
        found = _puzzle(body.id)
        board = position_at(found, body.step)  # a step off the solution: 400
        board.play(body.column - 1)  # a full or missing column: 400 before any search
        limit = Limit(time=caps.max_time)
        result = await run_in_lane(
            request,
            analyses,
            worker.try_puzzle,
            found.board(),
            found.to_json(),
            body.step,
            body.column - 1,
            limit,
        )
        step = body.step + 1 if result["right"] and not result["solved"] else body.step
        now = found.board()
        shown = found.solution if result["solved"] else found.solution[: 2 * step]
        for column in shown:
            now.play(column)
        refuted = None
        if not result["right"]:
            refuted = position_at(found, body.step)
            refuted.play(body.column - 1)
            if result["refutation"] is not None:
                refuted.play(result["refutation"] - 1)
        return {
            **result,
            "next_step": step,
            "position": position_payload(now),
            "refuted": None if refuted is None else position_payload(refuted),
            "solution": [column + 1 for column in found.solution] if result["solved"] else None,
            "ends": found.ends if result["solved"] else None,
        }

    @router.get("/api/puzzle/hint", response_model=PuzzleHintOut, responses=ERROR_RESPONSES, tags=["api"])
    async def hint(
        id: Annotated[str, Query(max_length=64, description="The puzzle's id")],
        step: Annotated[int, Query(ge=0, le=64, description="The solver's move, from 0")] = 0,
        level: Annotated[
            int, Query(ge=0, le=8, description="0: the gentlest hint; the last is the move")
        ] = 0,
    ) -> dict[str, Any]:
        """The ``level``-th hint at the solver's move ``step``: the goal, the theme, the move itself."""
        given = hints(_puzzle(id), step)
        return {"hint": given[min(level, len(given) - 1)], "last": level >= len(given) - 1}

    return router
