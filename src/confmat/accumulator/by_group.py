"""Streaming evaluation by group: :class:`GroupedAccumulator` keeps one running confusion table
per group (a G x K x K stack), counted chunk by chunk with the kernel of
:func:`confmat.by_group` and merged by addition.

Design: a class of its own rather than an ``Accumulator(by=...)`` option. The plain
:class:`~confmat.Accumulator` keeps one K x K table and score histograms; the grouped state adds
the group keys, the sensitive features' names and the group sizes, and its result is a
:class:`~confmat.groups.GroupedEvaluation` instead of a :class:`~confmat.ConfusionMatrix`.
``GroupedEvaluation`` lives in the ``groups`` layer, above this one, so :meth:`result` reaches
it through the hook :data:`confmat.hooks.GROUPED_EVALUATION`.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..counting.chunks import one_thread
from ..counting.grouped import GroupedCounts, grouped_counts
from ..hooks import GROUPED_EVALUATION
from ..inputs.columns import check_label_pair
from ..inputs.encode import check_sample_weight, normalize_labels
from ..inputs.grouping import encode_groups, key_kinds
from ..inputs.kinds import (
    check_known_kinds,
    check_label_kinds,
    label_kind,
    py_scalar,
    unify_numbers,
)
from ..inputs.targets import one_class_book, resolve_pos_label
from ..metrics.exact import check_sum, check_total, int_total
from ..words import say
from .by_group_state import GroupedAccumulatorState
from .tables import chunk_label

__all__ = ["GroupedAccumulator"]



class GroupedAccumulator(GroupedAccumulatorState):
    """Running confusion tables of every group over chunks of predictions.

    ``update`` each chunk with its groups, ``merge`` partial states (from other processes:
    :meth:`to_json` / :meth:`from_json`), then :meth:`result` gives the same
    :class:`~confmat.groups.GroupedEvaluation` as :func:`confmat.by_group` on all the data at
    once.

    Parameters
    ----------
    labels : sequence, optional
        Fixed classes and their order (a label outside them is a ``ValueError``); by default
        the sorted union of the labels seen.
    min_support : int, default 30
        Passed to the result: groups with fewer samples are flagged small.
    pos_label : label, optional
        Passed to the result: the positive class of per-class metrics and binary measures.

    Raises
    ------
    ValueError
        Bad ``labels``.

    Notes
    -----
    Scores (ROC AUC per group) are not accumulated: they need every score, not a table.

    Examples
    --------
    >>> acc = GroupedAccumulator()
    >>> acc.update([0, 1, 1], [0, 1, 0], ["a", "a", "b"])
    >>> acc.update([1], [1], ["b"])
    >>> acc.groups, acc.sizes.tolist(), acc.stack.tolist()
    (['a', 'b'], [2, 2], [[[1, 0], [0, 1]], [[0, 0], [1, 1]]])
    """

    def __init__(self, labels: Sequence[Any] | None = None, *, min_support: int = 30,
                 pos_label: Any = None) -> None:
        self._fixed = labels is not None
        self._labels: list[Any] = normalize_labels(labels) if labels is not None else []
        k = len(self._labels)
        self._stack: np.ndarray = np.zeros((0, k, k), dtype=np.int64)
        self._keys: list[Any] = []
        self._names: list[str] | None = None
        self._sizes: np.ndarray = np.zeros(0, dtype=np.int64)
        self.n_samples = 0
        self.n_updates = 0
        if isinstance(min_support, bool) or not isinstance(min_support, int | np.integer):
            raise TypeError(f"min_support must be an integer, got {min_support!r}")
        if min_support < 0:
            raise ValueError(f"min_support must be non-negative, got {min_support}")
        self.min_support = int(min_support)
        self.pos_label = None if pos_label is None else py_scalar(pos_label)
        if self._fixed and pos_label is not None:  # refused now, not at result()
            resolve_pos_label(self._labels, pos_label, "labels")

    # ------------------------------------------------------------------ properties
    @property
    def labels(self) -> list[Any]:
        """The classes so far (fixed, or the sorted union of the labels seen).

        Returns
        -------
        list

        Examples
        --------
        >>> GroupedAccumulator(["a", "b"]).labels
        ['a', 'b']
        """
        return list(self._labels)

    @property
    def labels_fixed(self) -> bool:
        """True when the classes were fixed by ``labels=``.

        Returns
        -------
        bool

        Examples
        --------
        >>> GroupedAccumulator().labels_fixed
        False
        """
        return self._fixed

    @property
    def groups(self) -> list[Any]:
        """The groups seen, sorted (tuples for several features).

        Returns
        -------
        list

        Examples
        --------
        >>> acc = GroupedAccumulator()
        >>> acc.update([0, 1], [0, 1], {"site": ["B", "A"], "sex": ["f", "f"]})
        >>> acc.groups
        [('A', 'f'), ('B', 'f')]
        """
        return list(self._keys)

    @property
    def names(self) -> list[str] | None:
        """The sensitive features' names (set by the first update), or None before it.

        Returns
        -------
        list of str or None

        Examples
        --------
        >>> acc = GroupedAccumulator()
        >>> acc.update([0], [0], {"site": ["A"]})
        >>> acc.names
        ['site']
        """
        return None if self._names is None else list(self._names)

    @property
    def stack(self) -> np.ndarray:
        """A copy of the running G x K x K stack (rows = true class), in group order.

        Returns
        -------
        ndarray
            ``int64`` counts, ``float64`` sums of weights once a chunk was weighted.

        Examples
        --------
        >>> acc = GroupedAccumulator()
        >>> acc.update([0, 1], [0, 0], [7, 7])
        >>> acc.stack.tolist()
        [[[1, 0], [1, 0]]]
        """
        return self._stack.copy()

    @property
    def sizes(self) -> np.ndarray:
        """Samples seen in each group (weights aside).

        Returns
        -------
        ndarray of int64

        Examples
        --------
        >>> acc = GroupedAccumulator()
        >>> acc.update([0, 1, 1], [0, 0, 1], [1, 2, 2])
        >>> acc.sizes.tolist()
        [1, 2]
        """
        return self._sizes.copy()

    @property
    def is_weighted(self) -> bool:
        """True once a chunk came with ``sample_weight`` (the stack then holds float sums).

        Returns
        -------
        bool

        Examples
        --------
        >>> GroupedAccumulator().is_weighted
        False
        """
        return self._stack.dtype.kind == "f"

    # ------------------------------------------------------------------ update
    def update(self, y_true: Any, y_pred: Any, groups: Any, sample_weight: Any = None, *,
               chunk_name: str | None = None) -> None:
        """Add one chunk of predictions with the group of each sample.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n_samples,)
            Labels, as for :func:`confmat.by_group`.
        groups : array-like of shape (n_samples,), or several
            The group of each sample, as for :func:`confmat.by_group`: one column or several
            sensitive features (a DataFrame, a dict of name to column, ...). Every chunk must
            name the same features.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights.
        chunk_name : str, optional
            How errors name this chunk; by default ``"chunk N"``, N = ``n_updates + 1``
            (:mod:`confmat.dask` passes ``"partition i"``).

        Notes
        -----
        An empty chunk adds nothing, as in :meth:`Accumulator.update
        <confmat.Accumulator.update>`: its groups and ``sample_weight`` must be empty too and
        name the same features as the earlier chunks; the labels stay as they were.

        Raises
        ------
        ValueError
            A bad chunk (named by its number or ``chunk_name``), a label outside fixed
            labels, other features than the earlier chunks.
        TypeError
            Labels or group keys that cannot be ordered with the earlier ones, or a
            ``chunk_name`` that is not a string.
        OverflowError
            Counts whose total would not fit int64.

        Examples
        --------
        >>> acc = GroupedAccumulator(["no", "yes"])
        >>> acc.update(["yes", "no"], ["yes", "yes"], ["x", "y"], sample_weight=[2.0, 1.0])
        >>> acc.stack.tolist()
        [[[0.0, 0.0], [0.0, 2.0]], [[0.0, 1.0], [0.0, 0.0]]]
        """
        chunk = self.n_updates + 1
        where = chunk_label(chunk, chunk_name)
        try:
            t, p = check_label_pair(y_true, y_pred, empty_ok=True)
            codes = encode_groups(groups, len(t))
            if len(t) == 0:  # an empty chunk adds nothing, once its arguments are checked
                check_sample_weight(sample_weight, 0)
                gc = None
            else:
                with one_thread(len(t)):
                    gc = grouped_counts(codes.codes, codes.n_groups, t, p,
                                        labels=self._labels if self._fixed else None,
                                        sample_weight=sample_weight, strict_labels=False,
                                        all_zero_ok=True)  # checked at result()
        except (ValueError, TypeError) as exc:
            raise type(exc)(f"{where}: {exc}") from exc
        if gc is not None and gc.has_other:
            raise ValueError(f"{where} has labels outside {say('the fixed labels', 'labels')} "
                             f"{self._labels}")
        self._check_names(codes.names, where)
        if gc is not None:
            self._add(gc, codes.keys, where)
            self.n_samples += len(t)
        self.n_updates = chunk

    def _check_names(self, names: list[str], what: str) -> None:
        if self._names is None:
            self._names = list(names)
        elif list(names) != self._names:
            raise ValueError(
                f"{what} has the sensitive features {names} but the earlier ones had "
                f"{self._names}; every chunk must name the same features"
            )

    def _add(self, gc: GroupedCounts, keys: list[Any], what: str) -> None:
        """Add a stack over (keys, labels) into the running one, growing both as needed
        (nothing changes when an error is raised)."""
        stack = gc.stack
        if stack.dtype.kind in "iu" and self._stack.dtype.kind in "iu":
            check_sum([int_total(self._stack), int_total(stack)],
                      f"{what} added to the running counts")
        labels = [py_scalar(v) for v in gc.labels]
        check_known_kinds(self._labels, labels, f"the earlier labels and those of {what}")
        if self._keys and keys and key_kinds(self._keys[0]) != key_kinds(next(iter(keys))):
            raise TypeError(f"{what} has group keys {list(keys)[:5]} of other kinds than the "
                            f"earlier groups {self._keys[:5]}")
        new_labels = self._labels
        if labels != self._labels and not self._fixed:
            merged = list(dict.fromkeys(self._labels + labels))
            try:
                check_label_kinds(merged, f"the earlier labels and those of {what}")
                new_labels = sorted(merged)
            except TypeError as exc:
                raise TypeError(f"{what} has labels {labels[:5]} that cannot be ordered with the "
                                f"earlier labels {self._labels[:5]}: {exc}") from exc
        if not self._fixed:  # ints and floats in one type, as in memory
            new_labels = unify_numbers(new_labels, also=labels)
        new_keys = self._keys
        if keys != self._keys:
            merged_keys = list(dict.fromkeys(self._keys + list(keys)))
            kinds = {key_kinds(k) for k in merged_keys}
            if len(kinds) > 1:
                raise TypeError(f"{what} has group keys {list(keys)[:5]} of other kinds than the "
                                f"earlier groups {self._keys[:5]}")
            new_keys = sorted(merged_keys)
        dtype = np.float64 if "f" in (stack.dtype.kind, self._stack.dtype.kind) else np.int64
        out = self._placed(self._stack, self._keys, self._labels, new_keys, new_labels, dtype)
        out += self._placed(stack, keys, labels, new_keys, new_labels, dtype)
        sizes = np.zeros(len(new_keys), dtype=np.int64)
        gpos = {k: i for i, k in enumerate(new_keys)}
        sizes[[gpos[k] for k in self._keys]] += self._sizes
        sizes[[gpos[k] for k in keys]] += gc.sizes
        self._stack, self._keys, self._labels, self._sizes = out, new_keys, new_labels, sizes

    @staticmethod
    def _placed(stack: np.ndarray, keys: list[Any], labels: list[Any], new_keys: list[Any],
                new_labels: list[Any], dtype: Any) -> np.ndarray:
        if keys == new_keys and labels == new_labels:
            return stack.astype(dtype, copy=True)
        k = len(new_labels)
        out = np.zeros((len(new_keys), k, k), dtype=dtype)
        if stack.size:
            gi = {v: i for i, v in enumerate(new_keys)}
            li = {v: i for i, v in enumerate(new_labels)}
            g = np.array([gi[v] for v in keys], dtype=np.int64)
            lab = np.array([li[v] for v in labels], dtype=np.int64)
            out[np.ix_(g, lab, lab)] = stack
        return out

    def restore(self, labels: Sequence[Any], keys: Sequence[Any], names: Sequence[str] | None,
                stack: np.ndarray, sizes: np.ndarray, n_samples: int, n_updates: int) -> None:
        """Replace the running state by one read back from storage (for
        :mod:`confmat.accumulator.by_group_state`, which has validated it).

        Parameters
        ----------
        labels, keys : sequence
            The classes and the groups of ``stack``.
        names : sequence of str or None
            The sensitive features' names.
        stack : ndarray of shape (G, K, K)
            Counts or sums of weights.
        sizes : ndarray of shape (G,)
            Samples per group.
        n_samples, n_updates : int
            Samples and updates seen.

        Raises
        ------
        ValueError
            Shapes that do not fit the labels and groups.

        Examples
        --------
        >>> acc = GroupedAccumulator()
        >>> acc.restore([0, 1], ["a"], ["g"], np.array([[[1, 0], [0, 1]]]), np.array([2]), 2, 1)
        >>> acc.result().metric("accuracy").tolist()
        [1.0]
        """
        k, g = len(labels), len(keys)
        if stack.shape != (g, k, k) or sizes.shape != (g,):
            raise ValueError(f"stack must have shape ({g}, {k}, {k}) and sizes ({g},), got "
                             f"{stack.shape} and {sizes.shape}")
        self._labels, self._keys = list(labels), list(keys)
        self._names = None if names is None else list(names)
        self._stack, self._sizes = stack, sizes.astype(np.int64)
        self.n_samples, self.n_updates = int(n_samples), int(n_updates)

    # ------------------------------------------------------------------ merge / result
    def merge(self, other: GroupedAccumulator) -> GroupedAccumulator:
        """Add another grouped accumulator's state into this one (in place) and return self.

        Fixed labels hold whichever side has them: merged with a state whose labels are
        fixed, one without fixed labels takes them (its own labels must be among them), so
        ``a + b`` and ``b + a`` have the same labels, in the same order.

        Parameters
        ----------
        other : GroupedAccumulator
            The state to add (left unchanged).

        Returns
        -------
        GroupedAccumulator
            ``self``.

        Raises
        ------
        TypeError
            If ``other`` is not a GroupedAccumulator, or keys / labels cannot be ordered
            together.
        ValueError
            Different fixed labels, different sensitive features, two different
            ``pos_label`` (a state without one takes the other's), or different
            ``min_support``.
        OverflowError
            If the integer counts would exceed int64.

        Examples
        --------
        >>> a, b = GroupedAccumulator(), GroupedAccumulator()
        >>> a.update([0, 1], [0, 1], ["x", "y"])
        >>> b.update([1, 2], [1, 1], ["y", "z"])
        >>> a.merge(b).groups, a.sizes.tolist()
        (['x', 'y', 'z'], [1, 2, 1])
        """
        if not isinstance(other, GroupedAccumulator):
            raise TypeError(f"can only merge a GroupedAccumulator, got {type(other).__name__}")
        if other._fixed and not self._fixed:
            # the fixed labels hold whichever side has them, so that a.merge(b) and b.merge(a)
            # give the same state: this state is added into a copy of the other, then takes
            # its place
            merged = other.copy()
            merged._merge(self, "acc")
            self.__dict__.update(merged.__dict__)
            return self
        self._merge(other, "other")
        return self

    def _merge(self, other: GroupedAccumulator, name: str) -> None:
        """Add ``other`` (called ``name`` in errors) into this state."""
        what = "acc.merge(other)"
        if self._fixed and other._fixed and other._labels != self._labels:
            raise ValueError(f"cannot merge accumulators with different fixed labels: "
                             f"{self._labels} vs {other._labels}")
        if self._fixed and set(other._labels) - set(self._labels):
            raise ValueError(f"{what}: {name} has labels outside the fixed labels {self._labels}")
        if None not in (self.pos_label, other.pos_label) and (
                label_kind(self.pos_label), self.pos_label) != (
                label_kind(other.pos_label), other.pos_label):
            raise ValueError(f"cannot merge accumulators with different pos_label: "
                             f"{self.pos_label!r} vs {other.pos_label!r}")
        if self.min_support != other.min_support:  # a + b would flag other groups than b + a
            raise ValueError(f"cannot merge accumulators with different min_support: "
                             f"{self.min_support} vs {other.min_support}")
        if other._names is not None:
            self._check_names(other._names, what)
        if other._keys:
            gc = GroupedCounts(other._stack, other._labels, False, other._sizes)
            self._add(gc, other._keys, what)
        self.n_samples += other.n_samples
        self.n_updates += other.n_updates
        if self.pos_label is None:  # a state that declared none takes the other's
            self.pos_label = other.pos_label

    def __add__(self, other: GroupedAccumulator) -> GroupedAccumulator:
        if not isinstance(other, GroupedAccumulator):
            return NotImplemented
        return self.copy().merge(other)

    def copy(self) -> GroupedAccumulator:
        """An independent copy of the whole state (in memory: group keys and labels that
        JSON cannot hold, such as dates, are copied too).

        Returns
        -------
        GroupedAccumulator

        Examples
        --------
        >>> acc = GroupedAccumulator()
        >>> acc.update([0], [0], ["a"])
        >>> acc.copy().n_samples
        1
        """
        return copy.deepcopy(self)

    def counts(self) -> GroupedCounts:
        """The accumulated stack as :class:`~confmat.counting.grouped.GroupedCounts`.

        Returns
        -------
        GroupedCounts

        Raises
        ------
        ValueError
            If no samples were seen.

        Examples
        --------
        >>> acc = GroupedAccumulator()
        >>> acc.update([0, 1], [0, 1], ["a", "a"])
        >>> acc.counts().stack.shape
        (1, 2, 2)
        """
        if self.n_samples == 0:
            raise ValueError("the GroupedAccumulator has seen no samples; call update() first")
        if self.is_weighted and not self._stack.any():
            raise ValueError("sample_weight must contain at least one non-zero weight")
        check_total(self._stack, "the accumulated counts")
        return GroupedCounts(self._stack.copy(), list(self._labels), False, self._sizes.copy())

    def result(self) -> Any:
        """The evaluation by group of everything seen: equal to :func:`confmat.by_group` on
        the concatenated chunks.

        Returns
        -------
        GroupedEvaluation

        Raises
        ------
        ValueError
            If no samples were seen, or every weight was zero.

        Examples
        --------
        >>> acc = GroupedAccumulator(pos_label=1)
        >>> acc.update([0, 1, 1, 1], [0, 1, 0, 1], ["a", "a", "b", "b"])
        >>> acc.result().metric("recall").tolist()
        [1.0, 0.5]
        """
        counts = self.counts()
        book = None if self._fixed else one_class_book(counts.labels, self.pos_label)
        if book is not None:  # one class seen: the positive class joins, empty (as by_group)
            stack = self._placed(counts.stack, self._keys, counts.labels, self._keys, book,
                                 counts.stack.dtype)
            counts = GroupedCounts(stack, book, False, counts.sizes)
        return GROUPED_EVALUATION(counts, list(self._keys), list(self._names or []),
                                  min_support=self.min_support, pos_label=self.pos_label)

    def __repr__(self) -> str:
        return (f"GroupedAccumulator(labels={self._labels!r}, groups={len(self._keys)}, "
                f"n_samples={self.n_samples}, n_updates={self.n_updates})")
