"""The command group ``confmat`` and its entry point :func:`main` (the console script and
``python -m confmat``)."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence

import click

from .command import CONTEXT
from .demo import demo
from .evaluate import compare, matrix, report
from .registry import explain, metrics


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
      confmat explain mcc
    """


#: The library's hints that name a Python argument or function, in the command line's words.
CLI_WORDS = (
    ("pass skip_invalid=True", "give --skip-invalid"),
    ("confmat.list_metrics() lists", "'confmat metrics' lists"),
    ("group_cols names column", "--by names column"),
    ("labels contains duplicates", "--labels contains duplicates"),
    ("metrics contains duplicates", "--metrics contains duplicates"),
    ("where: DuckDB cannot evaluate", "--where: DuckDB cannot evaluate"),
    ("one of the labels in y_true", "one of the labels of the --true column"),
    ("one of the labels in labels [", "one of --labels ["),
    ("test_metric ", "--test-metric "),
    ("must be one of metrics", "must be one of the compared metrics (--metrics)"),
    ("not in the fixed labels", "not in --labels"),
    ("outside the fixed labels", "outside --labels"),
    ("name its real format", "give its real format with --input-format"),
)

#: The same for a library message that starts with the argument's name ("pos_label 7 is not
#: one of the labels"); elsewhere "pos_label" may name the Python argument in a longer hint.
CLI_LEADS = (("where must be", "--where must be"),)

#: ``pos_label=<value>`` in a library message, the value as Python writes it (a quoted string
#: or a bare number / True); also ``pos_label <value>`` at the start of a message.
POS_LABEL_WORDS = re.compile(r"(?P<hint>pass )?pos_label(?:=|(?<=^pos_label) )"
                             r"(?P<value>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[^\s,;:)]+)")


def cli_message(msg: str, pos_label_given: bool) -> str:
    """A library message in the command line's words.

    ``pos_label=<value>`` becomes ``--pos-label <value>`` when the user gave ``--pos-label``;
    otherwise the value is the positive class the command inferred (1 of labels {0, 1}), which
    the user never typed, and the message says so. A hint telling what to pass
    (``pass pos_label=True``) names the option either way.

    Parameters
    ----------
    msg : str
        The message of a ``ValueError`` / ``TypeError`` raised by the library.
    pos_label_given : bool
        Whether the command line holds ``--pos-label``.

    Returns
    -------
    str

    Examples
    --------
    >>> cli_message("pos_label=1 is not one of the labels [0]", True)
    '--pos-label 1 is not one of the labels [0]'
    >>> cli_message("pos_label=1 is not one of the labels [0]", False)
    'the positive class 1 (implied: no --pos-label given) is not one of the labels [0]'
    >>> cli_message("pos_label 'b' is not one of the labels ['a']", True)
    "--pos-label 'b' is not one of the labels ['a']"
    """
    for python_words, cli_words in CLI_WORDS:
        msg = msg.replace(python_words, cli_words)
    for python_words, cli_words in CLI_LEADS:
        if msg.startswith(python_words):
            msg = cli_words + msg[len(python_words):]

    def words(m: re.Match[str]) -> str:
        if m["hint"] or pos_label_given:
            return f"{m['hint'] or ''}--pos-label {m['value']}"
        return f"the positive class {m['value']} (implied: no --pos-label given)"

    return POS_LABEL_WORDS.sub(words, msg)


def pos_label_given(args: Sequence[str]) -> bool:
    """Whether a command line holds the option ``--pos-label`` (``--pos-label X`` or
    ``--pos-label=X``; click takes no abbreviation of a long option).

    Parameters
    ----------
    args : sequence of str
        The arguments after the program name.

    Returns
    -------
    bool

    Examples
    --------
    >>> pos_label_given(["report", "f.csv", "--pos-label=1"]), pos_label_given(["report"])
    (True, False)
    """
    for a in args:
        if a == "--":
            return False
        if a == "--pos-label" or a.startswith("--pos-label="):
            return True
    return False

for _command in (compare, demo, explain, matrix, metrics, report):
    cli.add_command(_command)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status.

    Bad input (a ``ValueError``, ``TypeError``, ``KeyError``, ``OSError``, ``ImportError`` or
    ``OverflowError`` (counts whose total passes int64) raised by a command, or a usage error
    such as an option's value out of range) is printed as one line ``confmat: error: ...`` on
    stderr, without a traceback, and gives exit status 2.

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
        click.echo(f"confmat: error: {cli_message(msg, pos_label_given(args))}", err=True)
        return 2
    return rv if isinstance(rv, int) else 0
