"""Output of the commands: the report model rendered to a file or the terminal, and plots.

The report model types are read here and nowhere else in the command line:
:class:`confmat.report.Comparison` (``isinstance`` checks, ``names``, ``reports``) and
each report's ``curves`` (:class:`confmat.report.ScoreCurve`, whose threshold sweeps the plot
Displays draw).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import click

from .common import InputError


def emit(obj: Any, fmt: str, output: str | None) -> None:
    """Render the report model ``obj`` and write it to ``output`` (or print it).

    Text to the terminal is drawn as rich tables; every other case uses the renderer of
    ``fmt`` (:mod:`confmat.report`).

    Parameters
    ----------
    obj : Report or Comparison
        The report model.
    fmt : {'text', 'json', 'markdown', 'csv', 'html'}
        The output format.
    output : str or None
        The file to write (its folders are created); None or ``"-"`` prints to stdout.

    Raises
    ------
    InputError
        If the output file cannot be written.
    """
    from ..report import render_csv, render_html, render_json, render_markdown, render_text

    if fmt == "text" and output is None:
        _print_rich(obj)
        return
    renderer = {"text": render_text, "json": render_json, "markdown": render_markdown,
                "csv": render_csv, "html": render_html}[fmt]
    text = renderer(obj)
    if output is None or output == "-":
        click.echo(text, nl=False)
        return
    try:
        Path(output).parent.mkdir(parents=True, exist_ok=True)
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write output file {output!r}: {exc.strerror or exc}") from exc
    click.echo(f"wrote {output}", err=True)


def _print_rich(obj: Any) -> None:
    """Terminal tables with rich (plain text when rich is missing)."""
    from ..report import Comparison
    from ..report.render_text import comparison_sections, render_text, report_sections, source_lines

    try:
        from rich import box
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # pragma: no cover - rich is in the cli extra
        click.echo(render_text(obj), nl=False)
        return
    console = Console(highlight=False, soft_wrap=False, width=text_width())

    def show(title: str, sections: list[Any], notes: list[str], src: dict[str, Any],
             warnings: list[str] | None = None, findings: list[str] | None = None) -> None:
        console.rule(f"[bold]{esc(title)}")
        for line in source_lines(src):
            console.print(esc(line))
        for w in warnings or []:
            console.print(f"[bold yellow]warning:[/bold yellow] {esc(w)}")
        for f in findings or []:
            console.print(f"[bold]•[/bold] {esc(f)}")
        for stitle, header, rows, align in sections:
            align = align or "l" + "r" * (len(header) - 1)
            console.print(f"\n[bold]{esc(stitle)}[/bold]")
            # a table wider than the terminal is cut into column groups, each repeating the
            # first column; no number is ever shortened with an ellipsis
            for group in column_groups(header, rows, console.width, align):
                t = Table(box=box.SIMPLE_HEAD)
                for j in group:
                    t.add_column(esc(header[j]), overflow="fold",
                                 justify="left" if align[j] == "l" else "right")
                for r in rows:
                    t.add_row(*(esc(r[j]) for j in group))
                console.print(t)
        for n in notes:
            console.print(f"[dim]note: {esc(n)}[/dim]")

    if isinstance(obj, Comparison):
        show(obj.title, comparison_sections(obj), obj.notes, obj.source)
        for rep in obj.reports:
            show(rep.title, report_sections(rep), rep.notes, {}, rep.warnings, rep.findings)
    else:
        show(obj.title, report_sections(obj), obj.notes, obj.source, obj.warnings,
             obj.findings)


def column_groups(header: list[str], rows: list[list[str]], width: int,
                  align: str = "") -> list[list[int]]:
    """Columns of a table in groups that each fit ``width`` characters, the first column
    (the row names) in every group. Text columns after the first (``'l'`` in ``align``)
    count at most 28 characters: they wrap, numbers never do.

    Parameters
    ----------
    header : list of str
    rows : list of list of str
    width : int
        Terminal columns.
    align : str, optional
        One 'l' or 'r' per column.

    Returns
    -------
    list of list of int

    Examples
    --------
    >>> column_groups(["metric", "a", "b"], [["recall", "0.5000", "0.2500"]], 24)
    [[0, 1], [0, 2]]
    >>> column_groups(["metric", "a", "b"], [["recall", "0.5000", "0.2500"]], 80)
    [[0, 1, 2]]
    """
    cost = [max([len(str(header[j]))] + [len(str(r[j])) for r in rows]) + 3
            for j in range(len(header))]
    cost = [min(c, 28) if j and align[j:j + 1] == "l" else c for j, c in enumerate(cost)]
    groups: list[list[int]] = []
    current = [0]
    used = 2 + cost[0]
    for j in range(1, len(header)):
        if len(current) > 1 and used + cost[j] > width:
            groups.append(current)
            current, used = [0], 2 + cost[0]
        current.append(j)
        used += cost[j]
    groups.append(current)
    return groups


def text_width() -> int:
    """Columns of terminal text: ``COLUMNS`` when set, else the terminal's width, else 80.

    Returns
    -------
    int
        At least 40.

    Examples
    --------
    >>> import os
    >>> old = os.environ.get("COLUMNS")
    >>> os.environ["COLUMNS"] = "120"
    >>> text_width()
    120
    >>> _ = os.environ.pop("COLUMNS") if old is None else os.environ.update(COLUMNS=old)
    """
    raw = os.environ.get("COLUMNS", "").strip()
    if raw.isdigit() and int(raw) > 0:
        return max(40, int(raw))
    if sys.stdout.isatty():
        return max(40, shutil.get_terminal_size((80, 24)).columns)
    return 80


def esc(s: Any) -> str:
    """Text shown literally by rich (its markup, such as ``[bold]``, escaped).

    Parameters
    ----------
    s : object
        Anything; it is converted with ``str``.

    Returns
    -------
    str

    Examples
    --------
    >>> print(esc("[bold] x"))
    \\[bold] x
    """
    from rich.markup import escape

    return escape(str(s))




def save_plots(report: Any, plots_dir: str | None, plot_format: str) -> None:
    """Save the plots of a report (``--plots``): the confusion matrix and, per score curve,
    the ROC curve, the precision-recall curve and metrics against the threshold; for a
    comparison, each model's plots and the ROC curves of the models together.

    Parameters
    ----------
    report : Report or Comparison
        The report model.
    plots_dir : str or None
        The folder (created if needed); None or empty saves nothing.
    plot_format : {'png', 'svg', 'pdf'}
        The image format.

    Raises
    ------
    InputError
        If the folder cannot be created.
    """
    if not plots_dir:
        return
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from ..plots import (
        ConfusionMatrixDisplay,
        PrecisionRecallDisplay,
        RocComparisonDisplay,
        RocCurveDisplay,
        ThresholdDisplay,
    )
    from ..report import Comparison

    out = Path(plots_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create plots directory {plots_dir!r}: {exc.strerror}") from exc
    written = []

    def save(draw: Any, name: str, size: tuple[float, float] = (6.0, 5.0)) -> None:
        fig = Figure(figsize=size)
        ax = fig.add_subplot()
        draw(ax)
        path = out / f"{name}.{plot_format}"
        fig.savefig(path, bbox_inches="tight", dpi=120)
        written.append(str(path))

    reports = report.reports if isinstance(report, Comparison) else [report]
    names = report.names if isinstance(report, Comparison) else [""]
    for name, rep in zip(names, reports, strict=True):
        pre = f"{_slug(name)}_" if name else ""
        save(lambda ax, r=rep: ConfusionMatrixDisplay(r.matrix).plot(ax=ax),
             pre + "confusion_matrix")
        for c in rep.curves:
            suffix = "" if len(rep.curves) == 1 else f"_{_slug(c.pos_label)}"
            save(lambda ax, c=c: RocCurveDisplay(c.sweep, roc_auc=c.auc).plot(ax=ax), f"{pre}roc{suffix}")
            save(lambda ax, c=c: PrecisionRecallDisplay(
                c.sweep, average_precision=c.average_precision).plot(ax=ax), f"{pre}pr{suffix}")
            save(lambda ax, c=c: ThresholdDisplay(c.sweep).plot(ax=ax), f"{pre}threshold{suffix}",
                 (6.5, 4.0))
    if isinstance(report, Comparison):
        curves = {n: r.curves[0] for n, r in zip(report.names, report.reports, strict=True)
                  if len(r.curves) == 1}
        if len(curves) >= 1:
            save(lambda ax: RocComparisonDisplay({n: c.sweep for n, c in curves.items()},
                                                 {n: c.auc for n, c in curves.items()}
                                                 ).plot(ax=ax), "roc_comparison",
                 (6.5, 6.0))
    click.echo(f"wrote {len(written)} plots to {plots_dir}", err=True)


def _slug(s: Any) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in str(s))[:60] or "_"
