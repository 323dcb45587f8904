"""The ``confmat`` command line: evaluate prediction files, typed-in matrices and the registry.

Every command reads files through :mod:`confmat.io`, builds the report model
(:mod:`confmat.report.model`) and hands it to a renderer. Bad input (a missing column, an
unreadable file, a malformed matrix, an unknown metric) is reported as one line on stderr,
without a traceback, and the command exits with status 2.

Modules: :mod:`.app` (the group and :func:`main`), :mod:`.evaluate` (``matrix``, ``report``,
``compare``), :mod:`.registry` (``metrics``, ``explain``), :mod:`.where` (``where``: what
``--where`` may use), :mod:`.demo` (``demo``), :mod:`.reading` (files in), :mod:`.render`
(reports and plots out), :mod:`.outputs` (the output options), :mod:`.common` (options,
errors, typed-in values).
"""

from __future__ import annotations

import sys

from .app import cli, main
from .common import InputError

__all__ = ["InputError", "cli", "main"]

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
