"""c4engine where Python game-playing agents live: Kaggle ConnectX, Gymnasium, PettingZoo.

Each integration is its own module and imports its framework only when it
is imported itself, so ``import c4engine`` never needs them:

* :mod:`c4engine.integrations.kaggle` -- ``agent(observation, configuration)``
  for ``kaggle_environments.make("connectx")``;
* :mod:`c4engine.integrations.gym` -- a single-agent ``gymnasium.Env``
  against a c4engine opponent (registered as ``c4engine/ConnectFour-v0``);
* :mod:`c4engine.integrations.pettingzoo` -- a two-player AEC environment.

The opponents are named by the strings :func:`c4engine.play.players.parse_agent`
reads (``"random"``, a level ``"1"``..``"7"``, ...), built by
:func:`c4engine.integrations.opponents.make_opponent`.
"""
