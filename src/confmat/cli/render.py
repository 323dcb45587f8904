"""Output of the commands: the report model rendered to a file or the terminal, and plots.

The report model types are read here and nowhere else in the command line:
:class:`confmat.report.Comparison` (``isinstance`` checks, ``names``, ``reports``) and
each report's ``curves`` (:class:`confmat.report.ScoreCurve`, whose threshold sweeps the plot
Displays draw).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from .common import InputError


def emit(obj: Any, fmt: str, output: str | None) -> None:
    """Render the report model ``obj`` and write it to ``output`` (or print it)."""
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
    console = Console(highlight=False, soft_wrap=False,
                      width=None if sys.stdout.isatty() else 200)

    def show(title: str, sections: list[Any], notes: list[str], src: dict[str, Any],
             warnings: list[str] | None = None) -> None:
        console.rule(f"[bold]{esc(title)}")
        for line in source_lines(src):
            console.print(esc(line))
        for w in warnings or []:
            console.print(f"[bold yellow]warning:[/bold yellow] {esc(w)}")
        for stitle, header, rows, align in sections:
            align = align or "l" + "r" * (len(header) - 1)
            console.print(f"\n[bold]{esc(stitle)}[/bold]")
            t = Table(box=box.SIMPLE_HEAD)
            for h, a in zip(header, align, strict=False):
                t.add_column(esc(h), justify="left" if a == "l" else "right")
            for r in rows:
                t.add_row(*(esc(c) for c in r))
            console.print(t)
        for n in notes:
            console.print(f"[dim]note: {esc(n)}[/dim]")

    if isinstance(obj, Comparison):
        show(obj.title, comparison_sections(obj), obj.notes, obj.source)
        for rep in obj.reports:
            show(rep.title, report_sections(rep), rep.notes, {}, rep.warnings)
    else:
        show(obj.title, report_sections(obj), obj.notes, obj.source, obj.warnings)


def esc(s: Any) -> str:
    from rich.markup import escape

    return escape(str(s))




def save_plots(report: Any, plots_dir: str | None, plot_format: str) -> None:
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
