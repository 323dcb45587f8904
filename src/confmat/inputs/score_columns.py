"""Which class the score columns of a file or a stream score: one column of a binary problem
or, with ``pos_label``, of one class against the rest; several columns, one per class.
One score column has one positive-class rule on every path (:func:`score_column_class`):
labels the caller gave keep their order (the column scores ``pos_label``, else the class
{0, 1}, {-1, 1}, {False, True} imply in either order, else the second);
labels discovered from the data follow scikit-learn's rule
(:func:`~confmat.inputs.targets.resolve_pos_label`: {0, 1}, {-1, 1}, {False, True} imply
1 / True, any other two labels need ``pos_label``), never the second label by its sorted
place. The columns of an in-memory score matrix are the classes of ``labels=`` or the sorted
classes of ``y_true`` (:func:`class_columns`); the scores of the positive class of binary
``y_true`` are the array itself when 1-D, else one column of an (n, 2) matrix
(:func:`positive_score_column`, whose column :func:`positive_column_index` picks). A file's
one score column is named by its column of true labels in the messages
(:func:`file_score_class`), whether the file is read whole or in batches."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..words import arg
from .encode import as_1d
from .kinds import py_scalar
from .targets import default_pos_label, resolve_pos_label

__all__ = [
    "check_score_columns",
    "class_columns",
    "file_column",
    "file_score_class",
    "one_column_class",
    "positive_column_index",
    "positive_score_column",
    "score_column_class",
    "score_columns_error",
    "scores_pos_label",
]


def score_columns_error(where: str, scores: list[str] | int, labels: list[Any]) -> ValueError:
    """The one error for score columns that do not fit the labels of a file, a stream or a
    score matrix (:func:`check_score_columns`).

    One column serves a binary problem (the scores of its positive class,
    :func:`score_column_class`), or with ``pos_label`` one class against the rest (:func:`one_column_class`); several columns
    are one per class, in label order.

    Parameters
    ----------
    where : str
        Names the source (``"file 'p.csv'"``, or the argument of a score matrix).
    scores : list of str or int
        The score columns given, or the number of columns of a score matrix.
    labels : list
        The sorted labels seen (true and predicted) or given.

    Returns
    -------
    ValueError
        To be raised by the caller.

    Examples
    --------
    >>> print(score_columns_error("file 'p.csv'", ["p"], ["a", "b", "c"]))
    file 'p.csv': 1 score column ['p'] but the labels are ['a', 'b', 'c']; give one score column per class, in label order, or pos_label, the class the one column scores (a binary problem: that class against every other)
    >>> print(score_columns_error("file 'p.csv'", ["p", "q", "r"], [0, 1]))
    file 'p.csv': 3 score columns ['p', 'q', 'r'] but the labels are [0, 1]; give one score column (of the positive class) or two, in label order
    """
    count = scores if isinstance(scores, int) else len(scores)
    plural = "s" if count > 1 else ""
    found = (f"{where} has {count} column{plural}" if isinstance(scores, int)
             else f"{where}: {count} score column{plural} {scores}")
    if len(labels) > 2:
        want = "one score column per class, in label order"
        if count == 1:
            want += (f", or {arg('pos_label')}, the class the one column scores (a binary "
                     "problem: that class against every other)")
    else:
        want = "one score column (of the positive class) or two, in label order"
    shown = f"{labels[:10]}{'...' if len(labels) > 10 else ''}"
    return ValueError(f"{found} but the labels are {shown}; give {want}")


def check_score_columns(s: np.ndarray, labels: list[Any], name: str = "y_score") -> None:
    """Refuse a score matrix whose columns do not fit the classes they score, in the words of
    :func:`score_columns_error`: one column per label, in label order (for two labels, one
    column or two).

    The check of every caller that knows its labels before it reads the scores (a
    :class:`~confmat.binned.ScoreHistogram`, a report's classes), so that the same matrix
    gets the same message wherever it is given.

    Parameters
    ----------
    s : ndarray
        The scores; only a 2-D array is checked (the caller's own rule refuses other
        shapes, or reads a 1-D array as the scores of one class).
    labels : list
        The classes the columns score, in column order.
    name : str, default 'y_score'
        The scores' argument name.

    Raises
    ------
    ValueError
        Another number of columns (:func:`score_columns_error`).

    Examples
    --------
    >>> check_score_columns(np.zeros((4, 3)), [0, 1, 2])
    >>> check_score_columns(np.zeros((4, 2)), [0, 1, 2])
    Traceback (most recent call last):
    ...
    ValueError: y_score has 2 columns but the labels are [0, 1, 2]; give one score column per class, in label order
    """
    width = s.shape[1] if s.ndim == 2 else None
    if width is None or width == len(labels) or (len(labels) == 2 and width == 1):
        return
    raise score_columns_error(arg(name), width, list(labels))


def one_column_class(true_classes: list[Any], labels: list[Any], pos_label: Any, *,
                     where: str, scores: list[str], name: str = "y_true") -> Any:
    """The class that one score column scores beside three or more labels: that class
    against the rest, as :class:`confmat.binned.ScoreHistogram` with ``pos_label`` and
    scikit-learn's ``roc_curve(y_true, y_score, pos_label=...)`` read one column.

    The positive class is ``pos_label``, which must be a class of ``y_true``
    (:func:`resolve_pos_label`), or without it the one the true classes imply
    ({0, 1}, {-1, 1}, {False, True}: then a third label can only be a predicted one, which
    :func:`confmat.inputs.decisions.check_scored_predictions` refuses).

    Parameters
    ----------
    true_classes : list
        The sorted classes of ``y_true``.
    labels : list
        The sorted labels seen, true and predicted (or given), for the message.
    pos_label : label or None
        The user's ``pos_label`` argument.
    where : str
        Names the source in the message (``"file 'p.csv'"``).
    scores : list of str
        The score column, for the message.
    name : str, default='y_true'
        What ``true_classes`` were read from, for the message.

    Returns
    -------
    label
        The positive class.

    Raises
    ------
    ValueError
        No ``pos_label`` and none implied (:func:`score_columns_error`), or a ``pos_label``
        that is no class of ``y_true``.

    Examples
    --------
    >>> one_column_class(["a", "b", "c"], ["a", "b", "c"], "c", where="f", scores=["p"])
    'c'
    >>> one_column_class(["a", "b", "c"], ["a", "b", "c"], None, where="f", scores=["p"])
    Traceback (most recent call last):
    ...
    ValueError: f: 1 score column ['p'] but the labels are ['a', 'b', 'c']; give one score column per class, in label order, or pos_label, the class the one column scores (a binary problem: that class against every other)
    """
    if pos_label is None:
        pos = default_pos_label(true_classes)
        if pos is None:
            raise score_columns_error(where, scores, labels)
        return pos
    return resolve_pos_label(true_classes, pos_label, name)


def score_column_class(true_classes: list[Any], labels: list[Any], pos_label: Any, *,
                       where: str, scores: list[str], name: str = "y_true",
                       labels_given: bool = False) -> Any:
    """The class that one score column scores, whatever the number of labels: the one rule
    of every path that reads one score column (a file counted by the engine's ``GROUP BY``
    or streamed, a DuckDB relation, an :class:`~confmat.Accumulator`, a Dask collection, the
    command line read whole or with ``--bins``).

    * Three or more labels: that class against the rest (:func:`one_column_class`).
    * Two labels given by the caller (``labels_given``: ``labels=[a, b]``, the command
      line's ``--labels``, as :class:`confmat.binned.ScoreHistogram` with ``labels``): the
      column scores ``pos_label`` (one of them); without it, the class the labels imply
      (1 of {0, 1} or {-1, 1}, True of {False, True}) in whatever order they were given
      (``labels=[1, 0]``, the positive class first as a 2x2 table is often written, still
      scores 1, as scikit-learn's ``roc_curve`` does), else the second label: the caller
      chose their order.
    * Labels discovered from the data: scikit-learn's rule on the true classes
      (:func:`~confmat.inputs.targets.resolve_pos_label`, the rule of ``roc_curve``): 1
      (True) beside {0, 1}, {-1, 1} or {False, True}, else ``pos_label``, which must be a
      true class; two other labels without ``pos_label`` are refused, never scored by their
      sorted place (the second of ``['cancer', 'healthy']`` would be the wrong class). A
      predicted-only label is never the scored class either: beside a truth of 0 a
      predicted 2 has no score (it is stray,
      :func:`confmat.inputs.decisions.check_scored_predictions`).

    Parameters
    ----------
    true_classes : list
        The sorted classes of ``y_true`` (read in chunks, where the whole truth is not
        known yet: the labels seen).
    labels : list
        The sorted labels seen, true and predicted, or the labels given.
    pos_label : label or None
        The user's ``pos_label`` argument.
    where : str
        Names the source in the message (``"file 'p.csv'"``).
    scores : list of str
        The score column, for the message.
    name : str, default='y_true'
        What ``true_classes`` were read from, for the message (a file's column:
        :func:`file_column`).
    labels_given : bool, default False
        Whether ``labels`` are the user's fixed classes rather than the labels seen.

    Returns
    -------
    label
        The class the column scores.

    Raises
    ------
    ValueError
        As :func:`one_column_class` beside three or more labels; beside labels discovered,
        none implied and no ``pos_label`` (the message names ``pos_label`` and the labels),
        or a ``pos_label`` that is no true class; beside two labels given, a ``pos_label``
        that is neither.

    Examples
    --------
    >>> score_column_class([0, 1], [0, 1], None, where="f", scores=["p"])
    1
    >>> score_column_class([0], [0, 1], None, where="f", scores=["p"])
    1
    >>> score_column_class([1], [1, 2], None, where="f", scores=["p"])
    1
    >>> score_column_class(["neg", "pos"], ["neg", "pos"], "pos", where="f", scores=["p"])
    'pos'
    >>> score_column_class(["a"], ["a", "b"], None, where="f", scores=["p"], labels_given=True)
    'b'
    >>> score_column_class([0, 1], [1, 0], None, where="f", scores=["p"], labels_given=True)
    1
    >>> score_column_class(["neg", "pos"], ["neg", "pos"], None, where="f", scores=["p"])
    Traceback (most recent call last):
    ...
    ValueError: y_true takes values ['neg', 'pos'] and pos_label is not specified: ...
    """
    if len(labels) > 2:
        return one_column_class(true_classes, labels, pos_label, where=where, scores=scores,
                                name=name)
    if labels_given and len(labels) == 2:
        if pos_label is not None:
            return resolve_pos_label(list(labels), pos_label, name)
        # labels that imply their positive class keep it in any order (labels=[1, 0] puts
        # the positive class first in a 2x2 table; its scores are still those of 1)
        implied = default_pos_label(list(labels))
        return labels[1] if implied is None else implied
    return resolve_pos_label(list(true_classes), pos_label, name)


def scores_pos_label(labels: Any, pos_label: Any, *, scores: str = "y_score") -> Any:
    """The ``pos_label`` an in-memory entry point passes on beside one score vector per model
    when the caller gave ``labels`` (:func:`confmat.groups.by_group`,
    :func:`confmat.report.build_comparison`, :func:`confmat.inference.compare`): the class
    :func:`score_column_class` names for labels given (the second of two, unless
    ``pos_label``), or ``pos_label`` as it is where that rule does not apply (no labels given,
    not two of them).

    Where scikit-learn's rule on the labels already implies that class (``[0, 1]`` scores 1)
    the result is ``None``, so that a caller whose defaults turn on ``pos_label`` (the
    averaging of per-class metrics) sees the call it saw before (``[1, 0]`` too: the class
    1 is implied in either order); ``['neg', 'pos']`` gives ``'pos'``.

    Parameters
    ----------
    labels : sequence or None
        The labels the caller gave, in their order.
    pos_label : label or None
        The caller's ``pos_label``.
    scores : str, default 'y_score'
        The scores' argument name, for the message.

    Returns
    -------
    label or None

    Raises
    ------
    ValueError
        A ``pos_label`` that is neither of two labels given (:func:`score_column_class`).

    Examples
    --------
    >>> scores_pos_label(["neg", "pos"], None), scores_pos_label([1, 0], None)
    ('pos', None)
    >>> scores_pos_label([0, 1], None) is None, scores_pos_label(None, "a")
    (True, 'a')
    """
    if labels is None or pos_label is not None:
        return pos_label
    given = [py_scalar(v) for v in as_1d(labels, "labels").tolist()]
    if len(given) != 2:
        return pos_label
    pos = score_column_class(given, given, None, where=arg(scores), scores=[scores],
                             name="labels", labels_given=True)
    implied = default_pos_label(given)
    return None if implied is not None and implied == pos else pos


def file_column(where: str, column: str, role: str | None = None) -> str:
    """A column of a file or a database relation as every message about the source names it.

    Parameters
    ----------
    where : str
        The source as its reader names it (``"file 'p.csv'"``).
    column : str
        The column.
    role : str, optional
        The argument the column stands for (``"y_true"``): where the caller's vocabulary
        names it otherwise (the command line's ``the --true column``), that name leads.

    Returns
    -------
    str

    Examples
    --------
    >>> file_column("file 'p.csv'", "y", "y_true")
    "column 'y' of file 'p.csv'"
    """
    said = "column" if role is None or arg(role) == role else arg(role)
    return f"{said} {column!r} of {where}"


def file_score_class(where: str, true_col: str, scores: list[str], true_classes: list[Any],
                     labels: list[Any], pos_label: Any, labels_given: bool = False) -> Any:
    """The class the one score column of a file scores: :func:`score_column_class` with the
    column of true labels named as messages about the source name it (:func:`file_column`),
    so that the library and the command line, a file read whole or in batches (``--bins``),
    give the same case the same answer and the same message (in the caller's words:
    ``pos_label`` in Python, ``--pos-label`` on the command line).

    Parameters
    ----------
    where : str
        The source as its reader names it (``"file 'p.csv'"``).
    true_col : str
        The column of true labels.
    scores : list of str
        The score column, for the message.
    true_classes : list
        The sorted classes of ``true_col`` (two labels read in batches: the labels seen).
    labels : list
        The sorted labels, true and predicted, or the labels given.
    pos_label : label or None
        The user's ``pos_label``, in the type of the labels.
    labels_given : bool, default False
        Whether ``labels`` are the user's (``labels=``, ``--labels``): the column then scores
        ``pos_label``, else the class two labels imply (1 / True), else the second of two.

    Returns
    -------
    label
        The class the column scores.

    Raises
    ------
    ValueError
        No ``pos_label`` where none is implied, or one that is no class of ``true_col``
        (:func:`score_column_class`).

    Examples
    --------
    >>> file_score_class("file 'p.csv'", "y", ["p"], [0, 1], [0, 1], None)
    1
    >>> file_score_class("file 'p.csv'", "y", ["p"], ["a", "b"], ["a", "b"], "z")
    Traceback (most recent call last):
    ...
    ValueError: pos_label='z' is not one of the labels in column 'y' of file 'p.csv' ['a', 'b']
    """
    return score_column_class(true_classes, labels, pos_label, where=where, scores=scores,
                              name=file_column(where, true_col, "y_true"),
                              labels_given=labels_given)


def class_columns(
    classes: list[Any], labels: Any, n_columns: int, name: str = "y_score"
) -> tuple[list[Any], dict[Any, int]]:
    """The label of each score column: ``labels`` (any order) or the sorted classes.

    Parameters
    ----------
    classes : list
        The sorted classes of ``y_true``.
    labels : array-like or None
        The class of each score column, as the user gave it.
    n_columns : int
        The number of score columns.
    name : str, default 'y_score'
        The score argument's name, for the messages.

    Returns
    -------
    (list, dict)
        The column labels, and each label's column index.

    Raises
    ------
    ValueError
        Without ``labels``, if the classes are not one per column; with it, if it repeats a
        label, has another length than the columns, or misses a class of ``y_true``.

    Examples
    --------
    >>> class_columns([0, 1, 2], [2, 0, 1], 3)
    ([2, 0, 1], {2: 0, 0: 1, 1: 2})
    """
    if labels is None:
        if len(classes) != n_columns:
            raise ValueError(
                f"y_true has {len(classes)} classes {classes} but {name} has {n_columns} "
                "columns; pass labels=[...] naming the class of each column"
            )
        cols = list(classes)
    else:
        cols = [py_scalar(v) for v in as_1d(labels, "labels").tolist()]
        if len(set(cols)) != len(cols):
            raise ValueError(f"labels must be unique, got {cols}")
        if len(cols) != n_columns:
            raise ValueError(
                f"labels has {len(cols)} entries but {name} has {n_columns} columns"
            )
        missing = [c for c in classes if c not in cols]
        if missing:
            raise ValueError(f"y_true contains labels not in labels: {missing}")
    return cols, {c: i for i, c in enumerate(cols)}


def positive_column_index(columns: list[Any], pos_label: Any) -> int:
    """The column of the positive class in (n, 2) scores whose columns are ``columns``.

    Parameters
    ----------
    columns : list
        The class of each of the two columns (the sorted classes of binary ``y_true``, or
        ``labels``).
    pos_label : label or None
        The positive class, resolved among ``columns`` by
        :func:`~confmat.inputs.targets.resolve_pos_label`.

    Returns
    -------
    int
        Its index; 1 (the second column) where ``columns`` are not two classes that hold it
        (a truth of one class).

    Raises
    ------
    ValueError
        A ``pos_label`` the rule refuses.

    Examples
    --------
    >>> positive_column_index(["sick", "healthy"], "sick")
    0
    >>> positive_column_index([0, 1], None)
    1
    """
    pos = resolve_pos_label(list(columns), pos_label)
    return columns.index(pos) if len(columns) == 2 and pos in columns else 1


def positive_score_column(classes: list[Any], s_arr: np.ndarray, y_score: Any, labels: Any,
                          pos_label: Any) -> Any:
    """The positive class's scores of binary input: ``y_score`` itself when 1-D, else the
    column of the positive class in a (n, 2) matrix whose columns follow ``labels`` (default:
    the sorted classes).

    Parameters
    ----------
    classes : list
        The sorted classes of ``y_true`` (two).
    s_arr : ndarray
        ``y_score`` as an array (for its shape).
    y_score : array-like
        The scores as the user gave them (returned as they are when 1-D).
    labels : array-like or None
        The class of each column of a 2-D ``y_score``.
    pos_label : label or None
        The positive class (see :func:`confmat.inputs.targets.resolve_pos_label`).

    Returns
    -------
    array-like
        The scores of the positive class.

    Raises
    ------
    ValueError
        ``labels`` with 1-D scores, a 2-D ``y_score`` without two columns, ``labels`` not
        naming the two classes, or a ``pos_label`` the rule refuses.

    Examples
    --------
    >>> s = np.array([[0.9, 0.1], [0.2, 0.8]])
    >>> positive_score_column(["healthy", "sick"], s, s, None, "sick").tolist()
    [0.1, 0.8]
    >>> positive_score_column([0, 1], np.zeros((2, 3)), None, None, None)
    Traceback (most recent call last):
    ...
    ValueError: y_score for binary y_true must be 1-D or (n, 2), got shape (2, 3)
    """
    if s_arr.ndim != 2:
        if labels is not None:
            raise ValueError(
                "labels names the columns of a 2-D y_score; for 1-D binary scores say which "
                "class they score with pos_label"
            )
        return y_score
    if s_arr.shape[1] != 2:
        raise ValueError(f"y_score for binary y_true must be 1-D or (n, 2), got shape {s_arr.shape}")
    cols = classes
    if labels is not None:
        resolve_pos_label(classes, pos_label)  # the rule's message before that of labels
        cols = [py_scalar(v) for v in as_1d(labels, "labels").tolist()]
        if len(cols) != 2 or not set(classes) <= set(cols):
            raise ValueError(f"labels must name the two classes {classes}, got {cols}")
    return s_arr[:, positive_column_index(cols, pos_label)]
