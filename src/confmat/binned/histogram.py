"""The :class:`ScoreHistogram` itself: construction, accumulation (numba or numpy) and
merging. Its curve methods live in :mod:`confmat.binned.views`, its versioned JSON form in
:mod:`confmat.binned.state` (:func:`read_histogram` reads it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..inputs.encode import as_1d, check_sample_weight, factorize, normalize_labels
from ..inputs.kinds import check_known_kinds, label_kind, py_scalar
from ..inputs.probabilities import check_rows_sum_to_one
from ..inputs.score_columns import check_score_columns
from ..inputs.score_shape import check_score_length
from ..inputs.scores import check_score_range, histogram_edges, numeric_1d
from ..inputs.targets import (
    binary_pos_label,
    check_bins,
    check_pos_label_kind,
    check_scores_2d,
    encode_truth,
    finite_float,
    float_scores,
    negative_label,
    resolve_pos_label,
)
from ..metrics.exact import check_sum, check_total, int_total
from .binning import bin_chunk, count_in_place
from .state import MAX_CELLS, SCHEMA, SCHEMA_VERSION, HistogramState, read_state
from .views import HistogramCurves

__all__ = ["MAX_CELLS", "SCHEMA", "SCHEMA_VERSION", "ScoreHistogram", "read_histogram",
           "score_column_histogram"]


class ScoreHistogram(HistogramCurves, HistogramState):
    """Per-class histograms of scores into ``bins`` equal-width bins: a mergeable summary
    from which ROC / PR curves, AUC, average precision and threshold sweeps are computed.

    Parameters
    ----------
    labels : sequence, optional
        The classes, fixed up front so that histograms of different chunks can be added.
        Two labels: a binary problem whose scores are those of ``labels[1]`` (the positive
        class; with ``pos_label`` the labels are reordered to ``[other, pos_label]``), given
        as ``(n,)``, one column ``(n, 1)`` or an ``(n, 2)`` probability matrix (column 1 is
        used). More labels: a multiclass problem with ``(n, K)`` probability matrices,
        columns in the order of ``labels``. Not given: a binary problem whose positive class follows confmat's one
        rule on every chunk (:func:`confmat.inputs.targets.resolve_pos_label`): ``y_true`` in
        {0, 1}, {-1, 1} or {False, True} scores the class 1 (True); other labels need
        ``pos_label``, and all classes but ``pos_label`` count as negative. ``labels`` is then
        ``[0, 1]``, ``[False, True]``, ``["not <pos_label>", pos_label]`` for a string
        ``pos_label``, or ``[0, pos_label]`` (``[1, 0]`` when it is 0) for a number.
    bins : int, default=10_000
        Number of equal-width bins.
    score_range : (float, float), default=(0.0, 1.0)
        The fixed range of the scores; a score outside it is an error.
    pos_label : label, optional
        The positive class of a binary histogram. A chunk of two or more classes must
        contain it (a chunk of one class may lack it: streams are cut anywhere). With
        ``labels`` there must be two of them, ``pos_label`` among them.

    Raises
    ------
    ValueError
        Fewer than two labels, repeated labels, bad ``bins`` or ``score_range``, a
        ``pos_label`` beside more than two ``labels`` or not among two given ones.
    TypeError
        ``score_range`` is not two numbers.

    Attributes
    ----------
    counts : ndarray of shape (K, C, bins)
        ``counts[c, k, b]``: number (or weight) of samples of true class ``c`` whose score
        column ``k`` falls in bin ``b``. ``C = 1`` for binary problems, ``C = K`` otherwise.

    Notes
    -----
    Two histograms are equal, and merge, only when they read chunks by the same
    positive-class rule (:attr:`positive_rule`), not only when their labels agree: a
    histogram made without ``labels`` scores ``y_true`` in {-1, 1} or a third class, one
    with ``labels=[0, 1]`` refuses them, and ``pos_label=1`` counts every class but 1 as
    negative where the default rule asks for ``pos_label``. With ``labels`` given the rule
    is the labels' own (``labels[1]`` is positive), however ``pos_label`` ordered them.

    Examples
    --------
    >>> h = ScoreHistogram(bins=4)
    >>> h = h.update([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> h.roc_auc(), h.auc_error_bound()  # the exact AUC is 0.75
    (0.875, 0.125)
    >>> h.threshold_sweep(thresholds=[0.25]).at(0.25).counts.tolist()
    [[1, 1], [0, 2]]
    """

    def __init__(
        self,
        labels: Sequence[Any] | None = None,
        *,
        bins: int = 10_000,
        score_range: tuple[float, float] = (0.0, 1.0),
        pos_label: Any = None,
    ) -> None:
        self._door = labels is None
        if labels is None:
            # binary, the positive class decided chunk by chunk by the door's one rule
            pos = True if pos_label is True else (1 if pos_label is None else py_scalar(pos_label))
            if isinstance(pos, str):
                neg: Any = negative_label([], pos)
            else:  # a number stands for the negative class of numeric labels
                neg = (not pos) if isinstance(pos, bool) else (1 if pos == 0 else 0)
            self.labels = normalize_labels([neg, pos], "labels")
        else:
            self.labels = normalize_labels(list(labels), "labels")
            if pos_label is not None:  # a positive class makes the histogram binary
                pos = binary_pos_label(self.labels, pos_label)
                self.labels = [*(c for c in self.labels if c != pos), pos]
        self.pos_label = pos_label if pos_label is None else py_scalar(pos_label)
        if len(self.labels) < 2:
            raise ValueError(f"labels must name at least two classes, got {self.labels}")
        self.bins = check_bins(bins)
        self.score_range = check_score_range(score_range, self.bins)
        k = len(self.labels)
        self._ncols = 1 if k == 2 else k
        self.counts = np.zeros((k, self._ncols, self.bins), dtype=np.int64)
        self._index = {v: i for i, v in enumerate(self.labels)}

    # ---------------------------------------------------------------- basic properties
    @property
    def is_binary(self) -> bool:
        """True for two labels: one score column, the scores of ``labels[1]``."""
        return len(self.labels) == 2

    @property
    def labels_given(self) -> bool:
        """True when ``labels`` were given; False: binary, the positive class chosen chunk by
        chunk by the door's rule (kept in the JSON form)."""
        return not self._door

    @property
    def positive_rule(self) -> str:
        """How chunks are read into the classes, in words: the labels given, or the door's
        rule and its ``pos_label`` (histograms of different rules neither compare equal nor
        merge)."""
        if not self._door:
            if self.is_binary:
                return f"labels {self.labels} given (positive class {self.labels[1]!r})"
            return f"labels {self.labels} given (one score column per class)"
        if self.pos_label is None:
            return ("labels not given, y_true in {0, 1}, {-1, 1} or {False, True} "
                    "(pos_label=None)")
        return (f"labels not given, every class but pos_label={self.pos_label!r} "
                "negative")

    @property
    def edges(self) -> np.ndarray:
        """The ``bins + 1`` bin edges ``lo + (hi - lo) * (j / bins)``
        (:func:`confmat.inputs.scores.histogram_edges`)."""
        return histogram_edges(self.bins, *self.score_range)

    @property
    def is_weighted(self) -> bool:
        """True once a weighted chunk was added: ``counts`` then holds float sums of weights."""
        return self.counts.dtype.kind == "f"

    @property
    def n(self) -> float:
        """Total count (or weight) of the samples seen."""
        return self.counts[:, 0, :].sum().item()

    def _same_layout(self, other: ScoreHistogram) -> ScoreHistogram:
        if not isinstance(other, ScoreHistogram):
            raise TypeError(f"cannot merge ScoreHistogram and {type(other).__name__}")
        mine, theirs = self._layout(), other._layout()
        if mine[:3] == theirs[:3] and mine[3] != theirs[3]:
            raise ValueError(
                "cannot merge histograms of different positive-class rules: "
                f"{self.positive_rule} vs {other.positive_rule}"
            )
        if mine != theirs:
            raise ValueError(
                "cannot merge histograms with different labels, bins or score_range: "
                f"{(self.labels, self.bins, self.score_range)} vs "
                f"{(other.labels, other.bins, other.score_range)}"
            )
        return other

    def _layout(self) -> tuple[Any, ...]:
        """What must agree for two histograms to be equal or to merge: the labels with their
        kinds (``True == 1`` in Python, but a boolean class is not the class 1), bins, range
        and the positive-class rule (``labels_given``, and ``pos_label`` without labels)."""
        pos = self.pos_label if self._door else None
        rule = (self._door, None if pos is None else (label_kind(pos), pos))
        return ([(label_kind(v), v) for v in self.labels], self.bins, self.score_range, rule)

    # ---------------------------------------------------------------- accumulation
    def _codes(self, y_true: Any) -> np.ndarray:
        if self._door:  # labels not given: positive class by the door's rule
            y = as_1d(y_true, "y_true")
            if y.shape[0] == 0:
                return np.zeros(0, dtype=np.int64)
            classes, codes = encode_truth(y)
            if self.pos_label is None or len(classes) >= 2 or self.pos_label in classes:
                # (the last: True == 1, so the door checks the kinds of the one class seen)
                pos = resolve_pos_label(classes, self.pos_label)
            else:  # a chunk of one class may lack the positive class, not be of another kind
                pos = self.pos_label
                check_pos_label_kind(classes, pos)
            if pos not in classes:
                return np.zeros(codes.shape[0], dtype=np.int64)
            if len(classes) == 1:
                return np.ones(codes.shape[0], dtype=np.int64)
            i = classes.index(pos)
            # two classes: the codes already say "positive" when it is the larger label;
            # more: every class but pos_label is negative
            return codes if (len(classes) == 2 and i == 1) else (codes == i).astype(np.int64)
        y = as_1d(y_true, "y_true")
        k = len(self.labels)
        # (False, True) == (0, 1) in Python: integer codes only for integer labels
        if y.dtype.kind in "iu" and self.labels == list(range(k)) and not isinstance(
                self.labels[0], bool):
            if y.size and (y.min() < 0 or y.max() >= k):
                bad = y[(y < 0) | (y >= k)][0]
                raise ValueError(f"y_true contains label {py_scalar(bad)!r} not in labels {self.labels}")
            # small integer codes go to the kernel as they are (it is compiled per type)
            return y if y.dtype.kind == "i" else y.astype(np.int64)
        uniq, codes = factorize(y, "y_true")
        if uniq.size:  # True == 1: a boolean must not land on the class 1, nor 1 on True
            check_known_kinds(self.labels, [py_scalar(uniq[0])], "the labels and y_true")
        try:
            lut = np.array([self._index[py_scalar(v)] for v in uniq.tolist()], dtype=np.int64)
        except KeyError as exc:
            raise ValueError(
                f"y_true contains label {exc.args[0]!r} not in labels {self.labels}"
            ) from None
        return lut[codes] if lut.size else codes

    def _check_shape(self, y_true: Any, y_score: Any, name: str) -> np.ndarray:
        """``y_score`` as an array whose shape fits ``y_true`` and the labels, checked before
        the content of either (the door's order: lengths, then the columns of a matrix
        against the labels, :func:`~confmat.inputs.score_columns.check_score_columns`)."""
        if y_score is None:
            raise TypeError(f"{name} must be an array of scores, got None")
        check_score_length(y_true, y_score, name)
        s = y_score.to_numpy() if hasattr(y_score, "to_numpy") else np.asarray(y_score)
        check_score_columns(s, self.labels, name)
        return s

    def _scores(self, s: np.ndarray, n: int, finite: bool, name: str) -> np.ndarray:
        if self.is_binary:
            if s.ndim == 2 and s.shape[1] in (1, 2):  # the scores of labels[1]: the last column
                s = s[:, -1]
            if s.ndim != 1:
                numeric_1d(s, name)  # raises the door's message of an array that is not 1-D
            # NaN and infinite scores fail the bin lookup's range test, which then raises the
            # door's message (binning.range_error): no separate pass unless weights follow
            return (finite_float if finite else float_scores)(s, n, name)[:, None]
        s = check_scores_2d(s, n, name)
        check_rows_sum_to_one(s, name)
        return s

    def update(self, y_true: Any, y_score: Any, sample_weight: Any = None, *,
               score_name: str = "y_score") -> ScoreHistogram:
        """Add one chunk of samples; returns ``self`` (so ``h.update(...).update(...)``).

        The shapes are checked first, as by every score-taking function of confmat: the
        length of ``y_score`` against ``y_true``'s, the columns of a score matrix against
        ``labels``; then the labels, then the scores.

        Parameters
        ----------
        y_true : array-like of shape (n,)
            True labels, all in ``labels``.
        y_score : array-like of shape (n,), (n, 1), (n, 2) or (n, K)
            Scores in ``score_range`` (binary: of ``labels[1]``, one column or the second of
            two; multiclass: one column per label, rows of class probabilities summing to 1).
        sample_weight : array-like of shape (n,), optional
            Non-negative weights; the histogram then holds float sums of weights.
        score_name : str, default 'y_score'
            The scores' name in error messages (an :class:`~confmat.Accumulator` passes its
            argument's, ``'scores'``).

        Returns
        -------
        ScoreHistogram
            ``self``.

        Raises
        ------
        ValueError, TypeError
            Scores of another length than ``y_true``, a score matrix whose columns are not
            one per label (:func:`~confmat.inputs.score_columns.score_columns_error`), a
            label not in ``labels``, a score outside ``score_range`` (naming the argument,
            the score, the range and the row; the chunk is not added), bad weights, weights
            whose running total would pass the largest float64 (the chunk is not added).

        Examples
        --------
        >>> ScoreHistogram(bins=2).update([0, 1, 1], [0.2, 0.7, 0.9]).counts[:, 0].tolist()
        [[1, 0], [0, 2]]
        """
        s = self._check_shape(y_true, y_score, score_name)
        codes = self._codes(y_true)
        n = codes.shape[0]
        s = self._scores(s, n, sample_weight is not None, score_name)
        # a chunk may weigh nothing, as in the Accumulator: the stream is what must weigh
        w = (check_sample_weight(sample_weight, n, all_zero_ok=True)
             if sample_weight is not None else None)
        if n == 0:
            return self
        if w is None and not self.is_weighted and self._count_in_place(codes, s, score_name):
            return self
        hist = self._bin(codes, s, w, score_name)
        if w is not None or self.is_weighted:
            self.counts = _add_weights(self.counts, hist, "ScoreHistogram.update")
        else:
            self.counts += np.rint(hist).astype(np.int64) if hist.dtype.kind == "f" else hist
        return self

    def update_grouped(self, y_true: Any, bin_index: Any, counts: Any) -> ScoreHistogram:
        """Add pre-binned ``(true label code, bin) -> count`` rows of a binary histogram, as
        an engine's ``GROUP BY true, bin`` produces them (see
        :func:`confmat.inputs.sql_counts.bin_expression`, which bins as :meth:`update`
        does).

        Parameters
        ----------
        y_true : array-like of int, shape (n_groups,)
            Codes of the true classes: indices into ``labels``.
        bin_index : array-like of int, shape (n_groups,)
            Bins in ``[0, bins)``.
        counts : array-like, shape (n_groups,)
            Non-negative counts (int) or sums of weights (float).

        Returns
        -------
        ScoreHistogram
            ``self``.

        Raises
        ------
        ValueError
            A multiclass histogram; arrays of different shapes; codes, bins or counts out of
            range; float counts whose running total would pass the largest float64 (nothing
            is added).

        Examples
        --------
        >>> h = ScoreHistogram(bins=4).update_grouped([0, 1, 1], [0, 3, 1], [2, 1, 1])
        >>> h.counts[:, 0, :].tolist()
        [[2, 0, 0, 0], [0, 1, 0, 1]]
        """
        if not self.is_binary:
            raise ValueError("update_grouped serves binary histograms (one score column)")
        t = _whole(y_true, "y_true")
        b = _whole(bin_index, "bin_index")
        c = np.asarray(counts)
        if not (t.shape == b.shape == c.shape) or t.ndim != 1:
            raise ValueError("y_true, bin_index and counts must be 1-D of one length, got "
                             f"{t.shape}, {b.shape}, {c.shape}")
        if t.size and (t.min() < 0 or t.max() > 1):
            raise ValueError("y_true must hold class codes 0 or 1")
        if b.size and (b.min() < 0 or b.max() >= self.bins):
            raise ValueError(f"bin_index must lie in [0, {self.bins})")
        if c.dtype.kind not in "iuf" or (c.size and (not np.isfinite(c).all() or c.min() < 0)):
            raise ValueError("counts must be finite and non-negative numbers")
        if c.dtype.kind in "iu":
            # a uint64 count past 2**63 would wrap in int64, and so would the running total
            check_total(c, "counts of ScoreHistogram.update_grouped")
            c = c.astype(np.int64)
            if not self.is_weighted:
                check_sum([int_total(self.counts), int_total(c)],
                          "ScoreHistogram.update_grouped: the counts added to the histogram")
        if c.dtype.kind == "f" or self.is_weighted:
            _add_weights(self.counts[:, 0].sum(), c.sum(), "ScoreHistogram.update_grouped")
            if not self.is_weighted:
                self.counts = self.counts.astype(np.float64)
        np.add.at(self.counts[:, 0, :], (t, b), c.astype(self.counts.dtype))
        return self

    def _count_in_place(self, codes: np.ndarray, s: np.ndarray, name: str) -> bool:
        return count_in_place(codes, s, self.counts, self.edges, self.score_range, name)

    def _bin(self, codes: np.ndarray, s: np.ndarray, w: np.ndarray | None,
             name: str) -> np.ndarray:
        return bin_chunk(codes, s, w, self.counts.shape, self.edges, self.score_range, name)

    # ---------------------------------------------------------------- merging
    def copy(self) -> ScoreHistogram:
        """An independent copy (same labels, bins, range, positive-class rule and counts).

        Returns
        -------
        ScoreHistogram

        Examples
        --------
        >>> h = ScoreHistogram(bins=2).update([0, 1], [0.2, 0.7])
        >>> h.copy() == h
        True
        """
        out = ScoreHistogram(self.labels, bins=self.bins, score_range=self.score_range)
        out._door, out.pos_label = self._door, self.pos_label
        out.counts = self.counts.copy()
        return out

    def merge(self, *others: ScoreHistogram) -> ScoreHistogram:
        """A new histogram: the sum of this one and ``others`` (same labels, bins, range).

        Parameters
        ----------
        *others : ScoreHistogram
            Histograms of the same layout.

        Returns
        -------
        ScoreHistogram
            Float counts if any part is weighted.

        Raises
        ------
        TypeError
            An argument that is not a ScoreHistogram.
        ValueError
            Different labels, bins, score_range or positive-class rule
            (:attr:`positive_rule`); sums of weights whose total would pass the largest
            float64.
        OverflowError
            Integer counts whose total would pass int64.

        Examples
        --------
        >>> a = ScoreHistogram(bins=2).update([0], [0.2])
        >>> a.merge(ScoreHistogram(bins=2).update([1], [0.7])).n
        2
        """
        out = self.copy()
        for o in others:
            self._same_layout(o)
            if not (o.is_weighted or out.is_weighted):  # int64 totals must not wrap
                check_sum([int_total(out.counts[:, 0]), int_total(o.counts[:, 0])],
                          "ScoreHistogram.merge: the merged counts")
            if o.is_weighted or out.is_weighted:
                out.counts = _add_weights(out.counts, o.counts, "ScoreHistogram.merge")
            else:
                out.counts = out.counts + o.counts
        return out

    def __add__(self, other: Any) -> ScoreHistogram:
        if isinstance(other, int) and other == 0:  # sum() starts from 0
            return self.copy()
        return self.merge(other)

    __radd__ = __add__

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreHistogram):
            return NotImplemented
        return self._layout() == other._layout() and bool(
            np.array_equal(self.counts, other.counts))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"ScoreHistogram(labels={self.labels}, bins={self.bins}, "
            f"score_range={self.score_range}, n={self.n:g})"
        )


