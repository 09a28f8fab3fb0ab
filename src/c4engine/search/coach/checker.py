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
from itertools import pairwise
from typing import TypeAlias

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.claims import Proof
from c4engine.search.coach.groups import Cell

__all__ = ["check_proof"]

Test: TypeAlias = Callable[[tuple[Cell, ...]], bool]
"""Whether a group (its cells) is refuted by one part of a rule instance."""


def _lines(width: int, height: int, length: int) -> list[tuple[Cell, ...]]:
    lines = []
    for column in range(width):
        for row in range(height):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = tuple((column + dc * i, row + dr * i) for i in range(length))
                if all(0 <= c < width and 0 <= r < height for c, r in cells):
                    lines.append(cells)
    return lines


def _name(cell: Cell, width: int) -> str:
    return f"{chr(97 + cell[0])}{cell[1] + 1}" if width <= 26 else f"{cell[0] + 1}:{cell[1] + 1}"


def check_proof(board: Board, proof: Proof) -> tuple[str, ...]:
    """The problems of ``proof`` for ``board`` (empty: the proof holds)."""
    problems: list[str] = []
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
    width, height = position.width, position.height
    owner = {(c, r): position.cell(c, r) for c in range(width) for r in range(height)}
    empty = {cell for cell, who in owner.items() if who is None}
    bottom = {c: min((r for r in range(height) if (c, r) in empty), default=height) for c in range(width)}
    plan = proof.plan
    lines = _lines(width, height, position.connect)
    if plan is None:
        return _check_combination(position, proof, owner, empty, bottom, lines)

    # the plan: every pair one the opponent opens and the controller closes at once
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
    never: set[Cell] = set()
    threat = plan.threat
    if threat is not None:
        column, row = threat
        never = {(column, r) for r in range(row + 1, height)}
        below = {((column, r), (column, r + 1)) for r in range(bottom[column], row, 2)}
        if controller is not Player.FIRST or threat not in empty or row % 2 or not below <= pairs:
            problems.append(
                "the odd threat is not the first player's, on an odd row, with follow-up below it"
            )
        if (height - bottom[column]) % 2 == 0:
            problems.append("the odd threat's column has an even number of empty cells")
    elif controller is Player.FIRST:
        problems.append("the first player's plan has no odd threat")
    if set(used) | never != empty or set(used) & never:
        problems.append("the plan does not pair every empty cell (bar those above the odd threat)")
    claimed = {upper for _, upper in pairs}

    # the instances, each re-derived, and the cover
    opponent = controller.other
    theirs = [line for line in lines if all(owner[c] is not controller for c in line) and set(line) & empty]

    def criterion(rule: str, squares: tuple[Cell, ...], group: tuple[Cell, ...] | None) -> object:
        if rule in ("claimeven", "vertical"):
            lower, upper = squares
            even = upper[1] % 2 == 1
            if (lower, upper) not in pairs or even != (rule == "claimeven"):
                return None
            return lambda line: upper in line
        if rule in ("baseinverse", "rowinverse"):
            if len(squares) != 2 or frozenset(squares) not in across:
                return None
            playable = all(cell[1] == bottom[cell[0]] for cell in squares)
            if playable != (rule == "baseinverse"):
                return None
            return lambda line: set(squares) <= set(line)
        if group is None or any(owner[c] is opponent for c in group):
            return None
        holes = [c for c in group if c in empty]
        if rule == "oddthreat":
            if squares != (threat,) or holes != [threat]:
                return None
            return lambda line: any(c in line for c in never | {threat})
        if rule == "aftereven" and holes and set(holes) <= claimed:
            tops = {c: max(r for cc, r in holes if cc == c) for c, _ in holes}
            return lambda line: (
                bool(set(holes) & set(line))
                or all(any(cc == c and r > top for cc, r in line) for c, top in tops.items())
            )
        return None

    tests = []
    for rule in proof.rules:
        group = None if rule.group is None else rule.group.cells
        test = criterion(rule.rule, rule.squares, group)
        if test is None:
            problems.append(
                f"the {rule.rule} at {', '.join(_name(c, width) for c in rule.squares)} does not hold"
            )
            continue
        tests.append(test)
        for refuted in rule.refutes:
            if refuted.cells not in theirs or not test(refuted.cells):  # type: ignore[operator]
                problems.append(f"the {rule.rule} does not refute {_name(refuted.cells[0], width)}-...")
    for line in theirs:
        if not any(test(line) for test in tests):  # type: ignore[operator]
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
    return tuple(problems)


