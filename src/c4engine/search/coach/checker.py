"""An independent check of a proof by rules, from the board alone.

:func:`check_proof` trusts nothing the prover computed: it reads the cells
one by one (:meth:`Board.cell <c4engine.board.Board.cell>`), lists the
lines of ``connect`` itself, and re-derives

* the position the proof speaks of (after its ``move``, the controller not to move);
* the follow-up plan: every empty cell in exactly one pair (bar the cells
  above an odd threat), each pair one the opponent must open and the
  controller can close at once -- a column pair, lower cell first; a pair
  across two columns whose cells are both playable now, or stand on such a
  pair one row down;
* every rule instance's preconditions, and that it is a part of that plan;
* that each group an instance says it refutes is refuted by it, and that
  every group the opponent could still complete is refuted by an instance
  listed;
* the claim, from the win condition the instances hold;

and for a combination of Allis' solutions (no plan): each solution's
preconditions, every two of them allowed together by his combination table,
and the cover.

It returns the problems found, in words; none means the proof holds.

>>> from c4engine.board import Board
>>> from c4engine.search.coach.proof import find_proof
>>> board = Board.from_moves("333244442525155")
>>> check_proof(board, find_proof(board))
()
>>> from dataclasses import replace
>>> proof = find_proof(board)
>>> check_proof(board, replace(proof, rules=proof.rules[1:]))[0]   # without its oddthreat
'a group of O is refuted by no rule: a2-a5'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from typing import NamedTuple, TypeAlias

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.claims import Proof
from c4engine.search.coach.groups import Cell
from c4engine.search.coach.rules import Plan

__all__ = ["check_proof"]

Test: TypeAlias = Callable[[tuple[Cell, ...]], bool]
"""Whether a group (its cells) is refuted by one part of a rule instance."""

Derived: TypeAlias = tuple[list[Test], set[Cell]]
"""One of Allis' solutions re-derived: its tests and the lower squares of its claimevens."""


@dataclass(frozen=True)
class _Cells:
    """The position's cells, read one by one: who holds each, the empty ones, each column's lowest empty
    row (``height`` when the column is full) and every line of ``connect``."""

    width: int
    height: int
    owner: dict[Cell, Player | None]
    empty: set[Cell]
    bottom: dict[int, int]
    lines: list[tuple[Cell, ...]]

    def playable(self, cell: Cell) -> bool:
        """Whether ``cell`` can be played now."""
        return cell in self.empty and cell[1] == self.bottom[cell[0]]

    def pair(self, lower: Cell, upper: Cell) -> bool:
        """Whether ``lower`` and ``upper`` are an empty cell and the empty cell above it."""
        return lower in self.empty and upper == (lower[0], lower[1] + 1) and upper in self.empty


@dataclass(frozen=True)
class _PlanSets:
    """The follow-up plan as sets: its column ``pairs`` (lower, upper), its pairs ``across``, its odd
    ``threat`` and the cells above it, ``never`` played."""

    pairs: set[tuple[Cell, Cell]]
    across: set[frozenset[Cell]]
    threat: Cell | None
    never: set[Cell]

    @property
    def claimed(self) -> set[Cell]:
        """The cells the controller gets: every column pair's upper cell."""
        return {upper for _, upper in self.pairs}


class _Solution(NamedTuple):
    """One of Allis' solutions of a combination, re-derived."""

    rule: str
    squares: set[Cell]
    lowers: set[Cell]
    """The lower squares of its claimevens."""
    tests: list[Test]


def _lines(width: int, height: int, length: int) -> list[tuple[Cell, ...]]:
    lines = []
    for column in range(width):
        for row in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = tuple((column + dc * i, row + dr * i) for i in range(length))
                if all(0 <= c < width and 0 <= r < height for c, r in cells):
                    lines.append(cells)
    return lines


