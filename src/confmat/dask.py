"""Confusion matrices (and score histograms) of Dask collections, counted where the data lives.

Each partition is counted on its worker into a small :class:`~confmat.Accumulator` (the K x K
table of the labels that partition holds, plus optional score histograms); the partial states
are merged up a tree (``split_every`` at a time) and only the final table reaches the client.
The raw predictions are never collected and never shuffled.

Labels are encoded without a shuffle and in one pass over the data: every partition encodes its
own labels (the same front door as the in-memory path) and reports the table over its own
sorted label set; merging two partial states takes the sorted union of their label sets and adds
the tables into it. The root of the tree therefore holds the table over the global sorted label
set, exactly what :meth:`ConfusionMatrix.from_predictions` computes in memory. (A two-pass plan,
global label set first and counting second, would read or recompute the data twice.)

Robustness: the scheduler recomputes the tasks of a lost worker; if it cannot (too many
failures) the computation raises. A result is returned only when the number of samples it
counted equals the known length of the input, so a partial matrix is never returned as complete.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .accumulator import Accumulator, GroupedAccumulator
from .accumulator.scores import check_pos_label, scored_class
from .deps import is_dask_collection, loaded, require
from .inputs.encode import normalize_labels
from .inputs.kinds import check_label_kinds
from .inputs.score_shape import length_error

__all__ = [
    "accumulate",
    "by_group",
    "confusion_counts",
    "confusion_matrix",
    "is_dask_collection",
    "score_histogram",
]


def _kind(x: Any, name: str) -> str:
    import dask.array as da

    if isinstance(x, da.Array):
        return "array"
    dd = loaded("dask.dataframe")  # a Dask DataFrame column proves it is imported
    if dd is not None and isinstance(x, dd.Series | dd.DataFrame):
        return "frame"
    raise TypeError(
        f"{name} is a {type(x).__name__}; confmat counts Dask arrays and Dask DataFrame columns"
    )


def _array_blocks(x: Any, name: str, chunks: tuple[int, ...] | None, ndim: int) -> tuple[list[Any], tuple[int, ...]]:
    if x.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D, got a Dask array of shape {x.shape}")
    if ndim == 2:
        x = x.rechunk({1: -1})
    if chunks is not None and x.chunks[0] != chunks:
        if any(math.isnan(c) for c in x.chunks[0]) or any(math.isnan(c) for c in chunks):
            raise ValueError(
                f"{name} has unknown chunk sizes and cannot be aligned with y_true; call "
                "compute_chunk_sizes() on both first"
            )
        if sum(x.chunks[0]) != sum(chunks):
            raise length_error(sum(chunks), sum(x.chunks[0]), name)
        x = x.rechunk({0: chunks})
    return list(x.to_delayed().ravel()), x.chunks[0]


def _blocks(
    y_true: Any, y_pred: Any, scores: Any, sample_weight: Any
) -> tuple[list[tuple[Any, Any, Any, Any]], int | None]:
    """Per-partition tuples ``(t, p, s, w)`` of delayed blocks, and the total length if known."""
    kt, kp = _kind(y_true, "y_true"), _kind(y_pred, "y_pred")
    others = {"scores": scores, "sample_weight": sample_weight}
    for name, v in others.items():
        if v is not None and not is_dask_collection(v):
            raise TypeError(
                f"{name} must be a Dask collection like y_true and y_pred, got "
                f"{type(v).__name__}"
            )
    kinds = {kt, kp} | {_kind(v, n) for n, v in others.items() if v is not None}
    if len(kinds) > 1:
        raise TypeError(
            "give y_true, y_pred (and scores / sample_weight) all as Dask arrays or all as "
            "columns of Dask DataFrames, not a mix"
        )
    if kt == "array":
        t_blocks, chunks = _array_blocks(y_true, "y_true", None, 1)
        p_blocks, _ = _array_blocks(y_pred, "y_pred", chunks, 1)
        s_blocks = (
            _array_blocks(scores, "scores", chunks, scores.ndim)[0]
            if scores is not None and scores.ndim in (1, 2)
            else None
        )
        if scores is not None and s_blocks is None:
            raise ValueError(f"scores must be 1-D or 2-D, got shape {scores.shape}")
        w_blocks = (
            _array_blocks(sample_weight, "sample_weight", chunks, 1)[0]
            if sample_weight is not None
            else None
        )
        n = None if any(math.isnan(c) for c in chunks) else int(sum(chunks))
    else:
        import dask.dataframe as dd

        for name, v in (("y_true", y_true), ("y_pred", y_pred), ("sample_weight", sample_weight)):
            if isinstance(v, dd.DataFrame):
                raise TypeError(f"{name} must be one column (a Dask Series), got a Dask DataFrame")
        parts = {y_true.npartitions, y_pred.npartitions} | {
            v.npartitions for v in others.values() if v is not None
        }
        if len(parts) > 1:
            raise ValueError(
                "y_true, y_pred (and scores / sample_weight) must be columns of one Dask "
                f"DataFrame with the same partitions; got npartitions {sorted(parts)}"
            )
        t_blocks = list(y_true.to_delayed())
        p_blocks = list(y_pred.to_delayed())
        s_blocks = list(scores.to_delayed()) if scores is not None else None
        w_blocks = list(sample_weight.to_delayed()) if sample_weight is not None else None
        n = None
    blocks = [
        (
            t,
            p,
            None if s_blocks is None else s_blocks[i],
            None if w_blocks is None else w_blocks[i],
        )
        for i, (t, p) in enumerate(zip(t_blocks, p_blocks, strict=True))
    ]
    return blocks, n


def _partial(
    t: Any, p: Any, s: Any, w: Any, bins: int, score_range: tuple[float, float],
    score_labels: list[Any] | None, index: int = 0, pos_label: Any = None,
) -> Accumulator:
    """Count one partition (runs on a worker); errors name the partition, and only it (the
    partition's one-update accumulator would call it "chunk 1")."""
    where = f"partition {index}"
    acc = Accumulator(scores=score_labels is not None, bins=bins, score_range=score_range,
                      score_labels=score_labels, pos_label=pos_label)
    try:
        t = np.asarray(t.to_numpy() if hasattr(t, "to_numpy") else t)
        if s is not None and hasattr(s, "to_numpy"):
            s = s.to_numpy()
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"{where}: {exc}") from exc
    if t.shape[0] == 0:
        return acc
    acc.update(t, p, scores=s, sample_weight=w, chunk_name=where)
    acc.n_updates = 1
    return acc


