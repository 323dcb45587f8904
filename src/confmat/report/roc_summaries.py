"""What a report adds to its ROC curves: the confidence band, Hand and Till's multi-class AUC
and the partial AUC.

Each number is computed by its layer - :func:`confmat.inference.roc_ci` (the band: pROC's
``ci.se``, Robin et al. 2011), :func:`confmat.curves.multiclass_roc.multiclass_roc` (Hand and
Till 2001, pROC's ``multiclass.roc``), :func:`confmat.curves.partial.partial_auc` and
:func:`confmat.inference.roc_ci.partial_auc_ci` (McClish 1989) - and only selected and held
here for the renderers. The inference layer is imported on use, so that printing a report
without scores never loads it.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..inputs.targets import encoded_truth
from .jsonable import label_json, num

if TYPE_CHECKING:  # data only; the inference layer is imported on use
    from ..curves.multiclass_roc import MulticlassROC
    from ..inference.intervals import ConfidenceInterval
    from ..inference.roc_ci import RocCI

#: specificities of the report's ROC band: 0, 0.01, ..., 1 (``k / 100`` exactly)
BAND_POINTS = 101

#: the specificity at which the text formats state the band in one row
BAND_READ_AT = 0.9

#: how the report's ROC band and partial-AUC interval are computed, for readers
BOOTSTRAP_METHOD = "stratified percentile bootstrap"


def band_specificities(n_points: int = BAND_POINTS) -> np.ndarray:
    """The evenly spaced specificities of the report's ROC band, ``k / (n_points - 1)``.

    Parameters
    ----------
    n_points : int, default 101
        At least 2.

    Returns
    -------
    ndarray of shape (n_points,)
        Increasing from 0 to 1; each value is the double nearest to ``k / (n_points - 1)``.

    Raises
    ------
    ValueError
        ``n_points`` below 2.

    Examples
    --------
    >>> band_specificities(5).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> float(band_specificities()[90]) == 0.9
    True
    """
    if n_points < 2:
        raise ValueError(f"a band needs at least 2 specificities, got n_points={n_points}")
    return np.arange(n_points, dtype=np.float64) / (n_points - 1)


@dataclass
class RocBandSummary:
    """The confidence band of a report's ROC curve: the sensitivity interval at each of a grid
    of specificities (:func:`confmat.inference.roc_ci`, pROC's ``ci.se``).

    Parameters
    ----------
    pos_label : label
        The positive class of the curve.
    ci : RocCI
        The intervals (``ci.given == 'specificity'``).
    random_state : int
        ``random_state`` of the resampling (reports are reproducible).

    Examples
    --------
    >>> b = roc_band([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .9], 1, level=0.9,
    ...              n_resamples=200, n_points=3)
    >>> b.legend
    '90% CI, stratified bootstrap (200 resamples)'
    >>> b.specificities.tolist(), b.ci.sensitivity.estimate.tolist()
    ([0.0, 0.5, 1.0], [1.0, 1.0, 0.6666666666666666])
    """

    pos_label: Any
    ci: RocCI
    random_state: int = 0

    @property
    def specificities(self) -> np.ndarray:
        """The specificities of the band (increasing)."""
        return np.asarray(self.ci.at, np.float64)

    @property
    def legend(self) -> str:
        """The legend entry of the band: level, method and resamples."""
        return (f"{self.ci.level:.0%} CI, {'stratified' if self.ci.stratified else 'pooled'} "
                f"bootstrap ({self.ci.n_resamples} resamples)")

    def at(self, specificity: float) -> tuple[float, float, float] | None:
        """The band at one of its specificities: (sensitivity, low, high).

        Parameters
        ----------
        specificity : float
            One of :attr:`specificities` (compared exactly).

        Returns
        -------
        (float, float, float) or None
            None when ``specificity`` is not a point of the band.

        Examples
        --------
        >>> b = roc_band([0, 0, 1, 1], [.1, .4, .35, .8], 1, n_resamples=100, n_points=3)
        >>> b.at(0.5)[0], b.at(0.7)
        (1.0, None)
        """
        k = np.flatnonzero(self.specificities == specificity)
        se = self.ci.sensitivity
        if not k.size or se is None:
            return None
        i = int(k[0])
        return float(se.estimate[i]), float(se.low[i]), float(se.high[i])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: :meth:`confmat.inference.RocCI.to_dict` with the positive class,
        ``random_state`` and the legend.

        Returns
        -------
        dict
            ``pos_label``, ``random_state``, ``legend``, ``method``, then ``given``
            ('specificity'), ``at`` (the specificities), ``sensitivity`` (``estimate``,
            ``low``, ``median``, ``high``), ``level``, ``n_resamples``, ``n_used``,
            ``stratified``, ``references``.

        Examples
        --------
        >>> b = roc_band([0, 0, 1, 1], [.1, .4, .35, .8], 1, n_resamples=100, n_points=3)
        >>> d = b.to_dict()
        >>> d["at"], d["sensitivity"]["estimate"], d["n_resamples"]
        ([0.0, 0.5, 1.0], [1.0, 1.0, 0.5], 100)
        """
        return {"pos_label": label_json(self.pos_label), "random_state": self.random_state,
                "legend": self.legend, "method": BOOTSTRAP_METHOD, **self.ci.to_dict()}


def roc_band(y_true: Any, score: Any, pos_label: Any, *, level: float = 0.95,
             n_resamples: int = 1000, random_state: int = 0,
             n_points: int = BAND_POINTS) -> RocBandSummary:
    """The ROC band of one score vector: :func:`confmat.inference.roc_ci` at
    :func:`band_specificities` (stratified percentile bootstrap, as pROC's ``ci.se``).

    Parameters
    ----------
    y_true : array-like of shape (n,) or EncodedTruth
        True labels, or the :class:`~confmat.inputs.truth.EncodedTruth` of a caller that
        holds them encoded.
    score : array-like of shape (n,)
        Scores of ``pos_label``.
    pos_label : label
        The positive class (every other class is the rest).
    level : float, default 0.95
    n_resamples : int, default 1000
    random_state : int, default 0
    n_points : int, default 101

    Returns
    -------
    RocBandSummary

    Raises
    ------
    ValueError
        As :func:`confmat.inference.roc_ci` (one class only, too few resamples for the
        level).

    Examples
    --------
    >>> b = roc_band([0, 0, 1, 1], [.1, .4, .35, .8], 1, n_resamples=100, n_points=3)
    >>> b.ci.given, b.ci.level
    ('specificity', 0.95)
    """
    from ..inference.roc_ci import roc_ci

    ci = roc_ci(y_true, score, specificities=band_specificities(n_points), level=level,
                n_resamples=n_resamples, stratified=True, random_state=random_state,
                pos_label=pos_label)
    return RocBandSummary(pos_label, ci, random_state)


@dataclass
class MulticlassAUC:
    """Hand and Till's (2001) multi-class AUC of a report's score matrix (pROC's
    ``multiclass.roc``, which gives no interval: neither does the report).

    Parameters
    ----------
    result : MulticlassROC
        The AUC, the classes used and every pair's AUC
        (:func:`confmat.curves.multiclass_roc.multiclass_roc`).

    Examples
    --------
    >>> m = multiclass_auc([0, 1, 2, 2], [[.8, .1, .1], [.2, .5, .3], [.1, .2, .7],
    ...                                   [.3, .3, .4]], [0, 1, 2], None)
    >>> round(m.auc, 4), m.levels
    (1.0, [0, 1, 2])
    """

    result: MulticlassROC

    @property
    def auc(self) -> float:
        """The mean of the pairwise AUCs."""
        return self.result.auc

    @property
    def levels(self) -> list[Any]:
        """The classes used (those of the report that occur in ``y_true``)."""
        return list(self.result.levels)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form.

        Returns
        -------
        dict
            ``method``, ``auc``, ``levels``, ``pairs`` (``a``, ``b``, ``auc``: each pair's
            ``(A(a|b) + A(b|a)) / 2``), ``interval`` (always None) and ``references``.

        Examples
        --------
        >>> m = multiclass_auc([0, 1, 2], np.eye(3), [0, 1, 2], None)
        >>> m.to_dict()["auc"], len(m.to_dict()["pairs"])
        (1.0, 3)
        """
        return {
            "method": "Hand and Till (2001): mean over pairs of classes of (A(i|j) + A(j|i)) / 2",
            "auc": num(self.auc),
            "levels": [label_json(v) for v in self.levels],
            "pairs": [{"a": label_json(a), "b": label_json(b), "auc": num(v)}
                      for (a, b), v in self.result.pair_aucs.items()],
            "interval": None,
            "references": [REF_HAND_TILL],
        }


REF_HAND_TILL = ("Hand, D. J., Till, R. J. (2001), A simple generalisation of the area under "
                 "the ROC curve for multiple class classification problems, Machine Learning "
                 "45(2), 171-186.")


def multiclass_auc(y_true: Any, y_score: Any, labels: list[Any], sample_weight: Any
                   ) -> MulticlassAUC | None:
    """Hand and Till's multi-class AUC of a score matrix with one column per label, over the
    labels that occur in ``y_true`` (samples of other classes are left out, as in pROC).

    Parameters
    ----------
    y_true : array-like of shape (n,) or EncodedTruth
        True labels, or the :class:`~confmat.inputs.truth.EncodedTruth` of a caller that
        holds them encoded.
    y_score : array-like of shape (n, K)
        One score column per class of ``labels`` (need not be probabilities).
    labels : list
        The class of each column.
    sample_weight : array-like of shape (n,) or None

    Returns
    -------
    MulticlassAUC or None
        None when fewer than two of ``labels`` occur in ``y_true``.

    Raises
    ------
    ValueError
        As :func:`confmat.curves.multiclass_roc.multiclass_roc` (bad scores or weights).

    Examples
    --------
    >>> multiclass_auc([0, 0, 1], np.eye(3)[[0, 0, 1]], [0, 1, 2], None).levels
    [0, 1]
    >>> multiclass_auc([0, 0], np.eye(3)[[0, 0]], [0, 1, 2], None) is None
    True
    """
    from ..curves.multiclass_roc import multiclass_roc

    truth = encoded_truth(y_true)
    levels = truth.present(labels)
    if len(levels) < 2:
        return None
    s = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    return MulticlassAUC(multiclass_roc(truth, s, levels=levels, labels=list(labels),
                                        sample_weight=sample_weight))


@dataclass
class PartialAUCSummary:
    """The partial AUC of a report's score curve on a specificity or a sensitivity range,
    McClish-corrected (:func:`confmat.curves.partial.partial_auc`), with its bootstrap interval
    (:func:`confmat.inference.roc_ci.partial_auc_ci`).

    The interval is the stratified percentile bootstrap's, pROC's method for a partial area
    (the DeLong-type interval, ``partial_auc_ci(method='delong')``, under-covers below about
    100 samples per class: docs/roc.md).

    Parameters
    ----------
    pos_label : label
        The positive class.
    bounds : (float, float)
        The range ``(low, high)`` on the ``focus`` axis.
    value : float
        McClish's standardised partial area (nan when the curve lies under the diagonal on the
        range), or with ``corrected=False`` the partial area itself.
    uncorrected : float
        The partial area itself.
    interval : ConfidenceInterval, optional
        Its bootstrap interval (None without intervals, or with sample weights).
    random_state : int, default 0
    notes : list of str, optional
        Why a value or the interval is missing.
    focus : {'specificity', 'sensitivity'}, default 'specificity'
        The axis of the range (pROC's ``partial.auc.focus``): the area of sensitivity over a
        specificity range, or of specificity over a sensitivity range.
    corrected : bool, default True
        Whether ``value`` (and the interval) is McClish's standardised area or the partial
        area itself (pROC's ``partial.auc.correct``).

    Examples
    --------
    >>> p = partial_auc_summary([0, 0, 1, 1], [.1, .4, .35, .8], 1, (0.25, 0.75), None,
    ...                         interval=False)
    >>> p.uncorrected, p.value, p.label
    (0.375, 0.75, 'partial AUC, specificity 0.25 to 0.75, McClish-corrected')
    """

    pos_label: Any
    bounds: tuple[float, float]
    value: float
    uncorrected: float
    interval: ConfidenceInterval | None = None
    random_state: int = 0
    notes: list[str] = field(default_factory=list)
    focus: str = "specificity"
    corrected: bool = True

    @property
    def range_label(self) -> str:
        """The range in words, e.g. ``'sensitivity 0.8 to 1, McClish-corrected'``."""
        from ..curves.partial import PartialRange

        return PartialRange(self.focus, *self.bounds, self.corrected).label

    @property
    def label(self) -> str:
        """What the value is, in words (naming the focus and the range)."""
        return f"partial AUC, {self.range_label}"

    @property
    def name(self) -> str:
        """The metric's name in machine-readable tables
        (:func:`confmat.curves.partial.partial_auc_name`), e.g.
        ``'partial_auc[specificity 0.8 to 1, McClish-corrected]'``."""
        from ..curves.partial import partial_auc_name

        return partial_auc_name(self.range_label)

    @property
    def interval_method(self) -> str | None:
        """How the interval was computed (None without one)."""
        if self.interval is None:
            return None
        return f"{BOOTSTRAP_METHOD} ({self.interval.n_resamples} resamples)"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form.

        Returns
        -------
        dict
            ``pos_label``, ``focus`` ('specificity' or 'sensitivity'), ``range``,
            ``corrected`` (True: McClish 1989; False: ``value`` is the partial area), ``label`` (the three in words, as the text
            formats name them), ``value``, ``uncorrected``, ``interval``,
            ``interval_method``, ``level``, ``random_state``, ``references``.

        Examples
        --------
        >>> p = partial_auc_summary([0, 0, 1, 1], [.1, .4, .35, .8], 1, (0.25, 0.75), None,
        ...                         interval=False)
        >>> p.to_dict()["range"], p.to_dict()["interval"]
        ([0.25, 0.75], None)
        """
        from ..curves.partial import REF_MCCLISH, REF_ROBIN

        iv = self.interval
        return {
            "pos_label": label_json(self.pos_label),
            "focus": self.focus,
            "range": [float(v) for v in self.bounds],
            "corrected": self.corrected,
            "label": self.range_label,
            "value": num(self.value),
            "uncorrected": num(self.uncorrected),
            "interval": None if iv is None else [num(iv.low), num(iv.high)],
            "interval_method": self.interval_method,
            "level": None if iv is None else iv.level,
            "random_state": self.random_state,
            "references": [REF_MCCLISH, REF_ROBIN] if self.corrected else [REF_ROBIN],
        }


def partial_auc_summary(y_true: Any, score: Any, pos_label: Any, bounds: Any,
                        sample_weight: Any, *, focus: str = "specificity", interval: bool = True,
                        level: float = 0.95, n_resamples: int = 1000,
                        random_state: int = 0, correct: bool = True) -> PartialAUCSummary:
    """McClish-corrected (or, with ``correct=False``, plain) partial AUC of one score vector on
    a specificity or a sensitivity range, with its stratified bootstrap interval.

    Parameters
    ----------
    y_true : array-like of shape (n,) or EncodedTruth
        True labels (encoded here once for the area, the plain area and the interval), or
        the :class:`~confmat.inputs.truth.EncodedTruth` of a caller that holds them encoded.
    score : array-like of shape (n,)
        Scores of ``pos_label``.
    pos_label : label
    bounds : pair of float
        The range, e.g. ``(0.8, 1.0)``.
    sample_weight : array-like of shape (n,) or None
        Weights of the area; the bootstrap takes none (then no interval, and a note).
    focus : {'specificity', 'sensitivity'}, default 'specificity'
        The axis of ``bounds`` (pROC's ``partial.auc.focus``).
    interval : bool, default True
        Compute the interval.
    level : float, default 0.95
    n_resamples : int, default 1000
    random_state : int, default 0
    correct : bool, default True
        McClish's standardised area (pROC's ``partial.auc.correct = TRUE``), or the partial
        area itself.

    Returns
    -------
    PartialAUCSummary

    Raises
    ------
    ValueError
        A bad range (as :func:`confmat.curves.partial.partial_auc`) or focus, one class only.
    TypeError
        A range that is not two numbers.

    Examples
    --------
    >>> p = partial_auc_summary([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .9], 1, (0.8, 1),
    ...                         None, n_resamples=200)
    >>> p.interval.method, p.interval.low <= p.value <= p.interval.high
    ('percentile', True)
    >>> partial_auc_summary([0, 0, 1, 1], [.1, .4, .35, .8], 1, (0.5, 1), None,
    ...                     focus="sensitivity", interval=False).range_label
    'sensitivity 0.5 to 1, McClish-corrected'
    """
    from ..curves.partial import PartialRange, partial_auc
    from ..metrics import UndefinedMetricWarning

    prange = PartialRange.parse(bounds, focus, correct)
    y_true = encoded_truth(y_true)
    notes: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UndefinedMetricWarning)
        value = partial_auc(y_true, score, **prange.curve_kwargs(), correct=prange.correct,
                            pos_label=pos_label, sample_weight=sample_weight)
    notes += [str(w.message) for w in caught if issubclass(w.category, UndefinedMetricWarning)]
    raw = partial_auc(y_true, score, **prange.curve_kwargs(), pos_label=pos_label,
                      sample_weight=sample_weight)
    ci = None
    if interval and sample_weight is not None:
        notes.append("no interval for the partial AUC: its bootstrap resamples samples, and "
                     "a weighted resample has no agreed definition")
    elif interval:
        from ..inference.roc_ci import partial_auc_ci

        ci = partial_auc_ci(y_true, score, **prange.curve_kwargs(), correct=prange.correct,
                            level=level, n_resamples=n_resamples, stratified=True,
                            random_state=random_state, pos_label=pos_label)
    return PartialAUCSummary(pos_label, prange.bounds, float(value), float(raw), ci,
                             random_state, notes, prange.focus, prange.correct)


def summary_rows(averages: Any, multiclass: MulticlassAUC | None,
                 band: RocBandSummary | None, partial: PartialAUCSummary | None
                 ) -> list[tuple[str, str, float, tuple[float, float] | None, str | None]]:
    """The rows of a report's ROC summary table, in order: the one-vs-rest averages and Hand
    and Till's AUC (multi-class), the band read at specificity :data:`BAND_READ_AT`, the
    partial AUC.

    Parameters
    ----------
    averages : RocAverages or None
        The micro and macro one-vs-rest averages
        (:class:`confmat.report.score_summaries.RocAverages`).
    multiclass : MulticlassAUC or None
    band : RocBandSummary or None
    partial : PartialAUCSummary or None

    Returns
    -------
    list of (name, full name, value, interval or None, interval method or None)

    Examples
    --------
    >>> b = roc_band([0, 0, 1, 1], [.1, .4, .35, .8], 1, n_resamples=100)
    >>> [r[0] for r in summary_rows(None, None, b, None)]
    ['sensitivity at specificity 0.9']
    """
    rows: list[tuple[str, str, float, tuple[float, float] | None, str | None]] = []
    if averages is not None:
        rows += [("roc_auc_micro", "one-vs-rest ROC AUC, micro average (pooled)",
                  float(averages.micro_auc), None, None),
                 ("roc_auc_macro", "one-vs-rest ROC AUC, macro average (mean)",
                  float(averages.macro_auc), None, None)]
    if multiclass is not None:
        rows.append(("hand_till_auc", "mean AUC over pairs of classes (Hand and Till 2001)",
                     float(multiclass.auc), None, None))
    if band is not None:
        read = band.at(BAND_READ_AT)
        if read is not None:
            rows.append((f"sensitivity at specificity {BAND_READ_AT:g}",
                         "one point of the ROC confidence band", read[0], (read[1], read[2]),
                         f"{BOOTSTRAP_METHOD} ({band.ci.n_resamples} resamples)"))
    if partial is not None:
        iv = partial.interval
        cite = " (McClish 1989)" if partial.corrected else ""
        rows.append(("partial_auc", f"{partial.range_label}{cite}", partial.value,
                     None if iv is None else (float(iv.low), float(iv.high)),
                     partial.interval_method))
    return rows


__all__ = ["BAND_POINTS", "MulticlassAUC", "PartialAUCSummary", "RocBandSummary",
           "band_specificities", "multiclass_auc", "partial_auc_summary",
           "roc_band", "summary_rows"]
