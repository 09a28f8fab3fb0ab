"""Search: the opening book, the exact solver, the heuristic engine and its evaluators, and the
analysis service over all of them (:mod:`c4engine.search.analysis`)."""

from c4engine.kernels import on_compile

__all__ = ["on_compile"]