def _merge(span: tuple[int, int], *parts: Accumulator) -> Accumulator:
    """Merge partial states (runs on a worker, up the reduction tree); errors name the
    partitions ``span`` (first, last) the parts hold.

    The inputs are left untouched: a task the scheduler reruns must see the same inputs.
    """
    first = parts[0]
    out = Accumulator(bins=first.bins, score_range=first.score_range)
    try:
        for p in parts:
            out.merge(p)
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"partitions {span[0]} to {span[1]}: {exc}") from exc
    return out


def _reduce(level: list[Any], merge: Any, split_every: int) -> Any:
    """The root of the reduction tree over ``level`` (one delayed state per partition), each
    merge told which partitions it holds."""
    spans = [(i, i) for i in range(len(level))]
    while len(level) > 1:
        groups = range(0, len(level), split_every)
        new_spans = [(spans[i][0], spans[min(i + split_every, len(level)) - 1][1]) for i in groups]
        level = [merge(span, *level[i : i + split_every]) for i, span in zip(groups, new_spans,
                                                                             strict=True)]
        spans = new_spans
    return level[0]


def accumulate(
    y_true: Any,
    y_pred: Any,
    *,
    scores: Any = None,
    sample_weight: Any = None,
    bins: int = 10_000,
    score_range: tuple[float, float] = (0.0, 1.0),
    score_labels: Sequence[Any] | None = None,
    split_every: int = 8,
    allow_empty: bool = False,
    pos_label: Any = None,
) -> Accumulator:
    """Count Dask collections into an :class:`~confmat.Accumulator` on their cluster.

    Parameters
    ----------
    y_true, y_pred : dask.array.Array or dask.dataframe.Series
        1-D Dask arrays (chunks are aligned to ``y_true``'s) or columns of one Dask DataFrame.
    scores : dask.array.Array or dask.dataframe.Series / DataFrame, optional
        Scores for the curves: 1-D (positive class) or 2-D (one column per class).
    sample_weight : dask.array.Array or dask.dataframe.Series, optional
        Non-negative weights.
    bins : int, default 10_000
        Score bins.
    score_range : (float, float), default (0.0, 1.0)
        Range of the scores.
    score_labels : sequence, optional
        Classes of the score histograms (and order of the score columns). By default the
        sorted labels of the data, found by an extra counting pass first.
    split_every : int, default 8
        Fan-in of the reduction tree.
    allow_empty : bool, default False
        Return an empty Accumulator for collections without rows instead of raising (what
        ``Accumulator.update`` does with an empty chunk: it adds nothing).
    pos_label : label, optional
        The class that 1-D ``scores`` score, as in :class:`~confmat.Accumulator`: beside two
        ``score_labels`` by default the second; beside two labels found in the data by
        default 1 (True) for {0, 1}, {-1, 1} or {False, True}, any other two labels need it
        (:func:`confmat.inputs.score_columns.score_column_class`, decided on the client
        before any partition is binned).

    Returns
    -------
    Accumulator
        The merged state; ``.result()`` is the confusion matrix.

    Raises
    ------
    RuntimeError
        If the number of samples counted differs from the known input length (never a partial
        result returned as complete).
    ValueError
        Empty inputs, misaligned chunks, a bad ``split_every``, a bad partition (named), or
        1-D scores beside two labels found that imply no positive class, without
        ``pos_label``.
    TypeError
        Inputs that are not Dask collections of one kind.

    Examples
    --------
    >>> import dask.array as da
    >>> y = da.from_array([0, 1, 1, 2, 2, 2], chunks=2)
    >>> accumulate(y, y).result().counts.diagonal().tolist()
    [1, 2, 3]
    """
    dask = require("dask", "counting Dask collections")
    delayed = dask.delayed

    if isinstance(split_every, bool) or not isinstance(split_every, int) or split_every < 2:
        raise ValueError(f"split_every must be an int >= 2, got {split_every!r}")
    blocks, n = _blocks(y_true, y_pred, scores, sample_weight)
    hist_labels = None
    if scores is not None:
        given = score_labels is not None
        if score_labels is None:
            found = accumulate(y_true, y_pred, sample_weight=sample_weight,
                               split_every=split_every, allow_empty=allow_empty)
            if found.n_samples == 0:  # no rows (allow_empty): no classes to score either
                return Accumulator(bins=bins, score_range=score_range, pos_label=pos_label)
            score_labels = found.labels
        hist_labels = normalize_labels(score_labels, "score_labels")
        if scores.ndim == 1 and len(hist_labels) == 2:
            # the class of the one column, by the door's rule, before any partition is
            # binned (the true classes known: the pass above counted the whole table)
            truth = None if given else [c for c, r in zip(
                hist_labels, found.counts.sum(axis=1).tolist(), strict=True) if r]
            pos = scored_class(hist_labels, pos_label, given, "", truth=truth)
            if pos != hist_labels[1]:  # the partitions' histograms are [other, pos]
                hist_labels = hist_labels[::-1]
    pos_label = check_pos_label(hist_labels, pos_label)
    part = delayed(_partial, pure=True)
    merge = delayed(_merge, pure=True)
    level = [
        part(t, p, s, w, bins, score_range, hist_labels, i, pos_label)
        for i, (t, p, s, w) in enumerate(blocks)
    ]
    if not level:
        if allow_empty:
            return Accumulator(bins=bins, score_range=score_range)
        raise ValueError("y_true and y_pred are empty; at least one sample is needed")
    (acc,) = dask.compute(_reduce(level, merge, split_every))
    if n is not None and acc.n_samples != n:
        raise RuntimeError(
            f"the Dask computation counted {acc.n_samples} samples but the input has {n}; "
            "refusing to return a partial confusion matrix"
        )
    if acc.n_samples == 0 and not allow_empty:
        raise ValueError("y_true and y_pred are empty; at least one sample is needed")
    acc.n_updates = 1
    return acc