def _read_cells(position: Board) -> _Cells:
    """The cells of ``position``, from :meth:`Board.cell <c4engine.board.Board.cell>` alone."""
    width, height = position.width, position.height
    owner = {(c, r): position.cell(c, r) for c in range(width) for r in range(height)}
    empty = {cell for cell, who in owner.items() if who is None}
    bottom = {c: min((r for r in range(height) if (c, r) in empty), default=height) for c in range(width)}
    return _Cells(width, height, owner, empty, bottom, _lines(width, height, position.connect))


def _name(cell: Cell, width: int) -> str:
    return f"{chr(97 + cell[0])}{cell[1] + 1}" if width <= 26 else f"{cell[0] + 1}:{cell[1] + 1}"


def _not_held(rule: str, squares: tuple[Cell, ...], width: int) -> str:
    """The problem of an instance whose preconditions fail."""
    return f"the {rule} at {', '.join(_name(c, width) for c in squares)} does not hold"


def _open_lines(cells: _Cells, controller: Player) -> list[tuple[Cell, ...]]:
    """The lines the opponent of ``controller`` could still complete."""
    return [
        line
        for line in cells.lines
        if all(cells.owner[c] is not controller for c in line) and set(line) & cells.empty
    ]


def _odd(cell: Cell) -> bool:
    return cell[1] % 2 == 0


def _both(*cells: Cell) -> Test:
    return lambda line: all(cell in line for cell in cells)


def _tops(holes: list[Cell]) -> dict[int, int]:
    """Each column of ``holes`` -> the row of its highest hole."""
    return {c: max(r for cc, r in holes if cc == c) for c, _ in holes}


def _climbs(line: tuple[Cell, ...], tops: dict[int, int]) -> bool:
    """Whether ``line`` has a cell above the highest hole in each of the columns of ``tops``."""
    return all(any(cc == c and r > top for cc, r in line) for c, top in tops.items())


def check_proof(board: Board, proof: Proof) -> tuple[str, ...]:
    """The problems of ``proof`` for ``board`` (empty: the proof holds)."""
    position = board.copy()
    controller = proof.controller
    if proof.move is not None:
        if controller is not board.turn or not board.can_play(proof.move):
            return (f"the move {proof.move + 1} is not the controller's to play",)
        position.play(proof.move)
    if controller is position.turn:
        return ("the controller is to move: the rules are for the side not to move",)
    if position.is_over or position.height % 2:
        return ("the game is over, or the board's height is odd",)
    cells = _read_cells(position)
    if proof.plan is None:
        return _check_combination(position, proof, cells)
    problems, sets = _check_plan(proof.plan, controller, cells)
    problems += _check_plan_rules(proof, sets, cells)
    return tuple(problems)


def _check_plan(plan: Plan, controller: Player, cells: _Cells) -> tuple[list[str], _PlanSets]:
    """The problems of the follow-up plan -- every pair one the opponent opens and the controller closes
    at once, every empty cell paired bar those above the odd threat -- and the plan as sets."""
    width, empty, bottom = cells.width, cells.empty, cells.bottom
    problems: list[str] = []
    pairs = {(lower, upper) for lower, upper in plan.column_pairs}
    across = {frozenset(pair) for pair in plan.across}
    used: list[Cell] = [cell for pair in plan.column_pairs for cell in pair]
    used += [cell for pair in plan.across for cell in pair]
    if len(used) != len(set(used)) or not set(used) <= empty:
        problems.append("the plan's pairs overlap or take cells that are not empty")
    for lower, upper in pairs:
        if lower[0] != upper[0] or upper[1] != lower[1] + 1:
            problems.append(f"{_name(lower, width)}-{_name(upper, width)} is not a cell and the one above it")
    for pair in across:
        first, second = sorted(pair)
        if first[0] == second[0]:
            problems.append(f"{_name(first, width)}/{_name(second, width)} lie in one column")
        elif not (first[1] == bottom[first[0]] and second[1] == bottom[second[0]]) and (
            frozenset({(first[0], first[1] - 1), (second[0], second[1] - 1)}) not in across
        ):
            problems.append(
                f"{_name(first, width)}/{_name(second, width)} are neither playable now nor on a pair across"
            )
    never = _check_odd_threat(plan.threat, controller, pairs, cells, problems)
    if set(used) | never != empty or set(used) & never:
        problems.append("the plan does not pair every empty cell (bar those above the odd threat)")
    return problems, _PlanSets(pairs, across, plan.threat, never)


