"""scikit-learn's target-type rules, written once for the drop-in functions.

scikit-learn sorts every target into one of a few *types* (``binary``, ``multiclass``,
``multilabel-indicator``, ``continuous``, ``multiclass-multioutput``, ...) and its metrics
accept or refuse a pair of targets by their types. The functions of :mod:`confmat.sklearn` ask
this module which type an argument is, turn column vectors of shape (n, 1) into 1-D arrays and
refuse what scikit-learn refuses, with an error of the same class; the labels themselves are then
validated and coded by confmat's input door (:mod:`confmat.inputs`) and counted by its kernels.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from .. import deps
from ..inputs.containers import check_arrow_nulls, check_unmasked
from ..inputs.targets import check_weights
from ..metrics import UndefinedMetricWarning as ConfmatUndefined

F = TypeVar("F", bound=Callable[..., Any])



def undefined_warning() -> type[Warning]:
    """scikit-learn's ``UndefinedMetricWarning`` when scikit-learn is installed, else confmat's.

    Returns
    -------
    type
        A warning class.
    """
    if deps.installed("sklearn"):
        module = deps.optional("sklearn.exceptions")
        if module is not None:
            return module.UndefinedMetricWarning
    return ConfmatUndefined


def warn_undefined(message: str, stacklevel: int = 3) -> None:
    """Emit ``message`` as an undefined-metric warning (see :func:`undefined_warning`).

    Parameters
    ----------
    message
        str
    stacklevel
        int, default=3

    Returns
    -------
    None
        Only warns.
    """
    warnings.warn(message, undefined_warning(), stacklevel=stacklevel)


def sklearn_warnings(func: F) -> F:
    """Re-emit confmat's ``UndefinedMetricWarning`` raised inside ``func`` with scikit-learn's
    class, so that code filtering scikit-learn's warnings keeps working.

    Parameters
    ----------
    func
        callable

    Returns
    -------
    callable
        ``func`` with its warnings translated.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = func(*args, **kwargs)
        for w in caught:  # scikit-learn's class is looked up only when one is needed
            undefined = issubclass(w.category, ConfmatUndefined)
            category = undefined_warning() if undefined else w.category
            warnings.warn(str(w.message), category, stacklevel=2)
        return result

    return wrapper  # type: ignore[return-value]


def is_sparse(y: Any) -> bool:
    """True for a scipy sparse matrix or array (recognised without importing scipy).

    Parameters
    ----------
    y
        object

    Returns
    -------
    bool
        Whether ``y`` is sparse.
    """
    return type(y).__module__.startswith("scipy.sparse") and hasattr(y, "toarray")


def as_array(y: Any, name: str) -> Any:
    """``y`` as a numpy array (or the sparse matrix itself), as scikit-learn reads targets.

    Parameters
    ----------
    y
        array-like
    name
        str

    Returns
    -------
    ndarray or sparse matrix
        The values.
    """
    if is_sparse(y):
        return y
    if isinstance(y, str) or y is None or not (
        isinstance(y, Sequence | np.ndarray) or hasattr(y, "__array__") or hasattr(y, "to_numpy")
    ):
        raise ValueError(f"Expected array-like (array or non-string sequence), got {y!r}")
    y = check_unmasked(y, name)  # np.asarray would count the data under a mask
    check_arrow_nulls(y, name)  # to_numpy() of a chunked dictionary turns a null into a class
    numpy_dtype = getattr(getattr(y, "dtype", None), "numpy_dtype", None)
    if numpy_dtype is not None and hasattr(y, "isna") and not bool(np.any(y.isna())):
        arr = np.asarray(y.to_numpy(dtype=numpy_dtype))  # pandas nullable dtypes without NA
    elif hasattr(y, "to_numpy") and not isinstance(y, np.ndarray):
        try:
            arr = np.asarray(y.to_numpy())
        except (TypeError, ValueError):
            arr = np.asarray(y.to_numpy(zero_copy_only=False))
    else:
        try:
            arr = np.asarray(y)
        except ValueError:  # ragged sequences
            arr = np.asarray(y, dtype=object)
    if arr.dtype.kind == "c":
        raise ValueError(f"Complex data not supported\n{y}\n")
    return arr


