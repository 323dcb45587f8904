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


def emit(obj: Any, fmt: str, output: str | None, summary: bool = False,
         overlay_bands: bool | None = None, excel_safe: bool = False) -> None:
    """Render the report model ``obj`` and write it to ``output`` (or print it).

    Text to the terminal is drawn as tables in column groups that fit its width; every other
    case uses the renderer of ``fmt`` (:mod:`confmat.report`).

    Parameters
    ----------
    obj : Report or Comparison
        The report model.
    fmt : {'text', 'json', 'markdown', 'csv', 'html'}
        The output format.
    output : str or None
        The file to write (its folders are created); None or ``"-"`` prints to stdout.
    summary : bool, default False
        Terminal text only: the summary view (headline metrics and a short per-class table,
        see :mod:`confmat.cli.summary`) instead of every metric.
    overlay_bands : bool, optional
        HTML of a comparison: shade the models' ROC bands in the overlay
        (:func:`confmat.report.render_html`; None: its default).
    excel_safe : bool, default False
        CSV: text cells that a spreadsheet would run as a formula are quoted
        (:func:`confmat.report.render_csv` with ``excel_safe=True``, ``--csv-excel-safe``).

    Raises
    ------
    InputError
        If the output file cannot be written.
    """
    if fmt == "text" and output is None:
        print_terminal(obj, summary)
        return
    from ..report import render_csv, render_html, render_json, render_markdown, render_text

    renderer = {"text": render_text, "json": render_json, "markdown": render_markdown,
                "csv": render_csv, "html": render_html}[fmt]
    text = (render_html(obj, overlay_bands=overlay_bands) if fmt == "html" else
            render_csv(obj, excel_safe=excel_safe) if fmt == "csv" else renderer(obj))
    if output is None or output == "-":
        click.echo(text, nl=False)
        return
    write_output(output, text)
    click.echo(f"wrote {output}", err=True)


def write_output(output: str, text: str) -> None:
    """Write ``text`` to the file ``output``, creating its folders.

    Parameters
    ----------
    output : str
        The path given to ``-o``.
    text : str
        The rendered output.

    Raises
    ------
    InputError
        If the file cannot be written; a folder of its path that is a file is named (the
        system's own words, "File exists" or "Not a directory", name neither).

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> open(os.path.join(d, "f"), "w").close()
    >>> write_output(os.path.join(d, "f", "out.json"), "{}")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    confmat.cli.common.InputError: -o ...out.json: cannot write output file '...out.json': '...f' is a file, not a folder
    """
    path = Path(output)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        blocking = next((p for p in reversed(path.parents) if p.is_file()), None)
        why = (f"{str(blocking)!r} is a file, not a folder" if blocking is not None
               else exc.strerror or str(exc))
        raise InputError(f"-o {output}: cannot write output file {output!r}: {why}") from exc


def check_excel_safe(excel_safe: bool, fmt: str) -> None:
    """``--csv-excel-safe`` applies to CSV output only.

    Parameters
    ----------
    excel_safe : bool
        Whether ``--csv-excel-safe`` was given.
    fmt : str
        The output format (:func:`~confmat.cli.common.format_for`).

    Raises
    ------
    InputError
        The flag with another format.

    Examples
    --------
    >>> check_excel_safe(True, "csv"), check_excel_safe(False, "html")
    (None, None)
    >>> check_excel_safe(True, "json")
    Traceback (most recent call last):
    ...
    confmat.cli.common.InputError: --csv-excel-safe applies to CSV output (-f csv or -o FILE.csv), not json
    """
    if excel_safe and fmt != "csv":
        raise InputError(f"--csv-excel-safe applies to CSV output (-f csv or -o FILE.csv), "
                         f"not {fmt}")


