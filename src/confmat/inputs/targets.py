"""The door for score-taking functions: ``y_true``, scores, ``sample_weight`` and ``pos_label``.

Every function that takes scores (curves, AUC, threshold sweeps, score histograms, score
intervals and tests, model comparison, reports, plots and the command line) validates its
arguments here and receives sorted classes with integer codes, finite float64 scores, weights,
and the positive class resolved by one rule (:func:`resolve_pos_label`):

* labels within {0, 1}, {-1, 1} or {False, True}: the positive class is 1 (True);
* any other labels: ``pos_label`` is required, and the error lists the labels found;
* an explicit ``pos_label`` must occur in ``y_true``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .encode import all_finite, as_1d, check_sample_weight, factorize
from .kinds import label_kind, py_scalar

#: The most score bins a histogram takes: 10 million bins of [0, 1] are 1e-7 wide, finer than
#: a float32 score resolves, and their counts already take 80 MB per class and score column.
MAX_BINS = 10_000_000

__all__ = [
    "MAX_BINS",
    "BinaryTarget",
    "BinaryTruth",
    "binary_target",
    "binary_truth",
    "check_bins",
    "check_scores_1d",
    "check_scores_2d",
    "check_weights",
    "default_pos_label",
    "encode_truth",
    "finite_float",
    "float_scores",
    "negative_label",
    "numeric_1d",
    "resolve_pos_label",
]


def encode_truth(y_true: Any) -> tuple[list[Any], np.ndarray]:
    """Sorted classes of ``y_true`` and int64 codes into them.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Labels of one kind (numbers, strings or booleans); no missing values.

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
    y = as_1d(y_true, "y_true")
    if y.shape[0] == 0:
        raise ValueError("y_true is empty; at least one sample is needed")
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
    uniq, codes = factorize(y, "y_true")
    classes = [py_scalar(v) for v in uniq.tolist()]
    order = sorted(range(len(classes)), key=classes.__getitem__)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return [classes[i] for i in order], rank[codes]


def numeric_1d(x: Any, name: str) -> np.ndarray:
    """A 1-D array of numbers (scores, thresholds); NaN is reported by :func:`finite_float`.

    Parameters
    ----------
    x : array-like of shape (n,)
        The values.
    name : str
        The argument's name, used in error messages.

    Returns
    -------
    ndarray
        ``x`` as a 1-D array (dtype unchanged).

    Raises
    ------
    TypeError
        A list or tuple mixes numbers with other values.
    ValueError
        ``x`` is not 1-D.

    Examples
    --------
    >>> numeric_1d([0.5, 0.25], "thresholds").tolist()
    [0.5, 0.25]
    """
    if isinstance(x, list | tuple):
        arr = np.asarray(x)
        if arr.dtype == object:
            raise TypeError(f"{name} must contain numbers, got mixed or non-numeric values")
        x = arr
    return as_1d(x, name)


def check_scores_1d(y_score: Any, n: int, name: str = "y_score") -> np.ndarray:
    """One finite float64 score per sample.

    Parameters
    ----------
    y_score : array-like of shape (n,)
        Scores; higher means more likely positive.
    n : int
        Number of samples in ``y_true``.
    name : str, default='y_score'
        The argument's name, used in error messages.

    Returns
    -------
    ndarray of float64, shape (n,)

    Raises
    ------
    TypeError
        The scores are not numbers.
    ValueError
        Wrong length, not 1-D, NaN or infinite values (the first position is named).

    Examples
    --------
    >>> check_scores_1d([1, 0], 2).tolist()
    [1.0, 0.0]
    """
    return finite_float(numeric_1d(y_score, name), n, name)


