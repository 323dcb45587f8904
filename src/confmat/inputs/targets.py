"""The door for score-taking functions: ``y_true``, scores, ``sample_weight`` and ``pos_label``.

Every function that takes scores (curves, AUC, threshold sweeps, score histograms, score
intervals and tests, reports, plots and the command line) validates its arguments here and
receives sorted classes with integer codes, finite float64 scores, weights, and the positive
class resolved by one rule (:func:`resolve_pos_label`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .encode import all_finite, as_1d, check_sample_weight, factorize, label_kind, py_scalar

__all__ = [
    "BinaryTarget",
    "binary_target",
    "check_scores_1d",
    "check_scores_2d",
    "check_weights",
    "encode_truth",
    "finite_float",
    "numeric_1d",
    "resolve_pos_label",
]


def encode_truth(y_true: Any) -> tuple[list[Any], np.ndarray]:
    """Sorted classes of ``y_true`` and int64 codes into them (validated by encode.py)."""
    y = as_1d(y_true, "y_true")
    if y.shape[0] == 0:
        raise ValueError("y_true is empty; at least one sample is needed")
    if y.dtype.kind in "iub":  # small integer range: count instead of sorting
        lo, hi = int(y.min()), int(y.max())
        if hi - lo < 1024:
            shifted = y.astype(np.int64, copy=False) - lo if lo else y.astype(np.int64, copy=False)
            present = np.flatnonzero(np.bincount(shifted, minlength=hi - lo + 1))
            lut = np.zeros(hi - lo + 1, dtype=np.int64)
            lut[present] = np.arange(present.size)
            values = (present + lo).tolist()
            classes = [bool(v) for v in values] if y.dtype.kind == "b" else values
            codes = shifted if present.size == hi - lo + 1 else lut[shifted]
            return classes, codes
    uniq, codes = factorize(y, "y_true")
    classes = [py_scalar(v) for v in uniq.tolist()]
    order = sorted(range(len(classes)), key=classes.__getitem__)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return [classes[i] for i in order], rank[codes]


def numeric_1d(x: Any, name: str) -> np.ndarray:
    """A 1-D array of numbers (scores, thresholds): no label-kind checks, NaN reported later."""
    if isinstance(x, list | tuple):
        arr = np.asarray(x)
        if arr.dtype == object:
            raise TypeError(f"{name} must contain numbers, got mixed or non-numeric values")
        x = arr
    return as_1d(x, name)


def check_scores_1d(y_score: Any, n: int, name: str = "y_score") -> np.ndarray:
    return finite_float(numeric_1d(y_score, name), n, name)


def check_scores_2d(y_score: Any, n: int, name: str = "y_score") -> np.ndarray:
    if y_score is None:
        raise TypeError(f"{name} must be an array of scores, got None")
    s = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if s.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, n_classes), got shape {s.shape}")
    return finite_float(s, n, name)


def finite_float(s: np.ndarray, n: int, name: str) -> np.ndarray:
    if s.dtype.kind not in "iufb":
        raise TypeError(f"{name} must contain numbers, got dtype {s.dtype}")
    if s.shape[0] != n:
        raise ValueError(f"y_true and {name} have different lengths: {n} and {s.shape[0]}")
    s = s.astype(np.float64, copy=False)
    if all_finite(s):
        return s
    bad = ~np.isfinite(s)
    if bad.any():
        pos = np.argwhere(bad)[0]
        where = int(pos[0]) if s.ndim == 1 else tuple(int(i) for i in pos)
        what = "NaN" if np.isnan(s[tuple(pos)]) else "an infinite value"
        raise ValueError(f"{name} contains {what} at position {where}; scores must be finite")
    return s


def check_weights(sample_weight: Any, n: int) -> np.ndarray | None:
    w = check_sample_weight(sample_weight, n)
    if w is not None and bool((w == 1).all()):
        return None
    return w


def resolve_pos_label(classes: list[Any], pos_label: Any) -> Any:
    """The positive class of binary ``y_true`` whose sorted classes are ``classes``.

    confmat's one rule, used by every score-taking entry point: without ``pos_label`` the
    classes must lie within {0, 1}, {-1, 1} or {False, True} and the positive class is 1 (True);
    any other labels need ``pos_label``, and the error lists the labels found. An explicit
    ``pos_label`` must occur in ``y_true``.

    Parameters
    ----------
    classes : list
        The distinct labels of ``y_true`` in sorted order (see :func:`encode_truth`).
    pos_label : label or None
        The user's ``pos_label`` argument.

    Returns
    -------
    label
        The positive class: ``pos_label`` itself, or 1 when it was not given.

    Raises
    ------
    ValueError
        ``pos_label`` is None and the labels are not {0, 1}, {-1, 1} or {False, True}; or
        ``pos_label`` is not one of ``classes``.

    Examples
    --------
    >>> resolve_pos_label([0, 1], None)
    1
    >>> resolve_pos_label(["healthy", "sick"], "sick")
    'sick'
    """
    if pos_label is None:
        numeric = all(label_kind(c) in ("number", "bool") for c in classes)
        ok = numeric and (set(classes) <= {0, 1} or set(classes) <= {-1, 1})
        if not ok:
            raise ValueError(
                f"y_true takes values {classes} and pos_label is not specified: either make "
                "y_true take values in {0, 1} or {-1, 1} or pass pos_label explicitly"
            )
        return 1
    if isinstance(pos_label, np.generic):
        pos_label = pos_label.item()
    if pos_label not in classes:
        raise ValueError(f"pos_label={pos_label!r} is not one of the labels in y_true {classes}")
    return pos_label


@dataclass(frozen=True)
class BinaryTarget:
    """Validated binary problem: positive mask, float64 scores, weights or None."""

    pos: np.ndarray
    score: np.ndarray
    weight: np.ndarray | None
    pos_label: Any
    neg_label: Any


def binary_target(y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any) -> BinaryTarget:
    classes, codes = encode_truth(y_true)
    score = check_scores_1d(y_score, codes.shape[0])
    pos_label = resolve_pos_label(classes, pos_label)
    w = check_weights(sample_weight, codes.shape[0])
    if pos_label in classes:
        pos = codes == classes.index(pos_label)
    else:
        pos = np.zeros(codes.shape[0], dtype=bool)
    others = [c for c in classes if c != pos_label]
    neg_label = others[0] if len(others) == 1 else (0 if pos_label == 1 else f"not {pos_label}")
    return BinaryTarget(pos, score, w, pos_label, neg_label)