def print_terminal(obj: Any, summary: bool = False) -> None:
    """Print a report (or comparison) as terminal tables that fit :func:`text_width`.

    Plain text drawn here (no rich: its import and layout cost more than the whole summary);
    headings in bold when stdout is a terminal and ``NO_COLOR`` is not set. A table wider
    than the terminal is cut into column groups that each repeat the first column; numbers
    are never shortened, long text cells wrap.

    Parameters
    ----------
    obj : Report or Comparison
        The report model.
    summary : bool, default False
        The summary view (:func:`confmat.report.render_text.report_sections` with
        ``summary=True``), with a note on what ``--all`` adds.

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> from confmat.report import build_report
    >>> import contextlib, io
    >>> rep = build_report(ConfusionMatrix([[3, 1], [0, 4]]), intervals=False, title="T")
    >>> buf = io.StringIO()
    >>> with contextlib.redirect_stdout(buf):
    ...     print_terminal(rep, summary=True)
    >>> lines = buf.getvalue().splitlines()
    >>> lines[0].strip("─ ")
    'T'
    >>> i = lines.index("Confusion matrix (rows: true class, columns: predicted class)")
    >>> print("\\n".join(lines[i + 2:i + 6]))
      true \\ pred  0  1  total
     ─────────────────────────
      0            3  1      4
      1            0  4      4
    """
    from ..report import Comparison
    from ..report.escapes import visible
    from ..report.render_text import comparison_sections, report_sections, source_lines

    width = text_width()
    bold = _bold_style()
    out: list[str] = []

    def show(title: str, sections: list[Any], notes: list[str], src: dict[str, Any],
             warnings: list[str] | None = None, findings: list[str] | None = None) -> None:
        out.append(_rule(visible(title), width, bold))
        out.extend(wrap(visible(line), width) for line in source_lines(src))
        out.extend(bold("warning:") + wrap(f"warning: {visible(w)}", width, 9)[8:]
                   for w in warnings or [])
        out.extend(bold("•") + wrap(f"• {visible(f)}", width, 2)[1:] for f in findings or [])
        for stitle, header, rows, align in sections:
            header = [visible(h) for h in header]
            rows = [[visible(c) for c in r] for r in rows]
            out.extend(["", wrap(bold(visible(stitle)), width)])
            for group in column_groups(header, rows, width, align or ""):
                out.extend(["", *_table_lines(header, rows, align, group, width)])
        if notes:
            out.append("")
        out.extend(wrap(f"note: {visible(n)}", width, len("note: ")) for n in notes)

    if isinstance(obj, Comparison):
        show(obj.title, comparison_sections(obj), obj.notes, obj.source)
        for rep in obj.reports:
            show(rep.title, report_sections(rep, summary=summary),
                 rep.notes + _summary_notes(rep, summary), {}, rep.warnings, rep.findings)
    else:
        show(obj.title, report_sections(obj, summary=summary),
             obj.notes + _summary_notes(obj, summary), obj.source, obj.warnings, obj.findings)
    click.echo("\n".join(out))


def _summary_notes(rep: Any, summary: bool) -> list[str]:
    if not summary:
        return []
    from ..report.render_text import SUMMARY_PER_CLASS

    more_pc = sum(r.name not in SUMMARY_PER_CLASS for r in rep.per_class)
    return [f"summary view: {more_pc} more per-class and {len(rep.overall)} overall metrics "
            "with --all (or in -o report.html / .json / .md)"]


def _bold_style() -> Any:
    if sys.stdout.isatty() and not os.environ.get("NO_COLOR"):
        return lambda s: f"\033[1m{s}\033[0m"
    return lambda s: s


def _rule(title: str, width: int, bold: Any) -> str:
    """``──── title ────`` across the width (the title alone when it is too long)."""
    room = width - len(title) - 2
    if room < 4:
        return bold(title)
    left = room // 2
    return f"{'─' * left} {bold(title)} {'─' * (room - left)}"