def _select(
    table: np.ndarray, seen: list[Any], labels: Sequence[Any] | None
) -> tuple[np.ndarray, list[Any], bool]:
    """Restrict a table over ``seen`` labels to ``labels``, pooling the rest as "other"."""
    if labels is None:
        return table, seen, False
    book = normalize_labels(labels)
    if seen:
        check_label_kinds(seen[:1] + book[:1], "labels and the data")
    k = len(book)
    index = {v: i for i, v in enumerate(book)}
    pos = np.fromiter((index.get(v, k) for v in seen), np.int64, len(seen))
    out = np.zeros((k + 1, k + 1), dtype=table.dtype)
    np.add.at(out, (pos[:, None], pos[None, :]), table)
    if not out[k, :].any() and not out[:, k].any():
        return out[:k, :k].copy(), book, False
    return out, book, True


def confusion_counts(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Sequence[Any] | None = None,
    sample_weight: Any = None,
) -> tuple[np.ndarray, list[Any], bool]:
    """The Dask counterpart of :func:`confmat.counting.kernels.confusion_counts`, computed on
    the cluster.

    Parameters
    ----------
    y_true, y_pred : dask.array.Array or dask.dataframe.Series
        The labels.
    labels : sequence, optional
        Classes and their order; samples outside them are pooled in a last row / column.
    sample_weight : dask.array.Array or dask.dataframe.Series, optional
        Non-negative weights.

    Returns
    -------
    table : ndarray
        K x K, or (K + 1) x (K + 1) when samples fell outside ``labels``.
    labels : list
        The classes.
    has_other : bool
        Whether ``table`` has the outside row and column.

    Raises
    ------
    ValueError, TypeError, RuntimeError
        As :func:`accumulate`.

    Examples
    --------
    >>> import dask.array as da
    >>> t = da.from_array([0, 1, 2, 2], chunks=2)
    >>> table, labels, other = confusion_counts(t, t, labels=[0, 2])
    >>> table.tolist(), labels, other
    ([[1, 0, 0], [0, 2, 0], [0, 0, 1]], [0, 2], True)
    """
    acc = accumulate(y_true, y_pred, sample_weight=sample_weight)
    acc.result()  # the in-memory path's checks: e.g. weights that are all zero are refused
    return _select(acc.counts, acc.labels, labels)


def confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Sequence[Any] | None = None,
    sample_weight: Any = None,
) -> Any:
    """:meth:`ConfusionMatrix.from_predictions` for Dask arrays / DataFrame columns.

    Parameters
    ----------
    y_true, y_pred : dask.array.Array or dask.dataframe.Series
        The labels.
    labels : sequence, optional
        Classes and their order.
    sample_weight : dask.array.Array or dask.dataframe.Series, optional
        Non-negative weights.

    Returns
    -------
    ConfusionMatrix

    Raises
    ------
    ValueError, TypeError, RuntimeError
        As :func:`accumulate`.

    Examples
    --------
    >>> import dask.array as da
    >>> t = da.from_array(["a", "b", "b"], chunks=2)
    >>> p = da.from_array(["a", "a", "b"], chunks=2)
    >>> confusion_matrix(t, p).counts.tolist()
    [[1, 0], [1, 1]]
    """
    from .matrix import ConfusionMatrix

    table, out_labels, has_other = confusion_counts(
        y_true, y_pred, labels=labels, sample_weight=sample_weight
    )
    return ConfusionMatrix.from_table(table, out_labels, has_outside_margin=has_other)


def score_histogram(
    y_true: Any,
    y_score: Any,
    *,
    labels: Sequence[Any] | None = None,
    sample_weight: Any = None,
    bins: int = 10_000,
    score_range: tuple[float, float] = (0.0, 1.0),
    pos_label: Any = None,
) -> Any:
    """A :class:`confmat.binned.ScoreHistogram` of Dask collections, binned on the cluster.

    Its ``roc_curve``, ``roc_auc``, ``precision_recall_curve``, ``average_precision`` and
    ``threshold_sweep`` give the curves.

    Parameters
    ----------
    y_true : dask.array.Array or dask.dataframe.Series
        The true labels.
    y_score : dask.array.Array or dask.dataframe.Series / DataFrame
        Binary: the scores of the positive class (see ``pos_label``); multiclass: one column
        per class, in ``labels`` order.
    labels : sequence, optional
        The histogram's classes; by default the sorted labels of ``y_true`` (an extra pass).
        Two labels given: 1-D scores are those of ``labels[1]`` unless ``pos_label`` says
        otherwise (the order is the caller's choice).
    pos_label : label, optional
        The class that 1-D scores score. Without ``labels``, as scikit-learn's ``roc_curve``:
        ``y_true`` in {0, 1}, {-1, 1} or {False, True} scores 1 (True), any other two labels
        need ``pos_label`` (never the second label by sorted order).
    sample_weight : dask.array.Array or dask.dataframe.Series, optional
        Non-negative weights.
    bins : int, default 10_000
        Score bins.
    score_range : (float, float), default (0.0, 1.0)
        Range of the scores.

    Returns
    -------
    ScoreHistogram

    Raises
    ------
    ValueError, TypeError, RuntimeError
        As :func:`accumulate`, scores outside ``score_range``, and 1-D scores beside two
        labels of ``y_true`` that imply no positive class without ``pos_label``.

    Examples
    --------
    >>> import dask.array as da
    >>> y = da.from_array([0, 0, 1, 1], chunks=2)
    >>> s = da.from_array([0.1, 0.4, 0.35, 0.8], chunks=2)
    >>> score_histogram(y, s).roc_auc()
    0.75
    >>> t = da.from_array(["healthy", "healthy", "sick", "sick"], chunks=2)
    >>> score_histogram(t, s, pos_label="sick").roc_auc()
    0.75
    """
    acc = accumulate(
        y_true, y_true, scores=y_score, sample_weight=sample_weight, bins=bins,
        score_range=score_range, score_labels=labels, pos_label=pos_label,
    )
    return acc.curves()


