"""One sub-command of ``c4``, declared once: its name, its help, its options and its handler.

Each command module declares its commands as :class:`Command` values in a
``COMMANDS`` tuple; :mod:`c4engine.cli.main` registers them in one loop, so
the argparse steps every command takes (the sub-parser, its help texts, the
handler as ``func``) are written here only.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="c4")
>>> echo = Command(
...     "echo",
...     summary="print a position",
...     description="Print POSITION.",
...     add_options=lambda parser: parser.add_argument("--twice", action="store_true"),
...     run=lambda args: print(args.position * (2 if args.twice else 1)) or 0,
...     takes_position=True,
... )
>>> echo.add_to(parser.add_subparsers(dest="command")).prog
'c4 echo'
>>> args = parser.parse_args(["echo", "44", "--twice"])
>>> args.func(args)
4444
0
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from c4engine.cli.options import Subparsers

__all__ = ["Command"]


@dataclass(frozen=True)
class Command:
    """A (sub-)command: what ``c4 --help`` lists, what its own help says, its options and its handler.

    ``add_options`` adds the command's own arguments to its parser; ``run`` is
    the handler (it returns the exit status).  A command with
    ``takes_position`` answers one optional ``position`` or, without one,
    every line of standard input (:mod:`c4engine.cli.batch`).  ``defaults``
    are further values the handler finds in ``args`` (e.g. ``kept``, which
    :mod:`c4engine.cli.interrupts` reads on Ctrl-C).
    """

    name: str
    summary: str
    """Its line in the parent's help (``c4 --help``)."""
    description: str
    """The opening of its own help."""
    add_options: Callable[[argparse.ArgumentParser], object]
    run: Callable[[argparse.Namespace], int]
    epilog: str | None = None
    """The close of its own help."""
    takes_position: bool = False
    defaults: Mapping[str, Any] = field(default_factory=dict)

    def add_to(self, subparsers: Subparsers, handler: str = "func") -> argparse.ArgumentParser:
        """Register the command in ``subparsers``, its handler as the default ``handler``; its parser."""
        parser = subparsers.add_parser(
            self.name, help=self.summary, description=self.description, epilog=self.epilog
        )
        if self.takes_position:
            parser.add_argument("position", nargs="?", help="moves played so far (omit for batch mode)")
        self.add_options(parser)
        # the innermost command's name wins: c4 book build's Ctrl-C line names c4 book build
        parser.set_defaults(**{handler: self.run, "command_prog": parser.prog}, **self.defaults)
        return parser
