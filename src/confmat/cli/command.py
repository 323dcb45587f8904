"""The base of every command: click's command whose options that take a value say so when
the value is missing, and the context settings they share."""

from __future__ import annotations

import click

__all__ = ["CONTEXT", "Command"]


CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


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

