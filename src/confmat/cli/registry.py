"""The registry commands: ``metrics`` (list and search) and ``explain`` (one metric)."""

from __future__ import annotations

import sys

import click

from .common import CONTEXT, InputError
from .render import esc


@click.command(context_settings=CONTEXT)
@click.argument("query", required=False)
@click.option("--kind", type=click.Choice(["per_class", "overall"]), help="Only this kind.")
@click.option("--family", help="Only this family (e.g. rates, summary, agreement).")
@click.option("--json", "as_json", is_flag=True, help="Print the matching specs as JSON.")
def metrics(query: str | None, kind: str | None, family: str | None, as_json: bool) -> None:
    """List the metric registry, optionally searched.

    QUERY matches names, aliases, full names and descriptions (case-insensitive).

    \b
    Examples:
      confmat metrics
      confmat metrics sensitivity
      confmat metrics --kind overall --json
    """
    import json

    from ..metrics import list_metrics

    specs = list_metrics(kind=kind, family=family)  # type: ignore[arg-type]
    if query:
        q = query.lower()
        specs = [s for s in specs if q in " ".join(
            [s.name, *s.aliases, s.full_name, s.meaning, s.family]).lower().replace("_", " ")
            or q in " ".join([s.name, *s.aliases])]
    if not specs:
        where = [f"--kind {kind}"] * bool(kind) + [f"--family {family}"] * bool(family)
        raise InputError((f"no metric matches {query!r}" if query else "no metric")
                         + (f" with {' and '.join(where)}" if where else ""))
    if as_json:
        click.echo(json.dumps([s.describe() for s in specs], indent=2, default=str))
        return
    from rich import box
    from rich.console import Console
    from rich.table import Table

    t = Table(box=box.SIMPLE_HEAD, title=f"{len(specs)} metrics", title_justify="left")
    for col in ("name", "kind", "family", "full name", "aliases", "range", "better"):
        t.add_column(col, no_wrap=col in ("name", "kind", "range"))
    for s in specs:
        better = {True: "higher", False: "lower", None: "-"}[s.higher_is_better]
        t.add_row(s.name, s.kind, s.family, esc(s.full_name), esc(", ".join(s.aliases)),
                  f"[{s.range[0]:g}, {s.range[1]:g}]", better)
    Console(highlight=False, width=None if sys.stdout.isatty() else 200).print(t)


@click.command(context_settings=CONTEXT)
@click.argument("metric")
@click.option("--json", "as_json", is_flag=True, help="Print the spec as JSON.")
def explain(metric: str, as_json: bool) -> None:
    """Explain one metric: formula, meaning, range, when to prefer or avoid it, references.

    \b
    Examples:
      confmat explain mcc
      confmat explain sensitivity      # aliases work
      confmat explain mcc_yao2022 --json
    """
    import json

    from ..explain import explain as explain_metric

    info = explain_metric(metric)  # names, aliases and PyCM keys ("TPR Macro") all work
    if as_json:
        click.echo(json.dumps(info.to_dict(), indent=2, default=str))
        return
    text = str(info)
    click.echo(text)
