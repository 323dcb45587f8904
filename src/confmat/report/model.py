"""The report model: one plain data structure from which every renderer works.

A :class:`Report` is built from a :class:`~confmat.ConfusionMatrix` (plus, optionally, the
scores behind it) by reading the metric registry: which metrics appear, their full names,
ranges and directions all come from the :class:`~confmat.metrics.MetricSpec` entries, never
from a list kept here. Intervals (``cm.ci``) and interpretation bands (``cm.interpret``) are
filled in when those features are available; curves and threshold sweeps when scores are given.

The renderers (``render_text``, ``render_markdown``, ``render_json``, ``render_csv``,
``render_html``) only format what the model holds; they compute nothing new.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..matrix import ConfusionMatrix
from ..metrics import Stats, evaluate, get_metric, list_metrics
from ..metrics.registry import AVERAGES, MetricSpec

#: thresholds kept for the interactive slider; longer sweeps are thinned to this many (exact
#: counts at each kept threshold)
MAX_SLIDER_THRESHOLDS = 2000
#: the thresholds marked on ROC curves, as in the book's Figure 11-1
MARKED_THRESHOLDS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def shown_metrics(kind: str) -> list[MetricSpec]:
    """Registry metrics that a report shows for ``kind`` ('per_class' or 'overall').

    Raw counts are left out (the matrix shows them): per-class specs flagged ``is_count`` and
    specs of the 'counts' family other than rates of the population (prevalence). Metrics are
    grouped by family, families with more scikit-learn counterparts first (the familiar rates
    and summaries before the specialised families), each in the registry's order.
    """
    out = []
    for spec in list_metrics(kind=kind):
        if spec.is_count or (spec.family == "counts" and spec.range[1] != 1.0):
            continue
        out.append(spec)
    families = list(dict.fromkeys(s.family for s in out))
    familiar = {f: sum(s.family == f and bool(s.sklearn) for s in out) for f in families}
    return sorted(out, key=lambda s: (-familiar[s.family], families.index(s.family)))


def _num(x: Any) -> float | None:
    """A JSON-safe float: NaN and infinities become ``None``."""
    v = float(x)
    return v if math.isfinite(v) else None


@dataclass
class MetricValue:
    """One overall metric: value, optional interval and interpretation."""

    name: str
    full_name: str
    value: float
    interval: tuple[float, float] | None = None
    interpretation: str | None = None
    higher_is_better: bool | None = None
    range: tuple[float, float] = (0.0, 1.0)
    family: str = ""
    interval_method: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "full_name": self.full_name,
            "value": _num(self.value),
            "interval": None if self.interval is None else [_num(v) for v in self.interval],
            "interpretation": self.interpretation,
            "higher_is_better": self.higher_is_better,
            "range": [_num(v) for v in self.range],
            "family": self.family,
            "interval_method": self.interval_method,
        }


@dataclass
class PerClassRow:
    """One per-class metric: a value per class, its averages, optional per-class intervals."""

    name: str
    full_name: str
    values: list[float]
    averages: dict[str, float]
    intervals: list[tuple[float, float]] | None = None
    higher_is_better: bool | None = None
    family: str = ""
    interval_method: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "full_name": self.full_name,
            "values": [_num(v) for v in self.values],
            "averages": {k: _num(v) for k, v in self.averages.items()},
            "intervals": None
            if self.intervals is None
            else [[_num(a), _num(b)] for a, b in self.intervals],
            "higher_is_better": self.higher_is_better,
            "family": self.family,
            "interval_method": self.interval_method,
        }


@dataclass
class ThresholdCurve:
    """Cumulative counts of one positive class at every distinct score threshold.

    The decision rule is ``score >= threshold`` (the book's). ``thresholds`` decrease;
    ``tp[i]`` and ``fp[i]`` count positives and negatives scoring at least ``thresholds[i]``.
    Every curve (ROC, PR, metric against threshold) and the HTML slider derive from these.
    """

    pos_label: Any
    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    positives: float
    negatives: float
    auc: float | None = None
    average_precision: float | None = None

    @property
    def tables(self) -> np.ndarray:
        """2 x 2 tables ``[[TP, FN], [FP, TN]]`` (positive first), one per threshold."""
        fn = self.positives - self.tp
        tn = self.negatives - self.fp
        return np.stack([np.stack([self.tp, fn], -1), np.stack([self.fp, tn], -1)], -2)

    def metric(self, name: str) -> np.ndarray:
        """A registry metric at every threshold, for the positive class (per-class metrics)."""
        spec = get_metric(name)
        stats = Stats(self.tables, zero_division=0)
        out = evaluate(spec.name, stats, None, warn=False)
        return out[..., 0] if spec.kind == "per_class" else out

    @property
    def fpr(self) -> np.ndarray:
        return _ratio(self.fp, self.negatives)

    @property
    def tpr(self) -> np.ndarray:
        return _ratio(self.tp, self.positives)

    def roc(self) -> tuple[np.ndarray, np.ndarray]:
        """ROC points starting at (0, 0) (threshold +inf)."""
        return np.r_[0.0, self.fpr], np.r_[0.0, self.tpr]

    def pr(self) -> tuple[np.ndarray, np.ndarray]:
        """(recall, precision) points, as scikit-learn's curve read from high thresholds."""
        pred = self.tp + self.fp
        precision = np.where(pred > 0, self.tp / np.where(pred > 0, pred, 1), 1.0)
        return np.r_[0.0, self.tpr], np.r_[1.0, precision]

    def counts_at(self, t: float) -> tuple[float, float, float, float]:
        """(TP, FN, FP, TN) for the rule ``score >= t``."""
        i = int(np.searchsorted(-self.thresholds, -t, side="right")) - 1
        tp = float(self.tp[i]) if i >= 0 else 0.0
        fp = float(self.fp[i]) if i >= 0 else 0.0
        return tp, self.positives - tp, fp, self.negatives - fp

    def marked(self) -> list[dict[str, float]]:
        """ROC points at the book's thresholds 0.1 ... 0.9 (or score quantiles when the scores
        are not in [0, 1])."""
        lo, hi = float(self.thresholds.min()), float(self.thresholds.max())
        if lo >= 0.0 and hi <= 1.0:
            ts = list(MARKED_THRESHOLDS)
        else:
            ts = [float(v) for v in np.quantile(self.thresholds, [0.1, 0.3, 0.5, 0.7, 0.9])]
        out = []
        for t in ts:
            tp, _fn, fp, _tn = self.counts_at(t)
            out.append({
                "threshold": t,
                "fpr": fp / self.negatives if self.negatives else 0.0,
                "tpr": tp / self.positives if self.positives else 0.0,
                "precision": tp / (tp + fp) if tp + fp else 1.0,
            })
        return out

    def thinned(self, max_points: int = MAX_SLIDER_THRESHOLDS) -> ThresholdCurve:
        """The same curve at no more than ``max_points`` thresholds (exact counts at each kept
        threshold; the first and last are always kept)."""
        m = len(self.thresholds)
        if m <= max_points:
            return self
        idx = np.unique(np.linspace(0, m - 1, max_points).round().astype(np.int64))
        return ThresholdCurve(self.pos_label, self.thresholds[idx], self.tp[idx], self.fp[idx],
                              self.positives, self.negatives, self.auc, self.average_precision)

    def to_dict(self, max_points: int = MAX_SLIDER_THRESHOLDS) -> dict[str, Any]:
        c = self.thinned(max_points)
        return {
            "pos_label": _label_json(self.pos_label),
            "rule": "score >= threshold",
            "positives": float(self.positives),
            "negatives": float(self.negatives),
            "thresholds": [float(v) for v in c.thresholds],
            "tp": [float(v) for v in c.tp],
            "fp": [float(v) for v in c.fp],
            "auc": None if self.auc is None else _num(self.auc),
            "average_precision": None
            if self.average_precision is None
            else _num(self.average_precision),
            "thinned": len(c.thresholds) < len(self.thresholds),
        }


def _ratio(a: np.ndarray, b: float) -> np.ndarray:
    return np.asarray(a, np.float64) / b if b else np.zeros(len(a))


def _label_json(v: Any) -> Any:
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, str | int | float | bool) or v is None:
        return v
    return str(v)


