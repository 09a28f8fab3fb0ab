"""The board as an SVG picture (Jupyter shows boards with it).

A blue frame with round holes; the first player's stones are red, the
second player's yellow with a dark ring inside, so the two sides differ by
more than colour.  The winning line is drawn through the winner's stones and
each of them is outlined; the last stone played carries a dot; the column
numbers 1..width run under the board.

Every stone is one ``<circle class="piece ...">`` with ``data-column`` and
``data-row`` (0-based, row 0 at the bottom), so tests and scripts can find them.

>>> from c4engine import Board
>>> svg = board_svg(Board.from_moves("4453"), size=30)
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="225" height="213"')
True
>>> svg.count('class="piece')
4
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol
from xml.sax.saxutils import escape, quoteattr

from c4engine.player import Player

__all__ = ["COLOURS", "DrawnBoard", "board_svg"]

COLOURS = {
    "frame": "#1d4ed8",
    "hole": "#f8fafc",
    "first": "#dc2626",
    "first_edge": "#991b1b",
    "second": "#facc15",
    "second_edge": "#a16207",
    "second_mark": "#a16207",
    "win": "#ffffff",
    "win_line": "#111827",
    "last": "#111827",
    "text": "#1e293b",
}
"""The palette, by role."""

_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class DrawnBoard(Protocol):
    """What the picture reads of a board: a :class:`c4engine.board.Board`.

    A protocol, not the class: the board draws itself with this module
    (``Board._repr_svg_``, for Jupyter), so this module cannot import it.
    """

    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def connect(self) -> int: ...
    @property
    def size(self) -> str: ...
    @property
    def moves(self) -> Sequence[int]: ...
    @property
    def move_count(self) -> int: ...
    @property
    def move_string(self) -> str: ...
    @property
    def turn(self) -> Player: ...
    @property
    def winner(self) -> Player | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def result(self) -> str: ...
    def cell(self, column: int, row: int) -> Player | None: ...
    def column_height(self, column: int) -> int: ...
    def winning_cells(self) -> list[tuple[int, int]]: ...


_Point = tuple[float, float]
_Centre = Callable[[int, int], _Point]


def board_svg(
    board: DrawnBoard,
    *,
    size: int = 40,
    highlight_last: bool = True,
    show_winning_line: bool = True,
    coordinates: bool = True,
) -> str:
    """An SVG picture of ``board``, ``size`` pixels per cell.

    ``highlight_last`` dots the last stone played, ``show_winning_line``
    outlines the winner's line(s), ``coordinates`` numbers the columns 1..width
    underneath.  The text is a complete SVG document, valid XML.

    >>> from c4engine import Board
    >>> svg = board_svg(Board.from_moves("1212121"), size=20, coordinates=False)
    >>> svg.count('class="win"'), svg.count('class="last"'), svg.count('class="coordinate"')
    (4, 1, 0)
    """
    if isinstance(size, bool) or not isinstance(size, int) or size < 8:
        # Below 8 px the holes, rings and digits no longer read as a board.
        raise ValueError(f"size must be a whole number of pixels, at least 8, not {size!r}")
    width, height = board.width, board.height
    pad = size / 4  # the frame's blue border around the outer holes
    label_band = size * 0.6 if coordinates else 0.0
    total_width = width * size + 2 * pad
    total_height = height * size + 2 * pad + label_band
    hole_radius = size * 0.4
    piece_radius = size * 0.36

    def centre(column: int, row: int) -> _Point:
        return pad + (column + 0.5) * size, pad + (height - 1 - row + 0.5) * size

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(total_width)}" height="{_n(total_height)}" '
        f'viewBox="0 0 {_n(total_width)} {_n(total_height)}" role="img">',
        f"<title>{escape(_title(board))}</title>",
        f'<rect class="frame" x="0" y="0" width="{_n(total_width)}" height="{_n(height * size + 2 * pad)}" '
        f'rx="{_n(pad)}" fill="{COLOURS["frame"]}"/>',
    ]
    parts += _holes(width, height, centre, hole_radius)
    parts += _stones(board, centre, size, piece_radius)
    if show_winning_line and board.winner is not None:
        parts += _winning_marks(board, centre, size)
    if highlight_last and board.moves:
        parts.append(_last_mark(board, centre, size))
    if coordinates:
        baseline = height * size + 2 * pad + label_band * 0.75
        parts += _coordinates(width, baseline, centre, size)
    parts.append("</svg>")
    return "\n".join(parts)


def _title(board: DrawnBoard) -> str:
    """The picture's title: the game, its moves, its result and who is to move."""
    to_move = "game over" if board.is_over else f"{board.turn.symbol} to move"
    return (
        f"Connect-{board.connect} on {board.size}: "
        f"{board.move_count} move{'s' if board.move_count != 1 else ''}"
        f"{' (' + board.move_string + ')' if board.move_count else ''}, {board.result}, {to_move}"
    )


