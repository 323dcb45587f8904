"""Building a :class:`~confmat.report.model.Report` from a confusion matrix (and scores).

Which metrics appear, their names, ranges and directions come from the metric registry;
intervals from :meth:`ConfusionMatrix.ci`, interpretation bands from
:meth:`ConfusionMatrix.interpret`; score curves from :mod:`confmat.report.scores`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..curves.partial import PartialRange
from ..inputs.decisions import check_scored_predictions
from ..inputs.targets import EncodedTruth, encoded_truth, resolve_pos_label
from ..matrix import ConfusionMatrix
from ..metrics import get_metric
from ..metrics.registry import AVERAGES
from .marks import ZERO_DIVISION_NOTE, empty_rows_note, row_percentages
from .model import MetricValue, PerClassRow, Report
from .score_summaries import (
    CostChoice,
    RocAverages,
    cost_choice,
    report_calibration,
    roc_averages,
    score_column,
)
from .scores import ScoreCurve, checked_scores, score_curves
from .shown import honest_interval, interval_applies, shown_metrics
from .slider import subset_note

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


#: unbounded ratios of the report, as registry metrics multiplied: (numerator, denominator).
#: Where the denominator is 0 the ratio is +inf when the numerator is positive (zero false
#: positives make LR+ infinite), undefined (NaN) when it is 0 too; the registry's zero_division
#: fill would print 0.
RATIO_PARTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "lr_plus": (("recall",), ("fpr",)),
    "lr_minus": (("fnr",), ("specificity",)),
    "dor": (("tp", "tn"), ("fp", "fn")),
}


def _ratio_values(cm: ConfusionMatrix, name: str, values: np.ndarray) -> np.ndarray:
    """Per-class values of a :data:`RATIO_PARTS` ratio with +inf / NaN where it divides by 0."""
    num, den = (np.prod([np.asarray(cm.metric(m, zero_division=0.0), np.float64) for m in part],
                        axis=0) for part in RATIO_PARTS[name])
    return np.where(den == 0, np.where(num > 0, np.inf, np.nan), values)


def zero_division_fills(cm: ConfusionMatrix, name: str, values: Any) -> np.ndarray:
    """Where a metric's values (computed by the registry's default rule, an undefined ratio
    counted as 0.0) come from the zero-division rule: the registry asked again with
    ``zero_division=nan`` leaves them undefined.

    Parameters
    ----------
    cm : ConfusionMatrix
    name : str
        A registry metric.
    values : float or array-like
        ``cm.metric(name)``.

    Returns
    -------
    ndarray of bool
        Shaped as ``values``.

    Examples
    --------
    >>> cm = ConfusionMatrix([[0, 4], [0, 4]])  # class 0 never predicted
    >>> zero_division_fills(cm, "precision", [0.0, 0.5]).tolist()
    [True, False]
    >>> bool(zero_division_fills(cm, "mcc", 0.0))  # MCC is 0 there by its definition
    False
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        left_open = np.asarray(cm.metric(name, zero_division=np.nan), np.float64)
    return np.isnan(left_open) & ~np.isnan(np.asarray(values, np.float64))


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
    y_pred: Any = None,
    pos_label: Any = None,
    sample_weight: Any = None,
    intervals: bool = True,
    level: float = 0.95,
    n_resamples: int = REPORT_RESAMPLES,
    title: str = "Classification report",
    source: Mapping[str, Any] | None = None,
    cost_matrix: Any = None,
    calibration_bins: int = 10,
    groups: Any = None,
    partial_auc: Any = None,
    interval_metrics: Any = None,
    partial_auc_focus: str = "specificity",
    partial_auc_correct: bool = True,
) -> Report:
    """Build the report of one classifier.

    Parameters
    ----------
    cm : ConfusionMatrix
        The evaluation (rows = true class, columns = predicted class).
    y_true, y_score : array-like, optional
        True labels and scores, for curves and the threshold slider. ``y_true`` is encoded
        once (:func:`confmat.inputs.targets.encoded_truth`, which also takes an
        :class:`~confmat.inputs.truth.EncodedTruth` as it is) and that truth is handed to
        every section built from the scores. ``y_score`` is a vector
        of positive-class scores or an ``(n_samples, n_classes)`` array with one column per
        label in ``cm.labels`` (one-vs-rest curves for every class); see
        :func:`confmat.report.scores.score_curves`.
    y_pred : array-like, optional
        The predicted labels behind ``cm``, with ``y_score``: the threshold slider opens
        where ``score >= θ`` reproduces them, and otherwise says so and opens at the
        conventional point (0.5 for probabilities, 0 for decision functions). Beside a
        score vector they must be classes of the scores, the one rule of
        :func:`confmat.inputs.decisions.check_scored_predictions`: a class of ``y_true`` or
        the positive class (a truth of 0 only may be predicted 1). A score matrix has a
        column for every class of ``cm``, so any predicted class of ``cm`` is one of its
        classes.
    pos_label : label, optional
        The positive class of a score vector (and of a two-column ``y_score``). Required
        unless the labels are {0, 1}, {-1, 1} or {False, True}: confmat's one rule,
        :func:`confmat.inputs.targets.resolve_pos_label`. Without ``y_score`` it has no
        effect, but must still be one of ``cm``'s labels (a typo is an error, not ignored).
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
    cost_matrix : array-like of shape (2, 2), optional
        Costs ``[[C_TN, C_FP], [C_FN, C_TP]]`` of the positive class against the rest (rows
        true, columns predicted): the report shows the threshold of least expected cost
        (:func:`confmat.curves.best_threshold`, ``criterion='cost'``) in its findings and on
        the slider. Needs ``y_score`` with one score curve (a binary report, or
        ``pos_label``).
    calibration_bins : int, default 10
        Bins of the calibration section (shown when the scores are probabilities; see
        :func:`confmat.curves.calibration.calibration`).
    groups : GroupedEvaluation or GroupsSection, optional
        The evaluation by group (:func:`confmat.by_group`): the report gets a by-group
        section (:func:`confmat.report.groups_section.build_groups_section` with its
        defaults and this report's ``intervals`` and ``level``; build the section yourself
        to choose metrics, the forest plot's metric or a reference group). ``cm`` is then
        usually ``ev.overall``, the table of all samples.
    partial_auc : pair of float, optional
        A range such as ``(0.8, 1.0)`` of specificity (or of sensitivity, with
        ``partial_auc_focus='sensitivity'``): the report adds the McClish-corrected partial
        AUC (or, with ``partial_auc_correct=False``, the partial area itself) of its one
        score curve on that range, with a stratified percentile bootstrap interval when
        ``intervals`` (see :func:`confmat.report.roc_summaries.partial_auc_summary`).
    interval_metrics : collection of str, optional
        With ``intervals``: compute only these intervals (registry names or aliases of the
        per-class and overall metrics, ``'f1_macro'``, ``'roc_band'``, ``'partial_auc'``, and
        ``'groups'`` for the by-group section's); by default every one. The terminal's summary
        view asks for the rows it shows.
    partial_auc_focus : {'specificity', 'sensitivity'}, default 'specificity'
        The axis of ``partial_auc`` (pROC's ``partial.auc.focus``): the area of sensitivity
        over a specificity range, or of specificity over a sensitivity range.
    partial_auc_correct : bool, default True
        McClish's standardised partial AUC (McClish 1989; pROC's ``partial.auc.correct =
        TRUE``), 0.5 for a useless test and 1 for a perfect one on any range; False reports
        the partial area itself, whose maximum is the range's width (pROC's default).

    Returns
    -------
    Report

    Raises
    ------
    TypeError
        ``cm`` is not a ConfusionMatrix.
    ValueError
        ``y_score`` without ``y_true``; scores of the wrong shape (another length than
        ``y_true``, a matrix without one column per class of ``cm``: checked before the
        labels are read, :func:`confmat.report.scores.checked_scores`) or not finite; ``y_pred``
        holding a label that is no class of a score vector (neither of ``y_true`` nor its
        positive class), named with its position;
        ``pos_label`` missing for labels other than {0, 1}, {-1, 1}, {False, True}, or not
        among the labels; ``cost_matrix`` or ``partial_auc`` without scores or with several
        score curves; ``cost_matrix`` not a finite 2 x 2 array; ``partial_auc`` not a range
        within [0, 1]; ``partial_auc_focus`` neither axis, or 'sensitivity' without
        ``partial_auc``; ``calibration_bins`` below 1; ``groups`` whose classes are not
        ``cm``'s; ``interval_metrics`` naming an unknown metric.

    Notes
    -----
    With ``intervals`` and one score curve, the report holds the curve's confidence band:
    the sensitivity interval at 101 specificities (:func:`confmat.inference.roc_ci`,
    stratified percentile bootstrap, ``n_resamples`` resamples, ``random_state=0``), drawn
    in the HTML ROC figure. With a score matrix of more than two classes it holds Hand and
    Till's (2001) multi-class AUC.

    Examples
    --------
    >>> cm = ConfusionMatrix.from_predictions([0, 0, 1, 1], [0, 1, 1, 1])
    >>> rep = build_report(cm, y_true=[0, 0, 1, 1], y_score=[0.1, 0.6, 0.7, 0.9],
    ...                    intervals=False)
    >>> rep.overall_value("accuracy"), rep.curves[0].pos_label, rep.curves[0].auc
    (0.75, 1, 1.0)
    """
    if not isinstance(cm, ConfusionMatrix):
        raise TypeError(f"cm must be a ConfusionMatrix, got {type(cm).__name__}")
    wanted = _interval_names(interval_metrics)
    partial = PartialRange.optional(partial_auc, partial_auc_focus, partial_auc_correct)

    def wants(name: str) -> bool:
        return intervals and (wanted is None or name in wanted)

    notes: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        per_class = []
        for spec in shown_metrics("per_class"):
            values = np.asarray(cm.metric(spec.name), dtype=np.float64)
            avgs = {a: float(cm.metric(spec.name, average=a)) for a in AVERAGES}
            undefined: list[int] = []
            if spec.name in RATIO_PARTS:
                values = _ratio_values(cm, spec.name, values)
                if not np.isfinite(values).all():  # no mean of infinite or undefined ratios
                    avgs.update(macro=math.nan, weighted=math.nan)
            else:
                undefined = np.flatnonzero(zero_division_fills(cm, spec.name, values)).tolist()
            ivals = None
            method = None
            if wants(spec.name):
                iv = _interval(cm, spec.name, level, n_resamples=n_resamples)
                method = getattr(iv, "method", None)
                if iv is not None:
                    lo, hi = (np.asarray(v, np.float64).reshape(-1)
                              for v in ((iv.low, iv.high) if hasattr(iv, "low") else iv))
                    if len(lo) == len(values):
                        ivals = [honest_interval(spec, float(v), (float(a), float(b)))
                                 for v, a, b in zip(values, lo, hi, strict=True)]
            per_class.append(PerClassRow(spec.name, spec.full_name, values.tolist(), avgs,
                                         ivals if ivals and any(ivals) else None,
                                         spec.higher_is_better, spec.family,
                                         str(method) if ivals and method else None,
                                         undefined))
        overall = []
        for spec in shown_metrics("overall"):
            value = float(cm.metric(spec.name))
            raw = _interval(cm, spec.name, level, n_resamples=n_resamples) \
                if wants(spec.name) and interval_applies(spec) else None
            iv = honest_interval(spec, value, _pair(raw))
            method = getattr(raw, "method", None) if iv is not None else None
            overall.append(MetricValue(spec.name, spec.full_name, value, iv,
                                       _interpret(cm, spec.name), spec.higher_is_better,
                                       spec.range, spec.family,
                                       str(method) if method is not None else None,
                                       bool(zero_division_fills(cm, spec.name, value))))
    ratios = [n for n in RATIO_PARTS if any(
        r.name == n and any(not math.isfinite(v) for v in r.values) for r in per_class)]
    undefined_names: list[str] = []
    for w in caught:
        msg = str(w.message)
        if any(msg.startswith(f"{n} is ill-defined") for n in ratios):
            continue  # not set to 0 in the report: inf or nan, explained below
        name, sep, _ = msg.partition(" is ill-defined for some classes")
        if sep:  # the registry's warning, whose advice (zero_division) a report cannot take
            if name not in undefined_names:
                undefined_names.append(name)
        elif msg not in notes:
            notes.append(msg)
    if undefined_names:
        notes.append(f"{ZERO_DIVISION_NOTE}: {', '.join(undefined_names)}")
    if ratios:
        notes.append(f"{', '.join(ratios)} read inf for a class whose ratio divides a positive "
                     "number by zero (no false positives, or no false negatives) and nan where "
                     "both parts are zero; their macro and weighted averages are then nan")
    empty_note = empty_rows_note(cm.labels, row_percentages(cm.counts)[1])
    if empty_note:  # the accuracy matrix's rows of classes absent from the truth
        notes.append(empty_note)
    if cm.n_outside:
        notes.append(f"{cm.n_outside:g} samples had labels outside the selected classes")
    curves: list[ScoreCurve] = []
    cal = averages = None
    truth = y_true  # encoded once below when there are scores, and shared by every section
    if y_score is None and pos_label is not None:
        resolve_pos_label(list(cm.labels), pos_label)
    if y_score is not None:
        if y_true is None:
            raise ValueError("y_score was given without y_true; curves need both")
        checked_scores(y_true, y_score, cm.labels)  # shapes before the labels' content
        truth = encoded_truth(y_true)
        curves = score_curves(truth, y_score, cm.labels, pos_label=pos_label,
                              sample_weight=sample_weight, y_pred=y_pred)
        if y_pred is not None and (np.ndim(y_score) == 1 or np.shape(y_score)[1:] == (1,)):
            # one score column: its positive class and the classes of y_true are the classes
            # the scores are of (a score matrix has a column for every class of cm)
            check_scored_predictions(list(truth.classes), y_pred,
                                     pos_label=curves[0].pos_label)
        if cm.n_classes > 2 and np.ndim(y_score) == 2 and pos_label is None:
            absent = [lab for lab in cm.labels if lab not in {c.pos_label for c in curves}]
            if absent:
                notes.append(f"no one-vs-rest curve of {', '.join(map(repr, absent))}: y_true "
                             "holds no sample of " + ("that class" if len(absent) == 1
                                                      else "those classes"))
        if cm.n_outside and curves:  # the curves count every sample, the matrix fewer
            notes.append(subset_note(curves[0].positives + curves[0].negatives, cm.n,
                                     curves[0].pos_label if len(curves) == 1 else None))
        cal, why = report_calibration(truth, y_score, list(cm.labels), curves, sample_weight,
                                      calibration_bins)
        if why:
            notes.append(why)
        averages = _averages(truth, y_score, cm, curves, sample_weight)
    extra: dict[str, tuple[float, float] | None] = {}
    if wants("f1_macro") and cm.n_classes > 2:
        f1 = get_metric("f1")
        extra["f1_macro"] = honest_interval(
            f1, float(cm.metric("f1", average="macro")),
            _pair(_interval(cm, "f1", level, average="macro", n_resamples=n_resamples)))
    rep = Report(title, cm.labels, np.array(cm.counts), per_class, overall, curves,
                 dict(source or {}), notes, level, cm, extra, cal, None, averages)
    if cost_matrix is not None:
        rep.cost = _cost(rep, truth, y_score, sample_weight, cost_matrix)
    if y_score is not None:
        _roc_summaries(rep, truth, y_score, sample_weight, (wants("roc_band"),
                       wants("partial_auc")), level, n_resamples, partial)
    elif partial is not None:
        raise ValueError("partial_auc needs y_score (and y_true): it is an area under the "
                         "scores' ROC curve")
    if groups is not None:
        rep.groups = _groups(groups, cm, wants("groups"), level)
    return rep


