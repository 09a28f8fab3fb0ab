"""Puzzles from games: positions after a mistake where every move of the solver's side is the only one.

* :mod:`~c4engine.search.puzzles.puzzle` -- the answer type, :class:`Puzzle` (``to_json``, ``from_json``);
* :mod:`~c4engine.search.puzzles.line` -- the only-move line from a position (the solution);
* :mod:`~c4engine.search.puzzles.themes` -- what a solution shows (double threat, block, claimeven, ...);
* :mod:`~c4engine.search.puzzles.difficulty` -- tempting wrong moves and the difficulty they give;
* :mod:`~c4engine.search.puzzles.generation` -- the mistakes of a game and the puzzles after them;
* :mod:`~c4engine.search.puzzles.check` -- a puzzle checked again, step by step (the uniqueness check);
* :mod:`~c4engine.search.puzzles.attempt` -- one try at a puzzle's move: right, or refuted.

The criteria are written out in docs/puzzles.md.
"""
