"""The lengths of a truth and its scores, checked before the content of either.

A score array of another length than ``y_true`` is a different mistake from a bad label: the
two arrays are not paired at all (a wrong variable, a filtered copy), and what their values
hold is beside the point. So every function of a score problem compares the lengths first,
reading only how many samples each argument has (:func:`check_score_length`), and only then
encodes the labels and reads the scores - the order of scikit-learn's ``_check_targets``
(``check_consistent_length``, then ``type_of_target``). The message is the one of
:func:`length_error`, which :func:`confmat.inputs.scores.float_scores` also raises when it
meets scores of another length later.
"""

from __future__ import annotations

from typing import Any

from ..deps import is_dask_collection
from .truth import EncodedTruth

__all__ = ["check_score_length", "length_error", "sample_count"]


def length_error(n_true: int, n_score: int, name: str = "y_score",
                 true_name: str = "y_true") -> ValueError:
    """The one message of scores whose number of samples is not the truth's.

    Parameters
    ----------
    n_true : int
        The number of samples of ``y_true``.
    n_score : int
        The number of rows of the scores.
    name : str, default 'y_score'
        The scores' argument name.
    true_name : str, default 'y_true'
        The labels' argument name.

    Returns
    -------
    ValueError
        To be raised by the caller.

    Examples
    --------
    >>> print(length_error(4, 3))
    y_true and y_score have different lengths: 4 and 3
    """
    return ValueError(f"{true_name} and {name} have different lengths: {n_true} and {n_score}")


def sample_count(values: Any) -> int | None:
    """How many samples an argument holds, read from its length or shape alone (no value is
    read, so that a length mismatch is found before any content is checked).

    Parameters
    ----------
    values : any
        Labels or scores as the user gave them (list, tuple, numpy array, pandas / polars /
        Arrow column or frame, :class:`~confmat.inputs.truth.EncodedTruth`).

    Returns
    -------
    int or None
        The first dimension; None where it cannot be told without reading the values (None
        itself, a string, a scalar, a Dask collection, an iterator): the checks of the
        content then report what is wrong.

    Examples
    --------
    >>> import numpy as np
    >>> sample_count([0, 1, None]), sample_count(np.zeros((4, 3))), sample_count("ab")
    (3, 4, None)
    """
    if isinstance(values, EncodedTruth):
        return values.n_samples
    if values is None or isinstance(values, str | bytes) or is_dask_collection(values):
        return None
    shape = getattr(values, "shape", None)
    if shape is not None:
        try:
            return int(shape[0]) if len(shape) else None
        except (TypeError, ValueError, IndexError):
            return None
    try:
        return len(values)
    except TypeError:
        return None


def check_score_length(y_true: Any, y_score: Any, name: str = "y_score",
                       true_name: str = "y_true") -> None:
    """Refuse scores whose number of samples is not the truth's, before either is read.

    scikit-learn's ``check_consistent_length`` for a truth and its scores: the first thing
    every function of a score problem checks, so that a length mismatch is reported as such
    even when the labels are bad too.

    Parameters
    ----------
    y_true : array-like or EncodedTruth
        The true labels.
    y_score : array-like
        The scores: one per sample, or one row per sample.
    name : str, default 'y_score'
        The scores' argument name.
    true_name : str, default 'y_true'
        The labels' argument name.

    Raises
    ------
    ValueError
        Both lengths known and different (:func:`length_error`).

    Examples
    --------
    >>> check_score_length([0, 1, None], [[0.5, 0.5]] * 3)
    >>> check_score_length([0, 1, None], [0.2, 0.7])
    Traceback (most recent call last):
    ...
    ValueError: y_true and y_score have different lengths: 3 and 2
    """
    n_true, n_score = sample_count(y_true), sample_count(y_score)
    if n_true is not None and n_score is not None and n_true != n_score:
        raise length_error(n_true, n_score, name, true_name)