def check_scores_2d(y_score: Any, n: int, name: str = "y_score") -> np.ndarray:
    """Finite float64 scores of shape (n, K): one column per class.

    Parameters
    ----------
    y_score : array-like of shape (n, K)
        Class scores (often probabilities).
    n : int
        Number of samples in ``y_true``.
    name : str, default='y_score'
        The argument's name, used in error messages.

    Returns
    -------
    ndarray of float64, shape (n, K)

    Raises
    ------
    TypeError
        ``y_score`` is None or not numeric.
    ValueError
        Not 2-D, wrong number of rows, NaN or infinite values.

    Examples
    --------
    >>> check_scores_2d([[0.2, 0.8], [0.6, 0.4]], 2).shape
    (2, 2)
    """
    if y_score is None:
        raise TypeError(f"{name} must be an array of scores, got None")
    s = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
    if s.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, n_classes), got shape {s.shape}")
    return finite_float(s, n, name)


def float_scores(s: np.ndarray, n: int, name: str) -> np.ndarray:
    """``s`` as float64 with ``n`` rows, finiteness not yet checked.

    For a caller whose next pass over the scores rejects NaN and infinite values anyway (the
    bin lookup of a score histogram); it then raises :func:`finite_float`'s error.

    Parameters
    ----------
    s : ndarray
        Numeric array whose first axis runs over the samples.
    n : int
        Expected number of rows.
    name : str
        The argument's name, used in error messages.

    Returns
    -------
    ndarray of float64

    Raises
    ------
    TypeError
        ``s`` is not numeric.
    ValueError
        ``s`` has another number of rows.

    Examples
    --------
    >>> float_scores(np.array([1, 2]), 2, "y_score").dtype
    dtype('float64')
    """
    if s.dtype.kind not in "iufb":
        raise TypeError(f"{name} must contain numbers, got dtype {s.dtype}")
    if s.shape[0] != n:
        raise ValueError(f"y_true and {name} have different lengths: {n} and {s.shape[0]}")
    out = s.astype(np.float64, copy=False)
    if s.dtype.kind in "iu" and s.size and (s.max() > 2**53 or s.min() < -(2**53)):
        check_integer_scores(s, name)
    return out


def check_integer_scores(s: np.ndarray, name: str) -> None:
    """Refuse integer scores that float64 cannot tell apart (beyond 2**53): two distinct
    scores of one column that round to the same float64 would become a tie and move the
    curve and its area.

    Parameters
    ----------
    s : ndarray of integers
        The scores, one row per sample.
    name : str
        The argument's name, used in the message.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        Naming two scores that become equal.

    Examples
    --------
    >>> s = np.array([2**62, 2**62 + 1])
    >>> check_integer_scores(s, "y_score")
    Traceback (most recent call last):
    ...
    ValueError: y_score: the integer scores 4611686018427387904 and 4611686018427387905 are both 4.611686018427388e+18 in float64 (integers beyond 2**53 are rounded), so their order would be lost; pass scores that float64 represents exactly, e.g. ranks or scaled values
    """
    ints = s.reshape(s.shape[0], -1)
    for j in range(ints.shape[1]):
        distinct = np.unique(ints[:, j])
        rounded = distinct.astype(np.float64)
        same = np.flatnonzero(rounded[1:] == rounded[:-1])
        if same.size:
            a, b = int(distinct[same[0]]), int(distinct[same[0] + 1])
            raise ValueError(
                f"{name}: the integer scores {a} and {b} are both {float(rounded[same[0]])!r} in "
                "float64 (integers beyond 2**53 are rounded), so their order would be lost; "
                "pass scores that float64 represents exactly, e.g. ranks or scaled values"
            )