def num_samples(y: Any) -> int:
    """Number of samples (rows) of an array-like.

    Parameters
    ----------
    y
        array-like

    Returns
    -------
    int
        Length of the first axis.
    """
    shape = getattr(y, "shape", None)
    if shape is not None:
        if len(shape) == 0:
            raise TypeError(f"Input should have at least 1 dimension i.e. satisfy "
                            f"`len(x.shape) > 0`, got scalar `{y!r}` instead.")
        return int(shape[0])
    return len(y)


def check_consistent_length(*arrays: Any, names: Sequence[str] | None = None) -> None:
    """Refuse arrays (None skipped) whose numbers of samples differ.

    Parameters
    ----------
    *arrays
        array-like or None
    names
        sequence of str, optional: the arguments' names, one per array, added to the message
        after scikit-learn's words.
    """
    lengths = [num_samples(a) for a in arrays if a is not None]
    if len(set(lengths)) > 1:
        which = ""
        if names is not None:
            given = [n for n, a in zip(names, arrays, strict=True) if a is not None]
            which = f" (the lengths of {', '.join(given)})"
        raise ValueError(
            f"Found input variables with inconsistent numbers of samples: {lengths}{which}"
        )


def column_or_1d(y: Any, name: str = "y") -> np.ndarray:
    """A 1-D array from ``y`` of shape (n,) or (n, 1).

    Parameters
    ----------
    y
        array-like
    name
        str, default='y'

    Returns
    -------
    ndarray
        1-D values.
    """
    if is_sparse(y):
        raise TypeError(
            "Sparse input is only supported when targets are of multilabel type"
        )
    arr = as_array(y, name)
    if arr.ndim == 1:
        return arr
    if arr.ndim == 2 and arr.shape[1] == 1:
        return arr.ravel()
    raise ValueError(
        f"{name} should be a 1d array, got an array of shape {arr.shape} instead."
    )


def _few_uniques(y: np.ndarray) -> int:
    """Number of distinct values, counted up to 3 (that is all the type needs)."""
    if y.size == 0:
        return 0
    if y.dtype.kind in "iubf":
        nan = 0
        if y.dtype.kind == "f":
            finite = ~np.isnan(y)
            if not finite.all():
                nan, y = 1, y[finite]
                if y.size == 0:
                    return 1
        lo, hi = y.min(), y.max()
        if lo == hi:
            return min(3, 1 + nan)
        inner = y[(y != lo) & (y != hi)]
        return min(3, (2 if inner.size == 0 else 3) + nan)
    return min(3, len(set(y.ravel().tolist())))


def is_multilabel(y: Any) -> bool:
    """scikit-learn's multilabel indicator test: 2-D, more than one column, at most two
    distinct values of which one is 0 (integers, booleans or integral floats).

    Parameters
    ----------
    y
        array-like or sparse matrix

    Returns
    -------
    bool
        Whether ``y`` is an indicator matrix.
    """
    arr = y if is_sparse(y) else as_array(y, "y")
    if arr.ndim != 2 or arr.shape[1] <= 1:
        return False
    if is_sparse(arr):
        data = np.asarray(arr.tocsr().data if arr.format in ("dok", "lil") else arr.data)
        values = np.unique(data)
        return data.size == 0 or (
            (values.size == 1 or (values.size == 2 and 0 in values))
            and (data.dtype.kind in "biu" or bool(np.all(data == data.astype(np.int64))))
        )
    if arr.dtype.kind not in "biuf":
        return False
    values = np.unique(arr)
    return values.size < 3 and (arr.dtype.kind in "biu" or bool(np.all(values == values.astype(np.int64))))