def threshold_curve(
    y_true: Any, y_score: Any, *, pos_label: Any, sample_weight: Any = None
) -> ThresholdCurve:
    """Cumulative counts of ``pos_label`` against the rest at every distinct score.

    Uses :func:`confmat.curves.threshold_sweep` when that module is available, a single sort
    otherwise; areas come from :mod:`confmat.curves` (or scikit-learn) when available.
    """
    y_true = np.asarray(y_true)
    s = np.asarray(y_score, dtype=np.float64)
    if s.ndim != 1 or len(s) != len(y_true):
        raise ValueError(
            f"scores must be one value per sample: got shape {s.shape} for {len(y_true)} labels"
        )
    if not np.isfinite(s).all():
        bad = int(np.flatnonzero(~np.isfinite(s))[0])
        raise ValueError(f"scores contain NaN or infinite values (first at row {bad})")
    pos = y_true == pos_label
    w = np.ones(len(s)) if sample_weight is None else np.asarray(sample_weight, np.float64)
    try:
        from ..curves import threshold_sweep
    except ImportError:  # pragma: no cover - curves ships with confmat
        threshold_sweep = None
    if threshold_sweep is not None and len(s):
        sw = threshold_sweep(pos, s, pos_label=True, sample_weight=sample_weight)
        tp, fp = np.asarray(sw.tp, np.float64), np.asarray(sw.fp, np.float64)
        curve = ThresholdCurve(pos_label, np.asarray(sw.thresholds, np.float64), tp, fp,
                               float((w * pos).sum()), float((w * ~pos).sum()))
    else:
        order = np.argsort(-s, kind="stable")
        ss, ps, ws = s[order], pos[order], w[order]
        tp = np.cumsum(ws * ps)
        fp = np.cumsum(ws * ~ps)
        last = np.r_[np.flatnonzero(np.diff(ss)), len(ss) - 1] if len(ss) else np.array([], int)
        curve = ThresholdCurve(pos_label, ss[last], tp[last], fp[last],
                               float(tp[-1]) if len(tp) else 0.0,
                               float(fp[-1]) if len(fp) else 0.0)
    curve.auc, curve.average_precision = _areas(pos, s, w if sample_weight is not None else None)
    return curve


