"""The ``confmat`` command line: evaluate prediction files, typed-in matrices and the registry.

Every command reads files through :mod:`confmat.io`, builds the report model
(:mod:`confmat.report.model`) and hands it to a renderer. Bad input (a missing column, an
unreadable file, a malformed matrix, an unknown metric) is reported as one line on stderr,
without a traceback, and the command exits with status 2.
"""

from __future__ import annotations

import ast
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import numpy as np

FORMATS = ("text", "json", "markdown", "csv", "html")
_EXT_FORMAT = {".html": "html", ".htm": "html", ".json": "json", ".md": "markdown",
               ".markdown": "markdown", ".csv": "csv", ".txt": "text"}
#: files larger than this show a progress bar on stderr when stderr is a terminal
PROGRESS_BYTES = 20_000_000


class InputError(ValueError):
    """Bad input named for the user (exit status 2)."""


# ------------------------------------------------------------------------------ helpers
def _split(values: Sequence[str] | None) -> list[str]:
    """Options given repeatedly and/or comma-separated, as one list."""
    out: list[str] = []
    for v in values or ():
        out += [p.strip() for p in str(v).split(",") if p.strip()]
    return out


def _coerce(values: list[str], like: np.ndarray, what: str) -> list[Any]:
    """Typed-in labels as the type of the file's label column (1 -> int 1 for an int column)."""
    kind = like.dtype.kind
    out: list[Any] = []
    for v in values:
        try:
            if kind in "iu":
                out.append(int(v))
            elif kind == "f":
                out.append(float(v))
            elif kind == "b":
                if v.lower() not in ("true", "false", "1", "0"):
                    raise ValueError(v)
                out.append(v.lower() in ("true", "1"))
            else:
                out.append(v)
        except ValueError:
            raise InputError(
                f"{what} {v!r} does not match the label column, whose values are "
                f"{like.dtype.name} (e.g. {like[:3].tolist()})"
            ) from None
    return out


def _format_for(fmt: str | None, output: str | None) -> str:
    if fmt:
        return fmt
    if output:
        return _EXT_FORMAT.get(Path(output).suffix.lower(), "text")
    return "text"


def _emit(obj: Any, fmt: str, output: str | None) -> None:
    """Render the report model ``obj`` and write it to ``output`` (or print it)."""
    from .report import render_csv, render_html, render_json, render_markdown, render_text

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
    from .report.model import Comparison
    from .report.render_text import comparison_sections, render_text, report_sections, source_lines

    try:
        from rich import box
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # pragma: no cover - rich is in the cli extra
        click.echo(render_text(obj), nl=False)
        return
    console = Console(highlight=False, soft_wrap=False,
                      width=None if sys.stdout.isatty() else 200)

    def show(title: str, sections: list[Any], notes: list[str], src: dict[str, Any]) -> None:
        console.rule(f"[bold]{_esc(title)}")
        for line in source_lines(src):
            console.print(_esc(line))
        for stitle, header, rows, align in sections:
            align = align or "l" + "r" * (len(header) - 1)
            console.print(f"\n[bold]{_esc(stitle)}[/bold]")
            t = Table(box=box.SIMPLE_HEAD)
            for h, a in zip(header, align, strict=False):
                t.add_column(_esc(h), justify="left" if a == "l" else "right")
            for r in rows:
                t.add_row(*(_esc(c) for c in r))
            console.print(t)
        for n in notes:
            console.print(f"[dim]note: {_esc(n)}[/dim]")

    if isinstance(obj, Comparison):
        show(obj.title, comparison_sections(obj), obj.notes, obj.source)
        for rep in obj.reports:
            show(rep.title, report_sections(rep), rep.notes, {})
    else:
        show(obj.title, report_sections(obj), obj.notes, obj.source)


def _esc(s: Any) -> str:
    from rich.markup import escape

    return escape(str(s))


