"""The mark of a report's values that come from the zero-division rule, shared by every
format (text, Markdown, HTML tables, the threshold slider, the notebook view and
``str(cm)``), and the one rule of the accuracy matrix's rows that divide by zero."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["ZERO_DIVISION_MARK", "ZERO_DIVISION_NOTE", "empty_rows_note", "marked",
           "row_percentages"]

#: the mark of a value whose ratio divides by zero: the registry's zero-division rule (an
#: undefined ratio counts as 0.0, scikit-learn's ``zero_division=0``) gave it, and every format
#: (text, Markdown, HTML tables and threshold slider) writes it after the number; the notes
#: name the metrics (:data:`ZERO_DIVISION_NOTE`), the JSON lists the places (``undefined``)
ZERO_DIVISION_MARK = "\u2020"
#: the note of a report whose tables hold marked values, before the metrics' names
ZERO_DIVISION_NOTE = (f"{ZERO_DIVISION_MARK} undefined for some classes (a zero denominator), "
                      "each undefined ratio counted as 0.0 by the zero-division rule and the "
                      "marked values computed from it")


def marked(text: str, undefined: bool) -> str:
    """A formatted value with :data:`ZERO_DIVISION_MARK` after it when it is undefined.

    Parameters
    ----------
    text : str
        The value as the tables write it.
    undefined : bool
        Whether its ratio divides by zero (the value comes from the zero-division rule).

    Returns
    -------
    str

    Examples
    --------
    >>> marked("0.0000", True), marked("0.5000", False)
    ('0.0000†', '0.5000')
    """
    return text + ZERO_DIVISION_MARK if undefined else text


def row_percentages(counts: Any) -> tuple[np.ndarray, np.ndarray]:
    """The accuracy matrix (Kneusel 2021): each row of a confusion matrix in percent of its
    total, and which rows divide by zero.

    A row that holds no sample (a class absent from the truth) is 0 / 0: its percentages
    are the zero-division rule's 0.0 (scikit-learn's ``zero_division=0``, the value of that
    class's recall), and every format writes them with :data:`ZERO_DIVISION_MARK` and the
    note :func:`empty_rows_note` - the report's accuracy matrix and heatmap, the notebook
    view and ``str(cm)``'s recall column alike.

    Parameters
    ----------
    counts : array-like of shape (K, K)
        Rows true class, columns predicted class (counts or sums of weights).

    Returns
    -------
    percentages : ndarray of shape (K, K)
    empty : ndarray of bool, shape (K,)
        The rows without a sample.

    Examples
    --------
    >>> pct, empty = row_percentages([[3, 1], [0, 0]])
    >>> pct.tolist(), empty.tolist()
    ([[75.0, 25.0], [0.0, 0.0]], [False, True])
    """
    c = np.asarray(counts, np.float64)
    tot = c.sum(axis=1, keepdims=True)
    empty = tot[:, 0] == 0
    return np.where(tot > 0, 100.0 * c / np.where(tot > 0, tot, 1.0), 0.0), empty


def empty_rows_note(labels: Sequence[Any], empty: Any) -> str | None:
    """The note under a table whose accuracy-matrix rows divide by zero (see
    :func:`row_percentages`), or None when none does.

    Parameters
    ----------
    labels : sequence
        The classes, in the table's order.
    empty : array-like of bool, shape (K,)
        Which rows hold no sample.

    Returns
    -------
    str or None

    Examples
    --------
    >>> print(empty_rows_note(["a", "b", "c"], [False, True, False]))
    † no true sample of b: its row's percentages (and its recall) are 0 / 0, counted as 0.0 by the zero-division rule
    >>> empty_rows_note(["a", "b"], [False, False]) is None
    True
    >>> print(empty_rows_note(["a", "b"], [True, True]))
    † no sample at all: every row's percentages, every recall and the accuracy are 0 / 0, counted as 0.0 by the zero-division rule
    """
    flags = np.asarray(empty, bool)
    names = [str(v) for v, e in zip(labels, flags, strict=True) if e]
    if not names:
        return None
    if flags.all():  # an empty table: the accuracy (trace / N) is 0 / 0 as well
        return (f"{ZERO_DIVISION_MARK} no sample at all: every row's percentages, every recall "
                "and the accuracy are 0 / 0, counted as 0.0 by the zero-division rule")
    rows, recall = ("its row's", "its recall") if len(names) == 1 \
        else ("their rows'", "their recalls")
    return (f"{ZERO_DIVISION_MARK} no true sample of {', '.join(names)}: {rows} "
            f"percentages (and {recall}) are 0 / 0, counted as 0.0 by the zero-division rule")
