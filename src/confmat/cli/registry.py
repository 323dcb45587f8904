"""The registry commands: ``metrics`` (list and search; ``--pycm``: the PyCM statistics
reproduced) and ``explain`` (one metric), and the checks of the metric names other commands
take (``--metrics``, ``--group-metrics`` ...)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from .command import CONTEXT, Command
from .common import InputError, split_values
from .render import esc


@click.command(cls=Command, context_settings=CONTEXT)
@click.argument("query", required=False)
@click.option("--kind", type=click.Choice(["per_class", "overall"]), help="Only this kind.")
@click.option("--family", help="Only this family (e.g. rates, summary, agreement).")
@click.option("--json", "as_json", is_flag=True, help="Print the matching specs as JSON.")
@click.option("--pycm", is_flag=True,
              help="List the PyCM statistics confmat reproduces instead (PyCM's table and key, "
                   "the registry metric with its average and parameters; for PyCM's "
                   "interpretation keys such as 'SOA1(Landis & Koch)', the scale of "
                   "cm.interpret): every key 'confmat explain' accepts. QUERY then matches "
                   "the PyCM key or the metric's name, --kind per_class is PyCM's class table.")
def metrics(query: str | None, kind: str | None, family: str | None, as_json: bool,
            pycm: bool = False) -> None:
    """List the metric registry, optionally searched.

    QUERY matches names, aliases, full names and descriptions (case-insensitive).

    \b
    Examples:
      confmat metrics
      confmat metrics sensitivity
      confmat metrics --kind overall --json
      confmat metrics --pycm              # the PyCM keys confmat explain accepts
      confmat metrics --pycm "TPR"
    """
    import json

    from ..metrics import list_metrics

    if pycm:
        _pycm_keys(query, kind, family, as_json)
        return
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


def _pycm_keys(query: str | None, kind: str | None, family: str | None, as_json: bool) -> None:
    """``metrics --pycm``: the PyCM keys ``explain`` accepts, filtered: the numeric statistics
    of :func:`confmat.metrics.pycm_keys`, then the interpretation keys of
    :func:`confmat.metrics.pycm_interpretations` (each with its scale)."""
    import json

    from ..metrics import PycmInterpretation, get_metric, pycm_interpretations, pycm_keys

    table = {"per_class": "class", "overall": "overall", None: None}[kind]
    q = query.lower() if query else None
    every: list[Any] = [e for es in pycm_keys().values() for e in es]
    every += pycm_interpretations().values()
    entries = [e for e in every
               if (table is None or e.table == table)
               and (family is None or get_metric(e.metric).family == family)
               and (q is None or q in e.key.lower() or q in e.metric.lower())]
    if not entries:
        where = [f"--kind {kind}"] * bool(kind) + [f"--family {family}"] * bool(family)
        raise InputError((f"no PyCM key matches {query!r}" if query else "no PyCM key")
                         + (f" with {' and '.join(where)}" if where else ""))
    if as_json:
        click.echo(json.dumps([e.describe() for e in entries], indent=2, default=str))
        return
    from rich import box
    from rich.console import Console
    from rich.table import Table

    t = Table(box=box.SIMPLE_HEAD, title=f"{len(entries)} PyCM statistics",
              title_justify="left")
    for col in ("table", "PyCM key", "metric", "average", "parameters", "element", "differs",
                "scale"):
        t.add_column(col, no_wrap=col in ("table", "PyCM key", "metric", "scale"))
    for e in entries:
        if isinstance(e, PycmInterpretation):  # words for the metric's value, by a scale
            t.add_row(e.table, esc(e.key), e.metric, "", "", "", "", e.scale)
            continue
        t.add_row(e.table, esc(e.key), e.metric, e.average or "",
                  esc(", ".join(f"{k}={v!r}" for k, v in e.params.items())),
                  "" if e.element is None else str(e.element), esc(e.differs), "")
    Console(highlight=False, width=None if sys.stdout.isatty() else 200).print(t)


@click.command(cls=Command, context_settings=CONTEXT)
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


def compared_metric_names(metrics: Sequence[str], test_metric: str | None,
                          scores: bool) -> None:
    """The names of ``compare --metrics`` and ``--test-metric``, checked by the library's
    rules (the registry's :func:`confmat.metrics.get_metric`, the score metrics of
    :func:`confmat.inference.score_resampling.score_metric_name`) before any file is read,
    so that a bad name is an error naming its option.

    Parameters
    ----------
    metrics : sequence of str
        The names given to ``--metrics`` (split at commas).
    test_metric : str or None
        The name given to ``--test-metric``.
    scores : bool
        Whether score columns were given (ROC AUC and average precision need them).

    Raises
    ------
    InputError
        An unknown name (with the registry's suggestions), or a score metric without scores.

    Examples
    --------
    >>> compared_metric_names(["mcc", "auc"], "accuracy", scores=True)
    >>> compared_metric_names(["mcc"], "acuracy", scores=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    confmat.cli.common.InputError: --test-metric: unknown metric 'acuracy'; did you mean 'accuracy', ...
    """
    from ..inference.compare import PARTIAL_AUC
    from ..inference.score_resampling import score_metric_name
    from ..metrics import get_metric

    for option, names in (("--metrics", list(metrics)),
                          ("--test-metric", [] if test_metric is None else [test_metric])):
        for name in names:
            if name == PARTIAL_AUC:
                continue  # its range is checked with --partial-auc
            score_name = score_metric_name(name)
            if score_name is not None:
                if not scores:
                    raise InputError(f"{option}: {score_name} needs scores (give --score or "
                                     "--scores)")
                continue
            try:
                get_metric(name)
            except (KeyError, ValueError) as exc:
                msg = exc.args[0] if exc.args else str(exc)
                raise InputError(f"{option}: {msg}") from exc


def metric_names(values: Sequence[str], option: str, scores: bool) -> list[str]:
    """Metric names given to an option of the evaluation by group, checked by the library's
    one rule (:func:`confmat.groups.names.group_metric_name`) and canonical.

    Parameters
    ----------
    values : sequence of str
        The names, each possibly comma-separated (:func:`split_values`).
    option : str
        The option, for the message (``"--group-metrics"``).
    scores : bool
        Whether a score column was given (ROC AUC and average precision need one).

    Returns
    -------
    list of str
        Canonical names, in order, without repeats.

    Raises
    ------
    InputError
        An unknown name (the message names the option and suggests close names), or a score
        metric without ``--score``.

    Examples
    --------
    >>> metric_names(["TPR, f1", "auc"], "--group-metrics", scores=True)
    ['recall', 'f1', 'roc_auc']
    >>> metric_names(["recal"], "--group-metrics", scores=False)
    Traceback (most recent call last):
    ...
    confmat.cli.common.InputError: --group-metrics: unknown metric 'recal'; did you mean 'recall'?
    """
    from ..groups.names import group_metric_name

    out: list[str] = []
    for v in split_values(values):
        try:
            name = group_metric_name(v, scores=scores)
        except (ValueError, TypeError) as exc:
            hint = " (give --score)" if str(exc).endswith("needs scores") else ""
            raise InputError(f"{option}: {exc}{hint}") from None
        if name not in out:
            out.append(name)
    return out