def _progress_reader(path: str, columns: list[str], show: bool | None, **kw: Any) -> dict[str, np.ndarray]:
    """Read columns through :mod:`confmat.io`, with a rich progress bar on stderr."""
    from . import io as cio

    reader = cio.iter_batches(path, columns, **kw)
    if show is None:
        try:
            size = os.path.getsize(path)
        except OSError:
            size = 0
        show = sys.stderr.isatty() and size > PROGRESS_BYTES
    parts: dict[str, list[np.ndarray]] = {c: [] for c in reader.columns}
    progress = _make_progress(path, reader.total_rows) if show else None
    try:
        for batch in reader:
            for c, v in batch.items():
                parts[c].append(v)
            if progress is not None:
                progress[0].update(progress[1], completed=reader.rows_total)
    finally:
        if progress is not None:
            progress[0].stop()
    if reader.rows_read == 0:
        raise InputError(f"file {path!r} has no rows to evaluate ({reader.rows_skipped} skipped)")
    out = {}
    for c, vs in parts.items():
        if all(v.dtype.kind == vs[0].dtype.kind for v in vs):
            out[c] = np.concatenate(vs)
        else:
            out[c] = np.concatenate([v.astype(object) for v in vs])
    if reader.rows_skipped:
        out["__skipped__"] = np.array([reader.rows_skipped])
    return out


def _evaluate_stream(path: str, true: str, pred: str, weight: str | None, labels: list[str],
                     pos_label: str | None, show: bool | None, skip_invalid: bool,
                     fmt_in: str | None, score_cols: list[str] | None = None,
                     bins: int = 10_000) -> tuple[Any, Any, Any]:
    """One bounded-memory pass through :func:`confmat.io.evaluate_file` (row groups of a Parquet
    file on every core), with ``--labels`` / ``--pos-label`` read in the type of the true labels.

    Returns (matrix, positive label or None, FileReport)."""
    from . import io as cio

    _check_file(path)
    first = next(iter(cio.iter_batches(path, [true], batch_rows=1000, format=fmt_in,
                                       skip_invalid=True)), None)
    if first is None:
        raise InputError(f"file {path!r} has no rows to evaluate")
    y0 = first[true]
    lab = _coerce(labels, y0, "--labels value") if labels else None
    pos = _coerce([pos_label], y0, "--pos-label")[0] if pos_label is not None else None
    if weight is not None:
        w0 = next(iter(cio.iter_batches(path, [weight], batch_rows=1000, format=fmt_in,
                                        skip_invalid=True)), {weight: np.zeros(0)})[weight]
        if w0.dtype.kind not in "iuf":
            raise InputError(f"column {weight!r} of {path!r} must be numeric, got values like "
                             f"{w0[:3].tolist()}")
    if show is None:
        show = sys.stderr.isatty() and os.path.getsize(path) > PROGRESS_BYTES
    bar = _make_progress(path, None) if show else None

    def tick(done: int, total: int | None) -> None:
        if bar is not None:
            bar[0].update(bar[1], completed=done, total=total)

    try:
        cm, frep = cio.evaluate_file(path, true, pred, score_cols=score_cols, weight_col=weight,
                                     labels=lab, skip_invalid=skip_invalid, progress=tick,
                                     format=fmt_in, bins=bins)
    finally:
        if bar is not None:
            bar[0].stop()
    return cm, pos, frep


def _make_progress(path: str, total: int | None) -> tuple[Any, Any]:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(TextColumn("reading {task.description}"), BarColumn(),
                        TextColumn("{task.completed:,} rows"), TimeElapsedColumn(),
                        console=Console(stderr=True), transient=False)
    progress.start()
    return progress, progress.add_task(Path(path).name, total=total)


def _check_file(path: str) -> None:
    p = Path(path)
    if not p.exists():
        raise InputError(f"file {path!r} does not exist")
    if p.is_dir():
        raise InputError(f"{path!r} is a directory, not a file")
    if not os.access(p, os.R_OK):
        raise InputError(f"file {path!r} is not readable (permission denied)")


def _read_predictions(path: str, true: str, preds: list[str], scores: list[str],
                      weight: str | None, progress: bool | None, skip_invalid: bool,
                      fmt_in: str | None) -> dict[str, Any]:
    _check_file(path)
    cols = list(dict.fromkeys([true, *preds, *scores, *([weight] if weight else [])]))
    data = _progress_reader(path, cols, progress, skip_invalid=skip_invalid, format=fmt_in)
    skipped = int(data.pop("__skipped__", [0])[0])
    for c in scores + ([weight] if weight else []):
        if data[c].dtype.kind not in "iuf":
            raise InputError(f"column {c!r} of {path!r} must be numeric, got values like "
                             f"{data[c][:3].tolist()}")
    data["__skipped__"] = skipped
    return data


