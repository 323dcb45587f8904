"""JSON and CSV renderers of the report model (they format, they compute nothing)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from .comparison import Comparison
from .model import Report
from .roc_summaries import partial_auc_name


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


def render_csv(obj: Report | Comparison) -> str:
    """The report in long form, one value per row.

    Columns: ``model, section, metric, class, value, low, high``; ``class`` is empty for
    overall metrics and names the average (``micro``/``macro``/``weighted``) for averages;
    the confusion matrix appears as ``section=matrix`` rows with ``metric`` the predicted
    class; pairwise tests of a comparison as ``section=test`` rows (``class``: the metric);
    the ROC confidence band as ``section=roc_band`` rows, one per specificity (``metric``
    ``sensitivity@specificity=0.9``, ``class`` the positive class); Hand and Till's AUC and
    the partial AUC as ``section=curve`` rows (``hand_till_auc``; the partial AUC named with
    its focus, range and correction, e.g. ``partial_auc[specificity 0.8 to 1,
    McClish-corrected]``, :func:`confmat.report.roc_summaries.partial_auc_name`, also in the
    ``class`` column of the tests on it).

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
    >>> rep = build_report(ConfusionMatrix([[3, 1], [0, 4]]), intervals=False)
    >>> render_csv(rep).splitlines()[1]
    ',matrix,0,0,3,,'
    """
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["model", "section", "metric", "class", "value", "low", "high"])
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


def _rows(w: Any, rep: Report, model: str) -> None:
    labels = [str(v) for v in rep.labels]
    for i, t in enumerate(labels):
        for j, p in enumerate(labels):
            w.writerow([model, "matrix", p, t, rep.counts[i, j].item(), "", ""])
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
