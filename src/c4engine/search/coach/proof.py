"""A proof by Allis' rules: a set of rule instances that together refute every group of the opponent.

The controller (the side not to move, or the side to move after its
``move``) follows one plan of follow-up (:mod:`c4engine.search.coach.rules`),
so its instances never get in each other's way: they take disjoint
squares, as Allis' combination rules ask of claimevens, baseinverses and
verticals, and an aftereven uses only the claimevens of the plan.  If every
group the opponent could still complete is refuted, the opponent can never
make a line, which proves:

* for the second player: **at least a draw** -- or **a win** when an
  aftereven completes a group of its own (follow-up fills the board, and
  the group with it).  A cover by claimevens, baseinverses and verticals
  alone is never a proof of a *draw*: the second player may well win;
* for the first player, with an oddthreat as the win condition (Allis'
  chapter 8): **a win** -- follow-up leaves the second player no move but
  the square below the threat.

The first player without an odd threat proves nothing here: with the second
player to move, an odd number of empty cells cannot all be paired.

>>> from c4engine.board import Board
>>> proof = find_proof(Board.from_moves("34444445"))       # Allis' diagram 6.1
>>> proof.claim, sorted({rule.rule for rule in proof.rules})
('second player at least draws', ['claimeven'])
>>> proof = find_proof(Board.from_moves("333244442525155"))  # Allis' diagram 8.1
>>> proof.claim, [rule.rule for rule in proof.rules if rule.rule != "claimeven"]
('first player wins', ['oddthreat', 'baseinverse'])
>>> find_proof(Board()) is None
True
"""

from __future__ import annotations

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.claims import Claim, Proof
from c4engine.search.coach.combination import MAX_STEPS, find_combination
from c4engine.search.coach.groups import Cell, Group, open_groups
from c4engine.search.coach.rules import MAX_PLANS, Plan, RuleInstance, instances_of, plans

__all__ = ["find_proof", "prove_for"]


def prove_for(board: Board, controller: Player, most: int = MAX_PLANS) -> Proof | None:
    """A proof for ``controller``, the side not to move, or None when no plan refutes every group.

    Each plan (:func:`~c4engine.search.coach.rules.plans`) is first measured in bit masks of the
    opponent's groups -- a cell's groups, a pair across's common groups, an aftereven's -- and only a
    plan refuting them all is spelled out in rule instances.
    """
    groups = open_groups(board, controller.other)
    geometry, height, mask = board.geometry, board.height, board.mask_bits
    everything = (1 << len(groups)) - 1
    cell_groups: dict[Cell, int] = {}
    for bit, group in enumerate(groups):
        for cell in group.cells:
            cell_groups[cell] = cell_groups.get(cell, 0) | 1 << bit
    own = []  # (the empty cells' bits, the groups refuted) of each aftereven the controller may have
    for group in open_groups(board, controller):
        empty = [cell for cell in group.cells if not mask & geometry.bit(*cell)]
        tops: dict[int, int] = {}
        for column, row in empty:
            tops[column] = max(tops.get(column, -1), row)
        above = everything
        for column, row in tops.items():
            above &= _cells_mask(cell_groups, [(column, r) for r in range(row + 1, height)])
        own.append((sum(geometry.bit(*cell) for cell in empty), above | _cells_mask(cell_groups, empty)))
    for plan in plans(board, controller, most):
        covered = _cells_mask(cell_groups, [upper for _, upper in plan.column_pairs])
        for first, second in plan.across:
            covered |= cell_groups.get(first, 0) & cell_groups.get(second, 0)
        if plan.threat is not None:
            column, row = plan.threat
            covered |= _cells_mask(cell_groups, [(column, r) for r in range(row, height)])
        if covered != everything:
            claimed = sum(geometry.bit(*cell) for cell in plan.claimed)
            for empty_bits, refuted in own:
                if not empty_bits & ~claimed:
                    covered |= refuted
        if covered == everything:
            return _spelled_out(board, plan, groups)
    return None


def _cells_mask(cell_groups: dict[Cell, int], cells: list[Cell]) -> int:
    found = 0
    for cell in cells:
        found |= cell_groups.get(cell, 0)
    return found


def _spelled_out(board: Board, plan: Plan, groups: tuple[Group, ...]) -> Proof:
    """The proof of ``plan``, which refutes every one of ``groups``: the instances needed, its claim."""
    controller = plan.controller
    index = {group: bit for bit, group in enumerate(groups)}
    everything = (1 << len(groups)) - 1
    candidates = instances_of(board, plan, groups)
    masks = [sum(1 << index[group] for group in rule.refutes) for rule in candidates]
    required = [i for i, rule in enumerate(candidates) if rule.rule == "oddthreat"]
    if controller is Player.SECOND:
        afterevens = [i for i, rule in enumerate(candidates) if rule.rule == "aftereven"]
        required = afterevens[:1]  # one aftereven group completed is the second player's win
    chosen = _cover(candidates, masks, everything, required)
    rules = tuple(candidates[i] for i in chosen)
    if controller is Player.FIRST:
        claim: Claim = "first player wins"
    else:
        claim = "second player wins" if required else "second player at least draws"
    return Proof(claim, controller, rules, plan)


def _cover(
    candidates: list[RuleInstance], masks: list[int], everything: int, required: list[int]
) -> list[int]:
    """Indices of ``masks`` covering ``everything``: ``required`` first, then greedily the one refuting
    the most groups left -- Allis' rules before a rowinverse, which is only taken where they fall short."""
    chosen = list(required)
    covered = 0
    for i in chosen:
        covered |= masks[i]
    while covered != everything:
        best = max(
            range(len(masks)),
            key=lambda i: (
                (candidates[i].rule != "rowinverse") * bool(masks[i] & ~covered),
                (masks[i] & ~covered).bit_count(),
            ),
        )
        chosen.append(best)
        covered |= masks[best]
    return chosen


def find_proof(board: Board) -> Proof | None:
    """A proof by rules of ``board``: for the side not to move (a follow-up plan, else for the second
    player a combination of Allis' solutions); else for the side to move after one of its moves (centre
    first: follow-up plans, then for the second player combinations); None when none is found or the
    game is over (or won at once)."""
    if board.is_over or board.winning_columns():
        return None
    proof = prove_for(board, board.turn.other)
    if proof is None and board.turn is Player.FIRST:
        proof = find_combination(board)
    if proof is not None:
        return proof
    mover = board.turn
    children = []
    for column in board.geometry.center_order:
        if board.can_play(column):
            child = board.copy()
            child.play(column)
            if not child.is_over:
                children.append((column, child))
    for column, child in children:
        found = prove_for(child, mover, MAX_PLANS // 10)
        if found is not None:
            return Proof(found.claim, found.controller, found.rules, found.plan, column)
    if mover is Player.SECOND:  # then Allis' combinations, a tenth of the search each
        for column, child in children:
            found = find_combination(child, MAX_STEPS // 10)
            if found is not None:
                return Proof(found.claim, found.controller, found.rules, None, column)
    return None
