"""The door for score-taking functions: ``y_true``, scores, ``sample_weight`` and ``pos_label``.

Every function that takes scores (curves, AUC, threshold sweeps, score histograms, score
intervals and tests, model comparison, reports, plots and the command line) validates its
arguments here and receives sorted classes with integer codes, finite float64 scores, weights,
and the positive class resolved by one rule (:func:`resolve_pos_label`):

* labels within {0, 1}, {-1, 1} or {False, True}: the positive class is 1 (True);
* any other labels: ``pos_label`` is required, and the error lists the labels found;
* an explicit ``pos_label`` must occur in ``y_true``.

The score arrays themselves are checked in :mod:`confmat.inputs.scores` (finite float64,
integer scores float64 keeps apart, histogram bins); its functions stay importable from here.
A caller that asks several questions of one ``y_true`` encodes it once with
:func:`encoded_truth` and passes the :class:`~confmat.inputs.truth.EncodedTruth` on: every
function here reads it as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..words import arg, arg_value, give, say
from .encode import as_1d, check_sample_weight, factorize
from .kinds import label_kind, py_scalar
from .score_shape import check_score_length
from .scores import (
    MAX_BINS,
    check_bins,
    check_integer_scores,
    check_scores_1d,
    check_scores_2d,
    finite_float,
    float_scores,
    numeric_1d,
)
from .truth import EncodedTruth

__all__ = [
    "MAX_BINS",
    "BinaryTarget",
    "BinaryTruth",
    "EncodedTruth",
    "binary_pos_label",
    "binary_target",
    "binary_truth",
    "check_bins",
    "check_integer_scores",
    "check_pos_label_kind",
    "check_scores_1d",
    "check_scores_2d",
    "check_weights",
    "default_pos_label",
    "encode_truth",
    "encoded_truth",
    "finite_float",
    "float_scores",
    "negative_label",
    "numeric_1d",
    "one_class_book",
    "resolve_pos_label",
]


def encode_truth(y_true: Any, name: str = "y_true") -> tuple[list[Any], np.ndarray]:
    """Sorted classes of ``y_true`` and int64 codes into them.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or EncodedTruth
        Labels of one kind (numbers, strings or booleans); no missing values. An
        :class:`~confmat.inputs.truth.EncodedTruth` (:func:`encoded_truth`) is read as it
        is: its classes (a new list) and its read-only codes.
    name : str, default='y_true'
        The labels' argument name, for error messages (``y_true_b`` for a second sample).

    Returns
    -------
    classes : list
        The distinct labels, sorted, as Python scalars.
    codes : ndarray of int64, shape (n_samples,)
        ``classes[codes[i]] == y_true[i]``.

    Raises
    ------
    ValueError
        ``y_true`` is empty, not 1-D, or holds missing values.
    TypeError
        ``y_true`` mixes kinds of labels.

    Examples
    --------
    >>> classes, codes = encode_truth(["sick", "healthy", "sick"])
    >>> classes, codes.tolist()
    (['healthy', 'sick'], [1, 0, 1])
    """
    if isinstance(y_true, EncodedTruth):
        return list(y_true.classes), y_true.codes
    y = as_1d(y_true, name)
    if y.shape[0] == 0:
        raise ValueError(f"{arg(name)} is empty; at least one sample is needed")
    if y.dtype.kind in "iub":  # small integer range: count instead of sorting
        lo, hi = int(y.min()), int(y.max())
        if hi - lo < 1024:
            shifted = y.astype(np.int64, copy=False) - lo if lo else y.astype(np.int64, copy=False)
            if hi - lo <= 1:  # both ends occur: nothing to count (binary labels, one pass less)
                present = np.arange(hi - lo + 1)
            else:
                present = np.flatnonzero(np.bincount(shifted, minlength=hi - lo + 1))
            lut = np.zeros(hi - lo + 1, dtype=np.int64)
            lut[present] = np.arange(present.size)
            values = (present + lo).tolist()
            classes = [bool(v) for v in values] if y.dtype.kind == "b" else values
            codes = shifted if present.size == hi - lo + 1 else lut[shifted]
            return classes, codes
    uniq, codes = factorize(y, name)
    classes = [py_scalar(v) for v in uniq.tolist()]
    order = sorted(range(len(classes)), key=classes.__getitem__)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return [classes[i] for i in order], rank[codes]


def encoded_truth(y_true: Any, name: str = "y_true") -> EncodedTruth:
    """``y_true`` encoded once, for a caller that hands it to several functions of the door.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or EncodedTruth
        Labels, as :func:`encode_truth` takes them; an ``EncodedTruth`` is returned as it is.
    name : str, default='y_true'
        The labels' argument name, for error messages.

    Returns
    -------
    EncodedTruth
        The sorted classes and read-only codes (:class:`confmat.inputs.truth.EncodedTruth`).

    Raises
    ------
    ValueError, TypeError
        As :func:`encode_truth`.

    Examples
    --------
    >>> t = encoded_truth(["sick", "healthy", "sick"])
    >>> t.classes, encoded_truth(t) is t, binary_truth(t, "sick").pos.tolist()
    (('healthy', 'sick'), True, [True, False, True])
    """
    if isinstance(y_true, EncodedTruth):
        return y_true
    classes, codes = encode_truth(y_true, name)
    return EncodedTruth(tuple(classes), codes)


def check_weights(sample_weight: Any, n: int) -> np.ndarray | None:
    """Validated sample weights, or None when absent or all equal to 1.

    Parameters
    ----------
    sample_weight : array-like of shape (n,) or None
        Non-negative finite weights.
    n : int
        Number of samples.

    Returns
    -------
    ndarray of float64 or None

    Raises
    ------
    ValueError
        Wrong length, negative or non-finite weights.

    Examples
    --------
    >>> check_weights([1, 1], 2) is None, check_weights([1, 2], 2).tolist()
    (True, [1.0, 2.0])
    """
    w = check_sample_weight(sample_weight, n)
    if w is not None and bool((w == 1).all()):
        return None
    return w


def default_pos_label(classes: list[Any]) -> Any:
    """The positive class implied by ``classes`` alone, or None when ``pos_label`` is needed.

    Parameters
    ----------
    classes : list
        Distinct labels.

    Returns
    -------
    label or None
        True for booleans, 1 for labels within {0, 1} or {-1, 1}, else None.

    Examples
    --------
    >>> default_pos_label([-1, 1]), default_pos_label([False, True]), default_pos_label([1, 2])
    (1, True, None)
    """
    kinds = {label_kind(c) for c in classes}
    if not kinds <= {"number", "bool"}:
        return None
    if kinds == {"bool"}:
        return True
    if set(classes) <= {0, 1} or set(classes) <= {-1, 1}:
        return 1
    return None


def resolve_pos_label(classes: list[Any], pos_label: Any, name: str = "y_true") -> Any:
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
    name : str, default='y_true'
        What ``classes`` were read from, for the error message.

    Returns
    -------
    label
        The positive class: the class equal to ``pos_label`` (``1`` for ``pos_label=1.0``),
        or 1 (True) when it was not given.

    Raises
    ------
    ValueError
        ``pos_label`` is None and the labels are not {0, 1}, {-1, 1} or {False, True};
        ``pos_label`` is not one of ``classes``, or is a boolean for number classes (or a
        number for boolean ones).

    Examples
    --------
    >>> resolve_pos_label([0, 1], None)
    1
    >>> resolve_pos_label(["healthy", "sick"], "sick")
    'sick'
    >>> resolve_pos_label(["healthy", "sick"], None)
    Traceback (most recent call last):
    ...
    ValueError: y_true takes values ['healthy', 'sick'] and pos_label is not specified: ...
    """
    if pos_label is None:
        found = default_pos_label(classes)
        if found is None:
            raise ValueError(
                f"{arg(name)} takes values {classes} and {arg('pos_label')} is not specified: "
                f"either make {arg(name)} take values in {{0, 1}}, {{-1, 1}} or {{False, True}}, "
                f"or {say('pass pos_label explicitly', 'pos_label', 'give {}')}"
            )
        return found
    pos_label = py_scalar(pos_label)
    if pos_label not in classes:
        raise ValueError(f"{arg_value('pos_label', pos_label)} is not one of the labels in "
                         f"{arg(name)} {classes}")
    found = classes[classes.index(pos_label)]
    check_pos_label_kind(classes, pos_label, name)
    return found