def type_of_target(y: Any, input_name: str = "", count_classes: bool = True) -> str:
    """scikit-learn's target type of ``y``.

    Returns one of ``'binary'``, ``'multiclass'``, ``'multilabel-indicator'``,
    ``'continuous'``, ``'continuous-multioutput'``, ``'multiclass-multioutput'`` or
    ``'unknown'``. With ``count_classes=False`` a 1-D discrete target is reported as
    ``'binary'`` without counting its classes (callers that count them anyway decide).

    Parameters
    ----------
    y
        array-like or sparse matrix
    input_name
        str, default=''
    count_classes
        bool, default=True

    Returns
    -------
    str
        The target type.
    """
    if is_sparse(y):
        arr = y
    else:
        arr = as_array(y, input_name or "y")
    if y.__class__.__name__ in ("SparseSeries", "SparseArray"):
        raise ValueError("y cannot be class 'SparseSeries' or 'SparseArray'")
    if is_multilabel(arr):
        return "multilabel-indicator"
    if arr.ndim >= 1 and arr.shape[0] > 0:
        first = arr[[0], :] if is_sparse(arr) else arr[0]
        if isinstance(first, bytes | np.bytes_):
            raise TypeError(
                "Support for labels represented as bytes is not supported. Convert the labels "
                "to a string or integer format."
            )
        if not hasattr(first, "__array__") and isinstance(first, Sequence) and not isinstance(
            first, str
        ):
            raise ValueError(
                "You appear to be using a legacy multi-label data representation. Sequence of "
                "sequences are no longer supported; use a binary array or sparse matrix instead"
                " - the MultiLabelBinarizer transformer can convert to this format."
            )
    if arr.ndim not in (1, 2):
        return "unknown"
    if min(arr.shape) == 0:
        return "binary" if arr.ndim == 1 else "unknown"
    if not is_sparse(arr) and arr.dtype == object and not isinstance(arr.flat[0], str):
        return "unknown"
    suffix = "-multioutput" if arr.ndim == 2 and arr.shape[1] > 1 else ""
    data = np.asarray(arr.data) if is_sparse(arr) else arr
    if data.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            integral = data.astype(np.int64)
        if np.any(data != integral):
            if not np.isfinite(data).all():
                what = "NaN" if np.isnan(data).any() else "infinity"
                raise ValueError(f"Input {input_name or 'y'} contains {what}.")
            return "continuous" + suffix
    if arr.ndim == 2 and arr.shape[1] > 1:
        return "multiclass" + suffix
    if not count_classes:
        return "binary"
    flat = data.ravel() if not is_sparse(arr) else data
    return "multiclass" if _few_uniques(flat) > 2 else "binary"


def check_labels_mix(*arrays: np.ndarray, names: str = "y_true and y_pred") -> None:
    """Refuse string labels together with numbers (scikit-learn's ``ValueError``).

    Parameters
    ----------
    *arrays
        ndarray
    names
        str, the arguments the arrays come from (named in the message).
    """
    kinds = set()
    for a in arrays:
        if a.dtype.kind in "US":
            kinds.add(True)
        elif a.dtype.kind == "O":
            kinds |= {isinstance(v, str) for v in set(a.tolist())}
        else:
            kinds.add(False)
    if len(kinds) > 1:
        got = " and ".join(str(np.unique(a.astype(str) if a.dtype == object else a)) for a in arrays)
        raise ValueError(f"Mix of label input types (string and number) in {names}; Got {got}.")


@dataclass
class Targets:
    """A checked pair of targets: their type, 1-D arrays or dense 0/1 indicator matrices.

    Parameters
    ----------
    kind
        str
    y_true
        ndarray
    y_pred
        ndarray
    sample_weight
        array-like or None
    """

    kind: str
    y_true: np.ndarray
    y_pred: np.ndarray
    sample_weight: Any


def dense_indicator(y: Any) -> np.ndarray:
    """A multilabel indicator (dense or sparse) as a dense boolean matrix.

    Parameters
    ----------
    y
        array-like or sparse matrix

    Returns
    -------
    ndarray of bool
        The indicator matrix.
    """
    arr = y.toarray() if is_sparse(y) else np.asarray(y)
    return arr != 0