def curves_from_histogram(hist: Any, pos_labels: Sequence[Any] | None = None
                          ) -> tuple[list[ThresholdCurve], list[str]]:
    """Threshold curves from a binned :class:`confmat.binned.ScoreHistogram`.

    The thresholds are the lower edges of the non-empty bins; counts there are exact for the
    rule ``score >= edge``. Returns the curves and notes stating each AUC's error bound.
    """
    labels = list(hist.labels)
    if pos_labels is None:
        pos_labels = [labels[1]] if hist.is_binary else labels
    curves, notes = [], []
    for pl in pos_labels:
        kw = {} if hist.is_binary else {"pos_label": pl}
        sw = hist.threshold_sweep(**kw)
        tp, fp = np.asarray(sw.tp, np.float64), np.asarray(sw.fp, np.float64)
        pos, neg, _, _ = hist._pos_neg(pl if not hist.is_binary else None)
        c = ThresholdCurve(pl, np.asarray(sw.thresholds, np.float64), tp, fp,
                           float(pos.sum()), float(neg.sum()))
        if pos.sum() > 0 and neg.sum() > 0:
            c.auc = float(hist.roc_auc(**kw))
            c.average_precision = float(hist.average_precision(**kw))
            bound = float(hist.auc_error_bound(**kw))
            notes.append(f"class {pl}: curves from {hist.bins} score bins; the ROC AUC is within "
                         f"{bound:.2g} of the exact one")
        curves.append(c)
    return curves, notes


def _areas(pos: np.ndarray, s: np.ndarray, w: Any) -> tuple[float | None, float | None]:
    if pos.all() or not pos.any():
        return None, None
    try:
        from .. import curves as _curves  # type: ignore[attr-defined]

        return (float(_curves.roc_auc(pos, s, sample_weight=w)),
                float(_curves.average_precision(pos, s, sample_weight=w)))
    except (ImportError, AttributeError):
        pass
    try:
        from sklearn.metrics import average_precision_score, roc_auc_score
    except ImportError:  # pragma: no cover - scikit-learn is in every extra we test
        return None, None
    return (float(roc_auc_score(pos, s, sample_weight=w)),
            float(average_precision_score(pos, s, sample_weight=w)))


