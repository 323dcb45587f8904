"""The evaluation commands: ``matrix`` (a typed-in table), ``report`` (one prediction file) and
``compare`` (several models on the same samples)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click
import numpy as np

from ..inputs.decisions import check_cost_matrix, check_scored_columns
from ..inputs.files import source_name
from ..inputs.score_columns import file_score_class
from ..inputs.targets import MAX_BINS
from .by_group import by_group_report
from .command import CONTEXT, Command
from .common import (
    InputError,
    check_listed,
    column_type_option,
    filtered_reason,
    format_for,
    input_options,
    nonempty,
    split_values,
    truth_classes,
    where_source,
)
from .outputs import output_options
from .partial import partial_auc_options, partial_auc_range
from .reading import evaluate_stream, parse_matrix, read_predictions, skipped_note
from .registry import compared_metric_names
from .render import check_excel_safe, emit, save_plots
from .summary import build_for_view, summary_intervals, summary_view
from .typed import coerce


@click.command(cls=Command, context_settings=CONTEXT)
@click.argument("matrix")
@click.option("--labels", multiple=True, callback=check_listed,
              help="Class names in row order, comma-separated; a name with a comma or "
                   "surrounding spaces in double quotes, as in CSV: '\"Carcinoma, NOS\",benign'.")
@click.option("--pred-rows", is_flag=True, help="The typed table has predicted classes as rows.")
@column_type_option
@output_options
def matrix(matrix: str, labels: tuple[str, ...], pred_rows: bool, fmt: str | None,
           output: str | None, title: str | None, no_intervals: bool, all_metrics: bool,
           plots_dir: str | None, plot_format: str, csv_excel_safe: bool = False,
           column_types: dict[str, str] | None = None) -> None:
    """The metrics of a typed-in confusion matrix (rows = true class).

    MATRIX is a list of rows like "[[61,2],[8,58]]", or a CSV file of counts whose header
    names the predicted classes (an optional first text column names the true classes).

    The terminal shows a summary: the matrix, the headline metrics with 95% intervals and a
    per-class table (recall, specificity, precision, F1); --all shows every registry metric,
    and files written with -o always hold every metric.

    \b
    Examples:
      confmat matrix "[[61,2],[8,58]]" --labels bus,opel
      confmat matrix "[[61,2],[8,58]]" --format json -o metrics.json
      confmat matrix counts.csv --format html -o matrix.html
      confmat matrix counts.csv --column-type true=string   # a first column of labels 0, 1
    """
    from ..matrix import ConfusionMatrix

    table, file_labels = parse_matrix(matrix, column_types)
    names: list[Any] | None = split_values(labels) or file_labels
    if names is not None and len(names) != table.shape[0]:
        raise InputError(f"--labels has {len(names)} names but the matrix has {table.shape[0]} "
                         "classes")
    cm = ConfusionMatrix(table, labels=names,
                         orientation="pred_rows" if pred_rows else "true_rows")
    out_fmt = format_for(fmt, output)
    check_excel_safe(csv_excel_safe, out_fmt)
    summary = summary_view(out_fmt, output, all_metrics)
    rep = build_for_view(cm, summary=summary, intervals=not no_intervals,
                         title=title or "Confusion matrix report",
                         source={"matrix": matrix if not os.path.exists(matrix) else None,
                                 "file": matrix if os.path.exists(matrix) else None})
    emit(rep, out_fmt, output, summary, excel_safe=csv_excel_safe)
    save_plots(rep, plots_dir, plot_format)




@click.command(cls=Command, context_settings=CONTEXT)
@click.argument("file", type=click.Path(dir_okay=True))
@input_options(click.option("--pred", "pred_col", required=True,
                             help="Column of predicted labels."))
@click.option("--bins", type=click.IntRange(min=1, max=MAX_BINS),
              help="Curves from BINS score bins over [0, 1], streamed in bounded memory "
                   "(for files too large to hold; the AUC error bound is reported).")
@click.option("--cost", "cost",
              help='Costs "[[C_TN, C_FP], [C_FN, C_TP]]" (rows true, columns predicted, '
                   "order [rest, positive class]): report the threshold of least expected "
                   "cost (needs --score, or --scores with --pos-label).")
@click.option("--by", "by", multiple=True, callback=check_listed,
              help="Evaluate by group: column(s) of sensitive features, comma-separated "
                   "(their combinations are the groups). With --score, ROC AUC and average "
                   "precision by group too (with --bins from one score histogram per group, "
                   "counted in one pass; no intervals for them).")
@partial_auc_options("add the McClish-corrected partial AUC on it (see "
                     "--partial-auc-uncorrected), with a bootstrap interval (needs --score, "
                     "or --scores with --pos-label).")
@click.option("--group-metrics", "group_metrics", multiple=True, callback=check_listed,
              help="With --by: the metrics of the table by group and of its disparities, "
                   "comma-separated (registry names or aliases, selection_rate; roc_auc and "
                   "average_precision with --score) [default: accuracy, balanced_accuracy, "
                   "with a positive class recall, precision, f1, fpr, selection_rate, with "
                   "--score roc_auc, average_precision; their intervals are a stratified "
                   "bootstrap of the samples, which --no-intervals or --bins skip on large "
                   "files].")
@click.option("--disparity-metric", "disparity_metric", callback=nonempty,
              help="With --by: the metric of the forest plot (its interval in every group); "
                   "it joins the table and the disparities if missing "
                   "[default: balanced_accuracy].")
@output_options
def report(file: str, true_col: str, pred_col: str, score: tuple[str, ...],
           scores: tuple[str, ...], labels: tuple[str, ...], pos_label: str | None,
           weight: str | None, progress: bool | None, skip_invalid: bool, fmt_in: str | None,
           bins: int | None, cost: str | None, fmt: str | None, output: str | None,
           title: str | None, no_intervals: bool, all_metrics: bool, plots_dir: str | None,
           plot_format: str, by: tuple[str, ...] = (), group_metrics: tuple[str, ...] = (),
           disparity_metric: str | None = None, partial_auc: str | None = None,
           partial_auc_focus: str | None = None, where: str | None = None,
           partial_auc_uncorrected: bool = False, csv_excel_safe: bool = False,
           column_types: dict[str, str] | None = None) -> None:
    """Full evaluation of one prediction file (CSV/TSV, Parquet, JSON lines, .npy).

    Matrix, accuracy matrix, per-class metrics and averages, overall metrics with intervals
    and interpretation; ROC and PR curves and the threshold slider when scores are given.
    The terminal shows a summary (headline metrics, a short per-class table, the curves);
    --all shows every metric there, and files written with -o always hold every metric.

    \b
    Examples:
      confmat report preds.csv --true y --pred yhat
      confmat report preds.parquet --true y --pred yhat --score p1 -o report.html
      confmat report preds.csv --true y --pred yhat --scores p0,p1,p2 --format markdown
      confmat report huge.parquet --true y --pred yhat --score p1 --bins 10000 -o big.html
      confmat report preds.csv --true y --pred yhat --score p1 --cost "[[0,1],[20,0]]"
      confmat report preds.csv --true y --pred yhat --score p1 --partial-auc 0.8,1.0
      confmat report preds.csv --true y --pred yhat --score p1 --partial-auc 0.9,1 \\
          --partial-auc-focus sensitivity
      confmat report preds.csv --true y --pred yhat --by sex,age_band --pos-label 1
      confmat report preds.parquet --true y --pred yhat --where "split = 'test'"
      confmat report preds.csv --true y --pred yhat --column-type y=string,yhat=string
      confmat report preds.csv --true y --pred yhat --by sex --pos-label 1 -o groups.html
      confmat report preds.csv --true y --pred yhat --score p --by sex \\
          --group-metrics recall,fpr,roc_auc --disparity-metric roc_auc
    """
    from ..matrix import ConfusionMatrix

    check_excel_safe(csv_excel_safe, format_for(fmt, output))
    if by:
        if scores or cost or partial_auc or partial_auc_focus:
            raise InputError("--by takes --score (one column of positive-class scores), with "
                             "--bins or not; not --scores, --cost or --partial-auc")
        if bins is not None and not score:
            raise InputError("--bins applies to score columns; give --score")
        by_group_report(file, true_col, pred_col, split_values(by), weight,
                         split_values(labels), pos_label, skip_invalid, fmt_in, fmt, output,
                         split_values(score), title, not no_intervals, progress,
                         group_metrics, disparity_metric, where=where,
                         excel_safe=csv_excel_safe, bins=bins,
                         column_types=column_types or None)
        return
    if group_metrics or disparity_metric:
        raise InputError("--group-metrics and --disparity-metric apply to the report by group: "
                         "give --by")
    score_cols = split_values(score)
    per_class_cols = split_values(scores)
    if score_cols and per_class_cols:
        raise InputError("give either --score (positive-class scores) or --scores (one column "
                         "per class), not both")
    if len(score_cols) > 1:
        raise InputError("--score takes one column; use --scores for one column per class")
    cost_matrix = _cost_option(cost) if cost is not None else None
    if cost_matrix is not None and (bins is not None or not (score_cols or per_class_cols)):
        raise InputError("--cost needs exact scores: give --score (or --scores with "
                         "--pos-label), without --bins")
    spec_range = partial_auc_range(partial_auc, partial_auc_focus, partial_auc_uncorrected)
    if spec_range is not None and (bins is not None or not (score_cols or per_class_cols)):
        raise InputError("--partial-auc needs exact scores: give --score (or --scores with "
                         "--pos-label), without --bins")
    if bins is not None:
        if not (score_cols or per_class_cols):
            raise InputError("--bins applies to score columns; give --score or --scores")
        _binned_report(file, true_col, pred_col, score_cols + per_class_cols, weight,
                       split_values(labels), pos_label, progress, skip_invalid, fmt_in, bins,
                       not no_intervals, title, fmt, output, plots_dir, plot_format,
                       all_metrics, where=where, excel_safe=csv_excel_safe,
                       column_types=column_types or None)
        return
    if not (score_cols or per_class_cols):
        # no scores: count batch by batch in bounded memory, whatever the file's size
        cm, pos, frep = evaluate_stream(file, true_col, pred_col, weight, split_values(labels),
                                         pos_label, progress, skip_invalid, fmt_in, where=where,
                                         column_types=column_types or None)
        filtered = frep.skipped_by_reason.get(filtered_reason(), 0)
        data: dict[str, Any] = {"__skipped__": frep.rows_skipped - filtered,
                                "__filtered__": filtered,
                                "__skipped_by__": {k: v for k, v in
                                                   frep.skipped_by_reason.items()
                                                   if k != filtered_reason()}}
        y = w = None
    else:
        data = read_predictions(file, true_col, [pred_col], score_cols + per_class_cols,
                                 weight, progress, skip_invalid, fmt_in, where=where,
                                 column_types=column_types or None)
        y, p = data[true_col], data[pred_col]
        lab = coerce(split_values(labels), y, "--labels value") if labels else None
        pos = coerce([pos_label], y, "--pos-label")[0] if pos_label is not None else None
        w = data[weight] if weight else None
        cm = ConfusionMatrix.from_predictions(y, p, labels=lab, sample_weight=w)
    s = None
    true_classes = truth_classes(y) if y is not None else []
    if score_cols:
        # the class of the score column by the library's one rule (--labels keep their order),
        # a class of the scores even where the --true column lacks it (the class 1 beside a
        # truth of 0 only: the library then infers it)
        score_pos = file_score_class(data["__source__"], true_col, score_cols, true_classes,
                                     list(cm.labels), pos, labels_given=bool(labels))
        pos = score_pos if score_pos in true_classes else None
    if score_cols or (per_class_cols and len(per_class_cols) != cm.n_classes):
        # the door's wording of the counted and streamed paths (report --bins)
        check_scored_columns(data["__source__"], true_col, pred_col, score_cols + per_class_cols,
                             true_classes, p, rows=data["__rows__"],
                             pos_label=score_pos if score_cols else None)
    if score_cols:
        s = data[score_cols[0]]
    elif per_class_cols:
        if len(per_class_cols) != cm.n_classes:
            raise InputError(f"--scores names {len(per_class_cols)} columns but there are "
                             f"{cm.n_classes} classes {cm.labels}; give one per class in order")
        s = np.column_stack([data[c] for c in per_class_cols])
    if per_class_cols and cm.n_classes == 2:
        pos = file_score_class(data["__source__"], true_col, per_class_cols, true_classes,
                               list(cm.labels), pos, labels_given=bool(labels))
    source = {"file": file, "true": true_col, "pred": pred_col,
              "scores": ", ".join(score_cols + per_class_cols) or None, "weight": weight}
    if data["__skipped__"]:
        source["rows skipped"] = data["__skipped__"]
    source |= where_source(where, data["__filtered__"])
    out_fmt = format_for(fmt, output)
    summary = summary_view(out_fmt, output, all_metrics)
    rep = build_for_view(cm, summary=summary, y_true=y if s is not None else None, y_score=s,
                         y_pred=p if s is not None else None, pos_label=pos,
                         sample_weight=w, intervals=not no_intervals,
                         title=title or f"Report: {Path(file).name}", source=source,
                         cost_matrix=cost_matrix, partial_auc=spec_range,
                         partial_auc_focus=partial_auc_focus or "specificity",
                         partial_auc_correct=not partial_auc_uncorrected)
    if data["__skipped__"]:
        rep.notes.append(skipped_note(data["__skipped__"], data["__skipped_by__"]))
    emit(rep, out_fmt, output, summary, excel_safe=csv_excel_safe)
    save_plots(rep, plots_dir, plot_format)


def _repeated(values: list[str]) -> str | None:
    """The first value that occurs twice, or None."""
    return next((v for i, v in enumerate(values) if v in values[:i]), None)


def _cost_option(text: str) -> np.ndarray:
    """``--cost`` read as JSON and checked by the library's rule
    (:func:`confmat.inputs.decisions.check_cost_matrix`, the one of
    :func:`confmat.curves.best_threshold`)."""
    import json

    try:
        value = json.loads(text)
    except ValueError:
        raise InputError(f"--cost must be a 2 x 2 matrix written like \"[[0, 1], [20, 0]]\" "
                         f"([[C_TN, C_FP], [C_FN, C_TP]]), got {text!r}") from None
    try:
        return check_cost_matrix(value, name="--cost")
    except (ValueError, TypeError) as exc:
        raise InputError(f"{exc} (--cost {text!r})") from None


def _binned_report(file: str, true_col: str, pred_col: str, score_cols: list[str],
                   weight: str | None, labels: list[str], pos_label: str | None,
                   show: bool | None, skip_invalid: bool, fmt_in: str | None, bins: int,
                   intervals: bool, title: str | None, fmt: str | None, output: str | None,
                   plots_dir: str | None, plot_format: str, all_metrics: bool = False,
                   where: str | None = None, excel_safe: bool = False,
                   column_types: dict[str, str] | None = None) -> None:
    """``report --bins``: one streaming pass through :func:`confmat.io.evaluate_file`."""
    from ..report import curves_from_histogram

    cm, pos, frep = evaluate_stream(file, true_col, pred_col, weight, labels, pos_label, show,
                                     skip_invalid, fmt_in, score_cols=score_cols, bins=bins,
                                     where=where, column_types=column_types)
    hist = frep.curves
    if hist.is_binary:
        # the class the library read the column as (kept as the histogram's pos_label where
        # the labels' order would not tell it), else the library's one rule, as read whole
        # (two score columns of a binary problem: a missing or wrong --pos-label)
        pos = hist.pos_label if hist.pos_label is not None else file_score_class(
            source_name(file), true_col, score_cols, list(hist.labels), list(hist.labels), pos,
            labels_given=bool(labels))
    curves, notes = curves_from_histogram(hist, None if pos is None else [pos])
    source = {"file": file, "true": true_col, "pred": pred_col,
              "scores": ", ".join(score_cols), "weight": weight,
              "curves": f"binned, {bins} bins"}
    filtered = frep.skipped_by_reason.get(filtered_reason(), 0)
    if frep.rows_skipped - filtered:
        source["rows skipped"] = frep.rows_skipped - filtered
    source |= where_source(where, filtered)
    out_fmt = format_for(fmt, output)
    summary = summary_view(out_fmt, output, all_metrics)
    rep = build_for_view(cm, summary=summary, intervals=intervals,
                         title=title or f"Report: {Path(file).name}", source=source)
    rep.curves = curves
    rep.notes += notes
    emit(rep, out_fmt, output, summary, excel_safe=excel_safe)
    save_plots(rep, plots_dir, plot_format)


@click.command(cls=Command, context_settings=CONTEXT)
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=True))
@input_options(click.option("--pred", "pred_cols", multiple=True, required=True,
                             callback=check_listed,
                             help="Column(s) of predicted labels; several with one file = "
                                  "several models."))
@click.option("--name", "names", multiple=True, callback=check_listed,
              help="Model names (default: file or column).")
@click.option("--metrics", "metric_names", multiple=True, callback=check_listed,
              help="Overall metrics of the side-by-side table, comma-separated "
                   "[default: the registry's headline metrics].")
@click.option("--test-metric", "test_metric", default=None,
              help="Metric of the pairwise tests: 'accuracy' (McNemar's test, the default), "
                   "'roc_auc' (DeLong's test; needs --score), or another compared metric "
                   "(paired bootstrap).")
@click.option("--overlay-bands/--no-overlay-bands", "overlay_bands", default=None,
              help="HTML: shade each model's ROC confidence band in the ROC overlay "
                   "[default: only with at most two models with scores].")
@partial_auc_options("add every model's McClish-corrected partial AUC on it (see "
                     "--partial-auc-uncorrected) to the table, "
                     "with a bootstrap interval, and test every pair of models on it "
                     "(bootstrap, as pROC's roc.test; needs --score).")
@output_options
def compare(files: tuple[str, ...], true_col: str, pred_cols: tuple[str, ...],
            score: tuple[str, ...], scores: tuple[str, ...], labels: tuple[str, ...],
            pos_label: str | None, weight: str | None, progress: bool | None,
            skip_invalid: bool, fmt_in: str | None, names: tuple[str, ...],
            metric_names: tuple[str, ...], test_metric: str | None, fmt: str | None,
            output: str | None, title: str | None, no_intervals: bool, all_metrics: bool,
            plots_dir: str | None, plot_format: str, overlay_bands: bool | None = None,
            partial_auc: str | None = None, partial_auc_focus: str | None = None,
            where: str | None = None, partial_auc_uncorrected: bool = False,
            csv_excel_safe: bool = False, column_types: dict[str, str] | None = None) -> None:
    """Models side by side, with pairwise tests (McNemar, DeLong) and a ROC overlay.

    Either several files with the same columns (one model each, same samples in the same
    order), or one file with several --pred columns (and matching --score columns).
    Multi-class scores: --scores names one column per class, in label order; with several
    files the same columns in each, with one file one --scores per --pred column. The table
    then shows each model's multi-class AUC of Hand and Till (2001), hand_till_auc.
    --partial-auc adds each model's partial AUC (column partial_auc) and its pairwise tests.

    \b
    Examples:
      confmat compare knn.csv tree.csv svm.csv --true y --pred yhat --score p
      confmat compare preds.csv --true y --pred knn,tree --score p_knn,p_tree -o cmp.html
      confmat compare a.csv b.csv --true y --pred yhat --metrics mcc,kappa,informedness
      confmat compare a.csv b.csv --true y --pred yhat --scores p0,p1,p2
      confmat compare preds.csv --true y --pred knn,tree --scores k0,k1,k2 --scores t0,t1,t2
      confmat compare a.csv b.csv --true y --pred yhat --score p --partial-auc 0.8,1
      confmat compare a.csv b.csv --true y --pred yhat --score p --partial-auc 0.9,1 \\
          --partial-auc-focus sensitivity
      confmat compare preds.parquet --true y --pred knn,tree --where "split = 'test'"
    """
    from ..inputs.encode import encode_pair
    from ..inputs.targets import encoded_truth
    from ..report import build_comparison

    check_excel_safe(csv_excel_safe, format_for(fmt, output))
    preds = split_values(pred_cols)
    score_cols = split_values(score)
    per_class = [cols for cols in (split_values([v]) for v in scores) if cols]
    if score_cols and per_class:
        raise InputError("give either --score (positive-class scores) or --scores (one column "
                         "per class), not both")
    if per_class and len(per_class) != (len(preds) if len(files) == 1 else 1):
        raise InputError(
            f"give --scores once per --pred column ({len(preds)}), each naming one score column "
            f"per class; got {len(per_class)}" if len(files) == 1 else
            "with several files give --scores once: the same score columns in every file")
    class_cols = [c for cols in per_class for c in cols]
    compared_metric_names(split_values(metric_names), test_metric,
                          bool(score_cols or per_class))
    prange = partial_auc_range(partial_auc, partial_auc_focus, partial_auc_uncorrected)
    if prange is not None and not score_cols:
        raise InputError("--partial-auc needs --score: one column of positive-class scores per "
                         "model (the partial AUC is an area under each model's ROC curve)")
    models: dict[str, Any] = {}
    model_scores: dict[str, Any] = {}
    # each model's --pred column as the messages name it, the data rows of its values and
    # its --score column
    model_rows: dict[str, tuple[str, str, Any, str]] = {}
    y_ref = None
    w_ref = None
    if len(files) == 1:
        if len(preds) < 2:
            raise InputError("compare needs at least two models: several files, or several "
                             "--pred columns in one file")
        if score_cols and len(score_cols) != len(preds):
            raise InputError(f"give one --score column per --pred column ({len(preds)}), got "
                             f"{len(score_cols)}")
        data = read_predictions(files[0], true_col, preds, score_cols + class_cols, weight,
                                 progress, skip_invalid, fmt_in, where=where,
                                 column_types=column_types or None)
        filtered = data["__filtered__"]
        y_ref, w_ref = data[true_col], (data[weight] if weight else None)
        keys = split_values(names) or preds
        if len(keys) != len(preds):
            raise InputError(f"--name gives {len(keys)} names for {len(preds)} models")
        twice = _repeated(keys)
        if twice is not None:  # one model would silently replace the other
            raise InputError(f"--name gives the name {twice!r} twice; models need distinct "
                             "names" if names else
                             f"--pred names column {twice!r} twice; each model is one column")
        for i, (k, c) in enumerate(zip(keys, preds, strict=True)):
            models[k] = data[c]
            model_rows[k] = (data["__source__"], c, data["__rows__"],
                             score_cols[i] if score_cols else "")
            if score_cols:
                model_scores[k] = data[score_cols[i]]
            elif per_class:
                model_scores[k] = np.column_stack([data[col] for col in per_class[i]])
        source = {"file": files[0], "true": true_col, "models": ", ".join(preds)}
    else:
        if len(preds) != 1 or len(score_cols) > 1:
            raise InputError("with several files give one --pred column (and at most one "
                             "--score column), the same in every file")
        keys = split_values(names) or [Path(f).stem for f in files]
        if len(keys) != len(files):
            raise InputError(f"--name gives {len(keys)} names for {len(files)} files")
        twice = _repeated(keys)
        if names and twice is not None:
            raise InputError(f"--name gives the name {twice!r} twice; models need distinct "
                             "names")
        if len(set(keys)) != len(keys):  # files of one name in different folders
            keys = [f"{k} ({i + 1})" for i, k in enumerate(keys)]
        for k, f in zip(keys, files, strict=True):
            data = read_predictions(f, true_col, preds, score_cols + class_cols, weight,
                                     progress, skip_invalid, fmt_in, where=where,
                                     column_types=column_types or None)
            filtered = data["__filtered__"]
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
            model_rows[k] = (data["__source__"], preds[0], data["__rows__"],
                             score_cols[0] if score_cols else "")
            if score_cols:
                model_scores[k] = data[score_cols[0]]
            elif per_class:
                model_scores[k] = np.column_stack([data[col] for col in per_class[0]])
        source = {"files": ", ".join(files), "true": true_col, "pred": preds[0]}
    source |= where_source(where, filtered)
    assert y_ref is not None
    lab = coerce(split_values(labels), y_ref, "--labels value") if labels else None
    pos = coerce([pos_label], y_ref, "--pos-label")[0] if pos_label is not None else None
    truth = encoded_truth(y_ref)
    classes = list(truth.classes)
    if score_cols:
        # each model as report --score reads its file, in one wording: the class of its score
        # column (file_score_class: beside the labels of the truth and its predictions, or
        # --labels), then its predictions beside that column; the class is the same for
        # every model (the truth is), and a refusal names the file of the first model it hits
        typed_pos = pos
        for k, (file_name, col, rows, score_col) in model_rows.items():
            seen = encode_pair(truth, models[k], lab)[2]
            pos = file_score_class(file_name, true_col, [score_col], classes, seen, typed_pos,
                                   labels_given=lab is not None)
            check_scored_columns(file_name, true_col, col, [score_col], classes, models[k],
                                 rows=rows, pos_label=pos)
    elif per_class and len(classes) == 2:
        # the positive class of binary --scores, named with the reference file's --true column
        pos = file_score_class(next(iter(model_rows.values()))[0], true_col, per_class[0],
                               classes, classes, pos)
    out_fmt = format_for(fmt, output)
    summary = summary_view(out_fmt, output, all_metrics)
    # the summary view prints the table and each model's headline: the reports' other
    # intervals are not computed (the rows of a binary and of a multi-class summary)
    shown = summary_intervals(2) | summary_intervals(3) if summary else None
    # the implied positive class (1 beside a truth of 0 only) checks the predictions above;
    # the comparison infers it itself, as report --score does
    if pos_label is None and pos not in classes:
        pos = None
    cmp = build_comparison(y_ref, models, scores=model_scores, labels=lab, pos_label=pos,
                           sample_weight=w_ref, intervals=not no_intervals,
                           metrics=split_values(metric_names) or None,
                           test_metric=test_metric,
                           title=title or "Model comparison", source=source,
                           interval_metrics=shown, partial_auc=prange,
                           partial_auc_focus=partial_auc_focus or "specificity",
                           partial_auc_correct=not partial_auc_uncorrected)
    emit(cmp, out_fmt, output, summary, overlay_bands=overlay_bands,
         excel_safe=csv_excel_safe)
    save_plots(cmp, plots_dir, plot_format)
