"""The errors of a read about the values a source holds: a bad weight named by its data row,
and any check's error restated as a ``ValueError`` naming the source (what a file holds is a
value, whatever the type of the in-memory check that found it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..inputs.decisions import check_scored_columns
from ..inputs.encode import encode_pair
from ..inputs.files import Source
from ..inputs.kinds import py_scalar
from ..inputs.probabilities import first_outside_unit_interval, first_row_off_one
from ..words import arg, say


def weight_error(where: str, weight_col: str, value: float) -> ValueError:
    """The error naming a weight that is negative or not finite, and where it is.

    Parameters
    ----------
    where : str
        The source and its 1-based data row (``"file 'p.csv', row 4"``), or the source alone
        when the row is not known.
    weight_col : str
        The weight column.
    value : float
        The weight.

    Returns
    -------
    ValueError

    Examples
    --------
    >>> print(weight_error("file 'p.csv', row 4", "w", -1.0))
    file 'p.csv', row 4: column 'w' (sample_weight) holds -1.0; weights must be finite and non-negative
    """
    return ValueError(f"{where}: column {weight_col!r} ({arg('sample_weight')}) holds {float(value)!r}; "
                      "weights must be finite and non-negative")


def first_bad_weight(weights: Any) -> int | None:
    """Where the first weight that is negative or not finite is (to name its row once the
    weights' check, :func:`confmat.inputs.encode.check_sample_weight`, refused them).

    Parameters
    ----------
    weights : array-like of numbers
        The weights, in row order.

    Returns
    -------
    int or None
        Its 0-based position, or None when every weight is finite and non-negative (the
        check refused something else: all zero, an overflowing total) or the weights are not
        numbers.

    Examples
    --------
    >>> first_bad_weight([1.0, 0.0, -2.0, np.inf]), first_bad_weight([1, 2])
    (2, None)
    >>> first_bad_weight(["a", "b"]) is None
    True
    """
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (ValueError, TypeError):  # not numbers: the weights' check names that
        return None
    with np.errstate(invalid="ignore"):
        bad = np.flatnonzero(~(np.isfinite(w) & (w >= 0)))
    return int(bad[0]) if bad.size else None


def check_weight_column(where: str, weight_col: str, weights: np.ndarray,
                        rows: Any) -> None:
    """Weights read whole from a source, through the weights' check
    (:func:`confmat.inputs.encode.check_sample_weight`); a weight it refuses is named by its
    data row (:func:`weight_error`), not by its position among the rows kept.

    Parameters
    ----------
    where : str
        The source (``"file 'p.csv'"``).
    weight_col : str
        The weight column.
    weights : ndarray
        Its values, in row order.
    rows : array-like of int
        The 1-based data row of each value (rows skipped or filtered out leave gaps).

    Raises
    ------
    ValueError
        The check's refusal, naming the source, the column and (for a negative or non-finite
        weight) its data row.

    Examples
    --------
    >>> check_weight_column("file 'p.csv'", "w", np.array([1.0, -2.0]), [1, 4])
    Traceback (most recent call last):
    ...
    ValueError: file 'p.csv', row 4: column 'w' (sample_weight) holds -2.0; weights must be finite and non-negative
    """
    bad = first_bad_weight(weights)
    if bad is not None:
        raise weight_error(f"{where}, row {int(np.asarray(rows)[bad])}", weight_col,
                           weights[bad])
    check_weight_total(where, weight_col, weights)


def check_weight_total(where: str, weight_col: str, weights: Any) -> None:
    """The weights of a source (or their sums, per pair of labels) through the weights' check
    (:func:`confmat.inputs.encode.check_sample_weight`): all zero, or a total beyond float64,
    is refused naming the source and the weight column, with one message on every path (the
    counted, the streamed and the grouped ones).

    Parameters
    ----------
    where : str
        The source (``"file 'p.csv'"``).
    weight_col : str
        The weight column.
    weights : array-like of numbers
        The weights of the rows kept, or their sums per group of rows.

    Raises
    ------
    ValueError
        The check's refusal, after the source and the column.

    Examples
    --------
    >>> check_weight_total("file 'p.csv'", "w", np.array([0.0, 0.0]))
    Traceback (most recent call last):
    ...
    ValueError: file 'p.csv': column 'w': sample_weight must contain at least one non-zero weight
    """
    from ..inputs.encode import check_sample_weight

    values = np.asarray(weights)
    try:
        check_sample_weight(values, values.shape[0])
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{where}: column {weight_col!r}: {exc}") from None


def check_score_column(where: str, score_col: str, scores: np.ndarray, rows: Any) -> None:
    """Scores read whole from a source, through the scores' check
    (:func:`confmat.inputs.scores.check_scores_1d`); a score it refuses is named by its data
    row, not by its position among the rows kept.

    Parameters
    ----------
    where : str
        The source (``"file 'p.csv'"``).
    score_col : str
        The score column.
    scores : ndarray
        Its values, in row order (numbers).
    rows : array-like of int
        The 1-based data row of each value (rows skipped or filtered out leave gaps).

    Raises
    ------
    ValueError
        The check's refusal, naming the source, the column and (for a score that is not
        finite) its data row.

    Examples
    --------
    >>> check_score_column("file 'p.csv'", "p", np.array([0.5, np.inf]), [2, 7])
    Traceback (most recent call last):
    ...
    ValueError: file 'p.csv', row 7: column 'p' holds the score inf; scores must be finite
    """
    from ..inputs.scores import check_scores_1d, first_non_finite

    try:
        check_scores_1d(scores, scores.shape[0], name=f"column {score_col!r}")
    except (ValueError, TypeError) as exc:
        bad = first_non_finite(np.asarray(scores, dtype=np.float64))
        if bad is None:
            raise ValueError(f"{where}: {exc}") from None
        raise ValueError(f"{where}, row {int(np.asarray(rows)[bad])}: column {score_col!r} "
                         f"holds the score {float(scores[bad])!r}; scores must be finite"
                         ) from None


def content_error(source: Source, rows: str | None, exc: Exception) -> ValueError:
    """A problem with the values of a source, as the ``ValueError`` naming it: what a file
    holds is a value, whatever the type of the in-memory check that found it.

    Parameters
    ----------
    source : Source
        The source, named first in the message.
    rows : str or None
        Where in the source (``"rows 1..1000"``), or None for the whole source.
    exc : Exception
        The check's error; its text follows (alone when it already names the source, as an
        accumulator's error naming its chunk by the source's rows). A ``TypeError`` from a CSV
        or JSON lines column adds a hint at ``column_types=``.

    Returns
    -------
    ValueError
        The error to raise (``raise content_error(...) from exc``).
    """
    where = source.name if rows is None else f"{source.name}, {rows}"
    hint = ""
    if isinstance(exc, TypeError) and source.format in ("csv", "tsv", "jsonl"):
        hint = (" (the engine inferred the column types; "
                f"{say('column_types=', 'column_types')} can set them)")
    text = str(exc)
    return ValueError(f"{'' if text.startswith(source.name) else where + ': '}{text}{hint}")


def score_error(where: str, score_col: str, value: float | None) -> ValueError:
    """The error naming a score outside the probabilities ``[0, 1]`` (an infinite one too),
    and where it is: one message for the counted and the streamed paths.

    Parameters
    ----------
    where : str
        The source and its 1-based data row (``"file 'p.csv', row 4"``), or the source alone
        when the row is not known.
    score_col : str
        The score column.
    value : float or None
        The score, when known.

    Returns
    -------
    ValueError

    Examples
    --------
    >>> print(score_error("file 'p.csv', row 4", "p", 1.5))
    file 'p.csv', row 4: column 'p' holds a score 1.5 outside score_range=(0.0, 1.0); scores must be probabilities
    """
    shown = "" if value is None else f" {float(value)!r}"
    return ValueError(f"{where}: column {score_col!r} holds a score{shown} outside "
                      "score_range=(0.0, 1.0); scores must be probabilities")


def first_bad_score(scores: Any) -> tuple[int, int] | None:
    """Where the first score outside ``[0, 1]`` is, infinite ones included (to name its row
    and column once the histogram's check refused a batch); NaN is a missing value, not a
    bad score.

    Parameters
    ----------
    scores : array-like of numbers, shape (n,) or (n, k)
        The scores of a batch, in row order (one column per score column).

    Returns
    -------
    (int, int) or None
        The 0-based row and score column, or None when every score lies in ``[0, 1]`` or the
        scores are not numbers (the check refused something else).

    Examples
    --------
    >>> first_bad_score([0.5, 1.0, np.inf]), first_bad_score([[0.2, 0.8], [1.5, -0.5]])
    ((2, 0), (1, 0))
    >>> first_bad_score([0.0, np.nan, 1.0]) is None
    True
    """
    try:
        s = np.asarray(scores, dtype=np.float64)
    except (ValueError, TypeError):
        return None
    hit = first_outside_unit_interval(s.reshape(s.shape[0], -1))
    return None if hit is None else (int(hit[0]), int(hit[1]))


def label_error(where: str, value: Any, column: str, labels: list[Any]) -> ValueError:
    """The error naming a label outside the fixed ``labels=``, its column and where it is:
    one message for the counted and the streamed paths.

    Parameters
    ----------
    where : str
        The source and its 1-based data row (``"file 'p.csv', row 3"``), or the source alone.
    value : label
        The label (a Python scalar).
    column : str
        Its column.
    labels : list
        The fixed labels.

    Returns
    -------
    ValueError

    Examples
    --------
    >>> print(label_error("file 'p.csv', row 3", 2, "y", [0, 1]))
    file 'p.csv', row 3: label 2 (column 'y') is not in the fixed labels [0, 1]
    """
    return ValueError(f"{where}: label {value!r} (column {column!r}) is not in "
                      f"{say('the fixed labels', 'labels')} {labels}")


def first_outside_label(y_true: Any, y_pred: Any,
                        labels: list[Any]) -> tuple[int, Any, int] | None:
    """Where the first label outside the fixed ``labels`` is (to name its row and column once
    the accumulator refused a batch), found by the door's encoding
    (:func:`confmat.inputs.encode.encode_pair`).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        The labels of a batch, in row order, without missing values.
    labels : list
        The fixed labels.

    Returns
    -------
    (int, label, int) or None
        The 0-based position, the label (a Python scalar) and 0 for ``y_true`` or 1 for
        ``y_pred``; None when every label is in ``labels`` or the labels cannot be encoded
        (the refusal was about something else).

    Examples
    --------
    >>> first_outside_label(np.array([0, 1, 1]), np.array([1, 2, 3]), [0, 1])
    (1, 2, 1)
    >>> first_outside_label(np.array([0, 1]), np.array([1, 0]), [0, 1]) is None
    True
    """
    try:
        tc, pc, book, other = encode_pair(y_true, y_pred, labels)
    except (ValueError, TypeError):
        return None
    if not other:
        return None
    k = len(book)
    i = int(np.flatnonzero((tc == k) | (pc == k))[0])
    which = 0 if tc[i] == k else 1
    return i, py_scalar(np.asarray((y_true, y_pred)[which])[i]), which


def first_bad_probability_row(scores: Any) -> int | None:
    """Where the first row of several score columns that does not sum to 1 is (to name its
    data row once the histogram refused a batch), by the door's one rule
    (:func:`confmat.inputs.probabilities.first_row_off_one`).

    Parameters
    ----------
    scores : array-like of numbers, shape (n, k)
        The scores of a batch, one column per class.

    Returns
    -------
    int or None
        The 0-based row, or None when every row sums to 1 (or the scores are not a 2-D array
        of numbers).

    Examples
    --------
    >>> first_bad_probability_row([[0.5, 0.5], [1.0, 0.0], [0.75, 0.5], [0.9, 0.9]])
    2
    >>> first_bad_probability_row([[0.5, 0.5]]) is None
    True
    """
    try:
        s = np.asarray(scores, dtype=np.float64)
    except (ValueError, TypeError):
        return None
    return first_row_off_one(s) if s.ndim == 2 else None


#: ``check(pred_values, rows)``: the one rule on the predictions of one batch, their data rows
PredictionCheck = Callable[[Any, Any], None]


def check_predictions_beside_score(where: str, true_col: str, pred_col: str, score_col: str,
                                   true_classes: list[Any], predicted: list[Any], pos: Any,
                                   scan: Callable[[PredictionCheck], ValueError | None]
                                   ) -> None:
    """Check the predicted labels beside one score column by the one rule
    (:func:`confmat.inputs.decisions.check_scored_columns`): first on the distinct
    labels counted, and on a refusal again batch by batch in file order (``scan``, only
    then), so that the message names the data row of the first stray label.

    Parameters
    ----------
    where : str
        Names the source (``"file 'p.csv'"``).
    true_col, pred_col, score_col : str
        The columns, for the message.
    true_classes : list
        The sorted classes of the true labels.
    predicted : list
        The distinct predicted labels.
    pos : label
        The class the score column scores.
    scan : callable
        ``scan(check)`` calls ``check(pred_values, data_rows)`` on the valid rows of the
        source in order and returns the first ``ValueError`` it raised (None if none).

    Raises
    ------
    ValueError
        A predicted label is no class of ``true_col`` nor ``pos``: the message of
        :func:`~confmat.inputs.decisions.check_scored_columns`, with the data row when
        ``scan`` finds it.

    Examples
    --------
    >>> def scan(check):
    ...     try:
    ...         check(["a", "eggs"], [7, 9])
    ...     except ValueError as exc:
    ...         return exc
    >>> check_predictions_beside_score("file 'p.csv'", "y", "yhat", "p", ["a", "b"],
    ...                                ["a", "b"], "b", scan)
    >>> check_predictions_beside_score("file 'p.csv'", "y", "yhat", "p", ["a", "b"],
    ...                                ["a", "eggs"], "b", scan)
    Traceback (most recent call last):
    ...
    ValueError: file 'p.csv': column 'yhat' holds label 'eggs' (first in data row 9), which is not one of the classes of column 'y' ['a', 'b']; the scores (column 'p') are scores of the classes of column 'y'
    """

    def check(values: Any, rows: Any = None) -> None:
        check_scored_columns(where, true_col, pred_col, [score_col], true_classes, values,
                             rows=rows, pos_label=pos)

    try:
        check(predicted)
    except ValueError as exc:
        raise (scan(check) or exc) from None