class _Display:
    """Terminal text (``str``) and notebook HTML (``_repr_html_``) from the renderers."""

    def __str__(self) -> str:
        from .render_text import render_text

        return render_text(self)  # type: ignore[arg-type]

    def _repr_html_(self) -> str:
        from .render_html import render_fragment

        return render_fragment(self)  # type: ignore[arg-type]


@dataclass
class Report(_Display):
    """Everything a renderer shows about one classifier's evaluation."""

    title: str
    labels: list[Any]
    counts: np.ndarray
    per_class: list[PerClassRow]
    overall: list[MetricValue]
    curves: list[ThresholdCurve] = field(default_factory=list)
    source: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    level: float = 0.95
    matrix: ConfusionMatrix | None = None

    @property
    def n(self) -> float:
        return float(self.counts.sum())

    @property
    def row_percentages(self) -> np.ndarray:
        """The book's accuracy matrix: each row in percent of its total."""
        c = self.counts.astype(np.float64)
        tot = c.sum(axis=1, keepdims=True)
        return np.where(tot > 0, 100.0 * c / np.where(tot > 0, tot, 1.0), 0.0)

    @property
    def support(self) -> np.ndarray:
        return self.counts.sum(axis=1)

    def overall_value(self, name: str) -> float:
        """Value of an overall metric held by the report (by registry name or alias)."""
        key = get_metric(name).name
        for m in self.overall:
            if m.name == key:
                return m.value
        raise KeyError(f"the report holds no overall metric {name!r}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (NaN and infinities as ``null``)."""
        return {
            "schema": "confmat.report",
            "version": 1,
            "title": self.title,
            "source": dict(self.source),
            "labels": [_label_json(v) for v in self.labels],
            "n": _num(self.n),
            "counts": self.counts.tolist(),
            "row_percentages": [[_num(v) for v in r] for r in self.row_percentages],
            "interval_level": self.level,
            "per_class": [r.to_dict() for r in self.per_class],
            "overall": [m.to_dict() for m in self.overall],
            "curves": [c.to_dict() for c in self.curves],
            "notes": list(self.notes),
        }

    def __repr__(self) -> str:
        return f"<Report {self.title!r}: {len(self.labels)} classes, n={self.n:g}>"



#: bootstrap resamples per interval in reports (intervals of metrics without an analytic form
#: come from the multinomial bootstrap on the counts)
REPORT_RESAMPLES = 1000


def _interval(cm: ConfusionMatrix, name: str, level: float, average: str | None = None,
              n_resamples: int = REPORT_RESAMPLES) -> Any:
    """``cm.ci(name)`` when confidence intervals are available for this metric, else None."""
    ci = getattr(cm, "ci", None)
    if ci is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            kw: dict[str, Any] = {"level": level, "random_state": 0,
                                  "n_resamples": n_resamples}
            if average is not None:
                kw["average"] = average
            return ci(name, **kw)
    except (ValueError, TypeError, NotImplementedError, ZeroDivisionError):
        return None


def _interpret(cm: ConfusionMatrix, name: str) -> str | None:
    fn = getattr(cm, "interpret", None)
    if fn is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn(name)
    except (ValueError, TypeError, KeyError, NotImplementedError):
        return None
    if out is None:
        return None
    for attr in ("label", "band", "text"):
        v = getattr(out, attr, None)
        if isinstance(v, str):
            lo, hi = getattr(out, "low", None), getattr(out, "high", None)
            if isinstance(lo, int | float) and isinstance(hi, int | float):
                if math.isinf(hi) and math.isinf(lo):
                    return v
                if math.isinf(hi):
                    return f"{v} (≥ {lo:g})"
                if math.isinf(lo):
                    return f"{v} (< {hi:g})"
                return f"{v} ({lo:g} to {hi:g})"
            return v
    return str(out)


def _pair(x: Any) -> tuple[float, float] | None:
    if x is None:
        return None
    try:
        a, b = (x.low, x.high) if hasattr(x, "low") else x
        return float(a), float(b)
    except (TypeError, ValueError):
        return None


def build_report(
    cm: ConfusionMatrix,
    *,
    y_true: Any = None,
    y_score: Any = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    intervals: bool = True,
    level: float = 0.95,
    n_resamples: int = REPORT_RESAMPLES,
    title: str = "Classification report",
    source: Mapping[str, Any] | None = None,
) -> Report:
    """Build the report of one classifier.

    Parameters
    ----------
    cm : ConfusionMatrix
        The evaluation (rows = true class, columns = predicted class).
    y_true, y_score : array-like, optional
        True labels and scores, for curves and the threshold slider. ``y_score`` is a vector
        of positive-class scores (binary problems; ``pos_label`` names the positive class,
        by default the last label) or an ``(n_samples, n_classes)`` array with one column per
        label in ``cm.labels`` (one-vs-rest curves for every class).
    sample_weight : array-like, optional
        Weights of the samples behind ``y_score``.
    intervals : bool
        Add confidence intervals where :meth:`ConfusionMatrix.ci` provides them.
    level : float
        Confidence level of the intervals.
    n_resamples : int
        Bootstrap resamples for intervals without an analytic form (fixed ``random_state=0``,
        so reports are reproducible).
    title : str
        Heading of the report.
    source : mapping, optional
        Where the data came from (file name, columns), shown in the report.

    Returns
    -------
    Report
    """
    if not isinstance(cm, ConfusionMatrix):
        raise TypeError(f"cm must be a ConfusionMatrix, got {type(cm).__name__}")
    notes: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        per_class = []
        for spec in shown_metrics("per_class"):
            values = np.asarray(cm.metric(spec.name), dtype=np.float64)
            avgs = {a: float(cm.metric(spec.name, average=a)) for a in AVERAGES}
            ivals = None
            method = None
            if intervals:
                iv = _interval(cm, spec.name, level, n_resamples=n_resamples)
                method = getattr(iv, "method", None)
                if iv is not None:
                    lo, hi = (np.asarray(v, np.float64).reshape(-1)
                              for v in ((iv.low, iv.high) if hasattr(iv, "low") else iv))
                    if len(lo) == len(values):
                        ivals = [(float(a), float(b)) for a, b in zip(lo, hi, strict=True)]
            per_class.append(PerClassRow(spec.name, spec.full_name, values.tolist(), avgs, ivals,
                                         spec.higher_is_better, spec.family,
                                         str(method) if ivals and method else None))
        overall = []
        for spec in shown_metrics("overall"):
            value = float(cm.metric(spec.name))
            raw = _interval(cm, spec.name, level, n_resamples=n_resamples) if intervals else None
            iv = _pair(raw)
            method = getattr(raw, "method", None) if iv is not None else None
            overall.append(MetricValue(spec.name, spec.full_name, value, iv,
                                       _interpret(cm, spec.name), spec.higher_is_better,
                                       spec.range, spec.family,
                                       str(method) if method is not None else None))
    for w in caught:
        msg = str(w.message)
        if msg not in notes:
            notes.append(msg)
    if cm.n_outside:
        notes.append(f"{cm.n_outside:g} samples had labels outside the selected classes")
    curves: list[ThresholdCurve] = []
    if y_score is not None:
        if y_true is None:
            raise ValueError("y_score was given without y_true; curves need both")
        curves = _curves_for(cm.labels, y_true, y_score, pos_label, sample_weight)
    return Report(title, cm.labels, np.array(cm.counts), per_class, overall, curves,
                  dict(source or {}), notes, level, cm)


def _curves_for(labels: list[Any], y_true: Any, y_score: Any, pos_label: Any,
                sample_weight: Any) -> list[ThresholdCurve]:
    s = np.asarray(y_score, dtype=np.float64)
    y = np.asarray(y_true)
    if s.ndim == 2 and s.shape[1] == 1:
        s = s[:, 0]
    if s.ndim == 1:
        if pos_label is None:
            if len(labels) != 2:
                raise ValueError(
                    f"a single score column needs pos_label when there are {len(labels)} classes"
                )
            pos_label = labels[-1]
        if pos_label not in labels:
            raise ValueError(f"pos_label {pos_label!r} is not one of the labels {labels}")
        return [threshold_curve(y, s, pos_label=pos_label, sample_weight=sample_weight)]
    if s.ndim != 2 or s.shape[1] != len(labels):
        raise ValueError(
            f"scores must have one column per class ({len(labels)}: {labels}), got shape {s.shape}"
        )
    chosen = labels if pos_label is None else [pos_label]
    if len(labels) == 2 and pos_label is None:
        chosen = [labels[-1]]
    return [threshold_curve(y, s[:, labels.index(c)], pos_label=c, sample_weight=sample_weight)
            for c in chosen]


# ------------------------------------------------------------------------------ comparison
@dataclass
class Comparison(_Display):
    """Several classifiers on the same samples, side by side, with pairwise tests."""

    title: str
    names: list[str]
    reports: list[Report]
    table: list[dict[str, Any]]
    tests: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    source: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": "confmat.comparison",
            "version": 1,
            "title": self.title,
            "source": dict(self.source),
            "models": list(self.names),
            "table": [_clean(r) for r in self.table],
            "tests": [_clean(t) for t in self.tests],
            "reports": [r.to_dict() for r in self.reports],
            "notes": list(self.notes),
        }

    def __repr__(self) -> str:
        return f"<Comparison {self.title!r}: {', '.join(self.names)}>"



