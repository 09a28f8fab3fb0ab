"""``python -m c4engine`` runs the ``c4`` command."""

from c4engine.cli import run

run()
