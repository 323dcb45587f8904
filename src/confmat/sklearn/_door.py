"""confmat's input door for the drop-in functions, its errors in scikit-learn's words.

Weights, scores and ``y_true`` of score functions are validated by :mod:`confmat.inputs`;
these helpers call it and, where scikit-learn's tests and users match on a message, re-raise
the same error class with scikit-learn's wording.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..inputs.targets import check_scores_1d, check_weights, default_pos_label, encode_truth
from ._targets import column_or_1d

__all__ = ["positive_mask", "scores_1d", "truth_classes", "weights"]


def weights(sample_weight: Any, n: int) -> np.ndarray | None:
    """``sample_weight`` checked by confmat's door, its errors in scikit-learn's words.

    Parameters
    ----------
    sample_weight
        array-like or None
    n
        int

    Returns
    -------
    ndarray of float64 or None
        None when absent or all 1.
    """

    if sample_weight is not None:
        if np.ndim(sample_weight) != 1:
            raise ValueError("Sample weights must be 1D array or scalar")
        arr = np.asarray(sample_weight)
        if arr.dtype == object:
            sample_weight = arr.astype(np.float64)
    try:
        return check_weights(sample_weight, n)
    except ValueError as exc:
        if "non-zero" in str(exc):
            raise ValueError("Sample weights must contain at least one non-zero number.") from exc
        raise


def scores_1d(y_score: Any, n: int, name: str = "y_score") -> np.ndarray:
    """Finite float64 scores checked by confmat's door (errors in scikit-learn's words).

    Parameters
    ----------
    y_score
        array-like
    n
        int
    name
        str, default='y_score'

    Returns
    -------
    ndarray of float64
        The scores.
    """

    arr = column_or_1d(y_score, name)
    try:
        return check_scores_1d(arr, n, name)
    except ValueError as exc:
        text = str(exc)
        if "NaN" in text:
            raise ValueError(f"Input {name} contains NaN.") from exc
        if "infinite" in text:
            raise ValueError(f"Input {name} contains infinity or a value too large for "
                             "dtype('float64').") from exc
        raise


def truth_classes(y_true: Any) -> tuple[list[Any], np.ndarray]:
    """Sorted classes of 1-D ``y_true`` and codes, from confmat's door.

    Parameters
    ----------
    y_true
        array-like

    Returns
    -------
    (list, ndarray)
        Sorted classes and int64 codes.
    """

    arr = column_or_1d(y_true, "y_true")
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError("Input y_true contains NaN.")
    return encode_truth(arr)


def positive_mask(y_true: Any, pos_label: Any,
                  greater: bool = False) -> tuple[np.ndarray, list[Any]]:
    """Which samples are positive, by scikit-learn's rule: without ``pos_label`` the classes
    must lie in {0, 1} or {-1, 1} (the positive class is 1); an explicit ``pos_label`` absent
    from ``y_true`` makes every sample negative.

    Parameters
    ----------
    y_true
        array-like
    pos_label
        label or None
    greater
        bool, default=False: without ``pos_label``, other numeric classes make the greater
        one positive instead of raising (scikit-learn's ``brier_score_loss``, documented
        there); text classes still need ``pos_label``.

    Returns
    -------
    (ndarray of bool, list)
        The positive samples and the sorted classes.
    """

    classes, codes = truth_classes(y_true)
    if pos_label is None:
        strings = any(isinstance(c, str) for c in classes)
        pos_label = None if strings else default_pos_label(classes)
        if pos_label is None and greater and not strings:
            pos_label = classes[-1]
        if pos_label is None:
            shown = "{" + ", ".join(repr(c) for c in classes) + "}"
            raise ValueError(
                f"y_true takes value in {shown} and pos_label is not specified: either make "
                "y_true take value in {0, 1} or {-1, 1} or pass pos_label explicitly."
            )
    pos_label = pos_label.item() if isinstance(pos_label, np.generic) else pos_label
    matches = [i for i, c in enumerate(classes) if c == pos_label]
    if not matches:
        return np.zeros(codes.shape[0], dtype=bool), classes
    return codes == matches[0], classes
