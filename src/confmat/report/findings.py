"""What a reader should notice first: warnings about a report's data, in plain words.

Pure functions of the numbers a report already holds (counts, supports, the areas under the
score curves); they compute no metric of their own. The report model calls them
(:attr:`confmat.report.model.Report.warnings`), the renderers show the result at the top of
every format.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..words import give

#: a class with fewer true samples than this gets a "wide intervals" warning
TINY_SUPPORT = 30

#: largest over smallest class support at or above which the data count as heavily imbalanced
IMBALANCE_RATIO = 10.0


def auc_warnings(curves: Sequence[Any], labels: Sequence[Any]) -> list[str]:
    """A warning per score curve whose ROC AUC is below 0.5.

    An area below one half means the scores rank the positive class *below* the others more
    often than above: most often the scores belong to the other class (a wrong ``pos_label``
    or a swapped score column), which the warning suggests.

    Parameters
    ----------
    curves : sequence of ScoreCurve
        Objects with ``pos_label`` and ``auc`` (None when undefined).
    labels : sequence
        The report's classes.

    Returns
    -------
    list of str

    Examples
    --------
    >>> from types import SimpleNamespace as C
    >>> auc_warnings([C(pos_label="sick", auc=0.2)], ["healthy", "sick"])[0][:48]
    'ROC AUC 0.200 for positive class sick is below 0'
    """
    out = []
    for c in curves:
        auc = c.auc
        if auc is None or not math.isfinite(auc) or auc >= 0.5:
            continue
        others = [v for v in labels if v != c.pos_label]
        if len(others) == 1:
            hint = (f"are these the scores of {others[0]}? Then "
                    f"{give('pos_label', others[0])}, or use 1 - score")
        else:
            hint = "is this score column really the one of this class?"
        out.append(f"ROC AUC {auc:.3f} for positive class {c.pos_label} is below 0.5: the "
                   f"scores rank this class below the rest more often than above (worse than "
                   f"chance); {hint}")
    return out


def support_warnings(labels: Sequence[Any], support: Any) -> list[str]:
    """Warnings about the class sizes: tiny classes (wide intervals) and heavy imbalance.

    Parameters
    ----------
    labels : sequence
        The classes.
    support : array-like of shape (K,)
        Count of each true class.

    Returns
    -------
    list of str

    Examples
    --------
    >>> support_warnings(["a", "b"], [500, 12])[0][:37]
    'class b has only 12 true samples: its'
    >>> len(support_warnings(["a", "b"], [500, 12]))
    2
    """
    s = np.asarray(support, dtype=np.float64)
    out = []
    tiny = [(lab, v) for lab, v in zip(labels, s.tolist(), strict=True) if v < TINY_SUPPORT]
    if len(tiny) == 1:
        lab, v = tiny[0]
        out.append(f"class {lab} has only {count_text(v)} true samples: its per-class metrics "
                   "have wide intervals; read them with their brackets")
    elif tiny:
        names = ", ".join(f"{lab} ({count_text(v)})" for lab, v in tiny)
        out.append(f"classes with fewer than {TINY_SUPPORT} true samples: {names}; their "
                   "per-class metrics have wide intervals")
    present = s[s > 0]
    n = float(s.sum())
    if present.size >= 2 and n > 0 and present.max() >= IMBALANCE_RATIO * present.min():
        k = int(np.argmax(s))
        out.append(f"heavy class imbalance (largest class {present.max() / present.min():.0f} "
                   f"times the smallest): always predicting {labels[k]} would already reach "
                   f"accuracy {s[k] / n:.3f}; read balanced accuracy and MCC rather than "
                   "accuracy")
    return out


#: headline metrics of a binary report (F1 of the positive class), then of a multi-class one
BINARY_HEADLINE = ("accuracy", "balanced_accuracy", "mcc", "f1", "roc_auc", "average_precision")
MULTICLASS_HEADLINE = ("accuracy", "balanced_accuracy", "mcc", "f1_macro", "kappa", "roc_auc",
                       "average_precision")


def headline_names(n_classes: int) -> tuple[str, ...]:
    """The headline metrics of a report with ``n_classes`` classes.

    Binary: accuracy, balanced accuracy, MCC, F1 of the positive class, ROC AUC and average
    precision; multi-class: the same with macro F1, plus Cohen's kappa (the areas are the
    means of the one-vs-rest curves).

    Parameters
    ----------
    n_classes : int

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> headline_names(2)[3], headline_names(3)[3:5]
    ('f1', ('f1_macro', 'kappa'))
    """
    return BINARY_HEADLINE if n_classes <= 2 else MULTICLASS_HEADLINE


def weakest_class(labels: Sequence[Any], recall: Sequence[float],
                  intervals: Sequence[Any] | None, support: Any, hits: Any = None) -> str | None:
    """A sentence on the class with the lowest recall (its share of true samples found).

    Parameters
    ----------
    labels : sequence
    recall : sequence of float
        Per-class recall.
    intervals : sequence of (low, high) or None, optional
        Per-class recall intervals.
    support : array-like of shape (K,)
    hits : array-like of shape (K,), optional
        Per-class true positives (the diagonal), written exactly; without them the count
        found is recall times support.

    Returns
    -------
    str or None
        None with fewer than two classes present.

    Examples
    --------
    >>> weakest_class(["a", "b"], [0.9, 0.6], [(0.8, 0.95), (0.45, 0.73)], [50, 40])
    'weakest class: b, recall 0.600 [0.450, 0.730] (24 of its 40 samples found)'
    """
    s = np.asarray(support, dtype=np.float64)
    present = [i for i in range(len(labels)) if s[i] > 0 and math.isfinite(recall[i])]
    if len(present) < 2:
        return None
    k = min(present, key=lambda i: recall[i])
    iv = intervals[k] if intervals else None
    br = f" [{iv[0]:.3f}, {iv[1]:.3f}]" if iv is not None else ""
    if hits is not None:
        found: Any = np.asarray(hits)[k]
    else:
        found = recall[k] * s[k]
        if float(s[k]).is_integer():  # counts: the product of recall and support rounds
            found = round(found)
    return (f"weakest class: {labels[k]}, recall {recall[k]:.3f}{br} ({count_text(found)} of "
            f"its {count_text(np.asarray(support)[k])} samples found)")


def count_text(v: Any) -> str:
    """A count as a sentence writes it: whole numbers in full (``:g`` would write 1234567 as
    1.23457e+06), sums of weights with six significant digits.

    Parameters
    ----------
    v : int or float

    Returns
    -------
    str

    Examples
    --------
    >>> count_text(1234567.0), count_text(2.5), count_text(2**62 + 1)
    ('1234567', '2.5', '4611686018427387905')
    """
    if isinstance(v, int | np.integer):  # exactly, beyond 2**53 too
        return str(int(v))
    v = float(v)
    return str(int(v)) if v.is_integer() else f"{v:g}"


def largest_confusion(labels: Sequence[Any], counts: Any) -> str | None:
    """A sentence on the largest off-diagonal cell: which true class is most often taken for
    which other.

    Parameters
    ----------
    labels : sequence
    counts : array-like of shape (K, K)
        Rows true class, columns predicted class.

    Returns
    -------
    str or None
        None when there is no error.

    Examples
    --------
    >>> largest_confusion(["cat", "dog"], [[40, 2], [9, 30]])
    'largest confusion: true dog predicted as cat, 9 times (23.1% of dog)'
    >>> largest_confusion(["a", "b"], [[3, 1], [0, 4]])
    'largest confusion: true a predicted as b, 1 time (25.0% of a)'
    """
    c = np.array(counts, dtype=np.float64)
    np.fill_diagonal(c, 0.0)
    if c.size == 0 or c.max() <= 0:
        return None
    i, j = (int(v) for v in np.unravel_index(int(np.argmax(c)), c.shape))
    row = float(np.asarray(counts, dtype=np.float64)[i].sum())
    cell = np.asarray(counts)[i, j]
    # integer counts exactly (a float64 :g would print 4.61169e+18), weights as :g
    times = str(int(cell)) if np.asarray(counts).dtype.kind in "iu" else count_text(cell)
    return (f"largest confusion: true {labels[i]} predicted as {labels[j]}, {times} "
            f"time{'' if cell == 1 else 's'} ({100 * c[i, j] / row:.1f}% of {labels[i]})")


#: expected calibration error at or above which a report calls the calibration poor: the
#: probabilities are then off by 5 percentage points or more on average (weighted by bin
#: size), enough to mislead a reader who takes a probability as a frequency
POOR_ECE = 0.05

#: fewer samples than this per bin on average and the ECE is said to be biased upward
#: (a sample's share in a bin with few samples is noisy, and noise only adds to a gap)
FEW_PER_BIN = 20

#: the one line that says what the log loss is, ending every calibration sentence
LOG_LOSS_MEANING = ("log loss: the mean -ln of the probability given to the true class, in nats "
                    "(0 is perfect; one confident mistake can dominate it; Good 1952)")


def calibration_finding(cal: Any) -> str:
    """A sentence on the calibration of the probabilities (Brier score, log loss, ECE, MCE),
    ending with what the log loss is (:data:`LOG_LOSS_MEANING`).

    The rule: the calibration is called poor when the expected calibration error is at least
    :data:`POOR_ECE`; the sentence then names the bin that contributes most to the ECE (its
    mean probability, its observed frequency and its size), and says whether the model
    overstates or understates there. With fewer than :data:`FEW_PER_BIN` samples per bin on
    average it adds that the ECE is biased upward.

    Parameters
    ----------
    cal : Calibration
        See :func:`confmat.curves.calibration.calibration`.

    Returns
    -------
    str

    Examples
    --------
    >>> from confmat.curves.calibration import calibration
    >>> y = [0] * 40 + [1] * 40
    >>> p = [0.1] * 36 + [0.9] * 4 + [0.1] * 4 + [0.9] * 36
    >>> calibration_finding(calibration(y, p, n_bins=10))[:48]
    'calibration of class 1: ECE 0.000, MCE 0.000, Br'
    >>> p = [0.3] * 36 + [0.7] * 4 + [0.3] * 4 + [0.7] * 36
    >>> calibration_finding(calibration(y, p, n_bins=10))[:58]
    'poor calibration of class 1: ECE 0.200 (>= 0.05), MCE 0.20'
    """
    c = cal.curve
    what = "the top label" if cal.kind == "multiclass" else str(c.event)
    head = (f"ECE {cal.ece:.3f}, MCE {cal.mce:.3f}, Brier score {cal.brier:.3f}, "
            f"log loss {cal.log_loss:.3f} ({cal.n_bins} {cal.strategy} bins)")
    few = ""
    n = int(c.counts.sum())
    if n < FEW_PER_BIN * cal.n_bins:
        few = (f"; with {n} samples in {cal.n_bins} bins the ECE is biased upward, "
               "read it with care")
    if cal.ece < POOR_ECE:
        return (f"calibration of {what}: {head}; the probabilities can be read as frequencies"
                f"{few}. {LOG_LOSS_MEANING[0].upper()}{LOG_LOSS_MEANING[1:]}")
    keep = c.nonempty
    contrib = np.where(keep, c.weights * np.nan_to_num(c.gaps), -1.0)
    k = int(np.argmax(contrib))
    lo, hi = float(c.edges[k]), float(c.edges[k + 1])
    verb = "overstates" if c.mean_predicted[k] > c.observed[k] else "understates"
    return (f"poor calibration of {what}: ECE {cal.ece:.3f} (>= {POOR_ECE:g}), "
            f"MCE {cal.mce:.3f}, Brier score {cal.brier:.3f}, log loss {cal.log_loss:.3f}; "
            f"for probabilities in "
            f"[{lo:.2f}, {hi:.2f}] the model predicts {c.mean_predicted[k]:.3f} on average "
            f"but {c.observed[k]:.3f} is observed ({int(c.counts[k])} samples): it {verb} "
            f"there. Read the scores as a ranking, or recalibrate them (Platt 1999; Zadrozny "
            f"and Elkan 2002){few}. {LOG_LOSS_MEANING[0].upper()}{LOG_LOSS_MEANING[1:]}")


def cost_finding(cost: Any) -> str:
    """A sentence on the cost-optimal threshold.

    Parameters
    ----------
    cost : CostChoice
        See :func:`confmat.report.score_summaries.cost_choice`.

    Returns
    -------
    str

    Examples
    --------
    >>> from confmat.report.score_summaries import cost_choice
    >>> print(cost_finding(cost_choice([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], 1, None,
    ...                                [[0, 1], [5, 0]], np.array([[1, 1], [1, 1]]))))
    cost-optimal threshold for class 1: θ = 0.35 (costs: false positive 1, false negative 5, true negative 0, true positive 0): expected cost 0.250 per sample there (TP 2, FN 0, FP 1, TN 1), against 1.500 for the model's own predictions
    """
    (ctn, cfp), (cfn, ctp) = cost.cost_matrix.tolist()
    (tn, fp), (fn, tp) = cost.counts.tolist()
    where = (f"θ = {cost.text}" if math.isfinite(cost.threshold)
             else "predict nothing positive (θ above every score)")
    own = "" if cost.model_cost is None else \
        f", against {cost.model_cost:.3f} for the model's own predictions"
    return (f"cost-optimal threshold for class {cost.pos_label}: {where} (costs: false "
            f"positive {cfp:g}, false negative {cfn:g}, true negative {ctn:g}, true positive "
            f"{ctp:g}): expected cost {cost.expected_cost:.3f} per sample there (TP {tp:g}, "
            f"FN {fn:g}, FP {fp:g}, TN {tn:g}){own}")
