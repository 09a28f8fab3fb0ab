"""``python -m c4engine`` runs the ``c4`` command."""

import sys

from c4engine.cli import main

sys.exit(main())