def _clean(x: Any) -> Any:
    if isinstance(x, Mapping):
        return {str(k): _clean(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_clean(v) for v in x]
    if isinstance(x, np.ndarray):
        return _clean(x.tolist())
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float):
        return _num(x)
    if isinstance(x, str | int | bool) or x is None:
        return x
    return str(x)


def comparison_metrics() -> list[MetricSpec]:
    """Headline metrics compared across models: overall metrics where higher is better that
    belong to the 'summary' family or have a scikit-learn counterpart (accuracy, balanced
    accuracy, kappa, MCC, ...). Complements such as the error rate are left out."""
    return [s for s in shown_metrics("overall")
            if s.higher_is_better is True and (s.family == "summary" or s.sklearn)]


def build_comparison(
    y_true: Any,
    models: Mapping[str, Any],
    *,
    scores: Mapping[str, Any] | None = None,
    labels: Sequence[Any] | None = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    intervals: bool = True,
    level: float = 0.95,
    n_resamples: int = REPORT_RESAMPLES,
    metrics: Sequence[str] | None = None,
    title: str = "Model comparison",
    source: Mapping[str, Any] | None = None,
) -> Comparison:
    """Compare classifiers evaluated on the same samples.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    models : mapping name -> predicted labels
    scores : mapping name -> scores, optional
        Positive-class scores (or per-class score arrays) for the models that have them.
    labels, pos_label, sample_weight, intervals, level, n_resamples, title, source
        As in :func:`build_report`.
    metrics : sequence of str, optional
        Overall metrics of the side-by-side table (default :func:`comparison_metrics`).

    Returns
    -------
    Comparison
        Per-model reports, a table (one row per model, overall metrics with intervals) and the
        pairwise tests from :func:`confmat.compare` when that is available.
    """
    if not models:
        raise ValueError("models is empty: give at least one model's predictions")
    scores = dict(scores or {})
    unknown = set(scores) - set(models)
    if unknown:
        raise ValueError(f"scores given for unknown models: {sorted(unknown)}")
    y = np.asarray(y_true)
    if labels is None:
        seen: set[Any] = set(y.tolist())
        for p in models.values():
            seen |= set(np.asarray(p).tolist())
        try:
            labels = sorted(seen)
        except TypeError:
            labels = sorted(seen, key=str)
    reports = []
    for name, pred in models.items():
        pred = np.asarray(pred)
        if len(pred) != len(y):
            raise ValueError(
                f"model {name!r} has {len(pred)} predictions but y_true has {len(y)} samples"
            )
        cm = ConfusionMatrix.from_predictions(y, pred, labels=labels, sample_weight=sample_weight)
        reports.append(build_report(cm, y_true=y, y_score=scores.get(name), pos_label=pos_label,
                                    sample_weight=sample_weight, intervals=intervals, level=level,
                                    n_resamples=n_resamples, title=str(name), source=source))
    specs = comparison_metrics() if metrics is None else [get_metric(m) for m in metrics]
    for spec in specs:
        if spec.kind != "overall":
            raise ValueError(f"compare shows overall metrics; {spec.name!r} is per-class "
                             "(its per-class values are in each model's report)")
    table = []
    for name, rep in zip(models, reports, strict=True):
        row: dict[str, Any] = {"model": str(name)}
        for spec in specs:
            mv = next((m for m in rep.overall if m.name == spec.name), None)
            if mv is None:
                assert rep.matrix is not None
                mv = MetricValue(spec.name, spec.full_name, float(rep.matrix.metric(spec.name)))
            row[spec.name] = mv.value
            row[spec.name + "_interval"] = None if mv.interval is None else list(mv.interval)
        if rep.curves and len(rep.curves) == 1 and rep.curves[0].auc is not None:
            row["auc"] = rep.curves[0].auc
        table.append(row)
    notes: list[str] = []
    tests = _pairwise_tests(y, models, scores, labels, notes)
    return Comparison(title, [str(n) for n in models], reports, table, tests, notes,
                      dict(source or {}))


