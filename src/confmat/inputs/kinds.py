"""What kind a label is, and whether labels of several kinds meet: the rules every input door
applies before counting (a missing value, a bool, a number, a string, ...). ``True == 1`` and
``1 == "1"`` never silently meet: labels that cannot be ordered together are a ``TypeError``.
"""

from __future__ import annotations

import datetime
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..deps import loaded
from ..words import arg

__all__ = [
    "EXACT_INT_IN_FLOAT", "check_known_kinds", "check_label_kinds", "check_seen_kinds",
    "is_missing", "label_kind", "py_scalar", "unify_numbers",
]

#: float64 holds every integer up to this magnitude exactly. Integers beyond it next to floats
#: keep their exact Python values (a list of such labels stays an object array in
#: :func:`confmat.inputs.encode.as_1d`, and :func:`unify_numbers` leaves them as they are).
EXACT_INT_IN_FLOAT = 2**53


def is_missing(x: Any) -> bool:
    """True for None, NaN, NaT (the values unequal to themselves) and pandas' ``NA``.

    Parameters
    ----------
    x : object
        One value.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_missing(float("nan")), is_missing(None), is_missing("a")
    (True, True, False)
    >>> import pandas as pd
    >>> is_missing(pd.NA)
    True
    """
    if x is None:
        return True
    try:
        return bool(x != x)  # NaN and NaT are the only values unequal to themselves
    except Exception:
        # pandas' NA compares to NA, whose truth value is ambiguous (an object of pandas
        # exists only once pandas is imported)
        pd = loaded("pandas")
        return pd is not None and x is pd.NA


def label_kind(v: Any) -> str:
    """Classify one label as 'bool', 'number', 'string', 'bytes', 'datetime', 'timedelta',
    'missing' or its type name.

    Parameters
    ----------
    v : object
        One label.

    Returns
    -------
    str

    Examples
    --------
    >>> [label_kind(v) for v in (True, 2.5, "a", None, b"x")]
    ['bool', 'number', 'string', 'missing', 'bytes']
    >>> import datetime
    >>> label_kind(datetime.datetime(2020, 1, 1)), label_kind(datetime.date(2020, 1, 1))
    ('datetime', 'date')
    """
    if isinstance(v, bool | np.bool_):
        return "bool"
    if is_missing(v):
        return "missing"
    if isinstance(v, numbers.Number):
        return "number"
    if isinstance(v, str | np.str_):
        return "string"
    if isinstance(v, bytes):
        return "bytes"
    # pandas' Timestamp / Timedelta are datetime / timedelta (equal and hashed alike); a date
    # never equals a datetime, so it stays a kind of its own
    if isinstance(v, datetime.datetime):
        return "datetime"
    if isinstance(v, datetime.timedelta):
        return "timedelta"
    return type(v).__name__


#: The kinds :func:`label_kind` names itself (any other is a type's name).
KNOWN_KINDS = frozenset({"bool", "missing", "number", "string", "bytes", "datetime", "timedelta"})


def check_label_kinds(uniques: Sequence[Any], name: str, what: str = "label") -> str | None:
    """Check that labels are defined and of one kind (so that they can be sorted).

    Parameters
    ----------
    uniques : sequence
        Distinct labels (or any labels: each is looked at once).
    name : str
        What they are, for messages.
    what : str, default "label"
        What one value is called in messages (``"group key"`` for the groups of an
        evaluation by group).

    Returns
    -------
    str or None
        Their kind (:func:`label_kind`), None when there are none.

    Raises
    ------
    ValueError
        A missing label (None or NaN).
    TypeError
        Labels of several kinds, or a label that is not hashable (a list, an array, a dict).

    Examples
    --------
    >>> check_label_kinds([1, 2.5], "labels")
    'number'
    >>> check_label_kinds([1, "a"], "labels")
    Traceback (most recent call last):
    ...
    TypeError: labels mixes label types that cannot be ordered together: ['number', 'string']
    >>> check_label_kinds([[1], [2]], "labels")
    Traceback (most recent call last):
    ...
    TypeError: labels holds a list at position 0 ([1]), which cannot be a label: labels are numbers, strings, booleans, dates or other hashable values
    """
    kinds = {label_kind(v) for v in uniques}
    if kinds - KNOWN_KINDS:  # another type: a label must be hashable (classes are looked up)
        for i, v in enumerate(uniques):
            if label_kind(v) not in KNOWN_KINDS and getattr(v, "__hash__", None) is None:
                raise TypeError(
                    f"{arg(name)} holds a {type(v).__name__} at position {i} ({v!r}), which cannot "
                    f"be a {what}: {what}s are numbers, strings, booleans, dates or other "
                    "hashable values")
    if "missing" in kinds:
        raise ValueError(f"{arg(name)} contains a missing {what} (None or NaN); {what}s must be "
                         "defined")
    if len(kinds) > 1:
        raise TypeError(
            f"{arg(name)} mixes {what} types that cannot be ordered together: {sorted(kinds)}"
        )
    return kinds.pop() if kinds else None