def _plots(report: Any, plots_dir: str | None, plot_format: str) -> None:
    if not plots_dir:
        return
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from .plots import (
        ConfusionMatrixDisplay,
        PrecisionRecallDisplay,
        RocComparisonDisplay,
        RocCurveDisplay,
        ThresholdDisplay,
    )
    from .report.model import Comparison

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
            save(lambda ax, c=c: RocCurveDisplay(c).plot(ax=ax), f"{pre}roc{suffix}")
            save(lambda ax, c=c: PrecisionRecallDisplay(c).plot(ax=ax), f"{pre}pr{suffix}")
            save(lambda ax, c=c: ThresholdDisplay(c).plot(ax=ax), f"{pre}threshold{suffix}",
                 (6.5, 4.0))
    if isinstance(report, Comparison):
        curves = {n: r.curves[0] for n, r in zip(report.names, report.reports, strict=True)
                  if len(r.curves) == 1}
        if len(curves) >= 1:
            save(lambda ax: RocComparisonDisplay(curves).plot(ax=ax), "roc_comparison",
                 (6.5, 6.0))
    click.echo(f"wrote {len(written)} plots to {plots_dir}", err=True)


def _slug(s: Any) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in str(s))[:60] or "_"


def _parse_matrix(text: str) -> tuple[np.ndarray, list[Any] | None]:
    """A matrix typed as a Python/JSON list of lists, or a CSV file of counts."""
    if os.path.exists(text):
        return _matrix_from_file(text)
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        hint = " (no such file either)" if not text.lstrip().startswith("[") else ""
        raise InputError(
            f"bad matrix {text!r}: expected rows of counts like \"[[61,2],[8,58]]\" or a CSV "
            f"file of counts{hint}"
        ) from None
    if not isinstance(value, list | tuple) or not value or not all(
            isinstance(r, list | tuple) for r in value):
        raise InputError(f"bad matrix {text!r}: expected a list of rows, e.g. [[61,2],[8,58]]")
    lengths = {len(r) for r in value}
    if len(lengths) != 1 or lengths != {len(value)}:
        raise InputError(
            f"bad matrix {text!r}: it must be square (K rows of K counts); got {len(value)} rows "
            f"of lengths {sorted(lengths)}"
        )
    for r in value:
        for v in r:
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise InputError(f"bad matrix {text!r}: entry {v!r} is not a number")
    return np.asarray(value), None


def _matrix_from_file(path: str) -> tuple[np.ndarray, list[Any] | None]:
    """A CSV of counts: header = predicted labels; an optional first text column = true labels."""
    from . import io as cio

    _check_file(path)
    cols = cio.list_columns(path)
    data = cio.read_columns(path, cols)
    row_labels = None
    if cols and data[cols[0]].dtype.kind not in "iuf":
        row_labels = [str(v) for v in data[cols[0]].tolist()]
        cols = cols[1:]
    for c in cols:
        if data[c].dtype.kind not in "iuf":
            raise InputError(f"bad matrix file {path!r}: column {c!r} holds non-numeric values")
    table = np.column_stack([data[c] for c in cols]) if cols else np.empty((0, 0))
    if table.shape[0] != table.shape[1]:
        raise InputError(f"bad matrix file {path!r}: {table.shape[0]} rows but {table.shape[1]} "
                         "count columns; the table must be square")
    if row_labels is not None and row_labels != list(cols):
        raise InputError(f"bad matrix file {path!r}: row labels {row_labels} differ from the "
                         f"column labels {list(cols)}")
    labels: list[Any] = list(cols)
    if all(c.lstrip("-").isdigit() for c in labels):
        labels = [int(c) for c in labels]
    return table, labels


# ------------------------------------------------------------------------------ commands
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(context_settings=CONTEXT)
@click.version_option(package_name="confmat", prog_name="confmat")
def cli() -> None:
    """Evaluate classifiers from their confusion matrix.

    \b
    Examples:
      confmat demo                                   # the built-in tour, writes HTML reports
      confmat matrix "[[61,2],[8,58]]"               # every metric of a typed-in matrix
      confmat report preds.csv --true y --pred yhat --score p -o report.html
      confmat compare a.csv b.csv --true y --pred yhat --score p
      confmat metrics recall                         # search the metric registry
      confmat explain mcc
    """