def check_pos_label_kind(classes: list[Any], pos_label: Any, name: str = "y_true") -> None:
    """Check that ``pos_label`` is of the kind of the classes (number, string, bool, ...),
    also where it is not among them (a chunk of one class that lacks the positive class).

    ``True == 1`` in Python, but a boolean is not the class 1 (labels of two kinds never mix
    in confmat); ``1.0`` for the class 1 is the same number and is accepted.

    Parameters
    ----------
    classes : list
        The distinct labels found (none: nothing to check).
    pos_label : label
        The user's ``pos_label`` argument (not None).
    name : str, default='y_true'
        What ``classes`` were read from, for the error message.

    Raises
    ------
    ValueError
        ``pos_label`` is of another kind than the classes; the message names the class it
        would stand for, when one is equal to it.

    Examples
    --------
    >>> check_pos_label_kind([0, 1], 1.0)
    >>> check_pos_label_kind([0], True)
    Traceback (most recent call last):
    ...
    ValueError: pos_label=True is a bool, but the labels in y_true [0] are of kind number
    """
    if not classes:
        return
    pos_label = py_scalar(pos_label)
    found = classes[classes.index(pos_label)] if pos_label in classes else classes[0]
    if label_kind(found) != label_kind(pos_label):
        hint = f"; {give('pos_label', found)}" if pos_label in classes else ""
        raise ValueError(f"{arg_value('pos_label', pos_label)} is a {label_kind(pos_label)}, "
                         "but the labels "
                         f"in {arg(name)} {classes} are of kind {label_kind(found)}{hint}")