#: intervals of a report that are not a registry metric's (``interval_metrics``)
REPORT_INTERVALS = ("f1_macro", "roc_band", "partial_auc", "groups")


def _interval_names(names: Any) -> set[str] | None:
    """The canonical names of ``build_report(interval_metrics=...)``, or None for all."""
    if names is None:
        return None
    if isinstance(names, str):
        raise TypeError("interval_metrics must be a collection of names, not a str")
    out = set()
    for name in names:
        if name in REPORT_INTERVALS:
            out.add(name)
            continue
        try:
            out.add(get_metric(name).name)
        except (KeyError, ValueError) as exc:
            raise ValueError(f"interval_metrics: {exc}") from exc
    return out


def _groups(groups: Any, cm: ConfusionMatrix, intervals: bool, level: float) -> Any:
    """The by-group section of ``build_report(groups=...)``."""
    from ..groups import GroupedEvaluation
    from .groups_section import GroupsSection, build_groups_section

    if isinstance(groups, GroupsSection):
        return groups
    if not isinstance(groups, GroupedEvaluation):
        raise TypeError("groups must be a GroupedEvaluation (confmat.by_group) or a "
                        f"GroupsSection, got {type(groups).__name__}")
    if list(groups.labels) != list(cm.labels):
        raise ValueError(f"groups has the classes {list(groups.labels)} but cm has "
                         f"{list(cm.labels)}; build the report from groups.overall")
    return build_groups_section(groups, intervals=intervals, level=level)


