"""What every command shares: the error type of bad input, option groups, and the reading of
typed-in values (labels, ``--pos-label``) in the type of a file's label column.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from ..inputs.files import COLUMN_TYPES

FORMATS = ("text", "json", "markdown", "csv", "html")
EXT_FORMAT = {".html": "html", ".htm": "html", ".json": "json", ".md": "markdown",
               ".markdown": "markdown", ".csv": "csv", ".txt": "text"}
#: files larger than this show a progress bar on stderr when stderr is a terminal
PROGRESS_BYTES = 20_000_000


class InputError(ValueError):
    """Bad input named for the user (exit status 2).

    :func:`confmat.cli.main` prints its message as one line on stderr, without a traceback.
    A subclass of ``ValueError``.

    Examples
    --------
    >>> from click.testing import CliRunner
    >>> from confmat.cli import cli
    >>> result = CliRunner().invoke(cli, ["matrix", "[[1, 2], [3]]"])
    >>> isinstance(result.exception, InputError)
    True
    >>> print(result.exception)
    bad matrix '[[1, 2], [3]]': it must be square (K rows of K counts); got 2 rows of lengths [2, 1]
    """




# ------------------------------------------------------------------------------ helpers
#: One part of a comma-separated option value: a double-quoted part (``""`` inside it is a
#: quote), or anything up to the next comma.
LISTED_PART = re.compile(r'\s*(?:"((?:[^"]|"")*)"\s*|(?!\s*")([^,]*))(,|$)')


def split_values(values: Sequence[str] | None) -> list[str]:
    """Options given repeatedly and/or comma-separated, as one list.

    A part in double quotes is taken as it is written, commas and spaces included (``""``
    inside it stands for one quote), as in a CSV field: ``--labels '"Carcinoma, NOS",benign'``
    names two classes. An unquoted part is stripped of surrounding spaces.

    Parameters
    ----------
    values : sequence of str or None
        The values of a repeatable option, each possibly comma-separated.

    Returns
    -------
    list of str
        The parts; empty unquoted parts are left out.

    Raises
    ------
    InputError
        A quoted part followed by something other than a comma, or a quote left open.

    Examples
    --------
    >>> split_values(["a, b", "c"]), split_values(None)
    (['a', 'b', 'c'], [])
    >>> split_values(['"Carcinoma, NOS", benign', '" padded "'])
    ['Carcinoma, NOS', 'benign', ' padded ']
    """
    out: list[str] = []
    for v in values or ():
        text, at = str(v), 0
        while at <= len(text):
            m = LISTED_PART.match(text, at)
            if m is None:
                raise InputError(f"{text!r}: a part that opens a double quote must close it "
                                 "and be followed by a comma or the end (write a quote inside "
                                 "it as \"\")")
            if m[1] is not None:
                out.append(m[1].replace('""', '"'))
            elif m[2].strip():
                out.append(m[2].strip())
            if not m[3]:
                break
            at = m.end()
    return out


def check_listed(ctx: click.Context | None, param: click.Parameter,
                 values: tuple[str, ...]) -> tuple[str, ...]:
    """The callback of a comma-separated list option (``--labels``): each value given must
    name at least one item, so that ``--labels ","`` or ``--labels ""`` is an error rather
    than the default silently.

    Parameters
    ----------
    ctx : click.Context or None
    param : click.Parameter
        The option.
    values : tuple of str
        Its values as given.

    Returns
    -------
    tuple of str
        ``values`` unchanged.

    Raises
    ------
    click.BadParameter
        If a value holds nothing but commas and spaces, or a double quote left open
        (:func:`split_values`).

    Examples
    --------
    >>> opt = click.Option(["--labels"], multiple=True)
    >>> check_listed(None, opt, ("a,b",))
    ('a,b',)
    >>> check_listed(None, opt, (" , ",))
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: ' , ' names nothing; give comma-separated names such as a,b
    """
    for v in values:
        try:
            parts = split_values([v])
        except InputError as exc:
            raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
        if not parts:
            raise click.BadParameter(f"{v!r} names nothing; give comma-separated names such "
                                     "as a,b", ctx=ctx, param=param)
    return values


def column_types(ctx: click.Context | None, param: click.Parameter,
                 values: tuple[str, ...]) -> dict[str, str]:
    """The callback of ``--column-type NAME=TYPE`` (repeatable, comma-separated as
    :func:`split_values` reads them): the types CSV and JSON lines columns are read with,
    ``column_types=`` of :func:`confmat.io.evaluate_file`, whose reader checks the names and
    the types (in the command line's words).

    A part is split at its last ``=``, so a column whose name holds ``=`` needs no quotes; a
    name with a comma or surrounding spaces is written with its type in double quotes, as a
    CSV field: ``'"Carcinoma, NOS=string"'``.

    Parameters
    ----------
    ctx : click.Context or None
    param : click.Parameter
        The option.
    values : tuple of str
        Its values as given.

    Returns
    -------
    dict of str to str
        Column -> type, in the order given (empty when the option is not given).

    Raises
    ------
    click.BadParameter
        A part that is not ``NAME=TYPE`` (no ``=``, an empty name or type), a value naming
        nothing, a double quote left open, or one column given two types.

    Examples
    --------
    >>> opt = click.Option(["--column-type"], multiple=True)
    >>> column_types(None, opt, ("y=string, yhat=string", "g=int64"))
    {'y': 'string', 'yhat': 'string', 'g': 'int64'}
    >>> column_types(None, opt, ("y",))
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: 'y' is not NAME=TYPE; give a column and its type, e.g. y=string
    """
    out: dict[str, str] = {}
    for v in values:
        try:
            parts = split_values([v])
        except InputError as exc:
            raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
        if not parts:
            raise click.BadParameter(f"{v!r} names nothing; give NAME=TYPE, e.g. y=string",
                                     ctx=ctx, param=param)
        for part in parts:
            name, eq, typ = part.rpartition("=")
            if not eq or not name or not typ:
                raise click.BadParameter(f"{part!r} is not NAME=TYPE; give a column and its "
                                         "type, e.g. y=string", ctx=ctx, param=param)
            if out.setdefault(name, typ) != typ:
                raise click.BadParameter(f"column {name!r} is given two types, {out[name]!r} "
                                         f"and {typ!r}", ctx=ctx, param=param)
    return out


def column_type_option(f: Any) -> Any:
    """Add ``--column-type NAME=TYPE`` (:func:`column_types`) to a click command.

    Parameters
    ----------
    f : callable
        The command function.

    Returns
    -------
    callable
        ``f`` with the option (parameter ``column_types``).
    """
    return click.option(
        "--column-type", "column_types", multiple=True, callback=column_types,
        metavar="NAME=TYPE",
        help="Read this column of a CSV or JSON lines file (or hive partition column of a "
             f"directory) with this type, one of {', '.join(COLUMN_TYPES)} (repeatable, "
             "comma-separated), instead of the type the reader infers: --column-type y=string "
             "keeps the labels 01 and 1 apart.")(f)


def nonempty(ctx: click.Context | None, param: click.Parameter,
             value: str | None) -> str | None:
    """The callback of an option whose empty value would silently be the default
    (``--title ""``, ``--disparity-metric ""``): an error naming the option.

    Parameters
    ----------
    ctx : click.Context or None
    param : click.Parameter
        The option.
    value : str or None
        Its value as given (None: not given).

    Returns
    -------
    str or None
        ``value`` unchanged.

    Raises
    ------
    InputError
        If the value is empty or blank.

    Examples
    --------
    >>> opt = click.Option(["--title"])
    >>> nonempty(None, opt, "Model A"), nonempty(None, opt, None)
    ('Model A', None)
    >>> nonempty(None, opt, " ")
    Traceback (most recent call last):
    ...
    confmat.cli.common.InputError: --title is empty; give a value, or leave the option out for its default
    """
    if value is not None and not value.strip():
        opt = param.opts[0] if param.opts else str(param.name)
        raise InputError(f"{opt} is empty; give a value, or leave the option out for its "
                         "default")
    return value


def format_for(fmt: str | None, output: str | None) -> str:
    """The output format: ``--format``, else the extension of ``-o``, else text.

    Parameters
    ----------
    fmt : str or None
        ``--format``.
    output : str or None
        ``-o``; ``-`` is standard output.

    Returns
    -------
    str

    Raises
    ------
    InputError
        ``-o`` has an extension that names no format (or none) and ``--format`` is not given.

    Examples
    --------
    >>> format_for(None, "r.html"), format_for("json", "r.txt"), format_for(None, None)
    ('html', 'json', 'text')
    >>> format_for(None, "out.xlsx")
    Traceback (most recent call last):
    ...
    confmat.cli.common.InputError: -o out.xlsx: unknown extension '.xlsx'; use .html, .htm, .json, .md, .markdown, .csv or .txt, or give --format
    """
    if fmt:
        return fmt
    if output and output != "-":
        suffix = Path(output).suffix.lower()
        if suffix not in EXT_FORMAT:
            known = ", ".join(EXT_FORMAT)
            known = known[:known.rindex(", ")] + " or" + known[known.rindex(", ") + 1:]
            what = f"unknown extension {suffix!r}" if suffix else "no extension"
            raise InputError(f"-o {output}: {what}; use {known}, or give --format")
        return EXT_FORMAT[suffix]
    return "text"


def check_file(path: str, datasets: bool = False) -> None:
    """Check that ``path`` is a readable file (not a directory).

    Parameters
    ----------
    path : str
        The path given on the command line.
    datasets : bool, default False
        Also let a directory or a glob through, for the reader of :mod:`confmat.io` to open
        (a Parquet dataset, a folder or a pattern of files; it names an empty directory or a
        pattern that matches nothing).

    Raises
    ------
    InputError
        If it does not exist, is a directory (without ``datasets``) or cannot be read.
    """
    p = Path(path)
    if datasets and (p.is_dir() or (not p.exists() and glob.has_magic(path))):
        return
    if not p.exists():
        raise InputError(f"file {path!r} does not exist")
    if p.is_dir():
        raise InputError(f"{path!r} is a directory, not a file")
    if not os.access(p, os.R_OK):
        raise InputError(f"file {path!r} is not readable (permission denied)")





def input_options(pred_option: Any) -> Any:
    """The file-reading options, in help order: --true, --pred (``pred_option``), scores...

    Parameters
    ----------
    pred_option : callable
        The click option (decorator) for the predicted labels: commands differ in it.

    Returns
    -------
    callable
        A decorator that adds ``--true``, ``pred_option`` and :func:`file_options`.
    """

    def deco(f: Any) -> Any:
        f = pred_option(file_options(f))
        return click.option("--true", "true_col", required=True,
                            help="Column of true labels.")(f)

    return deco


def file_options(f: Any) -> Any:
    """Add the options of a prediction file (``--score``, ``--scores``, ``--labels``,
    ``--pos-label``, ``--weight``, ``--progress``, ``--skip-invalid``, ``--input-format``,
    ``--column-type``, ``--where``) to a click command.

    Parameters
    ----------
    f : callable
        The command function.

    Returns
    -------
    callable
        ``f`` with the options.
    """
    f = click.option("--where", "where", default=None, metavar="SQL",
                     help="Evaluate only the rows this SQL condition holds for, e.g. "
                          "\"split = 'test'\" (evaluated by DuckDB); the rows left out are "
                          "counted in the report (see 'confmat where' for what it may "
                          "use).")(f)
    f = column_type_option(f)
    f = click.option("--input-format", "fmt_in",
                     type=click.Choice(["csv", "tsv", "parquet", "jsonl", "arrow", "npy"]),
                     help="File format [default: from the extension].")(f)
    f = click.option("--skip-invalid", is_flag=True,
                     help="Skip rows with missing values (counted in the report) instead of "
                          "stopping.")(f)
    f = click.option("--progress/--no-progress", default=None,
                     help="Progress bar on stderr [default: for large files on a terminal].")(f)
    f = click.option("--weight", help="Column of sample weights.")(f)
    f = click.option("--pos-label",
                     help="Positive class of the scores of a binary problem; needed unless the "
                          "true labels are {0, 1}, {-1, 1} or {False, True} (then 1 / True).")(f)
    f = click.option("--labels", multiple=True, callback=check_listed,
                     help="Classes and their order, comma-separated (default: sorted union); "
                          "a name with a comma or surrounding spaces in double quotes, as in "
                          "CSV: '\"Carcinoma, NOS\",benign'.")(f)
    f = click.option("--scores", "scores", multiple=True, callback=check_listed,
                     help="One score column per class, in label order (comma-separated).")(f)
    f = click.option("--score", "score", multiple=True, callback=check_listed,
                     help="Column of positive-class scores (binary problems).")(f)
    return f


def truth_classes(y_true: Any) -> list[Any]:
    """The distinct true labels in sorted order, as the library's rules see them.

    Parameters
    ----------
    y_true : array-like
        The true labels read from a file.

    Returns
    -------
    list
        Sorted distinct labels (Python scalars).

    Examples
    --------
    >>> import numpy as np
    >>> truth_classes(np.array(["sick", "healthy", "sick"]))
    ['healthy', 'sick']
    """
    from ..inputs.targets import encode_truth

    return encode_truth(y_true)[0]


def filtered_reason() -> str:
    """The skip reason of rows left out by ``--where`` (imported when needed: the CLI starts
    without :mod:`confmat.io`).

    Returns
    -------
    str
        The key of ``skipped_by_reason`` that counts them.
    """
    from ..io.rows import FILTERED

    return FILTERED


def where_source(where: str | None, filtered: int) -> dict[str, Any]:
    """The lines of a report's source that say which rows ``--where`` kept.

    Parameters
    ----------
    where : str or None
        ``--where`` as given.
    filtered : int
        The rows it left out.

    Returns
    -------
    dict
        Nothing without ``--where``.
    """
    if where is None:
        return {}
    return {"where": where, "rows left out by --where": filtered}
