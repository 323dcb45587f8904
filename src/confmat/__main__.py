"""``python -m confmat``: the command line (see :mod:`confmat.cli`)."""

import sys

from .cli import main

sys.exit(main())