def one_class_book(classes: list[Any], pos_label: Any) -> list[Any] | None:
    """The classes of a binary problem whose data show one class only: that class and the
    positive class, which no sample holds (a model that selects nobody, on samples that are
    all negative). The positive class is ``pos_label`` or, without it, the one implied by the
    class seen (:func:`default_pos_label`: 1 beside 0 or -1, True beside False).

    scikit-learn's binary metrics accept such data, and fairlearn's rates are defined on them
    (a selection rate of 0); with two classes seen, a ``pos_label`` among neither stays an
    error (:func:`resolve_pos_label`).

    Parameters
    ----------
    classes : list
        The sorted classes found in the data.
    pos_label : label or None
        The user's ``pos_label`` argument.

    Returns
    -------
    list or None
        The two classes sorted, or None when there is nothing to add (several classes seen,
        the positive class among them, no positive class implied, or one of another kind).

    Examples
    --------
    >>> one_class_book([0], None), one_class_book(["no"], "yes"), one_class_book([1], None)
    ([0, 1], ['no', 'yes'], None)
    >>> one_class_book(["no"], None), one_class_book([0], "yes"), one_class_book([0, 2], 1)
    (None, None, None)
    """
    if len(classes) != 1:
        return None
    seen = classes[0]
    pos = default_pos_label(classes) if pos_label is None else py_scalar(pos_label)
    if pos is None or label_kind(pos) != label_kind(seen) or pos == seen:
        return None
    return sorted([seen, pos])


def binary_pos_label(labels: list[Any], pos_label: Any, name: str = "labels") -> Any:
    """The positive class declared by ``pos_label`` beside given ``labels``: a positive class
    makes a problem binary, so the labels must name two classes, ``pos_label`` among them.

    Parameters
    ----------
    labels : list
        The given classes (validated by :func:`confmat.inputs.encode.normalize_labels`).
    pos_label : label
        The user's ``pos_label`` argument (not None).
    name : str, default='labels'
        The argument that gave ``labels``, for the error message.

    Returns
    -------
    label
        ``pos_label`` as a Python scalar.

    Raises
    ------
    ValueError
        ``labels`` name more (or fewer) than two classes, or ``pos_label`` is not one of them.

    Examples
    --------
    >>> binary_pos_label(["no", "yes"], "yes")
    'yes'
    >>> binary_pos_label([0, 1, 2], 1)
    Traceback (most recent call last):
    ...
    ValueError: pos_label=1 declares a binary positive class but labels [0, 1, 2] name 3 classes; give two labels, or no pos_label for one score column per class
    """
    if len(labels) != 2:
        raise ValueError(
            f"{arg_value('pos_label', py_scalar(pos_label))} declares a binary positive class but "
            f"{arg(name)} {labels} name {len(labels)} classes; give two labels, or no "
            f"{arg('pos_label')} for one score column per class"
        )
    return resolve_pos_label(labels, pos_label, name)


def negative_label(classes: list[Any], pos_label: Any) -> Any:
    """The name of the negative class: the other class of binary labels, else ``not <pos>``.

    Parameters
    ----------
    classes : list
        Distinct labels of ``y_true``.
    pos_label : label
        The resolved positive class.

    Returns
    -------
    label

    Examples
    --------
    >>> negative_label(["healthy", "sick"], "sick"), negative_label([0, 1, 2], 2)
    ('healthy', 'not 2')
    """
    others = [c for c in classes if c != pos_label]
    if len(others) == 1:
        return others[0]
    if pos_label is True:
        return False
    return 0 if pos_label == 1 else f"not {pos_label}"