def _check_combination(
    position: Board,
    proof: Proof,
    owner: dict[Cell, Player | None],
    empty: set[Cell],
    bottom: dict[int, int],
    lines: list[tuple[Cell, ...]],
) -> tuple[str, ...]:
    """The problems of a combination of Allis' solutions: each one's preconditions, every two of them
    allowed together by his table, every group of the first player refuted, the claim."""
    width, height = position.width, position.height
    problems: list[str] = []
    if proof.controller is not Player.SECOND or position.turn is not Player.FIRST:
        problems.append("a combination of Allis' solutions is the second player's, the first to move")
    if proof.claim != "second player at least draws":
        problems.append(f"Allis' solutions prove 'second player at least draws', not {proof.claim!r}")

    def playable(cell: Cell) -> bool:
        return cell in empty and cell[1] == bottom[cell[0]]

    def odd(cell: Cell) -> bool:
        return cell[1] % 2 == 0

    def pair(lower: Cell, upper: Cell) -> bool:
        return lower in empty and upper == (lower[0], lower[1] + 1) and upper in empty

    def both(*cells: Cell) -> Test:
        return lambda line: all(cell in line for cell in cells)

    def derive(
        rule: str, squares: tuple[Cell, ...], group: tuple[Cell, ...] | None
    ) -> tuple[list[Test], set[Cell]] | None:
        """The rule's tests and its claimevens' lower squares, or None when its preconditions fail."""
        cells = sorted(squares)
        shape = rule in ("claimeven", "vertical") and len(cells) == 2 and pair(cells[0], cells[1])
        if shape and odd(cells[1]) == (rule == "vertical"):
            return ([both(cells[1])] if rule == "claimeven" else [both(*cells)]), (
                {cells[0]} if rule == "claimeven" else set()
            )
        if (
            rule == "baseinverse"
            and len(cells) == 2
            and all(map(playable, cells))
            and cells[0][0] != cells[1][0]
        ):
            return [both(*cells)], set()
        if rule == "baseclaim" and len(squares) == 4:
            first, second, above, third = squares
            if (
                len({first, second, third}) == 3
                and all(map(playable, (first, second, third)))
                and odd(second)
                and pair(second, above)
            ):
                return [both(first, above), both(second, third)], {second}
        if rule in ("lowinverse", "highinverse"):
            columns = sorted({c for c, _ in cells})
            size = 2 if rule == "lowinverse" else 3
            stacks = [sorted(cell for cell in cells if cell[0] == column) for column in columns]
            sized = (
                len(columns) == 2 and all(len(stack) == size for stack in stacks) and len(cells) == 2 * size
            )
            if sized and all(
                all(pair(a, b) for a, b in pairwise(stack)) and odd(stack[1]) for stack in stacks
            ):
                one, two = stacks
                if rule == "lowinverse":
                    return [both(one[1], two[1]), both(*one), both(*two)], set()
                checks = [
                    both(one[2], two[2]),
                    both(one[1], two[1]),
                    both(one[1], one[2]),
                    both(two[1], two[2]),
                ]
                if playable(one[0]):
                    checks.append(both(one[0], two[2]))
                if playable(two[0]):
                    checks.append(both(two[0], one[2]))
                return checks, set()
        if rule in ("aftereven", "before") and group is not None:
            if any(owner[cell] is Player.FIRST for cell in group):
                return None
            holes = [cell for cell in group if cell in empty]
            if rule == "aftereven":
                lowers = {(c, r - 1) for c, r in holes}
                claims = all(not odd(cell) and (cell[0], cell[1] - 1) in empty for cell in holes)
                if holes and claims and set(squares) == set(holes) | lowers:
                    tops = {c: max(r for cc, r in holes if cc == c) for c, _ in holes}

                    def climbs(line: tuple[Cell, ...], tops: dict[int, int] = tops) -> bool:
                        return all(any(cc == c and r > top for cc, r in line) for c, top in tops.items())

                    return [climbs, *[both(hole) for hole in holes]], lowers
                return None
            if not holes or len({c for c, _ in group}) == 1 or any(r == height - 1 for _, r in holes):
                return None
            tests: list[Test] = [both(*[(c, r + 1) for c, r in holes])]
            lowers = set()
            used: set[Cell] = set()
            verticals = 0
            for column, row in holes:
                mine = sorted(cell for cell in squares if cell[0] == column)
                if len(mine) != 2 or (column, row) not in mine or not pair(mine[0], mine[1]):
                    return None
                used.update(mine)
                if mine[1] == (column, row) and not odd(mine[1]):
                    tests.append(both(mine[1]))  # a claimeven under the hole's own square
                    lowers.add(mine[0])
                else:
                    tests.append(both(*mine))
                    verticals += 1
            if verticals and used == set(squares):
                return tests, lowers
        return None

    derived = []
    for rule in proof.rules:
        found = derive(rule.rule, rule.squares, None if rule.group is None else rule.group.cells)
        if found is None:
            problems.append(
                f"the {rule.rule} at {', '.join(_name(c, width) for c in rule.squares)} does not hold"
            )
            continue
        derived.append((rule.rule, set(rule.squares), found[1], found[0]))

    def by_column(cells: set[Cell]) -> dict[int, set[Cell]]:
        columns: dict[int, set[Cell]] = {}
        for cell in cells:
            columns.setdefault(cell[0], set()).add(cell)
        return columns

    def stacked(one: set[Cell], other: set[Cell]) -> bool:  # in each shared column: the same squares, or none
        mine, theirs = by_column(one), by_column(other)
        return all(mine[c] == theirs[c] or not mine[c] & theirs[c] for c in set(mine) & set(theirs))

    def under(inverse: set[Cell], lowers: set[Cell]) -> bool:
        return all(cell[1] < low[1] for cell in inverse for low in lowers if low[0] == cell[0])

    inverses = {"lowinverse", "highinverse"}
    for i, (rule_a, squares_a, lowers_a, _) in enumerate(derived):
        for rule_b, squares_b, lowers_b, _ in derived[i + 1 :]:
            if rule_a in inverses and rule_b in inverses:
                allowed = not squares_a & squares_b
            elif rule_a in inverses or rule_b in inverses:
                inverse = squares_a if rule_a in inverses else squares_b
                other_rule, other, lowers = (
                    (rule_b, squares_b, lowers_b) if rule_a in inverses else (rule_a, squares_a, lowers_a)
                )
                fits = (
                    stacked(other, inverse)
                    if other_rule == "before"
                    else (other_rule == "claimeven" or not other & inverse)
                )
                allowed = fits and under(inverse, lowers)  # the inverse lies below the other's claimevens
            elif {rule_a, rule_b} & {"claimeven", "baseinverse", "vertical", "baseclaim"}:
                allowed = not squares_a & squares_b
            else:
                allowed = stacked(squares_a, squares_b)
            if not allowed:
                problems.append(f"Allis' table does not let the {rule_a} and the {rule_b} go together")
    theirs = [
        line for line in lines if all(owner[c] is not Player.SECOND for c in line) and set(line) & empty
    ]
    for line in theirs:
        if not any(test(line) for *_, tests in derived for test in tests):
            problems.append(
                f"a group of X is refuted by no rule: {_name(line[0], width)}-{_name(line[-1], width)}"
            )
    return tuple(problems)
