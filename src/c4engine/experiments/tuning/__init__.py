"""Tuning evaluator parameters by self-play: simulated annealing or CMA-ES, checkpointed in SQLite.

The sub-package in layers: :mod:`~c4engine.experiments.tuning.parameters` (what is
tuned), :mod:`~c4engine.experiments.tuning.optimizers` (how the next candidates are
chosen), :mod:`~c4engine.experiments.tuning.config` (a run's configuration),
:mod:`~c4engine.experiments.tuning.store` (the checkpoint) and
:mod:`~c4engine.experiments.tuning.run` (games, rounds, the budget: :func:`tune`).
Every public name is importable from here.

What is tuned is a :class:`ParameterSpace`: named numeric parameters with
bounds (linear or logarithmic) and a function that turns a vector of values
into an evaluator.  :func:`window_space` is the shipped case, the weights of
the ``windows`` evaluator (:class:`~c4engine.search.engine.weights.WindowWeights`:
``own1..own{N-1}``, ``opponent1..``, ``center``); the engine runs them in its
compiled search, weights passed as arrays, so nothing is recompiled.

The optimisers work in the unit cube: each parameter's bounds map to 0..1
(logarithmically for a log-scale parameter, so 1 and 1000 are as far apart
as 10 and 10000), and a step of 0.1 is a tenth of the range.

**Fitness** of a candidate is its score (win 1, draw 1/2) in games at a
fixed search depth against a fixed *reference pool* (e.g. the starting
weights, the default weights and ``areas``-like weights), each opening
played twice with the colours swapped.  Openings are seeded random plies
(:func:`c4engine.experiments.match.opening`) shared by every candidate of a *round*:
for CMA-ES a round is a generation (fresh openings each generation, the
same for the whole population, so the ranking CMA needs is a paired
comparison); simulated annealing compares each candidate with the current
point, so it plays all its rounds on the openings of round 0.  Engines
without noise are deterministic, so a candidate's fitness is a function of
its values and the round.

**Budget** is in games, a hard bound: a round that would exceed it is cut
to the candidates that fit (at least half a CMA-ES population), or not
started; a budget below one round is refused.  Games run on
:class:`c4engine.jobs.JobRunner`.

**Checkpoints**: :class:`TuneStore` keeps the run's parameters, every game,
every evaluated candidate with its fitness, and the optimiser's state
(pickled) in SQLite, committed as they happen.  A round's candidates are
stored before its games are played; a run that is killed and started again
with the same parameters asks for nothing new, replays only the games it
lost, and ends exactly where an uninterrupted run ends.
"""

from c4engine.experiments.tuning.config import METHODS, TuneConfig
from c4engine.experiments.tuning.optimizers import Annealing, CmaEs, Optimizer
from c4engine.experiments.tuning.parameters import Parameter, ParameterSpace, reference_weights, window_space
from c4engine.experiments.tuning.run import PairJob, TuneResult, play_pair, tune
from c4engine.experiments.tuning.store import CandidateResult, TuneStore

__all__ = [
    "METHODS",
    "Annealing",
    "CandidateResult",
    "CmaEs",
    "Optimizer",
    "PairJob",
    "Parameter",
    "ParameterSpace",
    "TuneConfig",
    "TuneResult",
    "TuneStore",
    "play_pair",
    "reference_weights",
    "tune",
    "window_space",
]