def _add_weights(counts: Any, extra: Any, what: str) -> Any:
    """``counts + extra`` in float64 (sums of weights), refused when the total weight (every
    sample once: score column 0) passes the largest float64, where it would turn into inf and
    every curve into NaN without a word; nothing is changed then."""
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.asarray(counts, dtype=np.float64) + extra
        total = out[:, 0].sum() if out.ndim == 3 else out
    if not np.isfinite(total):
        raise ValueError(f"{what}: the sums of weights would pass the largest float64 "
                         "(about 1.8e308); rescale the weights")
    return out


def _whole(values: Any, name: str) -> np.ndarray:
    """Integer codes of :meth:`ScoreHistogram.update_grouped` as int64: integers, or floats
    holding whole numbers (a fraction would otherwise be truncated into another cell)."""
    a = np.asarray(values)
    if a.dtype.kind == "b" or a.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold integer codes, got dtype {a.dtype}")
    if a.dtype.kind == "f" and a.size and (
        not np.isfinite(a).all() or (a != np.round(a)).any()
    ):
        raise ValueError(f"{name} must hold whole numbers, got {a[a != np.round(a)][:3].tolist()}")
    if a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{name} holds {a.max()}, beyond int64")
    return a.astype(np.int64)


def score_column_histogram(labels: Sequence[Any], pos: Any, bins: int,
                           score_range: tuple[float, float] = (0.0, 1.0)) -> ScoreHistogram:
    """The empty histogram of one score column of the class ``pos`` of a file or a stream,
    the same on every path that counts one (the engine's ``GROUP BY``, the stream, an
    :class:`~confmat.Accumulator` and a Dask collection), so that what reads it finds the
    class the column was counted for.

    Two labels: their layout, the scores of ``pos``; where ``pos`` is the first label the
    labels are reordered ``[other, pos]`` and ``pos`` is kept as :attr:`ScoreHistogram.pos_label`
    (the one place a reader learns it: the labels' own rule would name the other one). One
    label or three and more: ``pos`` against every other class (``pos_label=pos``, labels not
    given), the caller folding each true class into the negative or the positive row.

    Parameters
    ----------
    labels : sequence
        The sorted labels seen (true and predicted) or given.
    pos : label
        The class the column scores
        (:func:`confmat.inputs.score_columns.score_column_class`).
    bins : int
        Score bins.
    score_range : (float, float), default (0.0, 1.0)
        Range of the scores.

    Returns
    -------
    ScoreHistogram

    Examples
    --------
    >>> h = score_column_histogram([1, 2], 1, 10)
    >>> h.labels, h.pos_label
    ([2, 1], 1)
    >>> h = score_column_histogram([0, 1], 1, 10)
    >>> h.labels, h.pos_label
    ([0, 1], None)
    >>> h = score_column_histogram(["a", "b", "c"], "b", 10)
    >>> h.labels, h.pos_label
    (['not b', 'b'], 'b')
    """
    if len(labels) == 2:
        first = py_scalar(labels[0])
        return ScoreHistogram(labels, bins=bins, score_range=score_range,
                              pos_label=pos if pos == first else None)
    return ScoreHistogram(bins=bins, score_range=score_range, pos_label=pos)


def read_histogram(data: Any, name: str, at: tuple[str, ...] = ()) -> ScoreHistogram:
    """Validate and rebuild :meth:`ScoreHistogram.to_dict` output (public within the
    package: :class:`~confmat.Accumulator` state nests one under ``at = ("scores",)``).

    Parameters
    ----------
    data : any
        Untrusted decoded JSON.
    name : str
        Caller named in error messages.
    at : tuple of str, default=()
        Path of the histogram inside ``data``.

    Returns
    -------
    ScoreHistogram

    Raises
    ------
    ValueError, TypeError
        A field missing, of the wrong type or inconsistent (the message names it).

    Examples
    --------
    >>> h = ScoreHistogram(bins=2).update([0, 1], [0.2, 0.7])
    >>> read_histogram(h.to_dict(), "example").counts.tolist()
    [[[1, 0]], [[0, 1]]]
    """
    return read_state(ScoreHistogram, data, name, at)
