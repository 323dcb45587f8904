"""The output options every report command shares: ``--format``, ``-o``, ``--title``,
``--no-intervals``, ``--all``, ``--plots``, ``--plot-format``, ``--csv-excel-safe``, and the
check of a path to write to (also ``demo -o``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from .common import FORMATS, InputError, nonempty

__all__ = ["output_options", "output_path"]


def output_path(kind: str) -> Any:
    """The callback of an option naming where to write (``-o`` a file, ``--plots`` a
    directory): a path that cannot be used is an error naming the option before any work is
    done; nothing is created here.

    Parameters
    ----------
    kind : {'file', 'directory'}
        What the option names.

    Returns
    -------
    callable
        A click callback ``(ctx, param, value) -> value``.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> open(os.path.join(d, "f"), "w").close()
    >>> opt = click.Option(["--plots"])
    >>> output_path("directory")(None, opt, os.path.join(d, "f"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    confmat.cli.common.InputError: --plots .../f: must be a directory (an existing one, or a path where one can be created), but '.../f' is a file
    """

    def check(ctx: click.Context | None, param: click.Parameter, value: Any) -> Any:
        if value is None or (kind == "file" and value == "-"):
            return value
        opt = param.opts[0] if param.opts else str(param.name)
        if not str(value).strip():
            raise InputError(f"{opt} is empty; give a {kind}" + (
                " path, or - for standard output" if kind == "file" else ""))
        where = f"{opt} {value}"
        path = Path(value)
        if kind == "file" and path.is_dir():
            raise InputError(f"{where}: is a directory; {opt} names the file to write")
        if kind == "directory" and path.exists() and not path.is_dir():
            raise InputError(f"{where}: must be a directory (an existing one, or a path where "
                             f"one can be created), but {str(path)!r} is a file")
        existing = path if kind == "directory" else path.parent
        for parent in (existing, *existing.parents):
            if parent.exists():
                if not parent.is_dir():
                    raise InputError(f"{where}: cannot write there: {str(parent)!r} is a "
                                     "file, not a directory")
                if not os.access(parent, os.W_OK | os.X_OK):
                    raise InputError(f"{where}: cannot write there: the directory "
                                     f"{str(parent)!r} is not writable (permission denied)")
                break
        if kind == "file" and path.exists() and not os.access(path, os.W_OK):
            raise InputError(f"{where}: cannot write there: the file is not writable "
                             "(permission denied)")
        return value

    return check



def output_options(f: Any) -> Any:
    """Add the output options (``--format``, ``-o``, ``--title``, ``--no-intervals``,
    ``--all``, ``--plots``, ``--plot-format``, ``--csv-excel-safe``) to a click command.

    Parameters
    ----------
    f : callable
        The command function.

    Returns
    -------
    callable
        ``f`` with the options.
    """
    f = click.option("--csv-excel-safe", "csv_excel_safe", is_flag=True,
                     help="CSV output for a spreadsheet: a text cell (a label, a model or "
                          "metric name) that starts with =, +, -, @, a tab or a carriage "
                          "return gets a leading single quote, so that it is not run as a "
                          "formula (OWASP's advice on CSV injection); cells that are numbers "
                          "are never changed. Without it the CSV holds the data exactly.")(f)
    f = click.option("--plot-format", type=click.Choice(["png", "svg", "pdf"]), default="png",
                     show_default=True, help="Image format for --plots.")(f)
    f = click.option("--plots", "plots_dir", callback=output_path("directory"),
                     help="Also save the plots (matrix, ROC, PR, metric vs threshold) in this "
                          "directory (created if needed).")(f)
    f = click.option("--all", "all_metrics", is_flag=True,
                     help="Terminal text: every metric of the registry (per-class and overall, "
                          "with intervals). By default the terminal shows a summary: the "
                          "matrix, the headline metrics with intervals and a per-class table "
                          "of recall, specificity, precision and F1; files (-o) always hold "
                          "every metric.")(f)
    f = click.option("--no-intervals", is_flag=True, help="Skip confidence intervals.")(f)
    f = click.option("--title", callback=nonempty, help="Heading of the report.")(f)
    f = click.option("-o", "--output", callback=output_path("file"),
                     help="Write to this file (format from its extension unless --format).")(f)
    f = click.option("-f", "--format", "fmt", type=click.Choice(FORMATS),
                     help="Output format [default: text, or from -o's extension].")(f)
    return f
