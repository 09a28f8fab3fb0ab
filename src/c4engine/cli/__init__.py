"""The ``c4`` command: one module per sub-command, the options they share, and terminal drawing.

Library code below this package reports progress by callback; only the
command line draws it (:mod:`c4engine.cli.progress`).
"""

from c4engine.cli.main import main, run

__all__ = ["main", "run"]