def _averages(truth: EncodedTruth, y_score: Any, cm: ConfusionMatrix,
              curves: list[ScoreCurve], sample_weight: Any) -> RocAverages | None:
    """Micro and macro ROC averages when every class of a multi-class report has a curve."""
    if cm.n_classes <= 2 or len(curves) != cm.n_classes or any(c.auc is None for c in curves):
        return None
    return roc_averages(truth, y_score, list(cm.labels), sample_weight)


def _roc_summaries(rep: Report, truth: EncodedTruth, y_score: Any, sample_weight: Any,
                   intervals: tuple[bool, bool], level: float, n_resamples: int,
                   partial: Any) -> None:
    """The ROC band and the partial AUC of the one score curve, Hand and Till's AUC of a
    score matrix (:mod:`confmat.report.roc_summaries`); what cannot be computed is a note.
    ``truth`` is the report's ``y_true``, encoded once."""
    from .roc_summaries import multiclass_auc, roc_band

    labels = list(rep.labels)
    s = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if s.ndim == 2 and s.shape[1] == len(labels) > 2:
        rep.multiclass_auc = multiclass_auc(truth, s, labels, sample_weight)
    one = rep.curves[0] if len(rep.curves) == 1 else None
    if partial is not None and one is None:
        raise ValueError("partial_auc needs the scores of one positive class against the "
                         "rest: give y_score for a binary report, or pos_label with per-class "
                         "scores")
    if one is None:
        return
    if one.auc is None:  # one class only: no curve to qualify
        if partial is not None:
            rep.notes.append(f"no partial AUC: y_true holds only one of class {one.pos_label!r} "
                             "and the rest")
        return
    col = score_column(s, labels, one)
    band, partial_interval = intervals
    if band and sample_weight is not None:
        rep.notes.append("no ROC confidence band: its bootstrap resamples samples, and a "
                         "weighted resample has no agreed definition")
    elif band:
        try:
            rep.roc_band = roc_band(truth, col, one.pos_label, level=level,
                                    n_resamples=n_resamples)
        except ValueError as exc:
            rep.notes.append(f"no ROC confidence band: {exc}")
    if partial is not None:
        add_partial_auc(rep, truth, y_score, sample_weight, partial,
                        intervals=partial_interval, n_resamples=n_resamples)