def _output_options(f: Any) -> Any:
    f = click.option("--plot-format", type=click.Choice(["png", "svg", "pdf"]), default="png",
                     show_default=True, help="Image format for --plots.")(f)
    f = click.option("--plots", "plots_dir", type=click.Path(file_okay=False),
                     help="Also save the plots (matrix, ROC, PR, metric vs threshold) here.")(f)
    f = click.option("--no-intervals", is_flag=True, help="Skip confidence intervals.")(f)
    f = click.option("--title", help="Heading of the report.")(f)
    f = click.option("-o", "--output", type=click.Path(dir_okay=False),
                     help="Write to this file (format from its extension unless --format).")(f)
    f = click.option("-f", "--format", "fmt", type=click.Choice(FORMATS),
                     help="Output format [default: text, or from -o's extension].")(f)
    return f


@cli.command(context_settings=CONTEXT)
@click.argument("matrix")
@click.option("--labels", multiple=True, help="Class names in row order, comma-separated.")
@click.option("--pred-rows", is_flag=True, help="The typed table has predicted classes as rows.")
@_output_options
def matrix(matrix: str, labels: tuple[str, ...], pred_rows: bool, fmt: str | None,
           output: str | None, title: str | None, no_intervals: bool, plots_dir: str | None,
           plot_format: str) -> None:
    """Every metric from a typed-in confusion matrix (rows = true class).

    MATRIX is a list of rows like "[[61,2],[8,58]]", or a CSV file of counts whose header
    names the predicted classes (an optional first text column names the true classes).

    \b
    Examples:
      confmat matrix "[[61,2],[8,58]]" --labels bus,opel
      confmat matrix "[[61,2],[8,58]]" --format json -o metrics.json
      confmat matrix counts.csv --format html -o matrix.html
    """
    from .matrix import ConfusionMatrix
    from .report.model import build_report

    table, file_labels = _parse_matrix(matrix)
    names: list[Any] | None = _split(labels) or file_labels
    if names is not None and len(names) != table.shape[0]:
        raise InputError(f"--labels has {len(names)} names but the matrix has {table.shape[0]} "
                         "classes")
    cm = ConfusionMatrix(table, labels=names,
                         orientation="pred_rows" if pred_rows else "true_rows")
    rep = build_report(cm, intervals=not no_intervals, title=title or "Confusion matrix report",
                       source={"matrix": matrix if not os.path.exists(matrix) else None,
                               "file": matrix if os.path.exists(matrix) else None})
    _emit(rep, _format_for(fmt, output), output)
    _plots(rep, plots_dir, plot_format)


def _input_options(pred_option: Any) -> Any:
    """The file-reading options, in help order: --true, --pred (``pred_option``), scores..."""

    def deco(f: Any) -> Any:
        f = pred_option(_file_options(f))
        return click.option("--true", "true_col", required=True,
                            help="Column of true labels.")(f)

    return deco


def _file_options(f: Any) -> Any:
    f = click.option("--input-format", "fmt_in",
                     type=click.Choice(["csv", "tsv", "parquet", "jsonl", "npy"]),
                     help="File format [default: from the extension].")(f)
    f = click.option("--skip-invalid", is_flag=True,
                     help="Skip rows with missing values (counted in the report) instead of "
                          "stopping.")(f)
    f = click.option("--progress/--no-progress", default=None,
                     help="Progress bar on stderr [default: for large files on a terminal].")(f)
    f = click.option("--weight", help="Column of sample weights.")(f)
    f = click.option("--pos-label", help="Positive class for --score (default: the last label).")(f)
    f = click.option("--labels", multiple=True,
                     help="Classes and their order, comma-separated (default: sorted union).")(f)
    f = click.option("--scores", "scores", multiple=True,
                     help="One score column per class, in label order (comma-separated).")(f)
    f = click.option("--score", "score", multiple=True,
                     help="Column of positive-class scores (binary problems).")(f)
    return f


@cli.command(context_settings=CONTEXT)
@click.argument("file", type=click.Path(dir_okay=True))
@_input_options(click.option("--pred", "pred_col", required=True,
                             help="Column of predicted labels."))