def _pairwise_tests(y: np.ndarray, models: Mapping[str, Any], scores: Mapping[str, Any],
                    labels: Sequence[Any], notes: list[str]) -> list[dict[str, Any]]:
    if len(models) < 2:
        return []
    try:
        from .. import inference  # type: ignore[attr-defined]
    except ImportError:
        notes.append("pairwise tests need confmat.inference, which is not available")
        return []
    tests: list[dict[str, Any]] = []
    names = list(models)
    mcnemar = getattr(inference, "mcnemar", None)
    delong = getattr(inference, "delong", None)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if mcnemar is not None:
                try:
                    r = mcnemar(y, np.asarray(models[a]), np.asarray(models[b]))
                    tests.append({"a": a, "b": b, "test": "McNemar", **_result_fields(r)})
                except (ValueError, TypeError) as exc:
                    notes.append(f"McNemar {a} vs {b}: {exc}")
            sa, sb = scores.get(a), scores.get(b)
            if delong is not None and sa is not None and sb is not None \
                    and np.ndim(sa) == 1 and np.ndim(sb) == 1 and len(labels) == 2:
                try:
                    yy = (y == labels[-1]).astype(int)
                    r = delong(yy, np.asarray(sa, float), np.asarray(sb, float))
                    tests.append({"a": a, "b": b, "test": "DeLong (AUC)", **_result_fields(r)})
                except (ValueError, TypeError) as exc:
                    notes.append(f"DeLong {a} vs {b}: {exc}")
    holm = getattr(inference, "holm", None)
    idx = [i for i, t in enumerate(tests) if t.get("pvalue") is not None]
    if holm is not None and idx:
        for i, adj in zip(idx, np.asarray(holm([tests[i]["pvalue"] for i in idx]), float),
                          strict=True):
            tests[i]["pvalue_holm"] = float(adj)
    return tests


def _result_fields(r: Any) -> dict[str, Any]:
    """Statistic and p-value of a test result (a mapping, a named tuple or an object)."""
    if isinstance(r, Mapping):
        d = dict(r)
    elif hasattr(r, "_asdict"):
        d = dict(r._asdict())
    elif hasattr(r, "__dict__"):
        d = {k: v for k, v in vars(r).items() if not k.startswith("_")}
    else:
        a, b = r
        d = {"statistic": a, "pvalue": b}
    out: dict[str, Any] = {}
    for k, v in d.items():
        if np.ndim(v) == 0 and isinstance(v, int | float | np.number | str | bool):
            out[k] = v.item() if isinstance(v, np.generic) else v
    p = out.get("pvalue", out.get("p_value", out.get("p")))
    out["pvalue"] = None if p is None else float(p)
    return out