def add_partial_auc(rep: Report, y_true: Any, y_score: Any, sample_weight: Any,
                    bounds: Any, *, focus: str = "specificity", intervals: bool = True,
                    n_resamples: int = REPORT_RESAMPLES, correct: bool = True) -> Report:
    """Set (or replace) the partial AUC of a report's one score curve
    (:attr:`Report.partial_auc`, :func:`confmat.report.roc_summaries.partial_auc_summary`,
    at the report's level, ``random_state=0``), and add its notes that the report does not
    hold yet.

    Parameters
    ----------
    rep : Report
        A report with exactly one score curve, built from ``y_true`` and ``y_score``.
    y_true, y_score, sample_weight
        As given to :func:`build_report` (``y_true`` may be an
        :class:`~confmat.inputs.truth.EncodedTruth`).
    bounds : pair of float or PartialRange
        The range (a :class:`~confmat.curves.partial.PartialRange` brings its own focus and
        correction).
    focus : {'specificity', 'sensitivity'}, default 'specificity'
        The axis of ``bounds`` when it is a pair.
    intervals : bool, default True
        Compute the bootstrap interval.
    n_resamples : int
        Its resamples.
    correct : bool, default True
        McClish's standardised area, or the partial area itself, when ``bounds`` is a pair.

    Returns
    -------
    Report
        ``rep``.

    Raises
    ------
    ValueError
        The report has not exactly one score curve, or a bad range or focus.

    Examples
    --------
    >>> y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    >>> rep = build_report(ConfusionMatrix.from_predictions(y, [0, 1, 0, 1]), y_true=y,
    ...                    y_score=s, intervals=False)
    >>> add_partial_auc(rep, y, s, None, (0.25, 0.75), intervals=False).partial_auc.value
    0.75
    >>> add_partial_auc(rep, y, s, None, (0.5, 1), focus="sensitivity",
    ...                 intervals=False).partial_auc.label
    'partial AUC, sensitivity 0.5 to 1, McClish-corrected'
    """
    from .roc_summaries import partial_auc_summary

    if isinstance(bounds, PartialRange):
        bounds, focus, correct = bounds.bounds, bounds.focus, bounds.correct

    if len(rep.curves) != 1:
        raise ValueError("partial_auc needs the scores of one positive class against the "
                         "rest: give y_score for a binary report, or pos_label with per-class "
                         "scores")
    one = rep.curves[0]
    col = score_column(y_score, list(rep.labels), one)
    rep.partial_auc = partial_auc_summary(y_true, col, one.pos_label, bounds, sample_weight,
                                          focus=focus, interval=intervals, level=rep.level,
                                          n_resamples=n_resamples, correct=correct)
    rep.notes += [n for n in rep.partial_auc.notes if n not in rep.notes]
    return rep


def _cost(rep: Report, truth: Any, y_score: Any, sample_weight: Any,
          cost_matrix: Any) -> CostChoice:
    """The cost-optimal threshold of the report's one score curve (``truth``: the report's
    ``y_true``, encoded once)."""
    if len(rep.curves) != 1:
        raise ValueError(
            "cost_matrix needs the scores of one positive class against the rest: give "
            "y_score for a binary report, or pos_label with per-class scores"
            if rep.curves else "cost_matrix needs y_score (and y_true): the cost-optimal "
            "threshold is a threshold of the scores")
    c = rep.curves[0]
    own = rep.matrix is None or not rep.matrix.n_outside
    return cost_choice(truth, score_column(y_score, list(rep.labels), c), c.pos_label,
                       sample_weight, cost_matrix, rep.one_vs_rest(c.pos_label) if own else None)
