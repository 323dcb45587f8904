"""The values of a report's threshold slider: how many stops each curve keeps, how a stop's
threshold is written, the registry metrics at each stop (computed here, never in the page), and
the note of a report whose matrix counts fewer samples than its curves."""


import math
from decimal import ROUND_FLOOR, Decimal
from typing import Any

import numpy as np

from ..metrics import Stats, evaluate, get_metric

#: thresholds kept for the interactive slider; longer sweeps are thinned to this many (exact
#: counts at each kept threshold)
MAX_SLIDER_THRESHOLDS = 2000
#: stops of all the curves of one report's slider together: with many classes each curve
#: keeps ``MAX_SLIDER_STOPS // n_curves`` of them (at least :data:`MIN_SLIDER_THRESHOLDS`),
#: so that a page stays a few megabytes (10 classes keep 2000 each)
MAX_SLIDER_STOPS = 20_000
#: the fewest stops a curve keeps, however many classes the report has
MIN_SLIDER_THRESHOLDS = 100


def slider_points(n_curves: int) -> int:
    """How many thresholds each curve of a report's slider keeps (at most).

    Parameters
    ----------
    n_curves : int
        Score curves of the report (one per positive class).

    Returns
    -------
    int

    Examples
    --------
    >>> slider_points(1), slider_points(10), slider_points(50), slider_points(1000)
    (2000, 2000, 400, 100)
    """
    share = MAX_SLIDER_STOPS // max(int(n_curves), 1)
    return max(MIN_SLIDER_THRESHOLDS, min(MAX_SLIDER_THRESHOLDS, share))

#: how the page writes the slider's stop above every score (threshold ``+inf``: no sample
#: predicted positive, scikit-learn's first ``roc_curve`` threshold); the page's JSON holds
#: that threshold as ``null``, JSON having no infinity
ABOVE_EVERY_SCORE = "above every score"

#: registry metrics the slider shows at each threshold (values computed here, not in the page)
SLIDER_METRICS = ("recall", "specificity", "precision", "npv", "f1", "accuracy",
                  "balanced_accuracy", "informedness", "markedness", "mcc")


def theta_text(t: float, below: float) -> str:
    """A threshold as text: 4 significant digits when that number still gives the same table.

    Every θ in ``(below, t]`` gives the table of ``t`` under the rule ``score >= θ``; the
    text is the shortest number of at least 4 significant digits (rounded, or else cut) in
    that interval, so typing it back reproduces the table exactly.

    Parameters
    ----------
    t : float
        A threshold (a distinct score).
    below : float
        The next lower distinct score (``-inf`` for the lowest).

    Returns
    -------
    str

    Examples
    --------
    >>> theta_text(0.500308568, 0.49), theta_text(0.500308568, 0.5003)
    ('0.5003', '0.500308')
    >>> theta_text(-1.61149, -2.0), theta_text(0.5, 0.25)
    ('-1.612', '0.5')
    """
    if not math.isfinite(t):
        return repr(t)
    for digits in range(4, 18):
        near = f"{t:.{digits}g}"
        if below < float(near) <= t:
            return near
        if t != 0.0:
            d = Decimal(repr(t))
            cut = d.quantize(Decimal(1).scaleb(d.adjusted() - digits + 1), rounding=ROUND_FLOOR)
            text = f"{float(cut):.{digits}g}"
            if below < float(text) <= t:
                return text
    return repr(t)


def table_metric(table: Any, name: str, zero_division: Any = 0) -> float:
    """A registry metric of the positive class of one 2 x 2 table (layout
    ``[[TN, FP], [FN, TP]]``), as :func:`confmat.plots.sweeps.sweep_metric` computes it at
    each threshold of a sweep.

    Parameters
    ----------
    table : array-like of shape (2, 2)
    name : str
        Registry name or alias.
    zero_division : 0, 1 or nan
        Value of undefined ratios.

    Returns
    -------
    float

    Examples
    --------
    >>> table_metric([[3, 1], [2, 4]], "precision"), round(table_metric([[3, 1], [2, 4]], "mcc"), 6)
    (0.8, 0.408248)
    """
    return float(stack_metric(np.asarray(table, np.float64)[None], name, zero_division)[0])


def stack_metric(tables: Any, name: str, zero_division: Any = 0) -> np.ndarray:
    """A registry metric of the positive class of each table of a stack of 2 x 2 tables
    (layout ``[[TN, FP], [FN, TP]]``), as :func:`confmat.plots.sweeps.sweep_metric` computes
    it on a sweep's tables.

    Parameters
    ----------
    tables : array-like of shape (T, 2, 2)
    name : str
        Registry name or alias.
    zero_division : 0, 1 or nan
        Value of undefined ratios.

    Returns
    -------
    ndarray of float64, shape (T,)

    Examples
    --------
    >>> stack_metric([[[3, 1], [2, 4]], [[4, 0], [6, 0]]], "precision").tolist()
    [0.8, 0.0]
    >>> stack_metric([[[4, 0], [6, 0]]], "precision", np.nan).tolist()  # 0 / 0
    [nan]
    """
    spec = get_metric(name)
    out = evaluate(spec.name, Stats(np.asarray(tables, np.float64), zero_division=zero_division),
                   None, warn=False)
    out = np.asarray(out, np.float64)
    return out[:, 1] if spec.kind == "per_class" else out


def subset_note(total: float, counted: float, pos_label: Any = None) -> str:
    """What a report says when its matrix counts fewer samples than its score curves.

    With ``labels`` naming a subset of the classes, the confusion matrix counts only the
    samples whose true and predicted labels are both in it
    (:attr:`confmat.ConfusionMatrix.n_outside` are left out), while the score curves, their
    areas and the threshold slider count every sample, the positive class against all the
    others, as scikit-learn's ``roc_auc_score`` does. No stop of the slider is then the
    printed matrix.

    Parameters
    ----------
    total : float
        Samples (or total weight) behind the curves.
    counted : float
        Samples (or total weight) counted by the matrix.
    pos_label : label, optional
        The positive class of the one curve; None for one curve per class.

    Returns
    -------
    str

    Examples
    --------
    >>> print(subset_note(30, 17, "b"))  # doctest: +NORMALIZE_WHITESPACE
    the score curves, their areas and the threshold slider count all 30 samples (b against
    every other class, as scikit-learn's roc_auc_score does); the confusion matrix counts the
    17 whose true and predicted labels are both among the selected classes, so no stop of
    the slider is that matrix
    """
    who = ("each class against every other class" if pos_label is None
           else f"{pos_label} against every other class")
    return (f"the score curves, their areas and the threshold slider count all {total:g} "
            f"samples ({who}, as scikit-learn's roc_auc_score does); the confusion matrix "
            f"counts the {counted:g} whose true and predicted labels are both among the "
            "selected classes, so no stop of the slider is that matrix")
