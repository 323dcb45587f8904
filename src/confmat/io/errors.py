"""The errors of a read about the values a source holds: a bad weight named by its data row,
and any check's error restated as a ``ValueError`` naming the source (what a file holds is a
value, whatever the type of the in-memory check that found it)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..inputs.files import Source


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
    return ValueError(f"{where}: column {weight_col!r} (sample_weight) holds {float(value)!r}; "
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
    from ..inputs.encode import check_sample_weight

    try:
        check_sample_weight(weights, weights.shape[0])
    except (ValueError, TypeError) as exc:
        bad = first_bad_weight(weights)
        if bad is None:
            raise ValueError(f"{where}: column {weight_col!r}: {exc}") from None
        raise weight_error(f"{where}, row {int(np.asarray(rows)[bad])}", weight_col,
                           weights[bad]) from None


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
        hint = " (the engine inferred the column types; column_types= can set them)"
    text = str(exc)
    return ValueError(f"{'' if text.startswith(source.name) else where + ': '}{text}{hint}")