def _check_odd_threat(
    threat: Cell | None, controller: Player, pairs: set[tuple[Cell, Cell]], cells: _Cells, problems: list[str]
) -> set[Cell]:
    """The cells above the plan's odd ``threat`` (none without one), adding its problems to ``problems``:
    the first player's, on an odd row, with column pairs up to it, over an odd number of empty cells."""
    if threat is None:
        if controller is Player.FIRST:
            problems.append("the first player's plan has no odd threat")
        return set()
    column, row = threat
    below = {((column, r), (column, r + 1)) for r in range(cells.bottom[column], row, 2)}
    if controller is not Player.FIRST or threat not in cells.empty or row % 2 or not below <= pairs:
        problems.append("the odd threat is not the first player's, on an odd row, with follow-up below it")
    if (cells.height - cells.bottom[column]) % 2 == 0:
        problems.append("the odd threat's column has an even number of empty cells")
    return {(column, r) for r in range(row + 1, cells.height)}


def _check_plan_rules(proof: Proof, sets: _PlanSets, cells: _Cells) -> list[str]:
    """The problems of the plan's rule instances: each one's preconditions, the groups it says it
    refutes, every group the opponent could still complete refuted by one, and the claim."""
    controller, width = proof.controller, cells.width
    opponent = controller.other
    theirs = _open_lines(cells, controller)
    problems: list[str] = []
    tests: list[Test] = []
    for rule in proof.rules:
        group = None if rule.group is None else rule.group.cells
        test = _plan_test(rule.rule, rule.squares, group, opponent, sets, cells)
        if test is None:
            problems.append(_not_held(rule.rule, rule.squares, width))
            continue
        tests.append(test)
        for refuted in rule.refutes:
            if refuted.cells not in theirs or not test(refuted.cells):
                problems.append(f"the {rule.rule} does not refute {_name(refuted.cells[0], width)}-...")
    for line in theirs:
        if not any(test(line) for test in tests):
            problems.append(
                f"a group of {opponent.symbol} is refuted by no rule: "
                f"{_name(line[0], width)}-{_name(line[-1], width)}"
            )
    names = {rule.rule for rule in proof.rules}
    if controller is Player.FIRST:
        expected = "first player wins" if "oddthreat" in names else None
    else:
        expected = "second player wins" if "aftereven" in names else "second player at least draws"
    if proof.claim != expected:
        problems.append(f"the rules prove {expected!r}, not {proof.claim!r}")
    return problems


def _plan_test(
    rule: str,
    squares: tuple[Cell, ...],
    group: tuple[Cell, ...] | None,
    opponent: Player,
    sets: _PlanSets,
    cells: _Cells,
) -> Test | None:
    """The groups an instance of ``rule`` refutes, or None when its preconditions fail or it is not a
    part of the plan."""
    if rule in ("claimeven", "vertical"):
        lower, upper = squares
        even = upper[1] % 2 == 1
        if (lower, upper) not in sets.pairs or even != (rule == "claimeven"):
            return None
        return lambda line: upper in line
    if rule in ("baseinverse", "rowinverse"):
        if len(squares) != 2 or frozenset(squares) not in sets.across:
            return None
        playable = all(cell[1] == cells.bottom[cell[0]] for cell in squares)
        if playable != (rule == "baseinverse"):
            return None
        return lambda line: set(squares) <= set(line)
    if group is None or any(cells.owner[c] is opponent for c in group):
        return None
    holes = [c for c in group if c in cells.empty]
    if rule == "oddthreat":
        if squares != (sets.threat,) or holes != [sets.threat]:
            return None
        return lambda line: any(c in line for c in sets.never | {sets.threat})
    if rule == "aftereven" and holes and set(holes) <= sets.claimed:
        tops = _tops(holes)
        return lambda line: bool(set(holes) & set(line)) or _climbs(line, tops)
    return None


