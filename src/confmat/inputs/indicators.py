"""Multilabel indicator matrices (one 0/1 column per label): recognised and checked here, so
that ``confmat.multilabel``, the report and the scikit-learn drop-in receive boolean arrays;
and one-hot matrices (exactly one 1 per row), read as the column of each sample's class."""

from __future__ import annotations

from typing import Any

import numpy as np


def is_indicator(y: Any) -> bool:
    """True for a 2-D array-like with more than one column (a multilabel indicator matrix),
    a list of rows, or a sparse matrix with more than one column.

    A single column is not an indicator matrix: dense, it is read as a column of labels
    (as scikit-learn reads it); sparse, :func:`check_indicators` refuses it.

    Parameters
    ----------
    y : array-like
        Labels or an indicator matrix.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_indicator([[1, 0], [0, 1]]), is_indicator([0, 1, 1])
    (True, False)
    """
    if hasattr(y, "toarray"):
        return True
    if isinstance(y, list | tuple) and y and isinstance(y[0], list | tuple | np.ndarray):
        return True
    arr = y if isinstance(y, np.ndarray) else None
    if arr is None and hasattr(y, "shape"):
        return len(y.shape) == 2 and y.shape[1] > 1
    return arr is not None and arr.ndim == 2 and arr.shape[1] > 1


def _as_matrix(y: Any, name: str) -> np.ndarray:
    if hasattr(y, "toarray"):
        if len(y.shape) == 2 and y.shape[1] < 2:
            raise TypeError(
                f"{name} is a sparse matrix of shape {y.shape}: a sparse indicator matrix "
                "needs at least two label columns (as in scikit-learn); pass one label "
                "column as a dense array")
        return np.asarray(y.toarray())
    if isinstance(y, list | tuple):
        lengths = {len(row) if isinstance(row, list | tuple | np.ndarray) else -1 for row in y}
        if len(lengths) > 1:
            found = sorted(length for length in lengths if length >= 0)
            what = (f"rows of lengths {found}" if -1 not in lengths
                    else "single values among rows")
            raise ValueError(
                f"{name} must be an indicator matrix with one row per sample and the same "
                f"number of label columns in every row; found {what}")
    return np.asarray(y)


def check_indicators(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    """Validate two multilabel indicator matrices of the same shape with 0/1 entries.

    Parameters
    ----------
    y_true, y_pred : array-like or sparse matrix of shape (n_samples, n_labels)
        The indicator matrices.

    Returns
    -------
    (ndarray of bool, ndarray of bool)

    Raises
    ------
    ValueError
        Not 2-D, rows of different lengths, entries other than 0 and 1 (NaN included),
        different shapes, or no samples.
    TypeError
        Entries that are not numbers, or a sparse matrix of one column.

    Examples
    --------
    >>> t, p = check_indicators([[1, 0]], [[1, 1]])
    >>> p.tolist()
    [[True, True]]
    >>> check_indicators([[2, 0]], [[1, 1]])
    Traceback (most recent call last):
    ...
    ValueError: y_true must contain only 0 and 1 in a multilabel indicator matrix, found 2
    """
    out = []
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        arr = _as_matrix(y, name)
        if arr.ndim != 2:
            raise ValueError(f"{name} must be a 2-D indicator matrix, got shape {arr.shape}")
        if arr.dtype.kind not in "biuf":
            raise TypeError(f"{name} must be a 0/1 indicator matrix, got dtype {arr.dtype}")
        if arr.size:
            bad = ~np.isin(arr, (0, 1))
            if bad.any():
                raise ValueError(f"{name} must contain only 0 and 1 in a multilabel indicator "
                                 f"matrix, found {arr[bad][0].item()!r}")
        out.append(arr.astype(bool))
    if out[0].shape != out[1].shape:
        raise ValueError(
            f"y_true and y_pred have different shapes: {out[0].shape} and {out[1].shape}"
        )
    if out[0].shape[0] == 0:
        raise ValueError("y_true and y_pred are empty; at least one sample is needed")
    return out[0], out[1]


def one_hot_codes(y: Any, name: str = "y_true") -> tuple[int, np.ndarray]:
    """The class column of each row of a one-hot matrix (a 0/1 matrix with exactly one 1 per
    row, as ``LabelBinarizer`` writes a class vector).

    Parameters
    ----------
    y : array-like of shape (n_samples, n_classes)
        The one-hot matrix (dense or sparse).
    name : str, default 'y_true'
        The argument's name, used in messages.

    Returns
    -------
    (int, ndarray of int64)
        The number of columns, and the column of the 1 of each row.

    Raises
    ------
    ValueError
        Not 2-D, no rows, entries other than 0 and 1, or a row without exactly one 1 (a
        multilabel row has no single class; the first such row is named).
    TypeError
        Entries that are not numbers.

    Examples
    --------
    >>> one_hot_codes([[1, 0], [0, 1], [0, 1]])
    (2, array([0, 1, 1]))
    >>> one_hot_codes([[1, 1], [0, 1]])
    Traceback (most recent call last):
    ...
    ValueError: y_true must be one-hot (exactly one 1 per row) to name one class per sample; row 0 holds 2 ones
    """
    arr = _as_matrix(y, name)
    if arr.ndim != 2 or arr.shape[0] == 0:
        raise ValueError(f"{name} must be a 2-D one-hot matrix with at least one row, got "
                         f"shape {arr.shape}")
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be a 0/1 one-hot matrix, got dtype {arr.dtype}")
    bad = ~np.isin(arr, (0, 1))
    if bad.any():
        raise ValueError(f"{name} must contain only 0 and 1 in a one-hot matrix, found "
                         f"{arr[bad][0].item()!r}")
    ones = arr.astype(bool).sum(axis=1)
    wrong = np.flatnonzero(ones != 1)
    if wrong.size:
        i = int(wrong[0])
        raise ValueError(f"{name} must be one-hot (exactly one 1 per row) to name one class per "
                         f"sample; row {i} holds {int(ones[i])} ones")
    return int(arr.shape[1]), np.argmax(arr.astype(bool), axis=1).astype(np.int64)
