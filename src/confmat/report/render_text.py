"""Plain-text and Markdown renderers of the report model (no dependencies)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..plots import marked_points
from .comparison import Comparison
from .escapes import md_escape, visible
from .findings import count_text
from .marks import ZERO_DIVISION_MARK, empty_rows_note, marked, row_percentages
from .model import Report

#: one table of a rendered report: (title, header, rows, column alignment or None)
Section = tuple[str, list[str], list[list[str]], str | None]


def fmt(v: Any, digits: int = 4) -> str:
    """A number as a short string: integers plainly, NaN as 'nan', infinities as 'inf', and
    numbers too small for ``digits`` decimals in scientific notation (never a false '0.0000').

    Rounding, the one rule of every printed number of a report (text, Markdown, HTML tables,
    the threshold slider, which receives its numbers written by this function, percentages
    and intervals): Python's ``format`` of the float, that is its exact binary value rounded
    to the nearest decimal, and a tie (a binary value exactly halfway, such as
    1/32 = 0.03125) to the even digit: '0.0312', where JavaScript's ``toFixed`` and
    rounding half up write '0.0313'. The JSON and CSV outputs hold the full value
    (``repr``), from which the printed one follows by this rule.

    Parameters
    ----------
    v : number, str or None
        None prints as '-', strings unchanged.
    digits : int
        Decimals of a float.

    Returns
    -------
    str

    Examples
    --------
    >>> fmt(3), fmt(0.123456), fmt(float("nan")), fmt(None), fmt(1.36e-33)
    ('3', '0.1235', 'nan', '-', '1.4e-33')
    >>> fmt(1 / 32), fmt(9 / 32), fmt(0.00015)  # ties to even; 0.00015 is 0.000149999...
    ('0.0312', '0.2812', '0.0001')
    """
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    f = float(v)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    if f == int(f) and abs(f) < 1e15 and isinstance(v, int):
        return str(int(f))
    if 0 < abs(f) < 0.5 * 10.0 ** -digits:
        return f"{f:.1e}"
    out = f"{f:.{digits}f}"
    return out[1:] if out.startswith("-") and float(out) == 0 else out


def fmt_interval(iv: Any, digits: int = 3) -> str:
    """An interval as ``[low, high]``; empty when missing or not finite.

    Parameters
    ----------
    iv : pair of numbers or None
    digits : int

    Returns
    -------
    str

    Examples
    --------
    >>> fmt_interval((0.1, 0.25)), fmt_interval(None)
    ('[0.100, 0.250]', '')
    """
    if iv is None or not all(v is not None and math.isfinite(float(v)) for v in iv):
        return ""
    return f"[{fmt(iv[0], digits)}, {fmt(iv[1], digits)}]"


#: a count: whole numbers without decimals, weighted counts in ``%g`` (the findings' rule)
fmt_count = count_text


def table(header: Sequence[str], rows: Sequence[Sequence[str]], align: str | None = None) -> str:
    """A fixed-width text table; ``align`` is one 'l' or 'r' per column (default: first left).

    Parameters
    ----------
    header : sequence of str
    rows : sequence of sequences of str
    align : str, optional

    Returns
    -------
    str

    Examples
    --------
    >>> print(table(["a", "b"], [["x", "1"]]))
    a  b
    -  -
    x  1
    >>> print(table(["a", "b"], [["x", "0.5"], ["y", "0.0\u2020"]]))  # marks hang right
    a     b
    -  ----
    x  0.5
    y  0.0†
    """
    ncol = len(header)
    align = (align or "l").ljust(ncol, "r")
    header = [visible(h) for h in header]
    cells = [[visible(c) for c in r] for r in rows]
    for j in range(ncol):  # a right-aligned column with marked values: the marks hang right
        if align[j] == "r" and any(r[j].endswith(ZERO_DIVISION_MARK) for r in cells):
            for r in cells:
                if r[j] and not r[j].endswith(ZERO_DIVISION_MARK):
                    r[j] += " "
    rows = cells
    widths = [max(len(header[j]), *(len(r[j]) for r in rows)) if rows
              else len(header[j]) for j in range(ncol)]

    def line(cells: Sequence[str]) -> str:
        out = []
        for j, c in enumerate(cells):
            out.append(c.ljust(widths[j]) if align[j] == "l" else c.rjust(widths[j]))
        return "  ".join(out).rstrip()

    sep = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), sep, *(line(r) for r in rows)])


def md_table(header: Sequence[str], rows: Sequence[Sequence[str]], align: str | None = None) -> str:
    """A GitHub-flavoured Markdown table, every cell literal text (:func:`md_escape`).

    Parameters
    ----------
    header : sequence of str
    rows : sequence of sequences of str
    align : str, optional
        One 'l' or 'r' per column (default: first left, others right).

    Returns
    -------
    str

    Examples
    --------
    >>> print(md_table(["a", "b"], [["x|y", "<b>1</b>"]]))
    | a | b |
    |:---|---:|
    | x\\|y | &lt;b&gt;1&lt;/b&gt; |
    """
    ncol = len(header)
    align = (align or "l").ljust(ncol, "r")

    out = ["| " + " | ".join(md_escape(h) for h in header) + " |",
           "|" + "|".join(":---" if a == "l" else "---:" for a in align) + "|"]
    out += ["| " + " | ".join(md_escape(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


#: the per-class rows of the summary view (``report_sections(rep, summary=True)``): the
#: columns of scikit-learn's ``classification_report`` and the specificity
SUMMARY_PER_CLASS = ("recall", "specificity", "precision", "f1")


def report_sections(rep: Report, summary: bool = False) -> list[Section]:
    """(title, header, rows, align) of every table of a report, shared by text and Markdown.

    Parameters
    ----------
    rep : Report
    summary : bool, default False
        The summary view of the terminal: per-class rows limited to
        :data:`SUMMARY_PER_CLASS` and no table of every overall metric (the headline table
        shows the main ones).

    Returns
    -------
    list of Section

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> from confmat.report import build_report
    >>> secs = report_sections(build_report(ConfusionMatrix([[3, 1], [0, 4]]), intervals=False))
    >>> secs[0][0]
    'Confusion matrix (rows: true class, columns: predicted class)'
    """
    names = [str(v) for v in rep.labels]
    out: list[Section] = []
    out.append((
        "Confusion matrix (rows: true class, columns: predicted class)",
        ["true \\ pred", *names, "total"],
        [[n, *(fmt_count(v) for v in row), fmt_count(sum(row))]
         for n, row in zip(names, rep.counts.tolist(), strict=True)],
        None,
    ))
    out.append((
        "Accuracy matrix (percent of each true class)",
        ["true \\ pred", *names],
        [[n, *(marked(f"{v:.1f}", bool(empty)) for v in row)]
         for n, row, empty in zip(names, rep.row_percentages, rep.empty_rows, strict=True)],
        None,
    ))
    srows = [[m.name, marked(fmt(m.value), m.undefined), fmt_interval(m.interval),
              m.interpretation or ""]
             for m in rep.headline]
    out.append(("Headline metrics",
                ["metric", "value", f"{rep.level:.0%} interval", "interpretation"], srows,
                "lrrl"))
    ci = any(r.intervals for r in rep.per_class)
    rows = [["support", *(fmt_count(v) for v in rep.support), "", "", fmt_count(rep.support.sum())]]
    for r in rep.per_class:
        if summary and r.name not in SUMMARY_PER_CLASS:
            continue
        vals = [marked(fmt(v), k in r.undefined) for k, v in enumerate(r.values)]
        if r.intervals:
            vals = [f"{v} {fmt_interval(iv)}" for v, iv in zip(vals, r.intervals, strict=True)]
        rows.append([r.name, *vals, *(fmt(r.averages[a]) for a in ("micro", "macro", "weighted")),
                     r.family])
    rows[0].append("")
    title = "Per-class metrics (one class against the rest) and averages"
    if ci:
        title += f" [{rep.level:.0%} intervals]"
    pheader = ["metric", *names, "micro", "macro", "weighted", "family"]
    if summary:  # a few familiar rows: their family needs no column
        pheader, rows = pheader[:-1], [r[:-1] for r in rows]
    out.append((title, pheader, rows, "l" + "r" * (len(names) + 3) + "l"))
    has_iv = any(m.interval for m in rep.overall)
    has_int = any(m.interpretation for m in rep.overall)
    header = ["metric", "value"]
    if has_iv:
        header.append(f"{rep.level:.0%} interval")
    if has_int:
        header.append("interpretation")
    header += ["family", "full name"]
    orows = []
    for m in rep.overall:
        row = [m.name, marked(fmt(m.value), m.undefined)]
        if has_iv:
            row.append(fmt_interval(m.interval)
                       + (f" {m.interval_method}" if m.interval_method and m.interval else ""))
        if has_int:
            row.append(m.interpretation or "")
        row += [m.family, m.full_name]
        orows.append(row)
    if not summary:
        out.append(("All overall metrics", header, orows, "lr" + "l" * (len(header) - 2)))
    if rep.curves:
        crows = [[str(c.pos_label), fmt(c.auc), fmt(c.average_precision), fmt_count(c.positives),
                  fmt_count(c.negatives), str(len(c.thresholds))] for c in rep.curves]
        out.append(("Score curves (positive class against the rest; rule: score >= threshold)",
                    ["positive class", "ROC AUC", "average precision", "positives", "negatives",
                     "thresholds"], crows, None))
        for c in rep.curves:
            mrows = []
            for p in marked_points(c.sweep, zero_division=0):  # the tables' rule and mark
                (tn, fp), (fn, tp) = c.sweep.at(p["threshold"]).counts.tolist()
                mrows.append([fmt(p["threshold"], 2), fmt_count(tp), fmt_count(fn), fmt_count(fp),
                              fmt_count(tn), fmt(p["tpr"], 3), fmt(p["fpr"], 3),
                              marked(fmt(p["precision"], 3), p["precision_undefined"])])
            title = f"Thresholds for positive class {c.pos_label}"
            if any(r[-1].endswith(ZERO_DIVISION_MARK) for r in mrows):
                title += (f" ({ZERO_DIVISION_MARK} no sample predicted positive: PPV is 0 / 0, "
                          "counted as 0.0 by the zero-division rule)")
            out.append((title,
                        ["threshold", "TP", "FN", "FP", "TN", "TPR", "FPR", "PPV"], mrows, None))
    out += score_summary_sections(rep)
    return out


def score_summary_sections(rep: Report) -> list[Section]:
    """(title, header, rows, align) of the calibration, the ROC summary (one-vs-rest averages
    and Hand and Till's AUC of a multi-class report, one point of the confidence band, the
    partial AUC; :attr:`Report.roc_summary`) and the cost-optimal threshold, when the report
    has them (narrow tables: they fit 80 columns).

    Parameters
    ----------
    rep : Report

    Returns
    -------
    list of Section

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> from confmat.report import build_report
    >>> y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    >>> rep = build_report(ConfusionMatrix.from_predictions(y, [0, 1, 0, 1]), y_true=y,
    ...                    y_score=s, intervals=False, calibration_bins=2)
    >>> title, header, rows, _ = score_summary_sections(rep)[0]
    >>> title
    'Calibration of class 1: Brier 0.158, log loss 0.472, ECE 0.087, MCE 0.200'
    >>> header, rows[0]
    (['bin', 'mean predicted', 'observed', 'samples', 'gap'], ['[0, 0.5]', '0.283', '0.333', '3', '0.050'])
    """
    import numpy as np

    out: list[Section] = []
    cal = rep.calibration
    if cal is not None:
        c = cal.curve
        what = "the top label" if cal.kind == "multiclass" else c.event
        weighted = not np.array_equal(c.weights, c.counts)
        header = ["bin", "mean predicted", "observed", "samples", "gap"]
        if weighted:
            header.insert(4, "weight")
        rows = []
        for k in range(len(c.counts)):
            lo, hi = float(c.edges[k]), float(c.edges[k + 1])
            row = [f"{'[' if k == 0 else '('}{lo:.3g}, {hi:.3g}]"]
            if c.weights[k] > 0:
                row += [fmt(c.mean_predicted[k], 3), fmt(c.observed[k], 3)]
            else:
                row += ["-", "-"]
            row.append(fmt_count(c.counts[k]))
            if weighted:
                row.append(fmt_count(c.weights[k]))
            row.append(fmt(c.gaps[k], 3) if c.weights[k] > 0 else "-")
            rows.append(row)
        out.append((f"Calibration of {what}: Brier {cal.brier:.3f}, log loss {cal.log_loss:.3f}, "
                    f"ECE {cal.ece:.3f}, MCE {cal.mce:.3f}", header, rows,
                    "lrrrr" + "r" * weighted))
    roc = rep.roc_summary
    if roc:
        methods = sorted({m.interval_method for m in roc if m.interval_method})
        title = "ROC summary" + (f" (intervals: {'; '.join(methods)})" if methods else "")
        rows = [[m.name, fmt(m.value), fmt_interval(m.interval), m.full_name] for m in roc]
        out.append((title, ["metric", "value", f"{rep.level:.0%} interval", "meaning"], rows,
                    "lrrl"))
    ch = rep.cost
    if ch is not None:
        (ctn, cfp), (cfn, ctp) = ch.cost_matrix.tolist()
        (tn, fp), (fn, tp) = ch.counts.tolist()
        rows = [[ch.text, fmt_count(tp), fmt_count(fn), fmt_count(fp), fmt_count(tn),
                 fmt(ch.expected_cost, 3)]]
        own = rep.one_vs_rest(ch.pos_label)
        if ch.model_cost is not None and own is not None:
            (mtn, mfp), (mfn, mtp) = own.tolist()
            rows.append(["model", fmt_count(mtp), fmt_count(mfn), fmt_count(mfp),
                         fmt_count(mtn), fmt(ch.model_cost, 3)])
        out.append((f"Cost-optimal threshold, class {ch.pos_label} (cost FP {cfp:g}, "
                    f"FN {cfn:g}, TN {ctn:g}, TP {ctp:g})",
                    ["threshold", "TP", "FN", "FP", "TN", "cost/sample"], rows, "lrrrrr"))
    return out


def comparison_sections(cmp: Comparison) -> list[Section]:
    """(title, header, rows, align) of a comparison's side-by-side table and pairwise tests;
    with a partial AUC, the table's title names its range, focus and interval method.

    Parameters
    ----------
    cmp : Comparison

    Returns
    -------
    list of Section

    Examples
    --------
    >>> from confmat.report import build_comparison
    >>> cmp = build_comparison([0, 1, 1, 0], {"a": [0, 1, 1, 1]}, intervals=False,
    ...                        metrics=["accuracy"])
    >>> comparison_sections(cmp)[0][2]
    [['a', '0.7500']]
    """
    keys = [k for k in cmp.table[0] if k != "model" and not k.endswith("_interval")]
    rows = []
    for r in cmp.table:
        cells = [r["model"]]
        for k in keys:
            iv = r.get(k + "_interval")
            cells.append(fmt(r[k]) + (f" {fmt_interval(iv)}" if iv else ""))
        rows.append(cells)
    title = "Models side by side"
    pa = cmp.partial_auc
    if pa is not None:
        title += f" (partial_auc: {pa['label']}; intervals: {pa['interval_method']})"
    out: list[Section] = [(title, ["model", *keys], rows, None)]
    if cmp.tests:
        trows = [[t["model_a"], t["model_b"], t["metric"], t["method"], fmt(t.get("difference")),
                  fmt(t.get("statistic")), fmt(t.get("pvalue")), fmt(t.get("pvalue_adjusted"))]
                 for t in cmp.tests]
        corr = cmp.result.correction.capitalize()
        per = ", per metric" if len({t["metric"] for t in cmp.tests}) > 1 else ""
        out.append((f"Pairwise tests ({corr}-adjusted over all pairs{per})",
                    ["model A", "model B", "metric", "test", "difference", "statistic", "p",
                     f"p ({corr})"], trows, "llllrrrr"))
    return out


def source_lines(source: dict[str, Any]) -> list[str]:
    """``key: value`` lines of a report's source, empty values left out.

    Parameters
    ----------
    source : dict

    Returns
    -------
    list of str

    Examples
    --------
    >>> source_lines({"file": "a.csv", "weight": None})
    ['file: a.csv']
    """
    return [f"{k}: {v}" for k, v in source.items() if v not in (None, "", [])]


def render_text(obj: Report | Comparison) -> str:
    """The report (or comparison) as plain text tables.

    Parameters
    ----------
    obj : Report or Comparison

    Returns
    -------
    str

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> from confmat.report import build_report
    >>> render_text(build_report(ConfusionMatrix([[3, 1], [0, 4]]), intervals=False,
    ...                          title="T")).splitlines()[:2]
    ['T', '=']
    """
    title = visible(obj.title)
    parts = [title, "=" * len(title)]
    parts += [visible(x) for x in source_lines(obj.source)]
    if isinstance(obj, Comparison):
        sections = comparison_sections(obj)
        for stitle, header, rows, align in sections:
            parts += ["", visible(stitle), table(header, rows, align)]
        for rep in obj.reports:
            parts += ["", render_text(rep)]
    else:
        parts.append(f"samples: {fmt_count(obj.n)}, classes: {len(obj.labels)}")
        if obj.warnings:
            parts += ["", "Warnings", *(f"! {visible(w)}" for w in obj.warnings)]
        if obj.findings:
            parts += ["", "Findings", *(f"- {visible(f)}" for f in obj.findings)]
        for stitle, header, rows, align in report_sections(obj):
            parts += ["", visible(stitle), table(header, rows, align)]
        if obj.groups is not None:  # the evaluation by group, after the report on all samples
            from .groups_section import render_groups_text

            parts += ["", render_groups_text(obj.groups).rstrip("\n")]
    if obj.notes:
        parts += ["", "Notes", *(f"- {visible(n)}" for n in obj.notes)]
    return "\n".join(parts) + "\n"


def render_markdown(obj: Report | Comparison, level: int = 1) -> str:
    """The report (or comparison) as GitHub-flavoured Markdown.

    Parameters
    ----------
    obj : Report or Comparison
    level : int
        Heading level of the title.

    Returns
    -------
    str

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> from confmat.report import build_report
    >>> render_markdown(build_report(ConfusionMatrix([[3, 1], [0, 4]]), intervals=False,
    ...                              title="T")).splitlines()[0]
    '# T'
    """
    h = "#" * level
    parts = [f"{h} {md_escape(obj.title)}", ""]
    parts += [f"- {md_escape(s)}" for s in source_lines(obj.source)]
    if isinstance(obj, Comparison):
        for title, header, rows, align in comparison_sections(obj):
            parts += ["", f"{h}# {md_escape(title)}", "", md_table(header, rows, align)]
        for rep in obj.reports:
            parts += ["", render_markdown(rep, level + 1)]
    else:
        parts.append(f"- samples: {fmt_count(obj.n)}, classes: {len(obj.labels)}")
        if obj.warnings:
            parts += ["", f"{h}# Warnings", "",
                      *(f"- **Warning:** {md_escape(w)}" for w in obj.warnings)]
        if obj.findings:
            parts += ["", f"{h}# Findings", "", *(f"- {md_escape(f)}" for f in obj.findings)]
        for title, header, rows, align in report_sections(obj):
            parts += ["", f"{h}# {md_escape(title)}", "", md_table(header, rows, align)]
        if obj.groups is not None:
            from .groups_section import render_groups_markdown

            parts += ["", render_groups_markdown(obj.groups, level + 1).rstrip("\n")]
    if obj.notes:
        parts += ["", f"{h}# Notes", "", *(f"- {md_escape(n)}" for n in obj.notes)]
    return "\n".join(parts) + "\n"


def matrix_text(labels: Sequence[Any], counts: Any) -> str:
    """A confusion matrix as a terminal table: counts, row and column totals, and each true
    class's recall (the diagonal of the accuracy matrix).

    A class without a true sample has a recall of 0 / 0: it is written as the report writes
    that row of its accuracy matrix, the zero-division rule's ``0.0%`` with the mark ``†``,
    and the note under the table says why (the one rule:
    :func:`confmat.report.marks.row_percentages` and
    :func:`~confmat.report.marks.empty_rows_note`). So is the accuracy of an empty table.

    Parameters
    ----------
    labels : sequence
    counts : array-like of shape (K, K)

    Returns
    -------
    str

    Examples
    --------
    >>> matrix_text(["a", "b"], [[3, 1], [0, 4]]).splitlines()[1].split()
    ['a', '3', '1', '4', '75.0%']
    >>> print(matrix_text(["a", "b"], [[3, 1], [0, 0]]))
    true \\ pred  a  b  total      recall
    a            3  1      4      75.0%
    b            0  0      0       0.0%†
    -----------  -  -  -----  ----------
    total        3  1      4  acc 75.0%
    † no true sample of b: its row's percentages (and its recall) are 0 / 0, counted as 0.0 by the zero-division rule
    """
    import numpy as np

    c = np.asarray(counts)
    names = [str(v) for v in labels]
    pct, empty = row_percentages(c)
    tot_r, tot_c, n = c.sum(axis=1), c.sum(axis=0), c.sum()
    header = ["true \\ pred", *names, "total", "recall"]
    rows = []
    for i, (name, row, t) in enumerate(zip(names, c.tolist(), tot_r, strict=True)):
        rows.append([name, *(fmt_count(v) for v in row), fmt_count(t),
                     marked(f"{pct[i, i]:.1f}%", bool(empty[i]))])
    rows.append(["total", *(fmt_count(v) for v in tot_c), fmt_count(n),
                 marked(f"acc {100 * np.trace(c) / n if n else 0.0:.1f}%", not n)])
    body = table(header, rows)
    lines = body.splitlines()
    note = empty_rows_note(labels, empty)
    return "\n".join([lines[0], *lines[2:-1], lines[1], lines[-1], *([note] if note else [])])