@click.option("--bins", type=click.IntRange(min=1),
              help="Curves from BINS score bins over [0, 1], streamed in bounded memory "
                   "(for files too large to hold; the AUC error bound is reported).")
@_output_options
def report(file: str, true_col: str, pred_col: str, score: tuple[str, ...],
           scores: tuple[str, ...], labels: tuple[str, ...], pos_label: str | None,
           weight: str | None, progress: bool | None, skip_invalid: bool, fmt_in: str | None,
           bins: int | None, fmt: str | None, output: str | None, title: str | None,
           no_intervals: bool, plots_dir: str | None, plot_format: str) -> None:
    """Full evaluation of one prediction file (CSV/TSV, Parquet, JSON lines, .npy).

    Matrix, accuracy matrix, per-class metrics and averages, overall metrics with intervals
    and interpretation; ROC and PR curves and the threshold slider when scores are given.

    \b
    Examples:
      confmat report preds.csv --true y --pred yhat
      confmat report preds.parquet --true y --pred yhat --score p1 -o report.html
      confmat report preds.csv --true y --pred yhat --scores p0,p1,p2 --format markdown
      confmat report huge.parquet --true y --pred yhat --score p1 --bins 10000 -o big.html
    """
    from .matrix import ConfusionMatrix
    from .report.model import build_report

    score_cols = _split(score)
    per_class_cols = _split(scores)
    if score_cols and per_class_cols:
        raise InputError("give either --score (positive-class scores) or --scores (one column "
                         "per class), not both")
    if len(score_cols) > 1:
        raise InputError("--score takes one column; use --scores for one column per class")
    if bins is not None:
        if not (score_cols or per_class_cols):
            raise InputError("--bins applies to score columns; give --score or --scores")
        _binned_report(file, true_col, pred_col, score_cols + per_class_cols, weight,
                       _split(labels), pos_label, progress, skip_invalid, fmt_in, bins,
                       not no_intervals, title, fmt, output, plots_dir, plot_format)
        return
    if not (score_cols or per_class_cols):
        # no scores: count batch by batch in bounded memory, whatever the file's size
        cm, pos, frep = _evaluate_stream(file, true_col, pred_col, weight, _split(labels),
                                         pos_label, progress, skip_invalid, fmt_in)
        data: dict[str, Any] = {"__skipped__": frep.rows_skipped}
        y = w = None
    else:
        data = _read_predictions(file, true_col, [pred_col], score_cols + per_class_cols,
                                 weight, progress, skip_invalid, fmt_in)
        y, p = data[true_col], data[pred_col]
        lab = _coerce(_split(labels), y, "--labels value") if labels else None
        pos = _coerce([pos_label], y, "--pos-label")[0] if pos_label is not None else None
        w = data[weight] if weight else None
        cm = ConfusionMatrix.from_predictions(y, p, labels=lab, sample_weight=w)
    if pos is not None and pos not in cm.labels:
        raise InputError(f"--pos-label {pos!r} is not one of the labels {cm.labels}")
    s = None
    if score_cols:
        s = data[score_cols[0]]
    elif per_class_cols:
        if len(per_class_cols) != cm.n_classes:
            raise InputError(f"--scores names {len(per_class_cols)} columns but there are "
                             f"{cm.n_classes} classes {cm.labels}; give one per class in order")
        s = np.column_stack([data[c] for c in per_class_cols])
    source = {"file": file, "true": true_col, "pred": pred_col,
              "scores": ", ".join(score_cols + per_class_cols) or None, "weight": weight}
    if data["__skipped__"]:
        source["rows skipped"] = data["__skipped__"]
    rep = build_report(cm, y_true=y if s is not None else None, y_score=s, pos_label=pos,
                       sample_weight=w, intervals=not no_intervals,
                       title=title or f"Report: {Path(file).name}", source=source)
    if data["__skipped__"]:
        rep.notes.append(f"{data['__skipped__']} invalid rows were skipped (--skip-invalid)")
    _emit(rep, _format_for(fmt, output), output)
    _plots(rep, plots_dir, plot_format)


