"""The command ``where``: what a ``--where`` filter may use, printed from the allow-lists the
filter is checked against (:mod:`confmat.inputs.where`), never from a copy of them."""

from __future__ import annotations

import textwrap
from typing import Any

import click

from .command import CONTEXT, Command
from .render import text_width

__all__ = ["allowed", "where"]


def allowed() -> dict[str, Any]:
    """The allow-lists of ``where=`` / ``--where`` as plain data, sorted.

    Returns
    -------
    dict
        ``"expressions"``: DuckDB's expression class -> its kinds allowed
        (:data:`~confmat.inputs.where.ALLOWED_EXPRESSIONS`); ``"functions"``
        (:data:`~confmat.inputs.where.ALLOWED_FUNCTIONS`); ``"types"``, the types a ``CAST``
        may name (:data:`~confmat.inputs.where.ALLOWED_TYPES`); ``"quoted_names"``, the names
        taken only quoted and only as a column of the source
        (:data:`~confmat.inputs.where.VALUE_FUNCTION_NAMES`).

    Examples
    --------
    >>> lists = allowed()
    >>> "lower" in lists["functions"], "now" in lists["functions"]
    (True, False)
    """
    from ..inputs.where import (
        ALLOWED_EXPRESSIONS,
        ALLOWED_FUNCTIONS,
        ALLOWED_TYPES,
        VALUE_FUNCTION_NAMES,
    )

    return {"expressions": {c: sorted(k) for c, k in sorted(ALLOWED_EXPRESSIONS.items())},
            "functions": sorted(ALLOWED_FUNCTIONS),
            "types": sorted(ALLOWED_TYPES),
            "quoted_names": sorted(VALUE_FUNCTION_NAMES)}


@click.command(cls=Command, context_settings=CONTEXT)
@click.option("--json", "as_json", is_flag=True, help="Print the lists as JSON.")
def where(as_json: bool) -> None:
    """What a --where filter may use: the kinds of expression, the functions and the types.

    --where (report, compare) takes a SQL condition over the file's columns, which DuckDB
    evaluates. Before that, DuckDB's parser reads it and every part must be on these lists
    (they compute on the row alone: no subquery, aggregate, window, file or setting reader,
    clock or random number). A name of the last list is a column only when quoted and the
    file has such a column ("user" = 'ann'); unquoted it is refused.

    \b
    Examples:
      confmat where
      confmat where --json
      confmat report preds.csv --true y --pred yhat --where "lower(split) = 'test'"
    """
    import json

    lists = allowed()
    if as_json:
        click.echo(json.dumps(lists, indent=2))
        return
    width = min(text_width(), 100)

    def block(title: str, names: list[str]) -> str:
        body = textwrap.fill(", ".join(names), width=width, initial_indent="  ",
                             subsequent_indent="  ", break_on_hyphens=False)
        return f"{len(names)} {title}:\n{body}"

    exprs = lists["expressions"]
    parts = [f"{len(exprs)} classes of expression (DuckDB's parser's class: the kinds allowed):",
             *(textwrap.fill(f"{c}: {', '.join(kinds)}", width=width, initial_indent="  ",
                             subsequent_indent="    ") for c, kinds in exprs.items()),
             "",
             block("functions (lower case; operators as DuckDB's parser writes them, e.g. ~~ "
                   "for LIKE)", lists["functions"]),
             "",
             block("types a CAST may name", lists["types"]),
             "",
             block("names taken only quoted, as a column of the file (else DuckDB reads them "
                   "as a function of the session)", lists["quoted_names"])]
    click.echo("\n".join(parts))
