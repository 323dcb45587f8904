"""Streaming accumulation: ``update`` with chunks, ``merge`` partial states, ``result`` at the end.

A confusion matrix is a sum over samples, so chunked and distributed evaluation need only a
running K x K table (``dist_reduce_fx="sum"`` in torchmetrics' words). The pipeline reads like
torchmetrics' stateful metrics: validate and count each chunk with the same front door and
kernel as the in-memory path (:func:`confmat.counting.kernels.confusion_counts`), add the chunk's table
into the running one, and build a :class:`~confmat.ConfusionMatrix` only when asked.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from . import hooks
from .counting.kernels import confusion_counts
from .deps import is_dask_collection, loaded
from .inputs.encode import (
    as_1d,
    check_label_kinds,
    check_pair,
    encode_pair,
    normalize_labels,
    py_scalar,
)
from .inputs.state import (
    check_envelope,
    exact_total,
    json_labels,
    parse_json,
    read_choice,
    read_counts,
    read_float_range,
    read_int,
    read_labels,
)
from .matrix import ConfusionMatrix
from .metrics.exact import check_sum, check_total, int_total

__all__ = ["Accumulator"]

SCHEMA = "confmat.accumulator"
SCHEMA_VERSION = 1
#: Chunks at least this long use the numba counting kernel (when numba is installed).
NUMBA_CHUNK_SIZE = 1 << 16
#: Chunks shorter than this are counted on the calling thread alone (see ``_one_thread``).
PARALLEL_CHUNK_SIZE = 1 << 22


@contextmanager
def _one_thread(n: int) -> Iterator[None]:
    """Run numba kernels on one thread for a chunk of ``n`` samples (thread-local setting).

    A parallel region per chunk ends in a barrier that waits for the slowest thread; on a busy
    machine that wait dominates chunk after chunk (measured: 10x slower). Streams get their
    parallelism from the pipeline instead (``confmat.io`` decodes the next batch on another
    thread); only very large chunks use every core.
    """
    numba = loaded("numba")
    if n >= PARALLEL_CHUNK_SIZE or numba is None:
        yield
        return
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(old)


class Accumulator:
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
        The histogram's classes, fixed now (implies ``scores=True``); binary: ``score_labels[1]``
        is the positive class, multiclass: the order of the score columns. By default they
        are chosen as described under ``scores``.

    Raises
    ------
    ValueError
        For bad ``bins``, ``labels`` or ``score_labels``, or ``score_labels`` with
        ``scores=False``.
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
    ) -> None:
        self._fixed = labels is not None
        self._labels: list[Any] = normalize_labels(labels) if labels is not None else []
        k = len(self._labels)
        self._table: np.ndarray = np.zeros((k, k), dtype=np.int64)
        self.n_samples = 0
        self.n_updates = 0
        if isinstance(bins, bool) or not isinstance(bins, int | np.integer) or bins < 1:
            raise ValueError(f"bins must be a positive int, got {bins!r}")
        self.bins = int(bins)
        if scores not in (None, True, False):
            raise TypeError(f"scores must be True, False or None, got {scores!r}")
        self._track_scores = scores
        self.score_range = (float(score_range[0]), float(score_range[1]))
        self._hist: Any = None
        if score_labels is not None:
            if scores is False:
                raise ValueError("score_labels were given but scores=False")
            self._track_scores = True
            self._hist = self._new_histogram(normalize_labels(score_labels, "score_labels"))

    # ------------------------------------------------------------------ properties
    @property
    def labels(self) -> list[Any]:
        """Classes so far (fixed, or the sorted union of the labels seen)."""
        return list(self._labels)

    @property
    def labels_fixed(self) -> bool:
        return self._fixed

    @property
    def counts(self) -> np.ndarray:
        """Copy of the running K x K table (rows = true class, columns = predicted class)."""
        return self._table.copy()

    @property
    def is_weighted(self) -> bool:
        return self._table.dtype.kind == "f"

    # ------------------------------------------------------------------ update
    def update(
        self,
        y_true: Any,
        y_pred: Any,
        scores: Any = None,
        sample_weight: Any = None,
    ) -> None:
        """Add one chunk of predictions.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n_samples,)
            Labels, as for :meth:`ConfusionMatrix.from_predictions`; Dask arrays and Dask
            DataFrame columns are counted on their cluster (see :mod:`confmat.dask`).
        scores : array-like, optional
            Scores for the curves: shape (n_samples,) for the positive class of a binary
            problem or (n_samples, n_classes) in label order.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights.
        """
        chunk = self.n_updates + 1
        if is_dask_collection(y_true) or is_dask_collection(y_pred):
            # counted on the cluster by confmat.dask (a layer above: see confmat.hooks)
            self._check_scores_given(scores, chunk)
            hist_labels = None
            if scores is not None:
                hist_labels = (
                    self._hist.labels if self._hist is not None
                    else self._labels if self._fixed else None
                )
            part = hooks.DASK_ACCUMULATE(
                y_true, y_pred, scores=scores, sample_weight=sample_weight, bins=self.bins,
                score_range=self.score_range, score_labels=hist_labels,
            )
            self._merge_state(part, chunk)
            self.n_updates = chunk
            return
        self._check_scores_given(scores, chunk)
        t, p = check_pair(y_true, y_pred)
        with _one_thread(t.shape[0]):
            table, labels = self._count(t, p, sample_weight)
            if self._fixed:
                self._check_known(labels, chunk)
            if scores is not None:
                self._update_scores(t, scores, sample_weight, labels, chunk)
        self._add(table, labels, chunk)
        self.n_samples += int(t.shape[0])
        self.n_updates = chunk

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

        Examples
        --------
        >>> acc = Accumulator()
        >>> acc.update_grouped(["cat", "cat", "dog"], ["cat", "dog", "dog"], [5, 1, 3])
        >>> acc.result().counts.tolist()
        [[5, 1], [0, 3]]
        """
        chunk = self.n_updates + 1
        self._check_scores_given(None, chunk)
        t, p = check_pair(y_true, y_pred)
        c = as_1d(counts, "counts")
        if c.shape[0] != t.shape[0]:
            raise ValueError(f"counts has {c.shape[0]} entries but there are {t.shape[0]} pairs")
        if c.dtype.kind == "f":
            if not np.isfinite(c).all() or (c != np.round(c)).any():
                raise ValueError("counts must be whole numbers of samples")
            if c.size and c.max() >= 2.0**63:  # the cast below would not be defined
                check_total(np.array([int(c.max())], dtype=object), f"counts of chunk {chunk}")
            c = c.astype(np.int64)
        elif c.dtype.kind not in "iu":
            raise TypeError(f"counts must be integers, got dtype {c.dtype}")
        if (c < 0).any():
            raise ValueError("counts must be non-negative")
        check_total(c, f"counts of chunk {chunk}")  # each count and their total fit int64
        c = c.astype(np.int64, copy=False)
        if weights is not None:
            from .inputs.encode import check_sample_weight

            vals: np.ndarray = check_sample_weight(weights, t.shape[0])  # type: ignore[assignment]
        else:
            vals = c
        tc, pc, labels, _ = encode_pair(t, p)
        k = len(labels)
        table = np.zeros((k, k), dtype=vals.dtype)
        np.add.at(table, (tc, pc), vals)
        labels = [py_scalar(v) for v in labels]
        if self._fixed:
            self._check_known(labels, chunk)
        self._add(table, labels, chunk)
        self.n_samples += int_total(c)
        self.n_updates = chunk

    @staticmethod
    def _count(t: np.ndarray, p: np.ndarray, sample_weight: Any) -> tuple[np.ndarray, list[Any]]:
        if sample_weight is not None:
            w = as_1d(sample_weight, "sample_weight")
            if w.dtype.kind in "iufb" and w.shape == t.shape and not w.any():
                # A chunk may carry only zero weights even when the whole stream does not.
                table, labels, _ = confusion_counts(t, p)
                return np.zeros(table.shape, dtype=np.float64), labels
        # Chunks of a stream are counted by the compiled kernel once they are not tiny: its
        # one-off start-up is paid once per stream, not once per chunk.
        use_numba = True if t.shape[0] >= NUMBA_CHUNK_SIZE else None
        table, labels, _ = confusion_counts(
            t, p, sample_weight=sample_weight, use_numba=use_numba
        )
        return table, labels

    def _check_known(self, seen: list[Any], chunk: int) -> None:
        known = set(self._labels)
        unknown = [v for v in seen if v not in known]
        if unknown:
            raise ValueError(
                f"chunk {chunk} has label{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(map(repr, unknown[:5]))} not in the fixed labels {self._labels}"
            )

    def _add(self, table: np.ndarray, labels: list[Any], chunk: int,
             what: str | None = None) -> None:
        """Add a table over ``labels`` into the running table, growing the classes if allowed.
        Integer counts must keep a total that fits int64 (``OverflowError`` naming ``what``,
        by default the chunk, and nothing added otherwise)."""
        if table.dtype.kind in "iu" and self._table.dtype.kind in "iu":
            check_sum([int_total(self._table), int_total(table)],
                      what or f"chunk {chunk} added to the running counts")
        labels = [py_scalar(v) for v in labels]
        if labels != self._labels:
            index = {v: i for i, v in enumerate(self._labels)}
            new = [v for v in labels if v not in index]
            if new:
                if self._fixed:
                    raise ValueError(
                        f"chunk {chunk} has label{'s' if len(new) > 1 else ''} "
                        f"{', '.join(map(repr, new[:5]))} not in the fixed labels {self._labels}"
                    )
                self._grow(new, chunk)
                index = {v: i for i, v in enumerate(self._labels)}
            pos = np.fromiter((index[v] for v in labels), np.int64, len(labels))
        else:
            pos = None
        if table.dtype.kind == "f" and self._table.dtype.kind != "f":
            self._table = self._table.astype(np.float64)
        if pos is None:
            self._table += table.astype(self._table.dtype, copy=False)
        else:
            self._table[np.ix_(pos, pos)] += table.astype(self._table.dtype, copy=False)

    def _grow(self, new: list[Any], chunk: int) -> None:
        merged = list(self._labels) + list(new)
        try:
            check_label_kinds(merged, f"labels of chunk {chunk} and the earlier chunks")
            order = sorted(merged)
        except TypeError as exc:
            raise TypeError(
                f"chunk {chunk} has labels {new[:5]} that cannot be ordered with the earlier "
                f"labels {self._labels[:5]}: {exc}"
            ) from exc
        index = {v: i for i, v in enumerate(order)}
        pos = np.fromiter((index[v] for v in self._labels), np.int64, len(self._labels))
        grown = np.zeros((len(order), len(order)), dtype=self._table.dtype)
        grown[np.ix_(pos, pos)] = self._table
        self._table = grown
        self._labels = order

    # ------------------------------------------------------------------ scores
    def _check_scores_given(self, scores: Any, chunk: int) -> None:
        if scores is not None:
            if self._track_scores is False:
                raise ValueError("scores were given but this Accumulator was made with scores=False")
            if self._hist is None and self.n_samples:
                raise ValueError(
                    f"chunk {chunk} has scores but the earlier chunks had none; the curves would "
                    "miss their samples (make the Accumulator with scores=True)"
                )
        elif self._track_scores or self._hist is not None:
            raise ValueError(
                f"chunk {chunk} has no scores but this Accumulator tracks them; pass scores= "
                "to every update"
            )

    def _new_histogram(self, labels: list[Any]) -> Any:
        from .binned import ScoreHistogram

        return ScoreHistogram(labels, bins=self.bins, score_range=self.score_range)

    def _update_scores(
        self, t: np.ndarray, scores: Any, sample_weight: Any, seen: list[Any], chunk: int
    ) -> None:
        hist = self._hist
        if hist is None:
            if self._fixed:
                classes = list(self._labels)
            else:
                classes = sorted(set(self._labels) | {py_scalar(v) for v in seen})
            if len(classes) < 2:
                raise ValueError(
                    f"chunk {chunk}: the score histogram needs at least two classes but only "
                    f"{classes} were seen; pass labels= to the Accumulator"
                )
            hist = self._new_histogram(classes)
        # ScoreHistogram.update validates the whole chunk before adding it, so a rejected
        # chunk leaves the running histogram untouched (tested in test_scores_rules).
        try:
            hist.update(t, scores, sample_weight=sample_weight)
        except (ValueError, TypeError) as exc:
            hint = "" if self._fixed else " (pass labels= to fix the classes up front)"
            raise type(exc)(f"chunk {chunk}: {exc}{hint}") from exc
        self._hist = hist

    def curves(self) -> Any:
        """The accumulated :class:`confmat.binned.ScoreHistogram` (curves, AUC, AP, sweeps)."""
        if self._hist is None:
            raise ValueError(
                "no scores were accumulated: pass scores= to update() to track the curves"
            )
        return self._hist

    # ------------------------------------------------------------------ merge / result
    def merge(self, other: Accumulator) -> Accumulator:
        """Add another accumulator's state into this one (in place) and return self.

        The result equals one accumulator that saw both streams; with fixed labels both must
        have the same classes.
        """
        if not isinstance(other, Accumulator):
            raise TypeError(f"can only merge an Accumulator, got {type(other).__name__}")
        self._merge_state(other, self.n_updates + 1, "acc.merge(other): merging the counts")
        self.n_updates += other.n_updates
        return self

    def _merge_state(self, other: Accumulator, chunk: int, what: str | None = None) -> None:
        if self._fixed and other._fixed and other._labels != self._labels:
            raise ValueError(
                f"cannot merge accumulators with different fixed labels: {self._labels} vs "
                f"{other._labels}"
            )
        if other._labels:
            self._add(other._table, other._labels, chunk, what)
        elif other._table.dtype.kind == "f" and self._table.dtype.kind != "f":
            self._table = self._table.astype(np.float64)
        if (self._hist is None) != (other._hist is None) and self.n_samples and other.n_samples:
            raise ValueError(
                "cannot merge an Accumulator that tracks scores with one that does not: the "
                "curves would miss samples"
            )
        if other._hist is not None and self._track_scores is False:
            raise ValueError("cannot merge score histograms into an Accumulator made with scores=False")
        self.n_samples += other.n_samples
        if other._hist is not None:
            self._hist = other._hist.copy() if self._hist is None else self._hist + other._hist

    def __add__(self, other: Accumulator) -> Accumulator:
        if not isinstance(other, Accumulator):
            return NotImplemented
        out = self.copy()
        return out.merge(other)

    def copy(self) -> Accumulator:
        out = Accumulator.from_dict(self.to_dict())
        return out

    def result(self) -> ConfusionMatrix:
        """The confusion matrix of everything seen: equal to the in-memory computation."""
        if self.n_samples == 0:
            raise ValueError("the Accumulator has seen no samples; call update() first")
        if self.is_weighted and not self._table.any():
            raise ValueError("sample_weight must contain at least one non-zero weight")
        check_total(self._table, "the accumulated counts")  # e.g. a state read from JSON
        return ConfusionMatrix.from_table(self._table.copy(), self._labels)

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> dict[str, Any]:
        """Versioned, JSON-ready state (never pickle)."""
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "labels": json_labels(self._labels, "Accumulator.to_dict"),
            "labels_fixed": self._fixed,
            "counts": self._table.tolist(),
            "dtype": "float64" if self.is_weighted else "int64",
            "n_samples": int(self.n_samples),
            "n_updates": int(self.n_updates),
            "bins": self.bins,
            "score_range": list(self.score_range),
            "track_scores": self._track_scores,
            "scores": None if self._hist is None else self._hist.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Accumulator:
        """Rebuild an accumulator from :meth:`to_dict` output, validated as untrusted input
        (:mod:`confmat.inputs.state`): exact non-negative counts of the declared ``dtype``
        over the labels (sorted unless fixed), ``n_samples`` equal to the total of an
        unweighted table, a score histogram whose classes with samples are among the labels.
        """
        return cls._from_state(data, "Accumulator.from_dict")

    @classmethod
    def _from_state(cls, data: Any, name: str) -> Accumulator:
        check_envelope(data, SCHEMA, SCHEMA_VERSION, name, what="confmat accumulator state")
        fixed = read_choice(data, "labels_fixed", name, (True, False), default=False)
        labels = read_labels(data, "labels", name, minimum=1 if fixed else 0)
        if not fixed and labels != sorted(labels):
            raise ValueError(
                f"{name}: field 'labels' must be sorted when 'labels_fixed' is false (the "
                f"classes seen are kept in sorted order), got {labels[:10]}"
            )
        k = len(labels)
        dtype = read_choice(data, "dtype", name, ("int64", "float64"), default=None)
        table = read_counts(data, "counts", name, shape=(k, k),
                            integer="auto" if dtype is None else dtype == "int64",
                            why=f" (K x K for the {k} labels)")
        n_samples = read_int(data, "n_samples", name, minimum=0)
        if table.dtype.kind == "i" and n_samples != exact_total(table):
            raise ValueError(
                f"{name}: field 'n_samples' is {n_samples} but the unweighted 'counts' add up "
                f"to {exact_total(table)}"
            )
        if table.dtype.kind == "f" and n_samples == 0 and table.any():
            raise ValueError(f"{name}: field 'n_samples' is 0 but 'counts' holds weights")
        if k == 0 and n_samples:
            raise ValueError(f"{name}: field 'n_samples' is {n_samples} but there are no labels")
        track = read_choice(data, "track_scores", name, (None, True, False), default=None)
        bins = read_int(data, "bins", name, minimum=1, default=10_000)
        score_range = read_float_range(data, "score_range", name, default=(0.0, 1.0))
        try:
            out = cls(labels if fixed else None, scores=track, bins=bins, score_range=score_range)
        except (ValueError, TypeError) as exc:  # labels numpy cannot hold as one kind
            raise type(exc)(f"{name}: field 'labels': {exc}") from exc
        if not fixed:
            out._labels = labels
        out._table = table
        out.n_samples = n_samples
        out.n_updates = read_int(data, "n_updates", name, minimum=0, default=0)
        if data.get("scores") is not None:
            if track is False:
                raise ValueError(
                    f"{name}: field 'scores' holds a histogram but 'track_scores' is false"
                )
            from .binned import read_histogram

            hist = read_histogram(data["scores"], name, at=("scores",))
            known = set(out._labels)
            seen = np.any(hist.counts.reshape(len(hist.labels), -1), axis=1).tolist()
            unknown = [v for v, s in zip(hist.labels, list(seen), strict=True)
                       if s and v not in known]
            if unknown:
                raise ValueError(
                    f"{name}: field 'scores' has samples of the classes {unknown[:5]}, which "
                    f"are not in 'labels'"
                )
            out._hist = hist
        return out

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_json(cls, text: str) -> Accumulator:
        """Rebuild an accumulator from :meth:`to_json` text (validated like :meth:`from_dict`)."""
        name = "Accumulator.from_json"
        return cls._from_state(parse_json(text, name), name)

    def __repr__(self) -> str:
        return (
            f"Accumulator(labels={self._labels!r}, n_samples={self.n_samples}, "
            f"n_updates={self.n_updates}, scores={self._hist is not None})"
        )