def _binned_report(file: str, true_col: str, pred_col: str, score_cols: list[str],
                   weight: str | None, labels: list[str], pos_label: str | None,
                   show: bool | None, skip_invalid: bool, fmt_in: str | None, bins: int,
                   intervals: bool, title: str | None, fmt: str | None, output: str | None,
                   plots_dir: str | None, plot_format: str) -> None:
    """``report --bins``: one streaming pass through :func:`confmat.io.evaluate_file`."""
    from .report.model import build_report, curves_from_histogram

    cm, pos, frep = _evaluate_stream(file, true_col, pred_col, weight, labels, pos_label, show,
                                     skip_invalid, fmt_in, score_cols=score_cols, bins=bins)
    curves, notes = curves_from_histogram(frep.curves, None if pos is None else [pos])
    source = {"file": file, "true": true_col, "pred": pred_col,
              "scores": ", ".join(score_cols), "weight": weight,
              "curves": f"binned, {bins} bins"}
    if frep.rows_skipped:
        source["rows skipped"] = frep.rows_skipped
    rep = build_report(cm, intervals=intervals, title=title or f"Report: {Path(file).name}",
                       source=source)
    rep.curves = curves
    rep.notes += notes
    _emit(rep, _format_for(fmt, output), output)
    _plots(rep, plots_dir, plot_format)


@cli.command(context_settings=CONTEXT)
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=True))
@_input_options(click.option("--pred", "pred_cols", multiple=True, required=True,
                             help="Column(s) of predicted labels; several with one file = "
                                  "several models."))
@click.option("--name", "names", multiple=True, help="Model names (default: file or column).")
@click.option("--metrics", "metric_names", multiple=True,
              help="Overall metrics of the side-by-side table, comma-separated "
                   "[default: the registry's headline metrics].")
@_output_options
def compare(files: tuple[str, ...], true_col: str, pred_cols: tuple[str, ...],
            score: tuple[str, ...], scores: tuple[str, ...], labels: tuple[str, ...],
            pos_label: str | None, weight: str | None, progress: bool | None,
            skip_invalid: bool, fmt_in: str | None, names: tuple[str, ...],
            metric_names: tuple[str, ...], fmt: str | None,
            output: str | None, title: str | None, no_intervals: bool, plots_dir: str | None,
            plot_format: str) -> None:
    """Models side by side, with pairwise tests (McNemar, DeLong) and a ROC overlay.

    Either several files with the same columns (one model each, same samples in the same
    order), or one file with several --pred columns (and matching --score columns).

    \b
    Examples:
      confmat compare knn.csv tree.csv svm.csv --true y --pred yhat --score p
      confmat compare preds.csv --true y --pred knn,tree --score p_knn,p_tree -o cmp.html
      confmat compare a.csv b.csv --true y --pred yhat --metrics mcc,kappa,informedness
    """
    from .report.model import build_comparison

    preds = _split(pred_cols)
    score_cols = _split(score)
    if _split(scores):
        raise InputError("compare takes --score (positive-class scores), one per model")
    models: dict[str, Any] = {}
    model_scores: dict[str, Any] = {}
    y_ref = None
    w_ref = None
    if len(files) == 1:
        if len(preds) < 2:
            raise InputError("compare needs at least two models: several files, or several "
                             "--pred columns in one file")
        if score_cols and len(score_cols) != len(preds):
            raise InputError(f"give one --score column per --pred column ({len(preds)}), got "
                             f"{len(score_cols)}")
        data = _read_predictions(files[0], true_col, preds, score_cols, weight, progress,
                                 skip_invalid, fmt_in)
        y_ref, w_ref = data[true_col], (data[weight] if weight else None)
        keys = _split(names) or preds
        if len(keys) != len(preds):
            raise InputError(f"--name gives {len(keys)} names for {len(preds)} models")
        for i, (k, c) in enumerate(zip(keys, preds, strict=True)):
            models[k] = data[c]
            if score_cols:
                model_scores[k] = data[score_cols[i]]
        source = {"file": files[0], "true": true_col, "models": ", ".join(preds)}
    else:
        if len(preds) != 1 or len(score_cols) > 1:
            raise InputError("with several files give one --pred column (and at most one "
                             "--score column), the same in every file")
        keys = _split(names) or [Path(f).stem for f in files]
        if len(keys) != len(files):
            raise InputError(f"--name gives {len(keys)} names for {len(files)} files")
        if len(set(keys)) != len(keys):
            keys = [f"{k} ({i + 1})" for i, k in enumerate(keys)]
        for k, f in zip(keys, files, strict=True):
            data = _read_predictions(f, true_col, preds, score_cols, weight, progress,
                                     skip_invalid, fmt_in)
            y = data[true_col]
            if y_ref is None:
                y_ref, w_ref = y, (data[weight] if weight else None)
            elif len(y) != len(y_ref) or not np.array_equal(y, y_ref):
                raise InputError(
                    f"file {f!r} has different true labels from {files[0]!r} "
                    f"({len(y)} vs {len(y_ref)} rows); models must be evaluated on the same "
                    "samples in the same order"
                )
            models[k] = data[preds[0]]
            if score_cols:
                model_scores[k] = data[score_cols[0]]
        source = {"files": ", ".join(files), "true": true_col, "pred": preds[0]}
    assert y_ref is not None
    lab = _coerce(_split(labels), y_ref, "--labels value") if labels else None
    pos = _coerce([pos_label], y_ref, "--pos-label")[0] if pos_label is not None else None
    cmp = build_comparison(y_ref, models, scores=model_scores, labels=lab, pos_label=pos,
                           sample_weight=w_ref, intervals=not no_intervals,
                           metrics=_split(metric_names) or None,
                           title=title or "Model comparison", source=source)
    _emit(cmp, _format_for(fmt, output), output)
    _plots(cmp, plots_dir, plot_format)