def check_seen_kinds(seen_t: Sequence[Any], seen_p: Sequence[Any],
                     book: Sequence[Any] | None = None) -> None:
    """Check that the distinct labels of ``y_true`` and ``y_pred`` are of one kind together,
    and of the kind of the user's ``labels`` when given.

    Without this, ``labels=[1, 2]`` would send string predictions (or ``True`` / ``False``
    next to integer truths, since ``True == 1``) silently to the pooled "other" class or onto
    an integer class, where the same inputs without ``labels`` are a ``TypeError``.

    Parameters
    ----------
    seen_t, seen_p : sequence
        The distinct labels of ``y_true`` and of ``y_pred``.
    book : sequence, optional
        The user's ``labels`` (already checked by :func:`normalize_labels`).

    Raises
    ------
    TypeError
        Labels of several kinds, naming which arguments mix them.

    Examples
    --------
    >>> check_seen_kinds([1, 2], [2, 3], [1])
    >>> check_seen_kinds([1, 2], ["a"], [1, 2])
    Traceback (most recent call last):
    ...
    TypeError: y_true with y_pred mixes label types that cannot be ordered together: ['number', 'string']
    """
    seen = [*seen_t, *seen_p]
    check_label_kinds(seen, f"{arg('y_true')} with {arg('y_pred')}")
    if book is not None and seen:
        check_label_kinds(seen[:1] + list(book[:1]), f"{arg('labels')} with the data")


def py_scalar(v: Any) -> Any:
    """A numpy scalar as the Python scalar it holds (other values unchanged).

    Parameters
    ----------
    v : object
        A value.

    Returns
    -------
    object

    Examples
    --------
    >>> type(py_scalar(np.int64(3))).__name__, py_scalar("a")
    ('int', 'a')
    """
    return v.item() if isinstance(v, np.generic) else v


def check_known_kinds(known: Sequence[Any], seen: Sequence[Any], what: str) -> None:
    """Check that labels arriving later (a chunk, a merged state) are of the kind of the labels
    already known. ``True == 1`` and ``1 in {True}``: without this an integer chunk would
    silently land on the classes True / False of earlier chunks (a mix that one call with all
    the data refuses).

    Parameters
    ----------
    known, seen : sequence
        The labels known so far (each list of one kind) and those that arrive.
    what : str
        What meets, for the message.

    Raises
    ------
    TypeError
        If the two are of different kinds.

    Examples
    --------
    >>> check_known_kinds([0, 1], [2], "chunk 2")
    >>> check_known_kinds([False, True], [1], "chunk 2")
    Traceback (most recent call last):
    ...
    TypeError: chunk 2 mixes label types that cannot be ordered together: ['bool', 'number']
    """
    if known and seen:
        check_label_kinds([known[0], seen[0]], what)


def unify_numbers(labels: list[Any], also: Sequence[Any] = ()) -> list[Any]:
    """The numbers of a label book in one type: integers become floats where floats are
    among ``labels`` or ``also``, as numpy gives a column of ints and floats one float dtype
    (``np.union1d([1, 2], [1.5])`` is ``[1.0, 1.5, 2.0]``).

    The one rule for the classes of a table, whatever produced the labels: one call's
    ``y_true`` and ``y_pred``, or the chunks of a stream in any order and cut (the integer
    chunks before the float ones or after). Integers past :data:`EXACT_INT_IN_FLOAT` next to
    floats keep their exact values (and types), as :func:`confmat.inputs.encode.as_1d` keeps
    a list of them. Booleans are a kind of their own and are never touched.

    Parameters
    ----------
    labels : list
        Distinct labels as Python scalars (e.g. the sorted label book).
    also : sequence, optional
        Further labels that may bring floats (the labels of a chunk added to ``labels``).

    Returns
    -------
    list
        ``labels`` itself when nothing changes, else a new list with floats for integers.

    Examples
    --------
    >>> unify_numbers([1, 1.5, 2])
    [1.0, 1.5, 2.0]
    >>> unify_numbers([1, 2], also=[2.0])  # a float 2.0 deduplicated into the integer 2
    [1.0, 2.0]
    >>> unify_numbers([0.5, 2**60 + 1])
    [0.5, 1152921504606846977]
    >>> unify_numbers(["a", "b"])
    ['a', 'b']
    """
    def is_int(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    if not any(isinstance(v, float) for v in (*labels, *also)):
        return labels
    ints = [v for v in labels if is_int(v)]
    if not ints or max(abs(min(ints)), abs(max(ints))) > EXACT_INT_IN_FLOAT:
        return labels
    return [float(v) if is_int(v) else v for v in labels]
