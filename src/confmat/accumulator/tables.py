"""The running table of an :class:`~confmat.Accumulator` and its label book: a table over
some labels added into a table over others, the classes grown in sorted order when they may
grow, labels outside fixed ones refused. Counts stay counts: adding is the whole merge."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..inputs.kinds import check_label_kinds, unify_numbers
from ..metrics.exact import check_sum, int_total
from ..words import say

__all__ = ["add_table", "check_known", "chunk_label", "grow_table"]


def chunk_label(number: int, name: str | None) -> str:
    """How errors name a chunk: the caller's ``name``, else ``"chunk <number>"``.

    Parameters
    ----------
    number : int
        The chunk's number in its stream (the accumulator's ``n_updates + 1``).
    name : str or None
        The ``chunk_name`` a caller gave (``"partition 3"`` from :mod:`confmat.dask`).

    Returns
    -------
    str

    Raises
    ------
    TypeError
        A ``name`` that is not a non-empty string.

    Examples
    --------
    >>> chunk_label(3, None), chunk_label(3, "partition 0")
    ('chunk 3', 'partition 0')
    """
    if name is None:
        return f"chunk {number}"
    if not isinstance(name, str) or not name:
        raise TypeError(f"chunk_name must be a string naming the chunk, got {name!r}")
    return name


def check_known(known: list[Any], seen: list[Any], where: str) -> None:
    """Refuse labels of a chunk that are not among the fixed labels.

    Parameters
    ----------
    known : list
        The fixed labels.
    seen : list
        The labels of the chunk.
    where : str
        Names the chunk in the error (``"chunk 2"``, ``"partition 4"``).

    Raises
    ------
    ValueError
        Naming up to five unknown labels.

    Examples
    --------
    >>> check_known(["a", "b"], ["b"], "chunk 1")
    >>> check_known(["a", "b"], ["b", "c"], "chunk 2")
    Traceback (most recent call last):
    ...
    ValueError: chunk 2 has label 'c' not in the fixed labels ['a', 'b']
    """
    known_set = set(known)
    unknown = [v for v in seen if v not in known_set]
    if unknown:
        raise ValueError(
            f"{where} has label{'s' if len(unknown) > 1 else ''} "
            f"{', '.join(map(repr, unknown[:5]))} not in {say('the fixed labels', 'labels')} {known}"
        )


def grow_table(
    running: np.ndarray, known: list[Any], new: list[Any], where: str
) -> tuple[np.ndarray, list[Any]]:
    """The running table over the known labels and new ones, in sorted order.

    Parameters
    ----------
    running : ndarray of shape (K, K)
        The running table over ``known``.
    known : list
        Its labels, sorted.
    new : list
        Labels not among them.
    where : str
        Names the chunk (or state) that brings them in errors.

    Returns
    -------
    table : ndarray of shape (K + len(new), K + len(new))
        A new table: ``running`` in the rows and columns of its labels, zeros elsewhere.
    labels : list
        The sorted union of the labels.

    Raises
    ------
    TypeError
        New labels that cannot be ordered with the known ones.

    Examples
    --------
    >>> import numpy as np
    >>> table, labels = grow_table(np.array([[1, 2], [3, 4]]), [0, 2], [1], "chunk 5")
    >>> table.tolist(), labels
    ([[1, 0, 2], [0, 0, 0], [3, 0, 4]], [0, 1, 2])
    """
    merged = list(known) + list(new)
    try:
        check_label_kinds(merged, f"the earlier labels and those of {where}")
        order = unify_numbers(sorted(merged))
    except TypeError as exc:
        raise TypeError(
            f"{where} has labels {new[:5]} that cannot be ordered with the earlier "
            f"labels {known[:5]}: {exc}"
        ) from exc
    index = {v: i for i, v in enumerate(order)}
    pos = np.fromiter((index[v] for v in known), np.int64, len(known))
    grown = np.zeros((len(order), len(order)), dtype=running.dtype)
    grown[np.ix_(pos, pos)] = running
    return grown, order


def add_table(
    running: np.ndarray,
    known: list[Any],
    table: np.ndarray,
    labels: list[Any],
    *,
    fixed: bool,
    where: str,
    what: str | None = None,
) -> tuple[np.ndarray, list[Any]]:
    """Add a table over ``labels`` into the running table over ``known``.

    The classes grow when they are not fixed, and their numbers keep one type
    (:func:`confmat.inputs.kinds.unify_numbers`: integer classes become floats once a float
    label arrives, as the in-memory computation on the concatenation gives them); integer
    counts must keep a total that fits int64, and nothing is added otherwise. A weighted (float) table makes the running table
    float. The running table is added to in place when its classes and dtype stay.

    Parameters
    ----------
    running : ndarray of shape (K, K)
        The running table over ``known``.
    known : list
        Its labels.
    table : ndarray of shape (J, J)
        The table to add, over ``labels``.
    labels : list
        Its labels, as Python scalars of the kind of the known ones.
    fixed : bool
        Whether the known labels are fixed (a new label is then an error).
    where : str
        Names the chunk (or state) added in errors.
    what : str, optional
        Names the counts in an OverflowError (by default ``where``).

    Returns
    -------
    table : ndarray
        The running table after the addition.
    labels : list
        Its labels.

    Raises
    ------
    ValueError
        A label outside fixed labels.
    TypeError
        New labels that cannot be ordered with the known ones.
    OverflowError
        Integer counts whose total would not fit int64.

    Examples
    --------
    >>> import numpy as np
    >>> table, labels = add_table(np.array([[1]]), ["b"], np.array([[2, 0], [1, 1]]),
    ...                           ["a", "b"], fixed=False, where="chunk 2")
    >>> table.tolist(), labels
    ([[2, 0], [1, 2]], ['a', 'b'])
    """
    if table.dtype.kind in "iu" and running.dtype.kind in "iu":
        check_sum([int_total(running), int_total(table)],
                  what or f"{where} added to the running counts")
    if labels != known:
        index = {v: i for i, v in enumerate(known)}
        new = [v for v in labels if v not in index]
        if new:
            if fixed:
                check_known(known, labels, where)
            running, known = grow_table(running, known, new, where)
            index = {v: i for i, v in enumerate(known)}
        pos = np.fromiter((index[v] for v in labels), np.int64, len(labels))
    else:
        pos = None
    if not fixed:  # ints and floats meet in one type whatever the chunking (as in memory)
        known = unify_numbers(known, also=labels)
    if table.dtype.kind == "f" and running.dtype.kind != "f":
        running = running.astype(np.float64)
    if pos is None:
        running += table.astype(running.dtype, copy=False)
    else:
        running[np.ix_(pos, pos)] += table.astype(running.dtype, copy=False)
    return running, known
