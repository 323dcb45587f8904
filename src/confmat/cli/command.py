"""The base of every command: click's command whose options that take a value say so when
the value is missing, that runs in the command line's vocabulary (the library's messages
name its options, see :mod:`confmat.words`), and the context settings they share."""

from __future__ import annotations

from typing import Any

import click
from click.core import ParameterSource

from .. import words

__all__ = ["ARGUMENTS", "CONTEXT", "IMPLIED", "Command", "vocabulary"]


CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


#: The library's arguments a command's option stands for: Python argument -> (the option's
#: parameter names in click, the phrase naming it, ``{}`` standing for its first option
#: string).
ARGUMENTS: dict[str, tuple[tuple[str, ...], str]] = {
    "labels": (("labels",), "{}"),
    "pos_label": (("pos_label",), "{}"),
    "y_true": (("true_col",), "the {} column"),
    "y_pred": (("pred_col", "pred_cols"), "the {} column"),
    "sample_weight": (("weight",), "the {} column"),
    "skip_invalid": (("skip_invalid",), "{}"),
    "where": (("where",), "{}"),
    "group_cols": (("by",), "{}"),
    "format": (("fmt_in",), "{}"),
    "metrics": (("metric_names",), "{}"),
    "test_metric": (("test_metric",), "{}"),
    "partial_auc": (("partial_auc",), "{}"),
    "column_types": (("column_types",), "{}"),
}

#: What the value of an argument is when the user did not type its option (the command
#: inferred it), for :func:`confmat.words.arg_value`.
IMPLIED = {"pos_label": "the positive class"}

#: Names of the library's functions (and lists) the command line has a command for, and
#: that command.
FUNCTIONS = {"confmat.list_metrics()": "'confmat metrics'",
             "confmat.metrics.pycm_keys()": "'confmat metrics --pycm'",
             **{f"confmat.inputs.where.{name}": "'confmat where'"
                for name in ("ALLOWED_EXPRESSIONS", "ALLOWED_FUNCTIONS", "ALLOWED_TYPES",
                             "VALUE_FUNCTION_NAMES")}}


def vocabulary(ctx: click.Context) -> words.Vocabulary:
    """The command line's words for the library's arguments, in the command of ``ctx``.

    Parameters
    ----------
    ctx : click.Context
        A command's context, its parameters parsed.

    Returns
    -------
    confmat.words.Vocabulary
        The options of the command for the arguments of :data:`ARGUMENTS` it has, the
        ones typed on the command line (or set in the environment) as given.

    Examples
    --------
    >>> from confmat.cli import cli
    >>> cmd = cli.commands["report"]
    >>> ctx = cmd.make_context("report", ["f.csv", "--true", "y", "--pred", "p", "--labels", "a"])
    >>> v = vocabulary(ctx)
    >>> v.names["y_true"], v.names["skip_invalid"], sorted(v.given)
    ('the --true column', '--skip-invalid', ['labels', 'y_pred', 'y_true'])
    """
    params = {p.name: p for p in ctx.command.params if isinstance(p, click.Option)}
    names: dict[str, str] = dict(FUNCTIONS)
    flags, given = set(), set()
    for arg, (pnames, phrase) in ARGUMENTS.items():
        p = next((params[n] for n in pnames if n in params), None)
        if p is None or p.name is None:
            continue
        pname = p.name
        names[arg] = phrase.format(p.opts[0])
        if p.is_flag:
            flags.add(arg)
        if ctx.get_parameter_source(pname) in (ParameterSource.COMMANDLINE,
                                               ParameterSource.ENVIRONMENT):
            given.add(arg)
    return words.Vocabulary(names, frozenset(flags), frozenset(given), IMPLIED)


class Command(click.Command):
    """A command whose options that take a value say so when the value is missing.

    click reads the word after such an option as its value whatever it is, so that
    ``--title --no-intervals`` would silently be a title and ``--title`` at the end names
    ``confmat --help``; here both are a usage error naming the option, with the command's
    help (a value that is the name of an option is still given as ``--title=--all``).

    Parameters
    ----------
    name, context_settings, callback, params, help, epilog, short_help, options_metavar, \
add_help_option, no_args_is_help, hidden, deprecated
        As :class:`click.Command`; ``@click.command(cls=Command)`` passes them.

    Examples
    --------
    >>> from click.testing import CliRunner
    >>> from confmat.cli import cli
    >>> run = CliRunner().invoke
    >>> print(run(cli, ["matrix", "[[1, 2], [3, 4]]", "--title"], standalone_mode=False).exception)
    --title needs a value
    >>> print(run(cli, ["matrix", "[[1, 2], [3, 4]]", "--title", "--all"],
    ...           standalone_mode=False).exception)
    --title needs a value; the next word is the option --all
    """

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command in the command line's vocabulary (:func:`vocabulary`).

        Parameters
        ----------
        ctx : click.Context
            The command's context.

        Returns
        -------
        object
            What the command's callback returns.
        """
        with words.speaking(vocabulary(ctx)):
            return super().invoke(ctx)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Check the words for an option without its value, then parse them as click does.

        Parameters
        ----------
        ctx : click.Context
            The command's context.
        args : list of str
            The words after the command's name.

        Returns
        -------
        list of str
            The words left over (click's own result).

        Raises
        ------
        click.UsageError
            An option that takes a value is last, or followed by one of the command's
            options.
        """
        takes_value = {o for p in self.params if isinstance(p, click.Option)
                       and not p.is_flag and not p.count for o in p.opts}
        names = {o for p in self.params if isinstance(p, click.Option)
                 for o in (*p.opts, *p.secondary_opts)} | set(ctx.help_option_names)
        for word, following in zip(args, [*args[1:], None], strict=False):
            if word == "--":
                break
            if word in takes_value and following in names:
                raise click.UsageError(
                    f"{word} needs a value; the next word is the option {following}", ctx=ctx)
        try:
            return super().parse_args(ctx, args)
        except click.BadOptionUsage as exc:
            if exc.option_name in takes_value and exc.ctx is None:  # the value is missing
                raise click.UsageError(f"{exc.option_name} needs a value", ctx=ctx) from None
            raise

