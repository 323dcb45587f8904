"""``report --by``: the table by group of one prediction file, with the scores read whole or
counted in bins."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import numpy as np

from ..inputs.decisions import check_scored_columns
from .common import (
    InputError,
    filtered_reason,
    format_for,
    where_source,
)
from .reading import evaluate_stream, read_predictions, skipped_note, typed_options
from .registry import metric_names
from .render import emit, write_output
from .typed import coerce

__all__ = ["by_group_report"]


def by_group_report(file: str, true_col: str, pred_col: str, by: list[str],
                     weight: str | None, labels: list[str], pos_label: str | None,
                     skip_invalid: bool, fmt_in: str | None, fmt: str | None,
                     output: str | None, score_cols: list[str], title: str | None = None,
                     intervals: bool = True, progress: bool | None = None,
                     group_metrics: tuple[str, ...] = (),
                     disparity_metric: str | None = None, where: str | None = None,
                     excel_safe: bool = False, bins: int | None = None,
                     column_types: dict[str, str] | None = None) -> None:
    """``report --by``: the table by group and the disparities. Without scores the tables are
    counted by DuckDB's ``GROUP BY`` (:func:`confmat.io.evaluate_file` with ``group_cols``),
    and so are they with ``--score --bins``, one score histogram per group beside them (ROC
    AUC and average precision by group from the histograms, without intervals); with
    ``--score`` alone the columns are read whole and given to :func:`confmat.by_group`. Text and
    JSON hold the by-group section; HTML and Markdown are the report of all samples with that
    section (``build_report(ev.overall, groups=...)``); CSV the section in long form
    (:func:`confmat.report.render_data.render_groups_csv`).

    Parameters
    ----------
    file, true_col, pred_col : str
        The file and its label columns (``--true``, ``--pred``).
    by : list of str
        The group columns (``--by``).
    weight : str or None
        The weight column (``--weight``).
    labels : list of str
        ``--labels`` as typed (converted to the labels' type).
    pos_label : str or None
        ``--pos-label`` as typed.
    skip_invalid : bool
        ``--skip-invalid``.
    fmt_in, fmt, output : str or None
        The input format, the output format and the output file (``-f``, ``-o``).
    score_cols : list of str
        ``--score`` (one column at most).
    title : str, optional
        The report's title.
    intervals : bool
        Intervals per group (``--no-intervals``).
    progress : bool, optional
        A progress bar on the terminal.
    group_metrics : tuple of str
        ``--group-metrics``.
    disparity_metric : str, optional
        ``--disparity-metric``.
    where : str, optional
        ``--where``.
    excel_safe : bool
        ``--excel-safe`` (CSV).
    bins : int, optional
        ``--bins``: the scores counted in a histogram per group.
    column_types : dict of str to str, optional
        ``--column-type``: the types of CSV / JSON lines columns.

    Raises
    ------
    InputError
        Options that do not go together, or what the library refuses (exit status 2).
    """
    import json

    from ..report.groups_section import (
        build_groups_section,
        render_groups_text,
    )

    if len(score_cols) > 1:
        raise InputError("--score takes one column (binary problems)")
    kind = format_for(fmt, output)
    if kind not in ("text", "json", "html", "markdown", "csv"):
        raise InputError(f"--by writes text, json, markdown, csv or html, not {kind}")
    metrics = metric_names(group_metrics, "--group-metrics", bool(score_cols)) or None
    forest = (metric_names([disparity_metric], "--disparity-metric", bool(score_cols))[0]
              if disparity_metric else None)
    if score_cols and bins is not None:
        ev, _, frep = evaluate_stream(file, true_col, pred_col, weight, labels, pos_label,
                                      progress, skip_invalid, fmt_in, score_cols=score_cols,
                                      bins=bins, where=where, group_cols=by,
                                      column_types=column_types)
        filtered = frep.skipped_by_reason.get(filtered_reason(), 0)
        reasons = {k: v for k, v in frep.skipped_by_reason.items() if k != filtered_reason()}
        rows_read, n_skipped = frep.rows_read, frep.rows_skipped - filtered
    elif score_cols:
        ev, rows_read, n_skipped, filtered, reasons = _by_group_with_scores(
            file, true_col, pred_col, by, score_cols[0], weight, labels, pos_label,
            skip_invalid, fmt_in, progress, where=where, column_types=column_types)
    else:
        from ..io import evaluate_file

        # --labels and --pos-label read in the type of the label column (as without --by);
        # the evaluation's positive class is --pos-label (the fairness measures use it)
        lab, pos0 = (typed_options(file, true_col, labels, pos_label, fmt_in, skip_invalid,
                                   where, type_only=True, column_types=column_types)
                     if labels or pos_label is not None else (None, None))
        ev, frep = evaluate_file(file, true_col, pred_col, group_cols=by, weight_col=weight,
                                 labels=lab, pos_label=pos0, skip_invalid=skip_invalid,
                                 format=fmt_in, where=where, column_types=column_types)
        filtered = frep.skipped_by_reason.get(filtered_reason(), 0)
        reasons = {k: v for k, v in frep.skipped_by_reason.items() if k != filtered_reason()}
        rows_read, n_skipped = frep.rows_read, frep.rows_skipped - filtered
    skipped = skipped_note(n_skipped, reasons) if n_skipped else None
    pos = coerce([pos_label], np.asarray(ev.labels), "--pos-label")[0] \
        if pos_label is not None else None
    if pos is not None and pos not in ev.labels:
        raise InputError(f"--pos-label {pos!r} is not one of the labels {ev.labels}")
    sec = build_groups_section(ev, metrics, forest_metric=forest, pos_label=pos,
                               intervals=intervals)
    if skipped:
        sec.notes.append(skipped)
    if score_cols and bins is not None:
        sec.notes.append(f"ROC AUC and average precision by group from {bins} score bins: "
                         "the exact values of the scores rounded down to their bin's lower "
                         "edge (ties within a bin count one half)")
    if where is not None:
        sec.notes.append(f"{filtered} rows left out by --where {where!r}")
    if kind in ("html", "markdown"):
        from ..report import build_report

        source = {"file": file, "true": true_col, "pred": pred_col, "by": ", ".join(by),
                  "scores": score_cols[0] if score_cols else None,
                  **({"curves": f"binned, {bins} bins"} if score_cols and bins else {}),
                  "weight": weight, "rows skipped": n_skipped or None,
                  **where_source(where, filtered)}
        rep = build_report(ev.overall, intervals=intervals, groups=sec,
                           title=title or f"Report by group: {Path(file).name}", source=source)
        emit(rep, kind, output)  # the renderers add the section by group
        return
    if kind == "csv":
        from ..report.render_data import render_groups_csv

        text = render_groups_csv(sec, excel_safe=excel_safe)
    else:
        text = (json.dumps({"file": file, "rows_read": rows_read,
                            **({"where": where, "rows_filtered": filtered}
                               if where is not None else {}), **sec.to_dict()},
                           indent=2) if kind == "json" else render_groups_text(sec))
    if output in (None, "-"):
        click.echo(text.rstrip("\n"))
    else:
        write_output(output, text.rstrip("\n") + "\n")


def _by_group_with_scores(file: str, true_col: str, pred_col: str, by: list[str],
                          score_col: str, weight: str | None, labels: list[str],
                          pos_label: str | None, skip_invalid: bool, fmt_in: str | None,
                          progress: bool | None, where: str | None = None,
                          column_types: dict[str, str] | None = None
                          ) -> tuple[Any, int, int, int, dict[str, int]]:
    """``report --by --score``: the columns read whole, then :func:`confmat.by_group` with
    the scores; returns the evaluation, the rows read, the rows skipped for a missing value,
    the rows left out by ``where`` and the skipped rows per reason."""
    from ..groups import by_group
    from ..inputs.encode import encode_pair
    from ..inputs.score_columns import file_score_class
    from ..inputs.targets import encoded_truth

    data = read_predictions(file, true_col, [pred_col], [score_col], weight, progress,
                            skip_invalid, fmt_in, extra=by, where=where,
                            column_types=column_types)
    y = data[true_col]
    lab = coerce(labels, y, "--labels value") if labels else None
    pos = coerce([pos_label], y, "--pos-label")[0] if pos_label is not None else None
    truth = encoded_truth(y)
    classes = list(truth.classes)
    # the class of the score column as report --score words it: beside the labels of the
    # truth and the predictions (or --labels), naming the --true column of the file
    score_pos = file_score_class(data["__source__"], true_col, [score_col], classes,
                                 encode_pair(truth, data[pred_col], lab)[2], pos,
                                 labels_given=lab is not None)
    check_scored_columns(data["__source__"], true_col, pred_col, [score_col], classes,
                         data[pred_col], rows=data["__rows__"], pos_label=score_pos)
    # the positive class implied beside a truth of one class (1 beside 0) is no class of the
    # truth: the library infers it, as for report --score without --by
    ev = by_group(y, data[pred_col], {c: data[c] for c in by}, scores=data[score_col],
                  labels=lab, sample_weight=data[weight] if weight else None,
                  pos_label=score_pos if score_pos in classes else None)
    return (ev, int(y.shape[0]), int(data["__skipped__"]), int(data["__filtered__"]),
            data["__skipped_by__"])