def wrap(text: str, width: int, indent: int = 0) -> str:
    """``text`` wrapped at ``width`` columns (words are not split unless longer than a line),
    continuation lines indented by ``indent`` spaces.

    Parameters
    ----------
    text : str
    width : int
    indent : int, default 0

    Returns
    -------
    str
        Lines joined by newlines.

    Examples
    --------
    >>> print(wrap("note: one two three", 12, 6))
    note: one
          two
          three
    """
    import textwrap

    if len(text) <= width:
        return text
    return "\n".join(textwrap.wrap(text, width, subsequent_indent=" " * indent,
                                    break_on_hyphens=False)) or text


def _table_lines(header: list[str], rows: list[list[str]], align: str | None,
                 group: list[int], width: int) -> list[str]:
    """One column group of a table: header, rule, rows; text columns after the first wrap at
    :data:`TEXT_COLUMN` characters, or fewer when the group is still wider than ``width``."""
    import textwrap

    al = (align or "l").ljust(len(header), "r")
    cells = [[str(header[j]) for j in group]] + [[str(r[j]) for j in group] for r in rows]
    widths = []
    for i, j in enumerate(group):
        w = max(len(c[i]) for c in cells)
        widths.append(min(w, TEXT_COLUMN) if i and al[j] == "l" else w)
    for i, j in enumerate(group):
        excess = sum(widths) + 2 * len(widths) - width
        if excess > 0 and i and al[j] == "l":
            widths[i] = max(10, widths[i] - excess)
    lines = []
    for n, row in enumerate(cells):
        parts = [textwrap.wrap(c, widths[i]) or [""] if i and al[group[i]] == "l"
                 and len(c) > widths[i] else [c] for i, c in enumerate(row)]
        for k in range(max(len(p) for p in parts)):
            line = []
            for i, p in enumerate(parts):
                c = p[k] if k < len(p) else ""
                line.append(c.ljust(widths[i]) if al[group[i]] == "l" else c.rjust(widths[i]))
            lines.append(("  " + "  ".join(line)).rstrip())
        if n == 0:
            lines.append(" " + "─" * (sum(widths) + 2 * len(widths) - 1))
    return lines


#: widest text column (after the first) of a terminal table; longer text wraps
TEXT_COLUMN = 28


def column_groups(header: list[str], rows: list[list[str]], width: int,
                  align: str = "") -> list[list[int]]:
    """Columns of a table in groups that each fit ``width`` characters, the first column
    (the row names) in every group. Text columns after the first (``'l'`` in ``align``)
    count at most :data:`TEXT_COLUMN` characters: they wrap, numbers never do.

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
    >>> column_groups(["metric", "a", "b"], [["recall", "0.5000", "0.2500"]], 23)
    [[0, 1], [0, 2]]
    >>> column_groups(["metric", "a", "b"], [["recall", "0.5000", "0.2500"]], 80)
    [[0, 1, 2]]
    """
    # each column takes its width and two spaces before it (the terminal tables' layout)
    cost = [max([len(str(header[j]))] + [len(str(r[j])) for r in rows]) + 2
            for j in range(len(header))]
    cost = [min(c, TEXT_COLUMN + 2) if j and align[j:j + 1] == "l" else c
            for j, c in enumerate(cost)]
    groups: list[list[int]] = []
    current = [0]
    used = cost[0]
    for j in range(1, len(header)):
        if len(current) > 1 and used + cost[j] > width:
            groups.append(current)
            current, used = [0], cost[0]
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
    the ROC curve (with the report's confidence band and the range of its partial AUC when it
    has them, :func:`confmat.report.render_html.roc_figure`), the precision-recall curve and
    metrics against the threshold; for a comparison, each model's plots and the ROC curves of
    the models together.

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
    from ..report.render_html import roc_figure

    out = Path(plots_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"--plots {plots_dir}: cannot create the directory: "
                         f"{exc.strerror}") from exc
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
            if len(rep.curves) == 1:  # with its confidence band, as in the HTML report
                save(lambda ax, r=rep: roc_figure(r, ax), f"{pre}roc")
            else:
                save(lambda ax, c=c: RocCurveDisplay(c.sweep, roc_auc=c.auc).plot(ax=ax),
                     f"{pre}roc{suffix}")
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
