"""Allis' own way of combining his rules, for the second player: solutions, his combination table,
and a search for a set of compatible solutions refuting every group of the first player.

Where the follow-up plan of :mod:`c4engine.search.coach.rules` finds no proof
for the second player (the first player to move), this module tries Allis'
rules as his thesis combines them (chapters 6 and 7): each rule instance
(*solution*) refutes some groups, two solutions may be used together when
his combination table allows it, and squares no solution uses are left to
the zugzwang (the second player controls it: an even number of empty cells,
the first player to move).  The rules:

* **claimeven** -- two empty cells above each other, the upper even: the upper one;
* **baseinverse** -- two playable cells: one of the two;
* **vertical** -- two empty cells above each other, the upper odd: one of the two;
* **aftereven** -- a group of the second player whose empty cells are the upper cells of claimevens:
  the groups needing a cell above it in each of its columns, and the claimevens' groups;
* **lowinverse** -- two verticals in two columns: one of the two upper cells, and each vertical;
* **highinverse** -- two columns of three empty cells (even, odd, even): one of the two upper cells,
  one of the two middle ones, each column's upper pair, and where a lower cell is playable, that
  cell with the other column's upper cell;
* **baseclaim** -- three playable cells, the second odd with an even cell above it: the first with
  the cell above the second, and the second with the third;
* **before** -- a group of the second player, no empty cell in the top row, each empty cell in a
  vertical or a claimeven: the groups holding every cell directly above its empty cells, and the
  verticals' and claimevens' groups.

Combination (Allis' table): claimevens, baseinverses, verticals and baseclaims take disjoint squares
from every other solution; afterevens and befores may share a column with each other only with the
same squares there; a lowinverse or highinverse takes squares disjoint from the others' and lies
below every claimeven in its columns.  A proof found here claims only what Allis claims of it: the
second player at least draws.

>>> from c4engine.board import Board
>>> proof = find_combination(Board.from_moves("4444443"))
>>> proof is None or proof.claim == "second player at least draws"
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.claims import Proof
from c4engine.search.coach.groups import Cell, Group, open_groups
from c4engine.search.coach.rules import RuleInstance

__all__ = ["MAX_STEPS", "compatible", "find_combination", "solutions"]

MAX_STEPS = 2000
"""The most choices the search for a cover tries before it gives up on a position."""


@dataclass(frozen=True)
class _Solution:
    rule: str
    squares: frozenset[Cell]
    claimeven_lowers: frozenset[Cell]
    refutes: int
    instance: RuleInstance


def _by_column(squares: frozenset[Cell]) -> dict[int, frozenset[Cell]]:
    columns: dict[int, set[Cell]] = {}
    for cell in squares:
        columns.setdefault(cell[0], set()).add(cell)
    return {column: frozenset(cells) for column, cells in columns.items()}


def _columnwise_disjoint_or_equal(one: frozenset[Cell], other: frozenset[Cell]) -> bool:
    mine, theirs = _by_column(one), _by_column(other)
    return all(mine[c] == theirs[c] or not mine[c] & theirs[c] for c in mine.keys() & theirs.keys())


def _below_claimevens(inverse: frozenset[Cell], lowers: frozenset[Cell]) -> bool:
    """Every square of the inverse lies below the lower square of each claimeven in its column."""
    return all(cell[1] < lower[1] for cell in inverse for lower in lowers if lower[0] == cell[0])


_SIMPLE = {"claimeven", "baseinverse", "vertical", "baseclaim"}
_INVERSES = {"lowinverse", "highinverse"}
_GROUPED = {"aftereven", "before"}


def compatible(one: _Solution, other: _Solution) -> bool:
    """Whether Allis' combination table lets ``one`` and ``other`` be used together."""
    if one.rule in _INVERSES and other.rule not in _INVERSES:
        one, other = other, one
    if other.rule in _INVERSES:
        if one.rule in _INVERSES:
            return not one.squares & other.squares
        disjoint = one.rule == "claimeven" or not one.squares & other.squares
        if one.rule == "before":
            disjoint = _columnwise_disjoint_or_equal(one.squares, other.squares)
        return disjoint and _below_claimevens(other.squares, one.claimeven_lowers)
    if one.rule in _SIMPLE or other.rule in _SIMPLE:
        return not one.squares & other.squares
    return _columnwise_disjoint_or_equal(one.squares, other.squares)  # aftereven and before


