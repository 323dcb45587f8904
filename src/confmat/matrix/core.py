"""The confusion matrix: a K x K table of counts, the sufficient statistic of every metric.

This module holds construction, the basic properties, the algebra (add, merge) and the
registry metrics; the reshaped views (:mod:`.views`), JSON state (:mod:`.state`) and the
conveniences served by higher layers (:mod:`.conveniences`) are mixed in from their modules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

import numpy as np

from .. import hooks
from ..counting.kernels import confusion_counts
from ..deps import is_dask_collection
from ..metrics import Stats, evaluate, get_metric, list_metrics
from ..metrics.evaluation import check_average, evaluate_spec
from ..metrics.exact import check_sum, int_total
from ..metrics.stats import check_zero_division
from ..words import arg_value
from .conveniences import Conveniences
from .state import MatrixState
from .tables import check_table, check_table_labels, check_weighted_total
from .views import TableViews

__all__ = ["ConfusionMatrix", "Orientation"]

Orientation = Literal["true_rows", "pred_rows"]


class ConfusionMatrix(TableViews, MatrixState, Conveniences):
    """A confusion matrix: **rows are the true class, columns the predicted class**.

    ``C[i, j]`` counts samples whose true label is ``labels[i]`` and predicted label is
    ``labels[j]`` (the layout of scikit-learn and of Yao, Yang & Li 2022). Tables printed the
    other way round, with predicted classes as rows, load with ``orientation="pred_rows"``.

    Counts are integers, or floats when they are sums of sample weights. The matrix is
    immutable and mergeable: ``a + b`` adds the counts of two evaluations with the same labels.

    Parameters
    ----------
    counts : array-like of shape (K, K)
        Non-negative counts (integers, or floats for sums of weights).
    labels : sequence of length K, optional
        The classes in the table's order; by default ``0 .. K - 1``.
    orientation : {'true_rows', 'pred_rows'}, default 'true_rows'
        Whether the rows of ``counts`` are the true ('true_rows') or the predicted class.

    Raises
    ------
    ValueError
        A table that is not square, empty, negative or not finite; labels of the wrong length or
        with duplicates; an unknown ``orientation``.
    TypeError
        Counts that are not numbers, labels that are not hashable.

    Examples
    --------
    >>> cm = ConfusionMatrix([[61, 2], [8, 58]])
    >>> round(cm.metric("accuracy"), 4)
    0.9225
    >>> cm.metric("recall").round(4).tolist()
    [0.9683, 0.8788]
    >>> ConfusionMatrix([[61, 8], [2, 58]], orientation="pred_rows").counts.tolist()
    [[61, 2], [8, 58]]
    """

    __slots__ = ("_has_other", "_labels", "_stats", "_table")
    _stats: dict[Any, Stats]  # warmed statistics per zero_division policy, made on first use

    def __init__(
        self,
        counts: Any,
        labels: Sequence[Any] | None = None,
        *,
        orientation: Orientation = "true_rows",
    ) -> None:
        if orientation not in ("true_rows", "pred_rows"):
            raise ValueError(
                f"orientation must be 'true_rows' or 'pred_rows', got {orientation!r}"
            )
        table = check_table(counts)
        if orientation == "pred_rows":
            table = table.T.copy()
        self._labels = check_table_labels(labels, table.shape[0])
        self._table = table
        self._table.setflags(write=False)
        self._has_other = False

    @classmethod
    def from_table(
        cls, table: np.ndarray, labels: Sequence[Any], *, has_outside_margin: bool = False
    ) -> ConfusionMatrix:
        """A matrix around a table that counting code has already counted and checked.

        For the package's counting layers (:class:`~confmat.Accumulator`, :mod:`confmat.dask`):
        the counts are taken as they are, only the shapes are checked. Users build matrices
        with the constructor, which validates the counts.

        Parameters
        ----------
        table : ndarray of shape (K, K), or (K + 1, K + 1) with an outside margin
            Exact ``int64`` counts or ``float64`` sums of weights, rows = true class.
        labels : sequence of length K
            The classes, in the table's order.
        has_outside_margin : bool, default False
            The table has a last row and column for samples outside ``labels``
            (see :attr:`n_outside`).

        Returns
        -------
        ConfusionMatrix

        Raises
        ------
        ValueError
            If the table is not square or its size does not fit ``labels``, or it holds
            sums of weights whose total overflows float64.

        Examples
        --------
        >>> cm = ConfusionMatrix.from_table(np.array([[3, 1], [0, 2]]), ["a", "b"])
        >>> cm.n
        6
        >>> ConfusionMatrix.from_table(np.ones((3, 3)), ["a", "b"], has_outside_margin=True).n_outside
        5.0
        """
        table = np.asarray(table)
        k = len(labels) + (1 if has_outside_margin else 0)
        if table.shape != (k, k):
            raise ValueError(
                f"table must have shape ({k}, {k}) for {len(labels)} labels"
                f"{' and an outside margin' if has_outside_margin else ''}, got {table.shape}"
            )
        return cls._from_table(table, list(labels), has_outside_margin)

    @classmethod
    def _from_table(cls, table: np.ndarray, labels: list[Any], has_other: bool) -> ConfusionMatrix:
        # weights each finite can still sum past float64 (every metric divides by the total)
        check_weighted_total(np.asarray(table), "sample_weight")
        obj = cls.__new__(cls)
        obj._table = np.asarray(table)
        obj._table.setflags(write=False)
        obj._labels = list(labels)
        obj._has_other = bool(has_other)
        return obj

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_pred: Any,
        *,
        labels: Sequence[Any] | None = None,
        sample_weight: Any = None,
        strict_labels: bool = True,
    ) -> ConfusionMatrix:
        """Count a confusion matrix from true and predicted labels.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n_samples,)
            Labels of one kind (ints, floats, strings or bools) from lists, numpy, pandas,
            polars or pyarrow; Dask arrays and Dask DataFrame columns are counted on their
            cluster without collecting them (see :mod:`confmat.dask`).
        labels : sequence, optional
            Classes and their order. By default the sorted union of the labels seen. As in
            scikit-learn, ``labels`` may name classes that never occur (their rows and columns
            are zero) or select a subset: samples whose labels fall outside it are left out of
            ``counts`` but still count as errors in per-class metrics (a sample predicted as
            class ``j`` whose true label is unselected is a false positive for ``j``), exactly
            like ``precision_recall_fscore_support(labels=...)``. ``n_outside`` says how many.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights; the counts become float sums of weights.
        strict_labels : bool, default True
            ``labels`` must name at least one class that occurs in ``y_true`` (the rule of
            scikit-learn's ``confusion_matrix``: otherwise every counted row would be empty).
            ``False`` counts anyway, as scikit-learn's metric functions (``f1_score(labels=...)``
            and the like) do.

        Returns
        -------
        ConfusionMatrix

        Raises
        ------
        ValueError
            ``labels`` names no class of ``y_true`` (with ``strict_labels``), lengths differ, a
            label is missing, or another bad input.
        TypeError
            Labels of kinds that cannot be ordered together.

        Examples
        --------
        >>> cm = ConfusionMatrix.from_predictions(["cat", "dog", "dog"], ["cat", "cat", "dog"])
        >>> cm.labels, cm.counts.tolist()
        (['cat', 'dog'], [[1, 0], [1, 1]])
        >>> ConfusionMatrix.from_predictions([0, 1, 2], [0, 2, 2], labels=[0, 1]).n_outside
        2
        """
        if any(is_dask_collection(v) for v in (y_true, y_pred, sample_weight)):
            # counted on the cluster by confmat.dask (a layer above: see confmat.hooks)
            table, out_labels, has_other = hooks.DASK_CONFUSION_COUNTS(
                y_true, y_pred, labels=labels, sample_weight=sample_weight)
        else:
            table, out_labels, has_other = confusion_counts(
                y_true, y_pred, labels=labels, sample_weight=sample_weight,
                strict_labels=strict_labels)
        return cls._from_table(table, out_labels, has_other)

    @classmethod
    def from_estimator(
        cls,
        estimator: Any,
        X: Any,
        y: Any,
        *,
        labels: Sequence[Any] | None = None,
        sample_weight: Any = None,
    ) -> ConfusionMatrix:
        """Evaluate a fitted scikit-learn style estimator (anything with ``predict``) on ``X, y``.

        Parameters
        ----------
        estimator : object
            A fitted classifier with a ``predict`` method.
        X : array-like
            The samples, passed to ``estimator.predict``.
        y : array-like of shape (n_samples,)
            The true labels.
        labels : sequence, optional
            Classes and their order (see :meth:`from_predictions`).
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights.

        Returns
        -------
        ConfusionMatrix

        Raises
        ------
        TypeError
            If ``estimator`` has no ``predict`` method.

        Examples
        --------
        >>> class Majority:
        ...     def predict(self, X):
        ...         return ["spam"] * len(X)
        >>> ConfusionMatrix.from_estimator(Majority(), [[0], [1]], ["ham", "spam"]).counts.tolist()
        [[0, 1], [0, 1]]
        """
        if not hasattr(estimator, "predict"):
            raise TypeError(f"estimator must have a predict method, got {type(estimator).__name__}")
        return cls.from_predictions(
            y, estimator.predict(X), labels=labels, sample_weight=sample_weight
        )

    # ------------------------------------------------------------------ basic properties
    @property
    def counts(self) -> np.ndarray:
        """The K x K table (read-only view); rows = true class, columns = predicted class.

        Examples
        --------
        >>> ConfusionMatrix([[3, 1], [0, 2]]).counts.tolist()
        [[3, 1], [0, 2]]
        """
        k = len(self._labels)
        return self._table[:k, :k]

    @property
    def labels(self) -> list[Any]:
        """The classes, in the order of the rows and columns (a copy).

        Examples
        --------
        >>> ConfusionMatrix([[3, 1], [0, 2]], labels=["no", "yes"]).labels
        ['no', 'yes']
        """
        return list(self._labels)

    @property
    def n_classes(self) -> int:
        """Number of classes K.

        Examples
        --------
        >>> ConfusionMatrix([[3, 1], [0, 2]]).n_classes
        2
        """
        return len(self._labels)

    @property
    def n(self) -> float:
        """Total count (or weight) in the K x K table.

        Examples
        --------
        >>> ConfusionMatrix([[3, 1], [0, 2]]).n
        6
        """
        return self.counts.sum().item()

    @property
    def n_outside(self) -> float:
        """Samples left out of ``counts`` because a label fell outside the selected ``labels``.

        Examples
        --------
        >>> ConfusionMatrix.from_predictions([0, 1, 2], [0, 1, 1], labels=[0, 1]).n_outside
        1
        """
        if not self._has_other:
            return 0
        return (self._table.sum() - self.counts.sum()).item()

    @property
    def full_table(self) -> np.ndarray:
        """The stored table (read-only view): ``counts`` plus, when the matrix was counted over a
        label subset, a last row and column for the samples outside it (see :attr:`n_outside`).

        Examples
        --------
        >>> ConfusionMatrix.from_predictions([0, 1, 2], [0, 1, 1], labels=[0, 1]).full_table.tolist()
        [[1, 0, 0], [0, 1, 0], [0, 1, 0]]
        """
        view = self._table.view()
        view.flags.writeable = False
        return view

    @property
    def has_outside_margin(self) -> bool:
        """True when the matrix was counted over a subset of the labels that missed some samples
        (``from_predictions(labels=...)``), so :attr:`full_table` has an outside row and column.

        Examples
        --------
        >>> ConfusionMatrix.from_predictions([0, 1, 2], [0, 1, 1], labels=[0, 1]).has_outside_margin
        True
        """
        return self._has_other

    @property
    def is_weighted(self) -> bool:
        """True when the counts are float sums of sample weights.

        Examples
        --------
        >>> ConfusionMatrix.from_predictions([0, 1], [0, 1], sample_weight=[0.5, 2]).is_weighted
        True
        """
        return self._table.dtype.kind == "f"

    def stats(self, zero_division: Any = "warn") -> Stats:
        """Sufficient statistics for the metric functions of the registry.

        Parameters
        ----------
        zero_division : {'warn', 0, 1, nan}, default 'warn'
            Value of a ratio whose denominator is 0 ('warn': 0 with an ``UndefinedMetricWarning``,
            as in scikit-learn).

        Returns
        -------
        Stats
            Per-class ``tp``, ``fp``, ``fn``, ``tn`` and the table.

        Examples
        --------
        >>> s = ConfusionMatrix([[61, 2], [8, 58]]).stats()
        >>> s.tp.tolist(), s.fn.tolist()
        ([61, 58], [2, 8])
        """
        key = check_zero_division(zero_division)
        try:
            cache = self._stats
        except AttributeError:
            cache = self._stats = {}
        base = cache.get(key)
        if base is None:
            base = cache[key] = Stats(self._table, k=self.n_classes,
                                      zero_division=zero_division).warm()
        return base.fork()

    # ------------------------------------------------------------------ algebra
    def _check_compatible(self, other: Any, what: str) -> ConfusionMatrix:
        if not isinstance(other, ConfusionMatrix):
            raise TypeError(f"cannot {what} ConfusionMatrix and {type(other).__name__}")
        if other._labels != self._labels:
            raise ValueError(
                f"cannot {what} confusion matrices with different labels: "
                f"{self._labels} vs {other._labels}; use relabel() or from_predictions(labels=...) "
                "to align them"
            )
        return other

    def _outside_table(self) -> np.ndarray:
        """The table with an 'outside labels' margin (all zero when nothing fell outside)."""
        if self._table.shape[0] > self.n_classes:
            return self._table
        return np.pad(self._table, ((0, 1), (0, 1)))

    def __add__(self, other: Any) -> ConfusionMatrix:
        return self._add(other, "cm + other")

    __radd__ = __add__

    def _add(self, other: Any, what: str) -> ConfusionMatrix:
        if isinstance(other, int) and other == 0:  # lets sum() work
            return self
        other = self._check_compatible(other, "add")
        a, b = self._table, other._table
        if a.dtype.kind in "iu" and b.dtype.kind in "iu":  # the sum must fit int64
            check_sum([int_total(a), int_total(b)], what)
        if a.shape != b.shape:  # one chunk had samples outside the labels, the other none
            a, b = self._outside_table(), other._outside_table()
        return ConfusionMatrix._from_table(
            a + b, self._labels, self._has_other or other._has_other
        )

    def merge(self, *others: ConfusionMatrix) -> ConfusionMatrix:
        """Sum of this matrix and ``others`` (all with the same labels).

        Parameters
        ----------
        *others : ConfusionMatrix
            Matrices over the same labels.

        Returns
        -------
        ConfusionMatrix

        Raises
        ------
        ValueError
            If the labels differ.
        TypeError
            If an operand is not a ConfusionMatrix.
        OverflowError
            If integer counts would exceed int64.

        Examples
        --------
        >>> a = ConfusionMatrix([[1, 0], [0, 1]])
        >>> a.merge(a, a).counts.tolist()
        [[3, 0], [0, 3]]
        """
        out = self
        for i, o in enumerate(others):
            out = out._add(o, f"cm.merge(...): adding operand {i + 1} of {len(others)}")
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConfusionMatrix):
            return NotImplemented
        return (
            self._labels == other._labels
            and self._table.shape == other._table.shape
            and bool(np.array_equal(self._table, other._table))
        )

    __hash__ = None  # type: ignore[assignment]

    def index_of(self, label: Any, name: str = "label") -> int:
        """Position of ``label`` in :attr:`labels`.

        Parameters
        ----------
        label : label
            A class.
        name : str, default 'label'
            The argument's name, for the message.

        Returns
        -------
        int

        Raises
        ------
        ValueError
            Naming ``name`` and the labels, if ``label`` is not one of them.

        Examples
        --------
        >>> ConfusionMatrix([[3, 1], [0, 2]], labels=["no", "yes"]).index_of("yes")
        1
        """
        try:
            return self._labels.index(label)
        except ValueError:
            raise ValueError(f"{arg_value(name, label, ' ')} is not one of the labels "
                             f"{self._labels}") from None

    # ------------------------------------------------------------------ metrics
    def metric(
        self,
        name: str,
        average: str | None = None,
        *,
        pos_label: Any = None,
        zero_division: Any = "warn",
        **params: Any,
    ) -> Any:
        """Compute one registry metric (by name or alias).

        Parameters
        ----------
        name : str
            A metric name or alias (see :func:`confmat.list_metrics`).
        average : {None, 'micro', 'macro', 'weighted'}, optional
            How to average a per-class metric; None keeps one value per class.
        pos_label : label, optional
            Return that class's value of a per-class metric (like scikit-learn's
            ``average='binary'``).
        zero_division : {'warn', 0, 1, nan}, default 'warn'
            Value of a ratio whose denominator is 0.
        **params
            Parameters of the metric (e.g. ``beta`` of ``fbeta``).

        Returns
        -------
        float or ndarray
            A float for an overall metric, an averaged one or ``pos_label``; a per-class array
            otherwise.

        Raises
        ------
        ValueError
            An unknown metric, ``pos_label`` on an overall metric or together with ``average``,
            an unknown ``pos_label``.

        Examples
        --------
        >>> cm = ConfusionMatrix([[61, 2], [8, 58]])
        >>> round(cm.metric("f1", pos_label=1), 4)
        0.9206
        >>> round(cm.metric("recall", "macro"), 4)
        0.9235
        """
        spec = get_metric(name)
        if pos_label is not None:
            if spec.kind != "per_class":
                raise ValueError(f"pos_label applies to per-class metrics, not {spec.name!r}")
            if average is not None:
                raise ValueError("give either pos_label or average, not both")
            i = self.index_of(pos_label, "pos_label")
            return float(evaluate(spec.name, self.stats(zero_division), None, **params)[i])
        out = evaluate(spec.name, self.stats(zero_division), average, **params)
        return float(out) if out.ndim == 0 else out

    def metrics(
        self,
        names: Iterable[str] | None = None,
        *,
        average: str | None = None,
        zero_division: Any = "warn",
    ) -> dict[str, Any]:
        """Several metrics at once, sharing one set of statistics.

        Parameters
        ----------
        names : iterable of str, optional
            Metric names or aliases; by default every registry metric.
        average : {None, 'micro', 'macro', 'weighted'}, optional
            Averaging for the per-class metrics; overall metrics are kept as they are.
        zero_division : {'warn', 0, 1, nan}, default 'warn'
            Value of a ratio whose denominator is 0.

        Returns
        -------
        dict of str -> float or ndarray
            Keyed by canonical metric name.

        Raises
        ------
        ValueError
            An unknown metric name.

        Examples
        --------
        >>> out = ConfusionMatrix([[61, 2], [8, 58]]).metrics(["accuracy", "recall"], average="macro")
        >>> {k: round(v, 4) for k, v in out.items()}
        {'accuracy': 0.9225, 'recall': 0.9235}
        """
        stats = self.stats(zero_division)
        specs = [get_metric(n) for n in names] if names is not None else list_metrics()
        check_average(average)
        out: dict[str, Any] = {}
        for spec in specs:
            avg = average if spec.kind == "per_class" else None
            value = evaluate_spec(spec, stats, avg, dict(spec.params))
            out[spec.name] = float(value) if value.ndim == 0 else value
        return out

    # ------------------------------------------------------------------ display
