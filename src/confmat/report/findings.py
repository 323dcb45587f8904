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
            hint = (f"are these the scores of {others[0]}? Then pass pos_label={others[0]!r} "
                    f"(--pos-label {others[0]}), or use 1 - score")
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
        out.append(f"class {lab} has only {v:g} true samples: its per-class metrics have wide "
                   "intervals; read them with their brackets")
    elif tiny:
        names = ", ".join(f"{lab} ({v:g})" for lab, v in tiny)
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
                  intervals: Sequence[Any] | None, support: Any) -> str | None:
    """A sentence on the class with the lowest recall (its share of true samples found).

    Parameters
    ----------
    labels : sequence
    recall : sequence of float
        Per-class recall.
    intervals : sequence of (low, high) or None, optional
        Per-class recall intervals.
    support : array-like of shape (K,)

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
    found = recall[k] * s[k]
    return (f"weakest class: {labels[k]}, recall {recall[k]:.3f}{br} ({found:g} of its "
            f"{s[k]:g} samples found)")


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
    """
    c = np.array(counts, dtype=np.float64)
    np.fill_diagonal(c, 0.0)
    if c.size == 0 or c.max() <= 0:
        return None
    i, j = (int(v) for v in np.unravel_index(int(np.argmax(c)), c.shape))
    row = float(np.asarray(counts, dtype=np.float64)[i].sum())
    return (f"largest confusion: true {labels[i]} predicted as {labels[j]}, {c[i, j]:g} times "
            f"({100 * c[i, j] / row:.1f}% of {labels[i]})")
