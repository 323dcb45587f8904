"""Checks and small helpers shared by the curve modules and :mod:`confmat.binned`.

Public within the package: :mod:`confmat.binned` computes its curves and areas from histogram
counts with the same rules (``average``, ``method``, ``max_fpr``, undefined AUC) as the exact
functions, by importing these.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from ..inputs.encode import as_1d, py_scalar
from ..inputs.targets import numeric_1d, resolve_pos_label
from ..metrics import UndefinedMetricWarning

#: The ways :func:`confmat.average_precision` integrates the precision-recall curve.
APMethod = Literal["step", "interpolated", "trapezoid"]


def trapezoid_area(x: np.ndarray, y: np.ndarray) -> float:
    """Trapezoidal area under the points ``(x, y)`` as a Python float."""
    return float(np.trapezoid(y, x))



def check_max_fpr(max_fpr: Any) -> float | None:
    """``max_fpr`` as a float in (0, 1], or None; TypeError / ValueError otherwise."""
    if max_fpr is None:
        return None
    if isinstance(max_fpr, bool) or not isinstance(max_fpr, int | float | np.number):
        raise TypeError(f"max_fpr must be a number in (0, 1] or None, got {max_fpr!r}")
    if not 0 < max_fpr <= 1:
        raise ValueError(f"max_fpr must be in (0, 1], got {max_fpr!r}")
    return float(max_fpr)


def undefined_auc() -> float:
    """NaN, with the :class:`UndefinedMetricWarning` of an AUC of one class only."""
    warnings.warn(
        "Only one class is present in y_true. ROC AUC score is not defined in that case.",
        UndefinedMetricWarning,
        stacklevel=4,
    )
    return float("nan")



def average_scores(
    scores: np.ndarray, average: str | None, support: np.ndarray
) -> float | np.ndarray:
    """Average per-class scores as scikit-learn does (weighted: zero-support classes count 0)."""
    if average is None:
        return scores
    if average == "macro":
        return float(np.mean(scores))
    if np.isclose(support.sum(), 0.0):
        return 0.0
    scores = np.where(support == 0, 0.0, scores)
    return float(np.average(scores, weights=support))


def check_average(average: Any, allowed: Sequence[Any]) -> None:
    """Raise ValueError unless ``average`` is one of ``allowed``."""
    if average not in allowed:
        raise ValueError(f"average must be one of {list(allowed)}, got {average!r}")


def check_probabilities(s: np.ndarray, name: str = "y_score") -> None:
    """Raise ValueError naming the first row of ``s`` that does not sum to 1."""
    sums = s.sum(axis=1)
    bad = ~np.isclose(sums, 1.0, rtol=1e-5, atol=1e-8)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"{name} rows must be probabilities summing to 1 for multi_class='ovr' or 'ovo'; "
            f"row {i} sums to {float(sums[i])!r}"
        )


def class_columns(
    classes: list[Any], labels: Any, n_columns: int
) -> tuple[list[Any], dict[Any, int]]:
    """The label of each score column: ``labels`` (any order) or the sorted classes."""
    if labels is None:
        if len(classes) != n_columns:
            raise ValueError(
                f"y_true has {len(classes)} classes {classes} but y_score has {n_columns} "
                "columns; pass labels=[...] naming the class of each column"
            )
        cols = list(classes)
    else:
        cols = [py_scalar(v) for v in as_1d(labels, "labels").tolist()]
        if len(set(cols)) != len(cols):
            raise ValueError(f"labels must be unique, got {cols}")
        if len(cols) != n_columns:
            raise ValueError(
                f"labels has {len(cols)} entries but y_score has {n_columns} columns"
            )
        missing = [c for c in classes if c not in cols]
        if missing:
            raise ValueError(f"y_true contains labels not in labels: {missing}")
    return cols, {c: i for i, c in enumerate(cols)}



def check_method(method: Any) -> APMethod:
    """``method`` of average precision, checked against ``APMethod``."""
    if method not in ("step", "interpolated", "trapezoid"):
        raise ValueError(
            f"method must be 'step', 'interpolated' or 'trapezoid', got {method!r}"
        )
    return method




def positive_column(classes: list[Any], s_arr: np.ndarray, y_score: Any, labels: Any,
                     pos_label: Any) -> Any:
    """The positive class's scores of binary input: ``y_score`` itself when 1-D, else the
    column of the positive class in a (n, 2) matrix whose columns follow ``labels`` (default:
    the sorted classes)."""
    if s_arr.ndim != 2:
        if labels is not None:
            raise ValueError(
                "labels names the columns of a 2-D y_score; for 1-D binary scores say which "
                "class they score with pos_label"
            )
        return y_score
    if s_arr.shape[1] != 2:
        raise ValueError(f"y_score for binary y_true must be 1-D or (n, 2), got shape {s_arr.shape}")
    pos = resolve_pos_label(classes, pos_label)
    cols = classes
    if labels is not None:
        cols = [py_scalar(v) for v in as_1d(labels, "labels").tolist()]
        if len(cols) != 2 or not set(classes) <= set(cols):
            raise ValueError(f"labels must name the two classes {classes}, got {cols}")
    return s_arr[:, cols.index(pos) if len(cols) == 2 and pos in cols else 1]




def check_thresholds(thresholds: Any) -> np.ndarray:
    """User thresholds as a non-empty 1-D float array without NaN."""
    t = numeric_1d(thresholds, "thresholds")
    if t.dtype.kind not in "iuf":
        raise TypeError(f"thresholds must be numbers, got dtype {t.dtype}")
    t = t.astype(np.float64)
    if t.size == 0:
        raise ValueError("thresholds must not be empty")
    if np.isnan(t).any():
        raise ValueError("thresholds contains NaN")
    return t