def check_targets(y_true: Any, y_pred: Any, sample_weight: Any = None) -> Targets:
    """Check that ``y_true`` and ``y_pred`` are one classification task (scikit-learn's
    rules): equal lengths, no mix of multilabel with anything else, no continuous or
    multi-output targets, no strings mixed with numbers; column vectors become 1-D.

    The kind of 1-D targets is ``'binary'`` until their classes are counted: the caller
    sets ``'multiclass'`` when the union of labels has more than two.

    Parameters
    ----------
    y_true
        array-like or sparse matrix
    y_pred
        array-like or sparse matrix
    sample_weight
        array-like, optional

    Returns
    -------
    Targets
        The checked pair.
    """
    if sample_weight is not None and np.ndim(sample_weight) == 0:
        check_weights(sample_weight, 1)  # the door refuses a scalar, naming sample_weight
    check_consistent_length(y_true, y_pred, sample_weight)
    t_kind = type_of_target(y_true, input_name="y_true", count_classes=False)
    p_kind = type_of_target(y_pred, input_name="y_pred", count_classes=False)
    for y in (y_true, y_pred):
        if num_samples(y) < 1:
            raise ValueError(
                "Found empty input array (e.g., `y_true` or `y_pred`) while a minimum of 1 "
                "sample is required."
            )
    kinds = {t_kind, p_kind}
    if kinds == {"binary", "multiclass"}:
        kinds = {"multiclass"}
    if len(kinds) > 1:
        raise ValueError(
            f"Classification metrics can't handle a mix of {t_kind} and {p_kind} targets"
        )
    kind = kinds.pop()
    if kind not in ("binary", "multiclass", "multilabel-indicator"):
        raise ValueError(f"{kind} is not supported (y_true and y_pred)")
    if kind == "multilabel-indicator":
        t, p = dense_indicator(y_true), dense_indicator(y_pred)
        if t.shape[1] != p.shape[1]:
            raise ValueError("Multi-label binary indicator input with different numbers of labels")
        return Targets(kind, t, p, sample_weight)
    t = column_or_1d(y_true, "y_true")
    p = column_or_1d(y_pred, "y_pred")
    check_labels_mix(t, p)
    if (t.dtype.kind == "b") != (p.dtype.kind == "b") and {t.dtype.kind, p.dtype.kind} <= set("biuf"):
        t, p = (a.astype(np.int64) if a.dtype.kind == "b" else a for a in (t, p))  # True == 1
    return Targets(kind, t, p, sample_weight)


def labels_as_targets(tg: Targets, labels: list[Any]) -> list[Any]:
    """``labels=`` matched to 1-D targets as scikit-learn matches them, ``True == 1`` and
    ``False == 0`` across booleans and numbers: booleans among the labels of numeric targets
    become 0 / 1, and boolean targets become 0 / 1 (in ``tg``) when the labels hold numbers.

    confmat's counting refuses to pair booleans with numbers (see
    :func:`confmat.inputs.kinds.check_seen_kinds`); the drop-in follows scikit-learn, whose
    label lookup is Python's equality.

    Parameters
    ----------
    tg
        Targets (1-D), changed in place when they are boolean and ``labels`` holds numbers.
    labels
        list, the user's labels as Python scalars.

    Returns
    -------
    list
        The labels, booleans as 0 / 1 where the targets are numbers.

    Examples
    --------
    >>> import numpy as np
    >>> tg = Targets("binary", np.array([True, False]), np.array([True, True]), None)
    >>> labels_as_targets(tg, [1, 0]), tg.y_true.dtype.kind
    ([1, 0], 'i')
    >>> tg = Targets("binary", np.array([1, 0]), np.array([1, 1]), None)
    >>> labels_as_targets(tg, [True, False])
    [1, 0]
    """
    flags = [isinstance(v, bool | np.bool_) for v in labels]
    if all(flags) and tg.y_true.dtype.kind == "b":
        return labels
    numbers = [not f and isinstance(v, int | float | np.number) for v, f in zip(labels, flags, strict=True)]
    if tg.y_true.dtype.kind == "b" and any(numbers):
        tg.y_true, tg.y_pred = tg.y_true.astype(np.int64), tg.y_pred.astype(np.int64)
    if tg.y_true.dtype.kind in "iuf" and any(flags):
        return [int(v) if f else v for v, f in zip(labels, flags, strict=True)]
    return labels