def _group_blocks(groups: Any, y_true: Any, n_blocks: int) -> list[Any]:
    """Delayed blocks of ``groups`` aligned with ``y_true``'s partitions."""
    if not is_dask_collection(groups):
        raise TypeError(f"groups must be a Dask collection like y_true, got "
                        f"{type(groups).__name__}")
    if _kind(y_true, "y_true") == "array":
        import dask.array as da

        if not isinstance(groups, da.Array) or groups.ndim not in (1, 2):
            raise TypeError("groups must be a 1-D or 2-D Dask array when y_true is a Dask array")
        return _array_blocks(groups, "groups", y_true.chunks[0], groups.ndim)[0]
    if _kind(groups, "groups") != "frame" or groups.npartitions != n_blocks:
        raise ValueError("groups must be a column (or columns) of the Dask DataFrame of y_true, "
                         "with the same partitions")
    return list(groups.to_delayed())


def _grouped_partial(t: Any, p: Any, g: Any, w: Any, labels: list[Any] | None,
                     index: int) -> GroupedAccumulator:
    """Count one partition by group (runs on a worker); errors name the partition."""
    where = f"partition {index}"
    acc = GroupedAccumulator(labels)
    try:
        t = np.asarray(t.to_numpy() if hasattr(t, "to_numpy") else t)
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"{where}: {exc}") from exc
    if t.shape[0] == 0:
        return acc
    acc.update(t, p, g, sample_weight=w, chunk_name=where)
    return acc