def solutions(board: Board, groups: tuple[Group, ...]) -> list[_Solution]:
    """Every solution of the second player (the side not to move) refuting one of ``groups``."""
    geometry, mask, height = board.geometry, board.mask_bits, board.height
    empty = {(c, r) for c in range(board.width) for r in range(board.column_height(c), height)}
    playable = [(c, board.column_height(c)) for c in range(board.width) if board.column_height(c) < height]
    through: dict[Cell, int] = {}
    for bit, group in enumerate(groups):
        for cell in group.cells:
            through[cell] = through.get(cell, 0) | 1 << bit

    def having(*cells: Cell) -> int:
        found = -1
        for cell in cells:
            found &= through.get(cell, 0)
        return found if cells else 0

    found: list[_Solution] = []

    def add(
        rule: str,
        squares: tuple[Cell, ...],
        refutes: int,
        lowers: tuple[Cell, ...] = (),
        group: Group | None = None,
    ) -> None:
        if refutes:
            members = tuple(bit for bit in range(len(groups)) if refutes >> bit & 1)
            ordered = squares if rule == "baseclaim" else tuple(sorted(squares))  # a baseclaim's order counts
            instance = RuleInstance(rule, ordered, tuple(groups[i] for i in members), group)  # type: ignore[arg-type]
            found.append(_Solution(rule, frozenset(squares), frozenset(lowers), refutes, instance))

    pairs = [((c, r), (c, r + 1)) for c, r in empty if (c, r + 1) in empty]
    claimevens = [(lower, upper) for lower, upper in pairs if upper[1] % 2 == 1]
    verticals = [(lower, upper) for lower, upper in pairs if upper[1] % 2 == 0]
    for lower, upper in claimevens:
        add("claimeven", (lower, upper), having(upper), (lower,))
    for first, second in ((a, b) for i, a in enumerate(playable) for b in playable[i + 1 :]):
        add("baseinverse", (first, second), having(first, second))
    for lower, upper in verticals:
        add("vertical", (lower, upper), having(lower, upper))
    for (l1, u1), (l2, u2) in ((a, b) for i, a in enumerate(verticals) for b in verticals[i + 1 :]):
        if l1[0] == l2[0]:
            continue
        add("lowinverse", (l1, u1, l2, u2), having(u1, u2) | having(l1, u1) | having(l2, u2))
        t1, t2 = (u1[0], u1[1] + 1), (u2[0], u2[1] + 1)
        if t1 in empty and t2 in empty:
            refutes = having(t1, t2) | having(u1, u2) | having(u1, t1) | having(u2, t2)
            if l1 in playable:
                refutes |= having(l1, t2)
            if l2 in playable:
                refutes |= having(l2, t1)
            add("highinverse", (l1, u1, t1, l2, u2, t2), refutes)
    for first, second, third in product(playable, repeat=3):
        above = (second[0], second[1] + 1)
        if len({first, second, third}) == 3 and second[1] % 2 == 0 and above in empty:
            add(
                "baseclaim",
                (first, second, above, third),
                having(first, above) | having(second, third),
                (second,),
            )
    for group in open_groups(board, Player.SECOND):
        holes = [cell for cell in group.cells if not mask & geometry.bit(*cell)]
        if not holes:
            continue
        if all(cell[1] % 2 == 1 and (cell[0], cell[1] - 1) in empty for cell in holes):
            lowers = [(c, r - 1) for c, r in holes]
            tops = {c: max(r for cc, r in holes if cc == c) for c, _ in holes}
            climbing = -1
            for column, row in tops.items():
                climbing &= _any(through, [(column, r) for r in range(row + 1, height)])
            refutes = climbing | _any(through, holes)
            add("aftereven", (*holes, *lowers), refutes, tuple(lowers), group)
        if any(cell[1] == height - 1 for cell in holes) or len({c for c, _ in group.cells}) == 1:
            continue
        for choice in _before_pairs(holes, empty):
            squares = tuple(cell for pair in choice for cell in pair)
            refutes = having(*[(c, r + 1) for c, r in holes])
            lowers = []
            for (lower, upper), hole in zip(choice, holes, strict=True):
                if upper == hole and upper[1] % 2 == 1:
                    refutes |= having(upper)  # a claimeven
                    lowers.append(lower)
                else:
                    refutes |= having(lower, upper)  # a vertical
            add("before", squares, refutes, tuple(lowers), group)
    return found


