"""The coach: what a position holds, in a player's words, every claim checked (issue 45).

Modules, each one idea:

* :mod:`~c4engine.search.coach.groups` -- the lines of ``connect`` cells (Allis' *groups*),
  cell names (``a1``);
* :mod:`~c4engine.search.coach.threats` -- every threat of each player: parity, playable, useless;
* :mod:`~c4engine.search.coach.immediate` -- a win now, a forced block, a double threat, a move
  giving the opponent a win directly above;
* :mod:`~c4engine.search.coach.zugzwang` -- follow-up squares and who controls the zugzwang (Allis ch. 4);
* :mod:`~c4engine.search.coach.rules` -- the controller's follow-up plan and its rule instances
  (claimeven, baseinverse, vertical, aftereven, oddthreat; rowinverse);
* :mod:`~c4engine.search.coach.claims` -- what a proof claims, and the proof (:class:`Proof`);
* :mod:`~c4engine.search.coach.combination` -- Allis' own combination of his solutions (lowinverse,
  highinverse, baseclaim, before too) for the second player, by his combination table;
* :mod:`~c4engine.search.coach.proof` -- the search: a follow-up plan whose instances refute every
  group of the opponent, else a combination; the claim;
* :mod:`~c4engine.search.coach.checker` -- an independent re-derivation of a proof from the board alone;
* :mod:`~c4engine.search.coach.explanation` -- the answers and their sentences.

The interface (for review, the web API and the page)::

    from c4engine.search.coach.explanation import explain, explain_move

    explain(board, *, analyst=None, limit=None, score=None) -> Explanation
        .threats, .immediate, .zugzwang, .proof (None unless checked and confirmed by the
        exact score), .proof_status, .score (the side to move's Score, or None), .sentences
        .to_json() -> {"position", "size", "connect", "to_move", "threats": [{"player", "column",
            "row", "parity", "playable", "useless", "groups"}], "immediate": [{"kind", "player",
            "columns"}], "zugzwang": {...}, "proof": null | {"claim", "player", "move", "rules":
            [{"rule", "squares", "refutes", "group"?}], "plan" (null for a combination)},
            "proof_status", "score": null |
            {"value", "proven", "words"}, "sentences": [...]}
    explain_move(board, column, *, analyst=None, limit=None, before=None) -> MoveExplanation
        .changes (Change: kind, text, cell), .score and .best (the mover's), .line (the solver's
        refutation, 0-based), .sentences, .why() -> str, .to_json()

Columns and rows are 0-based in Python, 1-based in JSON (row 1 the bottom); player 1 moves first.
Docs: docs/explain.md.
"""
