"""Streaming accumulation: ``update`` with chunks, ``merge`` partial states, ``result`` at the end.

A confusion matrix is a sum over samples, so chunked and distributed evaluation need only a
running K x K table (``dist_reduce_fx="sum"`` in torchmetrics' words). The pipeline reads like
torchmetrics' stateful metrics: validate and count each chunk with the same front door and
kernel as the in-memory path (:func:`confmat.counting.kernels.confusion_counts`), add the chunk's table
into the running one, and build a :class:`~confmat.ConfusionMatrix` only when asked.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import hooks
from ..counting.chunks import count_chunk, one_thread
from ..deps import is_dask_collection
from ..inputs.columns import check_label_pair, label_array
from ..inputs.encode import check_sample_weight, encode_pair, normalize_labels
from ..inputs.kinds import check_known_kinds, py_scalar
from ..inputs.scores import check_score_range
from ..inputs.targets import check_bins
from ..matrix import ConfusionMatrix
from ..metrics.exact import check_total, int_total
from .grouped import check_group_counts
from .scores import (
    add_chunk_scores,
    check_pos_label,
    check_scores_given,
    merged_histogram,
    merged_pos_label,
    new_histogram,
    retyped_histogram,
)
from .state import AccumulatorState
from .tables import add_table, check_known, chunk_label

__all__ = ["Accumulator"]


class Accumulator(AccumulatorState):
    """Running confusion matrix (and optional score histograms) over chunks of predictions.

    Parameters
    ----------
    labels : sequence, optional
        Fixed classes and their order. A label outside them in a later chunk is a ``ValueError``
        naming the label and the chunk. By default the classes are the sorted union of the
        labels seen so far, so the result equals
        ``ConfusionMatrix.from_predictions(all_true, all_pred)`` whatever the chunking.
    scores : bool, optional
        Also accumulate per-class score histograms (:class:`confmat.binned.ScoreHistogram`)
        from the ``scores`` given to :meth:`update`, for ROC / precision-recall curves.
        ``True``: every update must pass scores; ``False``: none may; by default the first
        update decides. The histogram's classes are ``labels`` when fixed, else the sorted
        labels known after the first update with scores (a true label first seen later is an
        error naming it: pass ``labels=`` when a class may be rare).
    bins : int, default 10_000
        Number of score bins of the histograms.
    score_range : (float, float), default (0.0, 1.0)
        Range of the scores (a score outside it is an error).
    score_labels : sequence, optional
        The histogram's classes, fixed now (implies ``scores=True``); binary: the class of the
        one rule (1 / True of {0, 1}, {-1, 1}, {False, True} in any order, else
        ``score_labels[1]``, unless ``pos_label``), multiclass: the order of the score columns. By default they
        are chosen as described under ``scores``.
    pos_label : label, optional
        The class that one score column (1-D ``scores``) scores, as in
        :class:`~confmat.binned.ScoreHistogram`. Two labels given (``labels`` or
        ``score_labels``): by default the second. Two labels discovered: by default 1 (True)
        beside {0, 1}, {-1, 1} or {False, True}; any other two labels need ``pos_label``
        (the positive class is never picked by sorted order), decided at the first update
        with scores. It does not change the matrix.

    Raises
    ------
    ValueError
        For bad ``bins``, ``labels`` or ``score_labels``, ``score_labels`` with
        ``scores=False``, or a ``pos_label`` beside given labels that are not two classes
        holding it.
    TypeError
        If ``scores`` is not True, False or None.

    Notes
    -----
    Counts are exact ``int64``; with ``sample_weight`` the table holds ``float64`` sums of
    weights (an unweighted chunk then counts each sample with weight 1). The state is a small
    table, so :meth:`to_dict` / :meth:`from_dict` move it between processes as JSON.

    Examples
    --------
    >>> acc = Accumulator()
    >>> acc.update([0, 1, 1], [0, 1, 0])
    >>> acc.update([2], [2])
    >>> acc.result().counts.tolist()
    [[1, 0, 0], [1, 1, 0], [0, 0, 1]]
    """

    def __init__(
        self,
        labels: Sequence[Any] | None = None,
        *,
        scores: bool | None = None,
        bins: int = 10_000,
        score_range: tuple[float, float] = (0.0, 1.0),
        score_labels: Sequence[Any] | None = None,
        pos_label: Any = None,
    ) -> None:
        self._fixed = labels is not None
        self._labels: list[Any] = normalize_labels(labels) if labels is not None else []
        self._pos_label = check_pos_label(self._labels if self._fixed else None, pos_label)
        k = len(self._labels)
        self._table: np.ndarray = np.zeros((k, k), dtype=np.int64)
        self.n_samples = 0
        self.n_updates = 0
        self.bins = check_bins(bins)
        if scores not in (None, True, False):
            raise TypeError(f"scores must be True, False or None, got {scores!r}")
        self._track_scores = scores
        self.score_range = check_score_range(score_range, self.bins)  # refused now, not later
        self._hist: Any = None
        if score_labels is not None:
            if scores is False:
                raise ValueError("score_labels were given but scores=False")
            self._track_scores = True
            self._hist = new_histogram(normalize_labels(score_labels, "score_labels"),
                                       self.bins, self.score_range, self._pos_label)

    # ------------------------------------------------------------------ properties
    @property
    def labels(self) -> list[Any]:
        """Classes so far (fixed, or the sorted union of the labels seen), a copy.

        Examples
        --------
        >>> acc = Accumulator()
        >>> acc.update(["b", "a"], ["a", "a"])
        >>> acc.labels
        ['a', 'b']
        """
        return list(self._labels)

    @property
    def labels_fixed(self) -> bool:
        """True when the classes were fixed by ``labels=`` (a new label is then an error).

        Examples
        --------
        >>> Accumulator(["a", "b"]).labels_fixed, Accumulator().labels_fixed
        (True, False)
        """
        return self._fixed

    @property
    def counts(self) -> np.ndarray:
        """Copy of the running K x K table (rows = true class, columns = predicted class).

        Examples
        --------
        >>> acc = Accumulator()
        >>> acc.update([0, 1, 1], [0, 1, 0])
        >>> acc.counts.tolist()
        [[1, 0], [1, 1]]
        """
        return self._table.copy()

    @property
    def is_weighted(self) -> bool:
        """True once a chunk came with ``sample_weight`` (the table then holds float sums).

        Examples
        --------
        >>> acc = Accumulator()
        >>> acc.update([0, 1], [0, 1], sample_weight=[0.5, 2.0])
        >>> acc.is_weighted
        True
        """
        return self._table.dtype.kind == "f"

    @property
    def track_scores(self) -> bool | None:
        """Whether updates carry scores: True, False, or None while the first update has not
        decided (see the ``scores`` parameter).

        Examples
        --------
        >>> Accumulator(scores=True).track_scores, Accumulator().track_scores
        (True, None)
        """
        return self._track_scores

    @property
    def pos_label(self) -> Any:
        """The class one score column scores, or None (the rule decides, see ``pos_label``)."""
        return self._pos_label

    @property
    def histogram(self) -> Any:
        """The accumulated :class:`~confmat.binned.ScoreHistogram`, or None before scores were
        seen (:meth:`curves` raises instead).

        Examples
        --------
        >>> Accumulator().histogram is None
        True
        """
        return self._hist

    def restore(self, labels: Sequence[Any], counts: np.ndarray, n_samples: int,
                n_updates: int, histogram: Any = None) -> None:
        """Replace the running state by one read back from storage (for
        :mod:`confmat.accumulator.state`, which has validated it).

        Parameters
        ----------
        labels : sequence
            The classes of ``counts``; ignored when the labels are fixed (they must be equal).
        counts : ndarray of shape (K, K)
            ``int64`` counts or ``float64`` sums of weights.
        n_samples, n_updates : int
            Samples and updates seen.
        histogram : ScoreHistogram, optional
            The score histogram.

        Raises
        ------
        ValueError
            If ``counts`` does not fit the labels.

        Examples
        --------
        >>> acc = Accumulator()
        >>> acc.restore(["a", "b"], np.array([[2, 0], [1, 1]]), n_samples=4, n_updates=1)
        >>> acc.result().counts.tolist()
        [[2, 0], [1, 1]]
        """
        if not self._fixed:
            self._labels = list(labels)
        k = len(self._labels)
        if counts.shape != (k, k):
            raise ValueError(f"counts must have shape ({k}, {k}) for the labels, got {counts.shape}")
        self._table = counts
        self.n_samples = int(n_samples)
        self.n_updates = int(n_updates)
        if histogram is not None:
            self._hist = histogram

    # ------------------------------------------------------------------ update
    def update(
        self,
        y_true: Any,
        y_pred: Any,
        scores: Any = None,
        sample_weight: Any = None,
        *,
        chunk_name: str | None = None,
    ) -> None:
        """Add one chunk of predictions.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n_samples,)
            Labels, as for :meth:`ConfusionMatrix.from_predictions`; Dask arrays and Dask
            DataFrame columns are counted on their cluster (see :mod:`confmat.dask`). An
            empty chunk adds nothing (its ``scores`` and ``sample_weight`` must be empty
            too); :meth:`result` still needs one sample in the whole stream.
        scores : array-like, optional
            Scores for the curves: shape (n_samples,) for the positive class of a binary
            problem or (n_samples, n_classes) in label order.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights.
        chunk_name : str, optional
            How errors name this chunk; by default ``"chunk N"``, N = :attr:`n_updates` + 1.
            :mod:`confmat.dask` passes ``"partition i"``; a reader of files could pass the
            file's name or its rows.

        Raises
        ------
        ValueError
            A bad chunk (naming it by its number or ``chunk_name``), a label outside fixed
            labels, scores given to an accumulator that does not track them or missing from
            one that does.
        TypeError
            Labels of kinds that cannot be ordered with the earlier ones, or a
            ``chunk_name`` that is not a string.

        Examples
        --------
        >>> acc = Accumulator(scores=True)
        >>> acc.update([0, 1, 1], [0, 1, 0], scores=[0.2, 0.9, 0.4])
        >>> acc.n_samples, acc.curves().n
        (3, 3)
        """
        chunk = self.n_updates + 1
        where = chunk_label(chunk, chunk_name)
        if is_dask_collection(y_true) or is_dask_collection(y_pred):
            # counted on the cluster by confmat.dask (a layer above: see confmat.hooks)
            check_scores_given(self, scores, where)
            hist_labels = None
            if scores is not None:
                hist_labels = (
                    self._hist.labels if self._hist is not None
                    else self._labels if self._fixed else None
                )
            try:  # the message names the chunk, then the partition
                part = hooks.DASK_ACCUMULATE(
                    y_true, y_pred, scores=scores, sample_weight=sample_weight, bins=self.bins,
                    score_range=self.score_range, score_labels=hist_labels, allow_empty=True,
                    pos_label=None if self._hist is not None else self._pos_label,
                )
            except (ValueError, TypeError) as exc:
                raise type(exc)(f"{where}: {exc}") from exc
            self._merge_state(part, where)
            self.n_updates = chunk
            return
        check_scores_given(self, scores, where)
        try:
            t, p = check_label_pair(y_true, y_pred, empty_ok=True)
            if len(t) == 0 and sample_weight is not None:
                check_sample_weight(sample_weight, 0)
        except (ValueError, TypeError) as exc:
            raise type(exc)(f"{where}: {exc}") from exc
        n = len(t)
        if n == 0:  # an empty chunk adds nothing, once its arguments are checked
            if scores is not None and np.shape(scores)[:1] != (0,):
                raise ValueError(
                    f"{where} has no samples but {np.shape(scores)[0]} rows of scores"
                )
            self.n_updates = chunk
            return
        with one_thread(n):
            try:
                table, labels = count_chunk(t, p, sample_weight)
            except (ValueError, TypeError) as exc:
                raise type(exc)(f"{where}: {exc}") from exc
            self._check_kinds(labels, where)
            if self._fixed:
                check_known(self._labels, labels, where)
            if scores is not None:
                self._hist = add_chunk_scores(self, label_array(t), scores, sample_weight,
                                              labels, where)
        self._add(table, labels, where)
        self.n_samples += n
        self.n_updates = chunk
        if not self._fixed:
            self._hist = retyped_histogram(self._hist, self._labels)

    def update_grouped(
        self,
        y_true: Any,
        y_pred: Any,
        counts: Any,
        *,
        weights: Any = None,
    ) -> None:
        """Add pre-aggregated ``(true, pred) -> count`` rows, e.g. from a SQL ``GROUP BY``.

        This is how engines that already aggregate feed confmat: a Spark
        ``df.groupBy("y", "yhat").count()``, a DuckDB / SQL ``SELECT y, yhat, count(*) ...
        GROUP BY y, yhat`` or a pandas ``value_counts``. A pair may appear several times.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n_pairs,)
            The label pairs.
        counts : array-like of shape (n_pairs,)
            Non-negative integer number of samples of each pair.
        weights : array-like of shape (n_pairs,), optional
            Sums of sample weights of each pair (``SUM(weight)``); the table then holds them.

        Raises
        ------
        ValueError
            Counts of the wrong length, negative or not whole; a non-zero weight on a pair
            whose count is 0; a label outside fixed labels; an accumulator that tracks scores.
        TypeError
            Counts that are not numbers.
        OverflowError
            Counts whose total does not fit int64.

        Examples
        --------
        >>> acc = Accumulator()
        >>> acc.update_grouped(["cat", "cat", "dog"], ["cat", "dog", "dog"], [5, 1, 3])
        >>> acc.result().counts.tolist()
        [[5, 1], [0, 3]]
        """
        chunk = self.n_updates + 1
        where = f"chunk {chunk}"
        check_scores_given(self, None, where)
        try:
            tcol, pcol = check_label_pair(y_true, y_pred, empty_ok=True)
            n = len(tcol)
            c = check_group_counts(counts, n, f"counts of {where}")
            if weights is not None:
                vals: np.ndarray = check_sample_weight(weights, n)  # type: ignore[assignment]
            if n == 0:  # e.g. the GROUP BY of an empty selection
                self.n_updates = chunk
                return
            tc, pc, labels, _ = encode_pair(label_array(tcol), label_array(pcol))
        except (ValueError, TypeError) as exc:
            raise type(exc)(f"{where}: {exc}") from exc
        if weights is not None:
            ghost = np.flatnonzero((c == 0) & (vals != 0))
            if ghost.size:
                i = int(ghost[0])
                raise ValueError(
                    f"weights of {where}: pair {i} has weight {py_scalar(vals[i])!r} but a count of "
                    "0 (a sum of weights over no samples must be 0)"
                )
        else:
            vals = c
        k = len(labels)
        table = np.zeros((k, k), dtype=vals.dtype)
        np.add.at(table, (tc, pc), vals)
        labels = [py_scalar(v) for v in labels]
        if self._fixed:
            check_known(self._labels, labels, where)
        self._add(table, labels, where)
        self.n_samples += int_total(c)
        self.n_updates = chunk

    def _check_kinds(self, seen: list[Any], where: str) -> None:
        earlier = "fixed" if self._fixed else "earlier"
        check_known_kinds(self._labels, seen, f"the {earlier} labels and those of {where}")

    def _add(self, table: np.ndarray, labels: list[Any], where: str,
             what: str | None = None) -> None:
        """Add a table over ``labels`` into the running table (:func:`confmat.accumulator.tables.add_table`)."""
        labels = [py_scalar(v) for v in labels]
        self._check_kinds(labels, where)
        self._table, self._labels = add_table(self._table, self._labels, table, labels,
                                              fixed=self._fixed, where=where, what=what)

    # ------------------------------------------------------------------ scores
    def curves(self) -> Any:
        """The accumulated :class:`confmat.binned.ScoreHistogram` (curves, AUC, AP, sweeps).

        Returns
        -------
        ScoreHistogram

        Raises
        ------
        ValueError
            If no scores were accumulated.

        Examples
        --------
        >>> acc = Accumulator(scores=True)
        >>> acc.update([0, 0, 1, 1], [0, 1, 1, 1], scores=[0.1, 0.6, 0.7, 0.9])
        >>> acc.curves().roc_auc()
        1.0
        """
        if self._hist is None:
            raise ValueError(
                "no scores were accumulated: pass scores= to update() to track the curves"
            )
        return self._hist

    # ------------------------------------------------------------------ merge / result
    def merge(self, other: Accumulator) -> Accumulator:
        """Add another accumulator's state into this one (in place) and return self.

        The result equals one accumulator that saw both streams. Fixed labels hold whichever
        side has them: merged with a state whose labels are fixed, an accumulator without fixed
        labels takes them (its own labels must be among them), so ``a + b`` and ``b + a``
        have the same labels, in the same order. Two states with fixed labels must have the
        same classes.

        Parameters
        ----------
        other : Accumulator
            The state to add (left unchanged).

        Returns
        -------
        Accumulator
            ``self``.

        Raises
        ------
        TypeError
            If ``other`` is not an Accumulator.
        ValueError
            Different fixed labels or ``pos_label``, one state tracks scores and the other
            has samples without them, or score histograms of different bins / score_range
            or positive class. A refused merge leaves ``self`` unchanged.
        OverflowError
            If the integer counts would exceed int64.

        Examples
        --------
        >>> a, b = Accumulator(), Accumulator()
        >>> a.update([0, 1], [0, 1])
        >>> b.update([1, 2], [1, 1])
        >>> a.merge(b).counts.tolist()
        [[1, 0, 0], [0, 2, 0], [0, 1, 0]]
        """
        if not isinstance(other, Accumulator):
            raise TypeError(f"can only merge an Accumulator, got {type(other).__name__}")
        self._merge_state(other, "the merged accumulator", "acc.merge(other): merging the counts")
        self.n_updates += other.n_updates
        return self

    def _merge_state(self, other: Accumulator, where: str, what: str | None = None) -> None:
        if other._fixed and not self._fixed:
            # the fixed labels hold whichever side has them, so that a.merge(b) and b.merge(a)
            # (the two orders of a tree of merges, as in confmat.dask) give the same state:
            # this state is added into a copy of the other, then takes its place
            merged = other.copy()
            merged._merge_state(self, "this accumulator (merged with fixed labels)", what)
            self._table, self._labels, self._fixed = merged._table, merged._labels, True
            self.n_samples, self._hist = merged.n_samples, merged._hist
            self._pos_label = merged._pos_label
            return
        # every check and the merged histogram come first: a refused merge changes nothing
        if self._fixed and other._fixed and other._labels != self._labels:
            raise ValueError(
                f"cannot merge accumulators with different fixed labels: {self._labels} vs "
                f"{other._labels}"
            )
        hist = merged_histogram(self, other)
        pos_label = merged_pos_label(self, other)
        if other._labels:
            self._add(other._table, other._labels, where, what)
        elif other._table.dtype.kind == "f" and self._table.dtype.kind != "f":
            self._table = self._table.astype(np.float64)
        self.n_samples += other.n_samples
        self._pos_label = pos_label
        self._hist = hist if self._fixed else retyped_histogram(hist, self._labels)

    def __add__(self, other: Accumulator) -> Accumulator:
        if not isinstance(other, Accumulator):
            return NotImplemented
        out = self.copy()
        return out.merge(other)

    def __radd__(self, other: Any) -> Accumulator:
        # sum(parts) starts from 0, as ScoreHistogram's sum does
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self.copy()
        return NotImplemented

    def copy(self) -> Accumulator:
        """An independent copy of the whole state (in memory: labels that JSON cannot hold,
        such as dates, are copied too).

        Returns
        -------
        Accumulator

        Examples
        --------
        >>> acc = Accumulator()
        >>> acc.update([0, 1], [0, 0])
        >>> twin = acc.copy()
        >>> twin.update([1], [1])
        >>> acc.n_samples, twin.n_samples
        (2, 3)
        """
        return copy.deepcopy(self)

    def result(self) -> ConfusionMatrix:
        """The confusion matrix of everything seen: equal to the in-memory computation.

        Returns
        -------
        ConfusionMatrix

        Raises
        ------
        ValueError
            If no samples were seen, or every weight was zero.
        OverflowError
            If a state read from JSON holds counts whose total does not fit int64.

        Examples
        --------
        >>> acc = Accumulator()
        >>> acc.update(["a", "b"], ["a", "a"])
        >>> acc.result().counts.tolist()
        [[1, 0], [1, 0]]
        """
        if self.n_samples == 0:
            raise ValueError("the Accumulator has seen no samples; call update() first")
        if self.is_weighted and not self._table.any():
            raise ValueError("sample_weight must contain at least one non-zero weight")
        check_total(self._table, "the accumulated counts")  # e.g. a state read from JSON
        return ConfusionMatrix.from_table(self._table.copy(), self._labels)

    def __repr__(self) -> str:
        return (
            f"Accumulator(labels={self._labels!r}, n_samples={self.n_samples}, "
            f"n_updates={self.n_updates}, scores={self._hist is not None})"
        )
