"""The door for the decisions made on scores: the costs of a binary decision, and the
predicted labels evaluated beside scores (which must be classes the scores are of)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .targets import encode_truth

__all__ = ["check_cost_matrix", "check_scored_columns", "check_scored_predictions"]


def check_cost_matrix(cost_matrix: Any, name: str = "cost_matrix") -> np.ndarray:
    """The costs of a binary decision as a finite float64 2 x 2 array.

    ``[[C_TN, C_FP], [C_FN, C_TP]]``: rows are the true class, columns the predicted class,
    in the order [negative, positive], as in the cost-sensitive threshold of Elkan (2001).

    Parameters
    ----------
    cost_matrix : array-like of shape (2, 2)
        The costs (any real numbers; a negative cost is a gain).
    name : str, default='cost_matrix'
        The argument's name, used in error messages.

    Returns
    -------
    ndarray of float64, shape (2, 2)

    Raises
    ------
    TypeError
        The entries are not numbers (booleans and strings included).
    ValueError
        Not a 2 x 2 array (ragged rows included), or an entry is NaN or infinite; the
        message names what was found.

    Examples
    --------
    >>> check_cost_matrix([[0, 1], [20, 0]]).tolist()
    [[0.0, 1.0], [20.0, 0.0]]
    >>> check_cost_matrix([[0, 1], [20]])
    Traceback (most recent call last):
    ...
    ValueError: cost_matrix must be a finite 2 x 2 array [[C_TN, C_FP], [C_FN, C_TP]] (rows true, columns predicted, order [negative, positive]) such as [[0, 1], [20, 0]]; got rows of lengths [2, 1]
    """
    rule = (f"{name} must be a finite 2 x 2 array [[C_TN, C_FP], [C_FN, C_TP]] (rows true, "
            "columns predicted, order [negative, positive]) such as [[0, 1], [20, 0]]")
    if isinstance(cost_matrix, list | tuple) and all(
            isinstance(r, list | tuple) for r in cost_matrix):
        lengths = [len(r) for r in cost_matrix]
        if len(set(lengths)) > 1:
            raise ValueError(f"{rule}; got rows of lengths {lengths}")
    try:
        c = np.asarray(cost_matrix)
    except ValueError:  # ragged nesting numpy refuses
        raise ValueError(f"{rule}; got {cost_matrix!r}") from None
    if c.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold numbers, got {c.dtype.name} values "
                        f"{c.ravel()[:4].tolist()}")
    if c.shape != (2, 2):
        raise ValueError(f"{rule}; got shape {c.shape}")
    c = c.astype(np.float64)
    bad = np.argwhere(~np.isfinite(c))
    if bad.size:
        i, j = (int(v) for v in bad[0])
        raise ValueError(f"{rule}; got {float(c[i, j])!r} in row {i + 1}, column {j + 1}")
    return c


def check_scored_predictions(classes: list[Any], y_pred: Any, *, name: str = "y_pred",
                             classes_name: str = "y_true", score_name: str = "y_score",
                             rows: Any = None, pos_label: Any = None) -> None:
    """Check that predictions evaluated beside scores are classes of the scores.

    Scores are scores of the classes of ``y_true`` (one column of the positive class, whose
    rest are the other true classes): a predicted label that is no class of ``y_true`` has no
    score and no place on the curves, and is most often a label written differently in the
    two columns (``"1"`` and ``"yes"``). Without scores such a label is a class of the
    matrix like any other.

    Two situations are legitimate and pass: a class of the scores that is never predicted
    (any subset of the classes may be predicted), and a predicted class absent from
    ``y_true`` that has its own score column. With one score column that class is the
    positive one (``pos_label``: a truth of one class, 0, beside scores of the class 1 that
    the default rule implies); with one column per class, a caller whose columns cover every
    class of the matrix has nothing to check and does not call this function. A truth of the
    positive class alone (every sample positive) does not name the negative class: one
    other predicted label is taken as that class (the rest of one score column), a second
    one is stray.

    Every path that takes predicted labels and scores goes through this check: the command
    line's ``report`` (``--score``, and ``--scores`` whose columns do not cover the
    classes), ``report --by ... --score``, ``compare --score``; :func:`confmat.by_group`
    with ``scores``; :func:`confmat.compare` with a model's ``{"pred": ..., "score": ...}``;
    :func:`confmat.report.build_report` with ``y_pred`` beside one score column, and so
    :func:`confmat.report.build_comparison`.

    Parameters
    ----------
    classes : list
        The sorted classes of ``y_true`` (:func:`encode_truth`).
    y_pred : array-like of shape (n_samples,)
        The predicted labels.
    name : str, default='y_pred'
        The predictions' name, used in the message.
    classes_name : str, default='y_true'
        What ``classes`` were read from, used in the message.
    score_name : str, default='y_score'
        The scores' name, used in the message.
    rows : array-like of int, optional
        The 1-based data row of each prediction in a file: the first stray label is then
        named by its data row instead of its position.
    pos_label : label, optional
        The resolved positive class of one score column
        (:func:`confmat.inputs.targets.resolve_pos_label`): a class of the scores, so a
        prediction of it passes even where ``y_true`` lacks it.

    Raises
    ------
    ValueError
        A predicted label is not one of ``classes``; the message names the first one and
        where it is.

    Examples
    --------
    >>> check_scored_predictions(["ham", "spam"], ["ham", "spam", "ham"])
    >>> check_scored_predictions(["ham", "spam"], ["ham", "eggs", "eggs"])
    Traceback (most recent call last):
    ...
    ValueError: y_pred holds label 'eggs' (first at position 1, counted from 0), which is not one of the classes of y_true ['ham', 'spam']; the scores (y_score) are scores of the classes of y_true

    A truth of one class beside the scores of the positive class, which is predicted:

    >>> check_scored_predictions([0], [0, 1, 0], pos_label=1)

    Every sample positive: one other predicted label is the negative class, a second is not.

    >>> check_scored_predictions([1], [1, 0, 1], pos_label=1)
    >>> check_scored_predictions([1], [1, 0, 2], pos_label=1)
    Traceback (most recent call last):
    ...
    ValueError: y_pred holds label 2 (first at position 2, counted from 0), which is not one of the classes of y_true [1] nor the negative class 0 that the other predictions name; the scores (y_score) are scores of the classes of y_true
    """
    pred_classes, codes = encode_truth(y_pred)
    scored = list(classes)
    also = ""
    if pos_label is not None and pos_label not in scored:
        scored.append(pos_label)
        also = f" nor the positive class {pos_label!r}"
    if pos_label is not None and all(c == pos_label for c in classes):
        # y_true holds the positive class alone: the rest of the one score column has no name
        # there, and the first other predicted label names it
        others = [c for c in pred_classes if c != pos_label]
        if others:
            scored.append(others[0])
            also = f" nor the negative class {others[0]!r} that the other predictions name"
    stray = [i for i, c in enumerate(pred_classes) if c not in scored]
    if not stray:
        return
    at = int(np.flatnonzero(np.isin(codes, stray))[0])
    where = (f"first in data row {int(np.asarray(rows)[at])}" if rows is not None
             else f"first at position {at}, counted from 0")
    raise ValueError(
        f"{name} holds label {pred_classes[int(codes[at])]!r} ({where}), which is not one "
        f"of the classes of {classes_name} {classes}{also}; the scores ({score_name}) are "
        f"scores of the classes of {classes_name}"
    )


def check_scored_columns(where: str, true_col: str, pred_col: str, score_cols: Sequence[str],
                         classes: list[Any], y_pred: Any, *, rows: Any = None,
                         pos_label: Any = None) -> None:
    """:func:`check_scored_predictions` on the columns of a file or a database relation, in
    the one wording of every path that reads them: counted by the engine, streamed in
    batches (``--bins``) and read whole by the command line say the same thing about the
    same stray label, the source named as its reader names it.

    Parameters
    ----------
    where : str
        The source as its reader names it (``"file 'p.csv'"``).
    true_col, pred_col : str
        The columns of true and predicted labels.
    score_cols : sequence of str
        The score column(s) beside the predictions.
    classes : list
        The sorted classes of ``true_col``.
    y_pred : array-like of shape (n_samples,)
        The predicted labels (all of them, or the distinct ones, or one batch).
    rows : array-like of int, optional
        The 1-based data row of each prediction (the message then names the first stray
        label's).
    pos_label : label, optional
        The class one score column scores (see :func:`check_scored_predictions`).

    Raises
    ------
    ValueError
        A predicted label is no class of ``true_col`` (nor ``pos_label``); the message names
        the source, the columns, the label and its data row.

    Examples
    --------
    >>> check_scored_columns("file 'p.csv'", "y", "yhat", ["p"], [0], [0, 2, 1],
    ...                      rows=[2, 3, 4], pos_label=1)
    Traceback (most recent call last):
    ...
    ValueError: file 'p.csv': column 'yhat' holds label 2 (first in data row 3), which is not one of the classes of column 'y' [0] nor the positive class 1; the scores (column 'p') are scores of the classes of column 'y'
    """
    scores = (f"column {score_cols[0]!r}" if len(score_cols) == 1
              else f"columns {list(score_cols)}")
    check_scored_predictions(classes, y_pred, rows=rows, pos_label=pos_label,
                             name=f"{where}: column {pred_col!r}",
                             classes_name=f"column {true_col!r}", score_name=scores)
