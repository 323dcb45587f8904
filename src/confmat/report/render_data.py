"""JSON and CSV renderers of the report model (they format, they compute nothing)."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import TYPE_CHECKING, Any

from ..curves.partial import partial_auc_name
from .comparison import Comparison
from .model import Report

if TYPE_CHECKING:
    from .groups_section import GroupsSection


def render_json(obj: Report | Comparison, indent: int | None = 2) -> str:
    """The report as JSON (strict: NaN and infinities are written as ``null``).

    Parameters
    ----------
    obj : Report or Comparison
    indent : int or None

    Returns
    -------
    str

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> from confmat.report import build_report
    >>> rep = build_report(ConfusionMatrix([[3, 1], [0, 4]]), intervals=False)
    >>> json.loads(render_json(rep))["counts"]
    [[3, 1], [0, 4]]
    """
    return json.dumps(obj.to_dict(), indent=indent, allow_nan=False) + "\n"


#: First characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
#: Columns of :func:`render_csv`; the positions of those that hold text
COLUMNS = ("model", "section", "metric", "class", "value", "low", "high", "true", "predicted")
_TEXT = (0, 1, 2, 3, 7, 8)


def render_csv(obj: Report | Comparison, excel_safe: bool = False) -> str:
    """The report in long form, one value per row.

    Columns: ``model, section, metric, class, value, low, high, true, predicted``;
    ``class`` is empty for overall metrics and names the average
    (``micro``/``macro``/``weighted``) for averages; the confusion matrix appears as
    ``section=matrix`` rows, ``metric=count``, one per cell, the cell named by ``true`` (the
    true class, a row of the matrix) and ``predicted`` (the predicted class, a column), which
    are empty on every other row; pairwise tests of a comparison as ``section=test`` rows
    (``class``: the metric);
    the ROC confidence band as ``section=roc_band`` rows, one per specificity (``metric``
    ``sensitivity@specificity=0.9``, ``class`` the positive class); Hand and Till's AUC and
    the partial AUC as ``section=curve`` rows (``hand_till_auc``; the partial AUC named with
    its focus, range and correction, e.g. ``partial_auc[specificity 0.8 to 1,
    McClish-corrected]``, :func:`confmat.curves.partial.partial_auc_name`, also in the
    ``class`` column of the tests on it).

    The data are exact by default (a program reads them back). With ``excel_safe`` a text
    cell (a label, a model, metric or section name) whose first character would make a
    spreadsheet run it as a formula (:data:`FORMULA_STARTS`) gets a leading single quote,
    OWASP's advice against CSV injection; numbers are never changed (the ``value``, ``low``,
    ``high`` columns, and a label that is a plain number such as ``-1``).

    Parameters
    ----------
    obj : Report or Comparison
    excel_safe : bool, default False
        Quote the text cells a spreadsheet would run as formulas.

    Returns
    -------
    str

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> from confmat.report import build_report
    >>> rep = build_report(ConfusionMatrix([[3, 1], [0, 4]], labels=["=a", "b"]),
    ...                    intervals=False)
    >>> lines = render_csv(rep).splitlines()
    >>> lines[0]
    'model,section,metric,class,value,low,high,true,predicted'
    >>> lines[1:3]
    [',matrix,count,,3,,,=a,=a', ',matrix,count,,1,,,=a,b']
    >>> render_csv(rep, excel_safe=True).splitlines()[2]
    ",matrix,count,,1,,,'=a,b"
    """
    buf = io.StringIO()
    # "\r\n" line ends (RFC 4180): the writer then quotes a cell holding a carriage return,
    # which with "\n" alone it writes bare, breaking its row in two for every reader
    w = _Writer(csv.writer(buf, lineterminator="\r\n"), excel_safe)
    w.w.writerow(COLUMNS)
    reports = obj.reports if isinstance(obj, Comparison) else [obj]
    for rep in reports:
        _rows(w, rep, rep.title if isinstance(obj, Comparison) else "")
    if isinstance(obj, Comparison):
        pa = obj.partial_auc
        for t in obj.tests:
            metric = t["metric"]
            if metric == "partial_auc" and pa is not None:
                metric = partial_auc_name(pa["label"])
            w.writerow([f"{t['model_a']} vs {t['model_b']}", "test", t["method"], metric,
                        t.get("pvalue"), "", ""])
    return buf.getvalue()


def render_groups_csv(section: GroupsSection, excel_safe: bool = False) -> str:
    """An evaluation by group in long form, one value per row (``confmat report --by -f csv``).

    Columns: ``section``, one ``group[<feature>]`` column per sensitive feature (the group's
    key; empty on rows that are not of one group), ``metric, value, low, high, size, small,
    method, flag``. Rows: ``section=group``, one per group and metric (``low`` / ``high``
    its interval, ``size`` the group's samples, ``small`` below ``min_support``);
    ``section=overall``, one per metric on all samples; ``section=disparity``, one per
    difference or ratio (``metric`` its name, ``method`` how the groups are compared,
    ``flag`` 'large' / 'uncertain' or empty). An undefined value is an empty cell.
    ``excel_safe`` as in :func:`render_csv`.

    Parameters
    ----------
    section : GroupsSection
    excel_safe : bool, default False

    Returns
    -------
    str

    Examples
    --------
    >>> from confmat.groups import by_group
    >>> from confmat.report.groups_section import build_groups_section
    >>> ev = by_group([0, 1, 1, 0], [0, 1, 0, 0], ["a", "a", "b", "b"], pos_label=1)
    >>> sec = build_groups_section(ev, metrics=["accuracy"], intervals=False)
    >>> for line in render_groups_csv(sec).splitlines()[:3]:
    ...     print(line)
    section,group[sensitive_feature_0],metric,value,low,high,size,small,method,flag
    group,a,accuracy,1.0,,,2,True,,
    group,b,accuracy,0.5,,,2,True,,
    """
    k = len(section.names)
    columns = ("section", *(f"group[{n}]" for n in section.names), "metric", "value", "low",
               "high", "size", "small", "method", "flag")
    buf = io.StringIO()
    w = _Writer(csv.writer(buf, lineterminator="\r\n"), excel_safe, columns,
                (0, *range(1, k + 2), k + 7, k + 8))
    w.w.writerow(columns)
    for row in section.rows:
        key = row["group"] if k > 1 else [row["group"]]
        for m in section.metrics:
            low, high = (row.get("intervals") or {}).get(m) or ("", "")
            w.writerow(["group", *key, m, _cell(row.get(m)), _cell(low), _cell(high),
                        row["size"], row["small"]])
    size = sum(r["size"] for r in section.rows)
    for m in section.metrics:
        w.writerow(["overall", *[""] * k, m, _cell(section.overall.get(m)), "", "", size])
    for d in section.disparities:
        w.writerow(["disparity", *[""] * k, d["name"], _cell(d.get("value")),
                    _cell(d.get("low")), _cell(d.get("high")), "", "", d.get("method") or "",
                    d.get("flag") or ""])
    return buf.getvalue()


def _cell(value: Any) -> Any:
    """An undefined value (None, NaN) as an empty cell."""
    return "" if value is None or (isinstance(value, float) and value != value) else value


class _Writer:
    """A csv writer whose rows are padded to their columns with empty cells and, when
    ``excel_safe``, whose text cells (at ``text``) that would run as formulas are quoted."""

    def __init__(self, w: Any, excel_safe: bool, columns: tuple[str, ...] = COLUMNS,
                 text: tuple[int, ...] = _TEXT) -> None:
        self.w = w
        self.excel_safe = excel_safe
        self.columns = columns
        self.text = text

    def writerow(self, row: list[Any]) -> None:
        row = row + [""] * (len(self.columns) - len(row))
        if self.excel_safe:
            for j in self.text:
                cell = str(row[j])
                if cell.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(cell):
                    row[j] = "'" + cell
        self.w.writerow(row)


def _rows(w: Any, rep: Report, model: str) -> None:
    labels = [str(v) for v in rep.labels]
    for i, t in enumerate(labels):
        for j, p in enumerate(labels):
            w.writerow([model, "matrix", "count", "", rep.counts[i, j].item(), "", "", t, p])
    for r in rep.per_class:
        for k, v in enumerate(r.values):
            iv = r.intervals[k] if r.intervals else None
            lo, hi = iv if iv is not None else ("", "")
            w.writerow([model, "per_class", r.name, labels[k], v, lo, hi])
        for a, v in r.averages.items():
            w.writerow([model, "average", r.name, a, v, "", ""])
    for m in rep.overall:
        lo, hi = m.interval if m.interval else ("", "")
        w.writerow([model, "overall", m.name, "", m.value, lo, hi])
    for c in rep.curves:
        w.writerow([model, "curve", "roc_auc", str(c.pos_label), c.auc, "", ""])
        w.writerow([model, "curve", "average_precision", str(c.pos_label), c.average_precision,
                    "", ""])
    if rep.multiclass_auc is not None:
        w.writerow([model, "curve", "hand_till_auc", "", rep.multiclass_auc.auc, "", ""])
    pa = rep.partial_auc
    if pa is not None:
        lo, hi = (pa.interval.low, pa.interval.high) if pa.interval is not None else ("", "")
        w.writerow([model, "curve", pa.name, str(pa.pos_label), pa.value, lo, hi])
    band = rep.roc_band
    if band is not None and band.ci.sensitivity is not None:
        se = band.ci.sensitivity
        for k, sp in enumerate(band.specificities):
            w.writerow([model, "roc_band", f"sensitivity@specificity={sp:g}",
                        str(band.pos_label), se.estimate[k], se.low[k], se.high[k]])
