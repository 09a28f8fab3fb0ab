"""Allis' rules as instances on a board: the squares each takes and the opponent's groups it refutes.

Every instance here belongs to one plan of the *controller* (the side not
to move): **follow-up**, answering each move of the opponent with its
partner square.  The empty cells are cut into pairs, each of which the
opponent must open and the controller closes:

* two cells directly above each other, the lower one played first: the
  controller gets the upper one -- a **claimeven** when the upper cell is
  even (row 2, 4, 6...), a **vertical** when it is odd (used below the
  first player's odd threat, in its column);
* two cells that are both playable now, in different columns: when the
  opponent takes one, the controller takes the other -- a **baseinverse**:
  the controller gets one of the two.  Two columns with the same lowest
  empty row can go on so, row by row: each pair above the baseinverse is
  playable once the pair under it is filled -- a **rowinverse** (not one
  of Allis' nine: a baseinverse one row up);

and, on top of that plan:

* an **oddthreat** of the first player (the controller, the second player
  to move): a cell of an odd row completing a group of its own, in a column
  with an odd number of empty cells, not playable yet.  Follow-up in that
  column (verticals) gives the first player the threat's cell, so the cells
  above it are never played;
* an **aftereven**: a group of the controller whose empty cells all are
  upper cells of its claimevens (or verticals): follow-up completes it, so
  no group of the opponent that needs a cell above it in every one of its
  columns can be completed first.

Each column is cut into pairs on its own (an even number of empty cells,
from the lowest up) or together with one other column: a baseinverse of
their two lowest cells (both columns with an odd number of empty cells), or
rowinverses from a common lowest row up, the rest of each column in pairs
above them; the oddthreat's column pairs from its lowest cell up to the
threat.  Every pair is opened by the opponent and closed by the controller
at once, so the plan never runs out of answers: its instances are
compatible by construction.
The board must have an even height (Allis' parity; any width, any ``connect``).

>>> from c4engine.board import Board
>>> board = Board.from_moves("34444445")    # Allis' diagram 6.1
>>> plan = next(plans(board, Player.SECOND))
>>> [square_name(upper, 7) for lower, upper in plan.column_pairs][:3], plan.across
(['a2', 'a4', 'a6'], (((2, 1), (4, 1)),))
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.groups import Cell, Group, cell_json, groups_through, open_groups, square_name

__all__ = [
    "MAX_PLANS",
    "RULES",
    "Plan",
    "RuleInstance",
    "RuleName",
    "instances_of",
    "plans",
]

RuleName = Literal[
    "claimeven",
    "baseinverse",
    "vertical",
    "aftereven",
    "lowinverse",
    "highinverse",
    "baseclaim",
    "before",
    "oddthreat",
    "rowinverse",
]
RULES: tuple[RuleName, ...] = get_args(RuleName)

MAX_PLANS = 600
"""The most follow-up plans tried for one side of one position: wide boards have many more ways of
cutting their columns into pairs than narrow ones; the first ones tried keep the columns apart.
After each move of the side to move (a proof's ``move``), a tenth of it is tried."""


@dataclass(frozen=True)
class RuleInstance:
    """One rule applied: its ``rule``, the ``squares`` it takes, the opponent's groups it ``refutes``,
    and for an aftereven or an oddthreat the controller's own ``group``."""

    rule: RuleName
    squares: tuple[Cell, ...]
    refutes: tuple[Group, ...]
    group: Group | None = None

    def to_json(self) -> dict[str, Any]:
        answer: dict[str, Any] = {
            "rule": self.rule,
            "squares": [cell_json(cell) for cell in self.squares],
            "refutes": [group.to_json() for group in self.refutes],
        }
        if self.group is not None:
            answer["group"] = self.group.to_json()
        return answer

    def sentence(self, width: int, controller: Player) -> str:
        """What the instance does, in words."""
        who = controller.symbol
        names = [square_name(cell, width) for cell in self.squares]
        count = len(self.refutes)
        refuted = f"refutes {count} group{'s' * (count != 1)}"
        if self.rule in ("claimeven", "vertical"):
            return f"{self.rule} {names[0]}-{names[1]}: {who} answers {names[0]} with {names[1]}; {refuted}."
        if self.rule in ("baseinverse", "rowinverse"):
            return f"{self.rule} {names[0]}/{names[1]}: {who} gets one of the two; {refuted}."
        said = {
            "lowinverse": "gets one square of each column and one of the two upper squares",
            "highinverse": "gets one of the two upper and one of the two middle squares",
            "baseclaim": "answers among the three playable squares",
        }
        if self.rule in said:
            return f"{self.rule} {', '.join(names)}: {who} {said[self.rule]}; {refuted}."
        assert self.group is not None
        if self.rule == "before":
            return (
                f"before {self.group.name(width)}: {who} completes it before the squares above it; {refuted}."
            )
        if self.rule == "oddthreat":
            return (
                f"oddthreat {names[0]} (group {self.group.name(width)}): follow-up in its column gives "
                f"{who} that square; {refuted}."
            )
        return f"aftereven {self.group.name(width)}: follow-up completes it for {who}; {refuted}."


@dataclass(frozen=True)
class Plan:
    """The controller's follow-up plan: its pairs of cells in columns (``(lower, upper)``: the upper
    is the controller's), its pairs ``across`` two columns (the controller gets one of the two),
    and for the first player its odd ``threat``."""

    controller: Player
    column_pairs: tuple[tuple[Cell, Cell], ...]
    across: tuple[tuple[Cell, Cell], ...]
    threat: Cell | None = None
    threat_group: Group | None = None
    claimed: frozenset[Cell] = field(default=frozenset())
    """The cells the controller surely gets: every pair's upper cell."""

    def to_json(self) -> dict[str, Any]:
        """``pairs`` (``[lower, upper]``, 1-based cells), ``across`` and the odd ``threat`` (or null)."""
        return {
            "pairs": [[cell_json(lower), cell_json(upper)] for lower, upper in self.column_pairs],
            "across": [[cell_json(first), cell_json(second)] for first, second in self.across],
            "threat": None if self.threat is None else cell_json(self.threat),
        }


def _bottoms(board: Board) -> list[int]:
    return [board.column_height(column) for column in range(board.width)]


def plans(board: Board, controller: Player, most: int = MAX_PLANS) -> Iterator[Plan]:
    """Every follow-up plan of ``controller`` (the side not to move) on ``board``, at most ``most``
    of them.

    For the first player, one a usable odd threat (the lowest in its column) and way of cutting the
    other columns into pairs; for the second player, one a way of cutting every column.  None on a
    board of odd height, when the game is over or when ``controller`` is to move.
    """
    if board.height % 2 or board.is_over or controller is board.turn:
        return
    bottoms = _bottoms(board)
    count = 0
    for threat, group in _threats(board, controller, bottoms):
        for plan in _plans(board, controller, bottoms, threat, group):
            yield plan
            count += 1
            if count >= most:
                return


def _threats(
    board: Board, controller: Player, bottoms: list[int]
) -> Iterator[tuple[Cell | None, Group | None]]:
    if controller is Player.SECOND:
        yield None, None
        return
    mine = board.bits_of(controller)
    geometry = board.geometry
    for column in range(board.width):
        bottom = bottoms[column]
        if (board.height - bottom) % 2 == 0:
            continue  # follow-up in the column would give the threat's cell to the opponent
        for row in range(bottom + 1, board.height, 2):  # odd rows (1-based) above the lowest empty cell
            bit = geometry.bit(column, row)
            through = groups_through(geometry).get((column, row), ())
            completed = [g for g in through if not (g.bits & ~bit) & ~mine]
            if completed:
                yield (column, row), completed[0]
                break  # a lower threat in the column ends the game first: the higher ones add nothing


def _plans(
    board: Board, controller: Player, bottoms: list[int], threat: Cell | None, threat_group: Group | None
) -> Iterator[Plan]:
    height = board.height
    fixed: list[tuple[Cell, Cell]] = []
    columns = [c for c in range(board.width) if bottoms[c] < height]
    if threat is not None:
        column = threat[0]
        columns.remove(column)
        fixed.extend(((column, row), (column, row + 1)) for row in range(bottoms[column], threat[1], 2))

    def solo(column: int, bottom: int) -> list[tuple[Cell, Cell]]:
        return [((column, row), (column, row + 1)) for row in range(bottom, height, 2)]

    def cut(
        index: int, used: frozenset[int]
    ) -> Iterator[tuple[list[tuple[Cell, Cell]], list[tuple[Cell, Cell]]]]:
        while index < len(columns) and columns[index] in used:
            index += 1
        if index == len(columns):
            yield [], []
            return
        column = columns[index]
        bottom, left = bottoms[column], height - bottoms[column]
        if left % 2 == 0:
            for pairs, across in cut(index + 1, used):
                yield solo(column, bottom) + pairs, across
        for partner in columns[index + 1 :]:
            if partner in used:
                continue
            other = bottoms[partner]
            if (left - (height - other)) % 2:
                continue  # one of the two columns would keep an odd number of cells for itself
            # pairs across from both lowest cells up, as deep as leaves the rest of each column even
            depths = range(2 - left % 2, min(left, height - other) + 1, 2)
            for depth in depths:
                row_pairs = [((column, bottom + i), (partner, other + i)) for i in range(depth)]
                above = solo(column, bottom + depth) + solo(partner, other + depth)
                for pairs, across in cut(index + 1, used | {partner}):
                    yield above + pairs, row_pairs + across

    for pairs, across in cut(0, frozenset()):
        column_pairs = tuple(fixed + pairs)
        claimed = frozenset(upper for _, upper in column_pairs)
        yield Plan(controller, column_pairs, tuple(across), threat, threat_group, claimed)


def _above(cell: Cell, height: int) -> list[Cell]:
    return [(cell[0], row) for row in range(cell[1] + 1, height)]


def instances_of(board: Board, plan: Plan, groups: tuple[Group, ...] | None = None) -> list[RuleInstance]:
    """Every rule instance of ``plan``, with the groups of the opponent (``groups``, default all it can
    still complete) each refutes; instances refuting nothing are left out, bar the oddthreat."""
    if groups is None:
        groups = open_groups(board, plan.controller.other)
    geometry = board.geometry
    height = board.height
    found: list[RuleInstance] = []

    def refuted_by(test: Any) -> tuple[Group, ...]:
        return tuple(group for group in groups if test(group))

    for lower, upper in plan.column_pairs:
        bit = geometry.bit(*upper)
        refutes = refuted_by(lambda g, bit=bit: g.bits & bit)
        if refutes:
            rule: RuleName = "claimeven" if upper[1] % 2 else "vertical"
            found.append(RuleInstance(rule, (lower, upper), refutes))
    for first, second in plan.across:
        both = geometry.bit(*first) | geometry.bit(*second)
        refutes = refuted_by(lambda g, both=both: g.bits & both == both)
        if refutes:
            playable = all(board.column_height(column) == row for column, row in (first, second))
            found.append(RuleInstance("baseinverse" if playable else "rowinverse", (first, second), refutes))
    if plan.threat is not None:
        above = sum(geometry.bit(*cell) for cell in _above(plan.threat, height))
        threat_bit = geometry.bit(*plan.threat)
        refutes = refuted_by(lambda g: g.bits & (above | threat_bit))
        found.append(RuleInstance("oddthreat", (plan.threat,), refutes, plan.threat_group))
    found.extend(_afterevens(board, plan, groups))
    return found


def _afterevens(board: Board, plan: Plan, groups: tuple[Group, ...]) -> list[RuleInstance]:
    geometry = board.geometry
    mask = board.mask_bits
    lower_of = {upper: lower for lower, upper in plan.column_pairs}
    found = []
    for group in open_groups(board, plan.controller):
        empty = [cell for cell in group.cells if not mask & geometry.bit(*cell)]
        if not all(cell in plan.claimed for cell in empty):
            continue
        highest: dict[int, int] = {}
        for column, row in empty:
            highest[column] = max(highest.get(column, -1), row)
        above = [
            sum(geometry.bit(column, r) for r in range(row + 1, board.height))
            for column, row in highest.items()
        ]
        uppers = sum(geometry.bit(*cell) for cell in empty)
        refutes = tuple(
            g for g in groups if g.bits & uppers or all(g.bits & column_above for column_above in above)
        )
        squares = tuple(sorted({cell for upper in empty for cell in (lower_of[upper], upper)}))
        found.append(RuleInstance("aftereven", squares, refutes, group))
    return found