def _check_combination(position: Board, proof: Proof, cells: _Cells) -> tuple[str, ...]:
    """The problems of a combination of Allis' solutions: each one's preconditions, every two of them
    allowed together by his table, every group of the first player refuted, the claim."""
    width = cells.width
    problems: list[str] = []
    if proof.controller is not Player.SECOND or position.turn is not Player.FIRST:
        problems.append("a combination of Allis' solutions is the second player's, the first to move")
    if proof.claim != "second player at least draws":
        problems.append(f"Allis' solutions prove 'second player at least draws', not {proof.claim!r}")
    solutions: list[_Solution] = []
    for rule in proof.rules:
        found = _derive(rule.rule, rule.squares, None if rule.group is None else rule.group.cells, cells)
        if found is None:
            problems.append(_not_held(rule.rule, rule.squares, width))
            continue
        solutions.append(_Solution(rule.rule, set(rule.squares), found[1], found[0]))
    for i, one in enumerate(solutions):
        for other in solutions[i + 1 :]:
            if not _allowed_together(one, other):
                problems.append(f"Allis' table does not let the {one.rule} and the {other.rule} go together")
    for line in _open_lines(cells, Player.SECOND):
        if not any(test(line) for solution in solutions for test in solution.tests):
            problems.append(
                f"a group of X is refuted by no rule: {_name(line[0], width)}-{_name(line[-1], width)}"
            )
    return tuple(problems)


def _derive(
    rule: str, squares: tuple[Cell, ...], group: tuple[Cell, ...] | None, cells: _Cells
) -> Derived | None:
    """The solution's tests and its claimevens' lower squares, or None when its preconditions fail."""
    ordered = sorted(squares)
    if rule in ("claimeven", "vertical"):
        return _derive_column_pair(rule == "claimeven", ordered, cells)
    if rule == "baseinverse":
        if len(ordered) == 2 and all(map(cells.playable, ordered)) and ordered[0][0] != ordered[1][0]:
            return [_both(*ordered)], set()
        return None
    if rule == "baseclaim":
        return _derive_baseclaim(squares, cells)
    if rule in ("lowinverse", "highinverse"):
        return _derive_inverse(rule == "lowinverse", ordered, cells)
    if rule in ("aftereven", "before") and group is not None:
        if any(cells.owner[cell] is Player.FIRST for cell in group):
            return None
        holes = [cell for cell in group if cell in cells.empty]
        if rule == "aftereven":
            return _derive_aftereven(squares, holes, cells)
        return _derive_before(squares, group, holes, cells)
    return None


def _derive_column_pair(claimeven: bool, ordered: list[Cell], cells: _Cells) -> Derived | None:
    """A claimeven (an even upper square) or a vertical (an odd upper square) on a cell and the one above."""
    if len(ordered) == 2 and cells.pair(ordered[0], ordered[1]) and _odd(ordered[1]) != claimeven:
        if claimeven:
            return [_both(ordered[1])], {ordered[0]}
        return [_both(*ordered)], set()
    return None


def _derive_baseclaim(squares: tuple[Cell, ...], cells: _Cells) -> Derived | None:
    """A baseclaim: three playable squares, the second odd with the square above it."""
    if len(squares) == 4:
        first, second, above, third = squares
        if (
            len({first, second, third}) == 3
            and all(map(cells.playable, (first, second, third)))
            and _odd(second)
            and cells.pair(second, above)
        ):
            return [_both(first, above), _both(second, third)], {second}
    return None


