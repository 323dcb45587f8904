"""The command group ``confmat`` and its entry point :func:`main` (the console script and
``python -m confmat``)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from .command import CONTEXT
from .demo import demo
from .evaluate import compare, matrix, report
from .registry import explain, metrics
from .where import where


@click.group(context_settings=CONTEXT)
@click.version_option(package_name="confmat", prog_name="confmat")
def cli() -> None:
    """Evaluate classifiers from their confusion matrix.

    \b
    Examples:
      confmat demo                                   # the built-in tour, writes HTML reports
      confmat matrix "[[61,2],[8,58]]"               # a typed-in matrix (--all: every metric)
      confmat report preds.csv --true y --pred yhat --score p -o report.html
      confmat compare a.csv b.csv --true y --pred yhat --score p
      confmat metrics recall                         # search the metric registry
      confmat metrics --pycm                         # the PyCM statistics reproduced
      confmat explain mcc
      confmat where                                  # what --where may use
    """


for _command in (compare, demo, explain, matrix, metrics, report, where):
    cli.add_command(_command)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status.

    Bad input (a ``ValueError``, ``TypeError``, ``KeyError``, ``OSError``, ``ImportError`` or
    ``OverflowError`` (counts whose total passes int64) raised by a command, or a usage error
    such as an option's value out of range) is printed as one line ``confmat: error: ...`` on
    stderr, without a traceback, and gives exit status 2. The message is printed as raised:
    every command runs in the command line's vocabulary (:meth:`.command.Command.invoke`), so
    the library's checks already name its options (``--labels``, not ``labels``).

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after the program name; by default ``sys.argv[1:]``.

    Returns
    -------
    int
        0 on success, 1 when aborted, 2 for bad input.

    Examples
    --------
    >>> main(["explain", "mcc", "--json"])  # doctest: +ELLIPSIS
    {
      "name": "mcc",
    ...
    0
    >>> main(["matrix", "[[1, 2], [3]]"])
    2
    """
    args = list(argv) if argv is not None else sys.argv[1:]
    try:
        rv = cli.main(args=args, prog_name="confmat",
                      standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 1
    except click.exceptions.NoArgsIsHelpError as exc:
        exc.show()  # a command without arguments: its help, as click shows it
        return 2
    except click.UsageError as exc:
        # one line, as for every other bad input (click's own display takes four)
        where = exc.ctx.command_path if exc.ctx is not None else "confmat"
        click.echo(f"confmat: error: {exc.format_message()} (see '{where} --help')", err=True)
        return 2
    except click.ClickException as exc:
        click.echo(f"confmat: error: {exc.format_message()}", err=True)
        return 2
    except (ValueError, TypeError, KeyError, OSError, ImportError, OverflowError) as exc:
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        click.echo(f"confmat: error: {msg}", err=True)
        return 2
    return rv if isinstance(rv, int) else 0