@cli.command(context_settings=CONTEXT)
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

    from .metrics import list_metrics

    specs = list_metrics(kind=kind, family=family)  # type: ignore[arg-type]
    if query:
        q = query.lower()
        specs = [s for s in specs if q in " ".join(
            [s.name, *s.aliases, s.full_name, s.meaning, s.family]).lower().replace("_", " ")
            or q in " ".join([s.name, *s.aliases])]
    if not specs:
        raise InputError(f"no metric matches {query!r}" + (f" (kind={kind})" if kind else "")
                         + (f" (family={family})" if family else ""))
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
        t.add_row(s.name, s.kind, s.family, _esc(s.full_name), _esc(", ".join(s.aliases)),
                  f"[{s.range[0]:g}, {s.range[1]:g}]", better)
    Console(highlight=False, width=None if sys.stdout.isatty() else 200).print(t)


@cli.command(context_settings=CONTEXT)
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

    from .explain import explain as explain_metric

    info = explain_metric(metric)  # names, aliases and PyCM keys ("TPR Macro") all work
    if as_json:
        click.echo(json.dumps(info.to_dict(), indent=2, default=str))
        return
    text = str(info)
    click.echo(text)


@cli.command(context_settings=CONTEXT)
@click.option("-o", "--output-dir", "out_dir", default=".", show_default=True,
              type=click.Path(file_okay=False), help="Directory for the reports.")
@click.option("--quick", is_flag=True, help="Fewer, smaller models (for a fast look).")
def demo(out_dir: str, quick: bool) -> None:
    """Train classic models on scikit-learn's built-in data and write HTML reports.

    Breast cancer (the book's chapter 7 models: nearest centroid, 3-NN, decision tree,
    linear SVM, plus logistic regression) and digits as the book's MNIST: even/odd with
    neural networks of several sizes (Figure 11-3) and all 10 classes. No data of yours and
    no network access are needed.

    \b
    Examples:
      confmat demo
      confmat demo -o demo_out
    """
    from .demo import run_demo

    t0 = time.perf_counter()
    paths = run_demo(out_dir, quick=quick, log=lambda m: click.echo(m, err=True))
    for p in paths:
        click.echo(str(p))
    click.echo(f"demo finished in {time.perf_counter() - t0:.1f} s", err=True)


# ------------------------------------------------------------------------------ entry point
def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (2 for bad input, printed without a traceback)."""
    try:
        rv = cli.main(args=list(argv) if argv is not None else None, prog_name="confmat",
                      standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return 1
    except click.UsageError as exc:
        exc.show()
        return 2
    except click.ClickException as exc:
        exc.show()
        return 2
    except (ValueError, TypeError, KeyError, OSError, ImportError) as exc:
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        click.echo(f"confmat: error: {msg}", err=True)
        return 2
    return rv if isinstance(rv, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