@dataclass(frozen=True)
class BinaryTruth:
    """``y_true`` of a binary score problem: which samples are positive, and the class names.

    Built by :func:`binary_truth`.

    Parameters
    ----------
    pos : ndarray of bool, shape (n_samples,)
        True where ``y_true == pos_label``; every other class is negative.
    pos_label, neg_label : label
        The positive class and the name of the negative one.
    classes : list
        The sorted distinct labels of ``y_true``.
    """

    pos: np.ndarray
    pos_label: Any
    neg_label: Any
    classes: list[Any]


def binary_truth(y_true: Any, pos_label: Any = None, true_name: str = "y_true") -> BinaryTruth:
    """Validate ``y_true`` and resolve the positive class (:func:`resolve_pos_label`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels; with ``pos_label`` any labels (other classes count as negative).
    pos_label : label, optional
        The positive class.
    true_name : str, default='y_true'
        The labels' argument name, for error messages.

    Returns
    -------
    BinaryTruth

    Raises
    ------
    ValueError
        Empty or invalid ``y_true``; ``pos_label`` missing for labels other than {0, 1},
        {-1, 1}, {False, True}; ``pos_label`` not in ``y_true``.

    Examples
    --------
    >>> t = binary_truth(["a", "b", "b"], pos_label="b")
    >>> t.pos.tolist(), t.neg_label
    ([False, True, True], 'a')
    """
    classes, codes = encode_truth(y_true, true_name)
    pos_label = resolve_pos_label(classes, pos_label, true_name)
    if pos_label in classes:
        pos = codes == classes.index(pos_label)
    else:  # the default positive 1 of labels such as [0] or [-1]
        pos = np.zeros(codes.shape[0], dtype=bool)
    return BinaryTruth(pos, pos_label, negative_label(classes, pos_label), classes)


@dataclass(frozen=True)
class BinaryTarget:
    """Validated binary problem: positive mask, float64 scores, weights or None.

    Built by :func:`binary_target`.

    Parameters
    ----------
    pos : ndarray of bool
        Which samples are positive.
    score : ndarray of float64
        Finite scores.
    weight : ndarray of float64 or None
        Sample weights (None when absent or all 1).
    pos_label, neg_label : label
        The positive class and the name of the negative one.
    classes : list
        The sorted distinct labels of ``y_true`` (what a caller that checks predictions
        beside the scores needs, without encoding ``y_true`` again).
    """

    pos: np.ndarray
    score: np.ndarray
    weight: np.ndarray | None
    pos_label: Any
    neg_label: Any
    classes: list[Any] = field(default_factory=list)


def binary_target(
    y_true: Any, y_score: Any, pos_label: Any = None, sample_weight: Any = None,
    score_name: str = "y_score", true_name: str = "y_true",
) -> BinaryTarget:
    """The door of binary score functions: truth, positive class, scores and weights.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class.
    pos_label : label, optional
        The positive class (see :func:`resolve_pos_label`).
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.
    score_name : str, default='y_score'
        The scores' argument name, for error messages.
    true_name : str, default='y_true'
        The labels' argument name, for error messages (``y_true_b`` for a second sample).

    Returns
    -------
    BinaryTarget

    Raises
    ------
    ValueError, TypeError
        Scores of another length than ``y_true``, checked first
        (:func:`~confmat.inputs.score_shape.check_score_length`); then as
        :func:`binary_truth`, :func:`check_scores_1d` and :func:`check_weights`.

    Examples
    --------
    >>> b = binary_target([0, 1, 1], [0.2, 0.9, 0.4])
    >>> b.pos.tolist(), b.pos_label, b.neg_label, b.weight, b.classes
    ([False, True, True], 1, 0, None, [0, 1])
    >>> binary_target(["a", "a"], [0.2, 0.9], "b", true_name="y_true_b")
    Traceback (most recent call last):
    ...
    ValueError: pos_label='b' is not one of the labels in y_true_b ['a']
    """
    check_score_length(y_true, y_score, score_name, true_name)  # before any content
    classes, codes = encode_truth(y_true, true_name)
    score = check_scores_1d(y_score, codes.shape[0], score_name)
    pos_label = resolve_pos_label(classes, pos_label, true_name)
    w = check_weights(sample_weight, codes.shape[0])
    if pos_label in classes:
        pos = codes == classes.index(pos_label)
    else:
        pos = np.zeros(codes.shape[0], dtype=bool)
    return BinaryTarget(pos, score, w, pos_label, negative_label(classes, pos_label),
                        classes)