def finite_float(s: np.ndarray, n: int, name: str) -> np.ndarray:
    """``s`` as finite float64 with ``n`` rows.

    Parameters
    ----------
    s : ndarray
        Numeric array whose first axis runs over the samples.
    n : int
        Expected number of rows.
    name : str
        The argument's name, used in error messages.

    Returns
    -------
    ndarray of float64

    Raises
    ------
    TypeError
        ``s`` is not numeric.
    ValueError
        ``s`` has another number of rows, or holds NaN / infinite values.

    Examples
    --------
    >>> finite_float(np.array([1, 2]), 2, "y_score").dtype
    dtype('float64')
    >>> finite_float(np.array([1e308, 1e308]), 2, "y_score").tolist()  # their sum overflows
    [1e+308, 1e+308]
    """
    s = float_scores(s, n, name)
    if all_finite(s):
        return s
    bad = ~np.isfinite(s)
    if not bad.any():  # finite scores whose sum overflows (two of 1e308)
        return s
    pos = np.argwhere(bad)[0]
    where = int(pos[0]) if s.ndim == 1 else tuple(int(i) for i in pos)
    what = "NaN" if np.isnan(s[tuple(pos)]) else "an infinite value"
    raise ValueError(f"{name} contains {what} at position {where}; scores must be finite")


def check_bins(bins: Any, name: str = "bins") -> int:
    """The number of equal-width score bins of a histogram: an integer from 1 to
    :data:`MAX_BINS`.

    Parameters
    ----------
    bins : int
        The number asked for.
    name : str, default "bins"
        The argument, for the message.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        Not an integer (booleans included), below 1 or above :data:`MAX_BINS`.

    Examples
    --------
    >>> check_bins(1000)
    1000
    >>> check_bins(10**20)
    Traceback (most recent call last):
    ...
    ValueError: bins must be a positive integer of at most 10_000_000, got 100000000000000000000
    """
    if (isinstance(bins, bool) or not isinstance(bins, int | np.integer)
            or not 1 <= bins <= MAX_BINS):
        raise ValueError(f"{name} must be a positive integer of at most {MAX_BINS:_}, got {bins!r}")
    return int(bins)


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
        The positive class: ``pos_label`` itself, or 1 (True) when it was not given.

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
    >>> resolve_pos_label(["healthy", "sick"], None)
    Traceback (most recent call last):
    ...
    ValueError: y_true takes values ['healthy', 'sick'] and pos_label is not specified: ...
    """
    if pos_label is None:
        found = default_pos_label(classes)
        if found is None:
            raise ValueError(
                f"{name} takes values {classes} and pos_label is not specified: either make "
                f"{name} take values in {{0, 1}}, {{-1, 1}} or {{False, True}}, or pass "
                "pos_label explicitly"
            )
        return found
    pos_label = py_scalar(pos_label)
    if pos_label not in classes:
        raise ValueError(f"pos_label={pos_label!r} is not one of the labels in {name} {classes}")
    return pos_label


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


def binary_truth(y_true: Any, pos_label: Any = None) -> BinaryTruth:
    """Validate ``y_true`` and resolve the positive class (:func:`resolve_pos_label`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels; with ``pos_label`` any labels (other classes count as negative).
    pos_label : label, optional
        The positive class.

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
    classes, codes = encode_truth(y_true)
    pos_label = resolve_pos_label(classes, pos_label)
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
    """

    pos: np.ndarray
    score: np.ndarray
    weight: np.ndarray | None
    pos_label: Any
    neg_label: Any


def binary_target(
    y_true: Any, y_score: Any, pos_label: Any = None, sample_weight: Any = None,
    score_name: str = "y_score",
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

    Returns
    -------
    BinaryTarget

    Raises
    ------
    ValueError, TypeError
        As :func:`binary_truth`, :func:`check_scores_1d` and :func:`check_weights`.

    Examples
    --------
    >>> b = binary_target([0, 1, 1], [0.2, 0.9, 0.4])
    >>> b.pos.tolist(), b.pos_label, b.neg_label, b.weight
    ([False, True, True], 1, 0, None)
    """
    classes, codes = encode_truth(y_true)
    score = check_scores_1d(y_score, codes.shape[0], score_name)
    pos_label = resolve_pos_label(classes, pos_label)
    w = check_weights(sample_weight, codes.shape[0])
    if pos_label in classes:
        pos = codes == classes.index(pos_label)
    else:
        pos = np.zeros(codes.shape[0], dtype=bool)
    return BinaryTarget(pos, score, w, pos_label, negative_label(classes, pos_label))