def _holes(width: int, height: int, centre: _Centre, hole_radius: float) -> list[str]:
    """Every cell's hole in the frame."""
    parts = []
    for column in range(width):
        for row in range(height):
            x, y = centre(column, row)
            parts.append(
                f'<circle class="hole" cx="{_n(x)}" cy="{_n(y)}" r="{_n(hole_radius)}" '
                f'fill="{COLOURS["hole"]}"/>'
            )
    return parts


def _stones(board: DrawnBoard, centre: _Centre, size: int, piece_radius: float) -> list[str]:
    """Every stone, the second player's ringed."""
    parts = []
    for column in range(board.width):
        for row in range(board.column_height(column)):
            player = board.cell(column, row)
            assert player is not None  # below column_height every cell holds a stone
            x, y = centre(column, row)
            side = "first" if player is Player.FIRST else "second"
            parts.append(
                f'<circle class="piece {side}" data-column="{column}" data-row="{row}" '
                f'cx="{_n(x)}" cy="{_n(y)}" r="{_n(piece_radius)}" fill="{COLOURS[side]}" '
                f'stroke="{COLOURS[side + "_edge"]}" stroke-width="{_n(size * 0.03)}"/>'
            )
            if player is Player.SECOND:
                # The shape cue, so the sides differ for colour-blind eyes and in greyscale.
                parts.append(
                    f'<circle class="mark" cx="{_n(x)}" cy="{_n(y)}" r="{_n(size * 0.2)}" fill="none" '
                    f'stroke="{COLOURS["second_mark"]}" stroke-width="{_n(size * 0.06)}"/>'
                )
    return parts


def _winning_marks(board: DrawnBoard, centre: _Centre, size: int) -> list[str]:
    """The winner's line(s) drawn through, and its winning stones outlined."""
    parts = []
    for (x1, y1), (x2, y2) in _segments(board, centre):
        parts.append(
            f'<line class="win-line" x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
            f'stroke="{COLOURS["win_line"]}" stroke-opacity="0.55" stroke-width="{_n(size * 0.1)}" '
            f'stroke-linecap="round"/>'
        )
    for column, row in board.winning_cells():
        x, y = centre(column, row)
        # White on the blue frame: the outline sits just outside the stone.
        parts.append(
            f'<circle class="win" data-column="{column}" data-row="{row}" cx="{_n(x)}" cy="{_n(y)}" '
            f'r="{_n(size * 0.43)}" fill="none" stroke="{COLOURS["win"]}" '
            f'stroke-width="{_n(size * 0.07)}"/>'
        )
    return parts


def _last_mark(board: DrawnBoard, centre: _Centre, size: int) -> str:
    """The dot on the last stone played."""
    column = board.moves[-1]
    x, y = centre(column, board.column_height(column) - 1)
    return (
        f'<circle class="last" cx="{_n(x)}" cy="{_n(y)}" r="{_n(size * 0.09)}" fill="{COLOURS["last"]}" '
        f'stroke="#ffffff" stroke-width="{_n(size * 0.03)}"/>'
    )


def _coordinates(width: int, baseline: float, centre: _Centre, size: int) -> list[str]:
    """The columns' numbers, 1..width, under the board on ``baseline``."""
    parts = []
    for column in range(width):
        x, _ = centre(column, 0)
        parts.append(
            f'<text class="coordinate" x="{_n(x)}" y="{_n(baseline)}" text-anchor="middle" '
            f"font-family={quoteattr('DejaVu Sans, Arial, sans-serif')} "
            f'font-size="{_n(size * 0.4)}" fill="{COLOURS["text"]}">{column + 1}</text>'
        )
    return parts


def _segments(board: DrawnBoard, centre: _Centre) -> list[tuple[_Point, _Point]]:
    """Centre-to-centre segments of each maximal run of ``connect`` or more of the winner's stones.

    ``winning_cells`` gives cells, not lines; a cross or an L of two lines
    needs two segments, so the runs are found again here.
    """
    cells = set(board.winning_cells())
    segments = []
    for column, row in sorted(cells):
        for dc, dr in _DIRECTIONS:
            if (column - dc, row - dr) in cells:
                continue  # not the start of the run in this direction
            length = 1
            while (column + dc * length, row + dr * length) in cells:
                length += 1
            if length >= board.connect:
                end = (column + dc * (length - 1), row + dr * (length - 1))
                segments.append((centre(column, row), centre(*end)))
    return segments


def _n(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