def _any(through: dict[Cell, int], cells: list[Cell]) -> int:
    found = 0
    for cell in cells:
        found |= through.get(cell, 0)
    return found


def _before_pairs(holes: list[Cell], empty: set[Cell]) -> Iterator[tuple[tuple[Cell, Cell], ...]]:
    """For each empty cell of a before group, its pair: with the cell above it (a vertical), or with
    the cell below it (a vertical when the cell is odd, a claimeven when even) -- at least one vertical."""
    options = []
    for column, row in holes:
        mine = []
        if (column, row + 1) in empty:
            mine.append(((column, row), (column, row + 1)))
        if (column, row - 1) in empty:
            mine.append(((column, row - 1), (column, row)))
        options.append(mine)
    for choice in product(*options):
        if len({cell for pair in choice for cell in pair}) != 2 * len(choice):
            continue
        if any(
            not (upper == hole and upper[1] % 2 == 1) for (_, upper), hole in zip(choice, holes, strict=True)
        ):
            yield choice


def find_combination(board: Board, most: int = MAX_STEPS) -> Proof | None:
    """A set of Allis' solutions for the second player, the first player to move, pairwise compatible
    and refuting every group of the first player; None if none is found within ``most`` choices."""
    if board.height % 2 or board.is_over or board.turn is not Player.FIRST or board.winning_columns():
        return None
    groups = open_groups(board, Player.FIRST)
    everything = (1 << len(groups)) - 1
    found = solutions(board, groups)
    if not groups:
        return None
    covering = [
        sum(1 << i for i, s in enumerate(found) if s.refutes >> bit & 1) for bit in range(len(groups))
    ]
    if not all(covering):
        return None
    friends: dict[int, int] = {}  # each solution's compatible ones, as a bit mask, once asked

    def friends_of(index: int) -> int:
        if index not in friends:
            one = found[index]
            friends[index] = sum(
                1 << i for i, other in enumerate(found) if i != index and compatible(one, other)
            )
        return friends[index]

    steps = [0]
    chosen: list[int] = []

    def search(covered: int, allowed: int) -> bool:
        if covered == everything:
            return True
        steps[0] += 1
        if steps[0] > most:
            return False
        usable = -1
        for bit in range(len(groups)):
            if not covered >> bit & 1:
                options = covering[bit] & allowed
                if not options:
                    return False
                if usable < 0 or options.bit_count() < usable.bit_count():
                    usable = options
        indices = [i for i in range(len(found)) if usable >> i & 1]
        for index in sorted(indices, key=lambda i: -(found[i].refutes & ~covered).bit_count()):
            chosen.append(index)
            if search(covered | found[index].refutes, allowed & friends_of(index)):
                return True
            chosen.pop()
        return False

    if not search(0, (1 << len(found)) - 1):
        return None
    rules = tuple(found[i].instance for i in chosen)
    return Proof("second player at least draws", Player.SECOND, rules, None)
