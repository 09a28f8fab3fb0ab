"""The position a request names, checked, and its JSON (:class:`~c4engine.web.models.PositionOut`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Depends

from c4engine.board import Board
from c4engine.errors import GameOverError
from c4engine.notation import parse_size
from c4engine.player import Player
from c4engine.web.models import ConnectQuery, PosQuery, SizeQuery

__all__ = ["QueryBoard", "board_of", "check_playing", "position_payload", "query_board", "symbol"]


def board_of(pos: str, size: str, connect: int) -> Board:
    """The board after the move string ``pos`` on a ``size`` (``WxH``) board; bad input raises a
    :class:`~c4engine.errors.C4Error` (answered 400)."""
    width, height = parse_size(size)
    return Board.from_moves(pos, width, height, connect)


def query_board(pos: PosQuery = "", size: SizeQuery = "7x6", connect: ConnectQuery = 4) -> Board:
    """The board a GET request's query names (``pos``, ``size``, ``connect``), by :func:`board_of`: a
    dependency, so that the routes reading a position from their query declare it once."""
    return board_of(pos, size, connect)


QueryBoard = Annotated[Board, Depends(query_board)]
"""A route's parameter for the board its query names (:func:`query_board`)."""


def symbol(player: Player | None) -> Literal["X", "O"] | None:
    """The API's name of ``player``: X moves first; None for nobody."""
    if player is None:
        return None
    return "X" if player is Player.FIRST else "O"


def position_payload(board: Board) -> dict[str, Any]:
    """The JSON of :class:`~c4engine.web.models.PositionOut` for ``board``."""
    return {
        "pos": board.move_string,
        "size": board.size,
        "width": board.width,
        "height": board.height,
        "connect": board.connect,
        "moves": board.move_count,
        "grid": [[symbol(cell) for cell in row] for row in board.rows()],
        "to_move": None if board.is_over else symbol(board.turn),
        "winner": symbol(board.winner),
        "draw": board.is_draw,
        "over": board.is_over,
        "result": board.result,
        "legal": [column + 1 for column in board.legal_moves()],
        "last_move": board.moves[-1] + 1 if board.moves else None,
        "winning_cells": [{"column": c + 1, "row": r + 1} for c, r in board.winning_cells()],
    }


def check_playing(board: Board) -> None:
    """Raise :class:`~c4engine.errors.GameOverError` (answered 409) when the game on ``board`` is over."""
    if board.winner is not None:
        raise GameOverError(f"the game is over: {board.winner.symbol} has won")
    if board.is_full:
        raise GameOverError("the game is over: the board is full (a draw)")