def _derive_inverse(low: bool, ordered: list[Cell], cells: _Cells) -> Derived | None:
    """A lowinverse (two squares in each of two columns) or a highinverse (three), each column's second
    square odd."""
    columns = sorted({c for c, _ in ordered})
    size = 2 if low else 3
    stacks = [sorted(cell for cell in ordered if cell[0] == column) for column in columns]
    sized = len(columns) == 2 and all(len(stack) == size for stack in stacks) and len(ordered) == 2 * size
    if not sized or not all(
        all(cells.pair(a, b) for a, b in pairwise(stack)) and _odd(stack[1]) for stack in stacks
    ):
        return None
    one, two = stacks
    if low:
        return [_both(one[1], two[1]), _both(*one), _both(*two)], set()
    checks = [_both(one[2], two[2]), _both(one[1], two[1]), _both(one[1], one[2]), _both(two[1], two[2])]
    if cells.playable(one[0]):
        checks.append(_both(one[0], two[2]))
    if cells.playable(two[0]):
        checks.append(_both(two[0], one[2]))
    return checks, set()


def _derive_aftereven(squares: tuple[Cell, ...], holes: list[Cell], cells: _Cells) -> Derived | None:
    """An aftereven: a group whose holes are all claimevens' upper squares, its squares those pairs."""
    lowers = {(c, r - 1) for c, r in holes}
    claims = all(not _odd(cell) and (cell[0], cell[1] - 1) in cells.empty for cell in holes)
    if holes and claims and set(squares) == set(holes) | lowers:
        tops = _tops(holes)
        return [lambda line: _climbs(line, tops), *[_both(hole) for hole in holes]], lowers
    return None


def _derive_before(
    squares: tuple[Cell, ...], group: tuple[Cell, ...], holes: list[Cell], cells: _Cells
) -> Derived | None:
    """A before: a group across columns, each hole below the top row, on a claimeven or a vertical of its
    column's squares, at least one a vertical."""
    if not holes or len({c for c, _ in group}) == 1 or any(r == cells.height - 1 for _, r in holes):
        return None
    tests: list[Test] = [_both(*[(c, r + 1) for c, r in holes])]
    lowers: set[Cell] = set()
    used: set[Cell] = set()
    verticals = 0
    for column, row in holes:
        mine = sorted(cell for cell in squares if cell[0] == column)
        if len(mine) != 2 or (column, row) not in mine or not cells.pair(mine[0], mine[1]):
            return None
        used.update(mine)
        if mine[1] == (column, row) and not _odd(mine[1]):
            tests.append(_both(mine[1]))  # a claimeven under the hole's own square
            lowers.add(mine[0])
        else:
            tests.append(_both(*mine))
            verticals += 1
    if verticals and used == set(squares):
        return tests, lowers
    return None


_INVERSES = frozenset({"lowinverse", "highinverse"})


def _allowed_together(one: _Solution, other: _Solution) -> bool:
    """Whether Allis' combination table lets the two solutions go together."""
    if one.rule in _INVERSES and other.rule in _INVERSES:
        return not one.squares & other.squares
    if one.rule in _INVERSES or other.rule in _INVERSES:
        inverse, rest = (one, other) if one.rule in _INVERSES else (other, one)
        fits = (
            _stacked(rest.squares, inverse.squares)
            if rest.rule == "before"
            else (rest.rule == "claimeven" or not rest.squares & inverse.squares)
        )
        return fits and _under(inverse.squares, rest.lowers)  # the inverse lies below the other's claimevens
    if {one.rule, other.rule} & {"claimeven", "baseinverse", "vertical", "baseclaim"}:
        return not one.squares & other.squares
    return _stacked(one.squares, other.squares)


def _by_column(cells: set[Cell]) -> dict[int, set[Cell]]:
    columns: dict[int, set[Cell]] = {}
    for cell in cells:
        columns.setdefault(cell[0], set()).add(cell)
    return columns


def _stacked(one: set[Cell], other: set[Cell]) -> bool:
    """Whether in each column they share, the two have the same squares, or none in common."""
    mine, theirs = _by_column(one), _by_column(other)
    return all(mine[c] == theirs[c] or not mine[c] & theirs[c] for c in set(mine) & set(theirs))


def _under(inverse: set[Cell], lowers: set[Cell]) -> bool:
    """Whether every square of ``inverse`` lies below the claimevens' lower squares of its columns."""
    return all(cell[1] < low[1] for cell in inverse for low in lowers if low[0] == cell[0])
