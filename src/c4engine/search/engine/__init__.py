"""The heuristic engine: negamax with alpha-beta over pluggable evaluators.

:class:`~c4engine.search.engine.negamax.Engine` searches in pure Python or, for the evaluators with
a compiled twin, in a kernel (:mod:`.compiled`); the evaluators (:mod:`.evaluators`) and their
tunable weights and weight files (:mod:`.weights`).
"""