def _grouped_merge(span: tuple[int, int], *parts: GroupedAccumulator) -> GroupedAccumulator:
    """Merge partial grouped states (inputs left untouched: a rerun task sees the same);
    errors name the partitions ``span`` (first, last) the parts hold."""
    out = GroupedAccumulator(parts[0].labels if parts[0].labels_fixed else None)
    try:
        for part in parts:
            out.merge(part)
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"partitions {span[0]} to {span[1]}: {exc}") from exc
    return out


def by_group(
    y_true: Any,
    y_pred: Any,
    groups: Any,
    *,
    sample_weight: Any = None,
    labels: Sequence[Any] | None = None,
    pos_label: Any = None,
    min_support: int = 30,
    split_every: int = 8,
) -> Any:
    """Evaluate Dask collections by group on their cluster: each partition is counted into a
    :class:`~confmat.accumulator.GroupedAccumulator` on its worker, the partial stacks are
    merged up a tree, and only the G x K x K stack reaches the client.

    Parameters
    ----------
    y_true, y_pred : dask.array.Array or dask.dataframe.Series
        As for :func:`accumulate`.
    groups : dask.array.Array, dask.dataframe.Series or dask.dataframe.DataFrame
        The group of each sample: a 1-D array or a column, or several features (a 2-D array,
        columns of the same Dask DataFrame) whose combinations are the groups.
    sample_weight : dask.array.Array or dask.dataframe.Series, optional
        Non-negative weights.
    labels : sequence, optional
        Fixed classes and their order.
    pos_label : label, optional
        The positive class of the result.
    min_support : int, default 30
        Groups with fewer samples are flagged small.
    split_every : int, default 8
        Fan-in of the reduction tree.

    Returns
    -------
    GroupedEvaluation
        Equal to :func:`confmat.by_group` on the computed collections.

    Raises
    ------
    RuntimeError
        If the number of samples counted differs from the known input length.
    ValueError
        Empty inputs, misaligned chunks or partitions, or a bad partition (named).
    TypeError
        Inputs that are not Dask collections of one kind.

    Examples
    --------
    >>> import dask.array as da
    >>> y = da.from_array([0, 1, 1, 0, 1, 1], chunks=4)
    >>> p = da.from_array([0, 1, 0, 0, 1, 1], chunks=4)
    >>> g = da.from_array(["a", "a", "a", "b", "b", "b"], chunks=4)
    >>> by_group(y, p, g, pos_label=1).metric("recall").tolist()
    [0.5, 1.0]
    """
    dask = require("dask", "counting Dask collections")
    if isinstance(split_every, bool) or not isinstance(split_every, int) or split_every < 2:
        raise ValueError(f"split_every must be an int >= 2, got {split_every!r}")
    blocks, n = _blocks(y_true, y_pred, None, sample_weight)
    g_blocks = _group_blocks(groups, y_true, len(blocks))
    book = None if labels is None else normalize_labels(labels)
    part = dask.delayed(_grouped_partial, pure=True)
    merge = dask.delayed(_grouped_merge, pure=True)
    level = [part(t, p, g, w, book, i)
             for i, ((t, p, _, w), g) in enumerate(zip(blocks, g_blocks, strict=True))]
    if not level:
        raise ValueError("y_true and y_pred are empty; at least one sample is needed")
    (acc,) = dask.compute(_reduce(level, merge, split_every))
    if n is not None and acc.n_samples != n:
        raise RuntimeError(
            f"the Dask computation counted {acc.n_samples} samples but the input has {n}; "
            "refusing to return a partial result"
        )
    acc.min_support = min_support
    acc.pos_label = pos_label
    return acc.result()
