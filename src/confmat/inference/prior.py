r"""Prior shift: the confusion matrix a model would produce on a population with other class
prevalences.

A classifier's behaviour *given the true class* -- each row of the table, normalised -- does not
depend on how common the class is; PPV, NPV, accuracy and every metric that mixes rows do. If the
target population has prevalences :math:`\pi_i`, the expected table is

.. math:: C'_{ij} = N\,\pi_i\,\frac{C_{ij}}{\sum_j C_{ij}},

which is Bayes' rule applied cell by cell: for two classes,
:math:`\mathrm{PPV}' = \mathrm{TPR}\,\pi / (\mathrm{TPR}\,\pi + \mathrm{FPR}\,(1 - \pi))`.
The rows are the only estimate of the class-conditional behaviour, so a row with few samples
carries its noise into the re-weighted table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np


def at_prevalence(cm: Any, prevalence: Any, *, n: float | None = None) -> Any:
    """Re-weight the rows of ``cm`` to the class prevalences ``prevalence``.

    Parameters
    ----------
    cm : ConfusionMatrix
    prevalence : mapping label -> proportion, or array-like of shape (K,)
        Target proportions of the true classes, non-negative and summing to 1 (within 1e-6). A
        mapping must name every label; an array follows ``cm.labels``.
    n : float, optional
        Total of the returned table; by default ``cm.n``, so counts stay on the same scale.

    Returns
    -------
    ConfusionMatrix
        Float counts whose row ``i`` sums to ``n * prevalence[i]`` and keeps the original
        row's proportions.

    Raises
    ------
    ValueError
        If proportions are negative or do not sum to 1, a label is missing or unknown, a class
        with a positive target prevalence has no samples in ``cm``, or ``cm`` was counted with a
        label subset (its 'outside' margin cannot be re-weighted).
    """
    from ..matrix import ConfusionMatrix

    if not isinstance(cm, ConfusionMatrix):
        raise TypeError(f"cm must be a ConfusionMatrix, got {type(cm).__name__}")
    if cm._has_other:
        raise ValueError(
            "at_prevalence needs a matrix counted over all labels; this one was counted with a "
            "label subset (n_outside > 0), whose outside margin has no class to re-weight"
        )
    labels = cm.labels
    k = len(labels)
    if isinstance(prevalence, Mapping):
        unknown = [lab for lab in prevalence if lab not in labels]
        if unknown:
            raise ValueError(f"prevalence names labels not in the matrix: {unknown}")
        missing = [lab for lab in labels if lab not in prevalence]
        if missing:
            raise ValueError(f"prevalence must give a proportion for every label; missing {missing}")
        values = [prevalence[lab] for lab in labels]
    else:
        values = prevalence
    try:
        pi = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"prevalence must hold numbers: {exc}") from exc
    if pi.ndim != 1 or pi.shape[0] != k:
        raise ValueError(f"prevalence must have one proportion per class ({k}), got shape {pi.shape}")
    if not np.isfinite(pi).all() or (pi < 0).any():
        raise ValueError(f"prevalence must be finite and non-negative, got {pi.tolist()}")
    if abs(pi.sum() - 1.0) > 1e-6:
        raise ValueError(f"prevalence must sum to 1, got {pi.sum():.6g}")
    rows = cm.counts.sum(axis=1).astype(np.float64)
    empty = (rows == 0) & (pi > 0)
    if empty.any():
        bad = [labels[i] for i in np.flatnonzero(empty)]
        raise ValueError(
            f"class(es) {bad} have no samples in the matrix, so their behaviour at a positive "
            "prevalence is unknown"
        )
    total = float(cm.n) if n is None else float(n)
    if not np.isfinite(total) or total <= 0:
        raise ValueError(f"n must be a positive finite number, got {n!r}")
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(rows[:, None] > 0, cm.counts / np.where(rows > 0, rows, 1.0)[:, None], 0.0)
    table = total * pi[:, None] * share
    return ConfusionMatrix(table, labels=labels)
