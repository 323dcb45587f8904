"""The confusion matrix: a K x K table of counts, the sufficient statistic of every metric."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import numpy as np

from . import hooks
from .counting.kernels import confusion_counts
from .deps import is_dask_collection
from .inputs.encode import as_1d
from .inputs.state import (
    check_envelope,
    json_labels,
    parse_json,
    read_choice,
    read_counts,
    read_labels,
)
from .metrics import Stats, evaluate, get_metric
from .metrics.exact import check_sum, check_total, int_total

SCHEMA = "confmat.confusion_matrix"
SCHEMA_VERSION = 1
Orientation = Literal["true_rows", "pred_rows"]


def _check_table(counts: Any, name: str = "counts") -> np.ndarray:
    try:
        arr = np.asarray(counts)
    except Exception as exc:
        raise TypeError(f"{name} could not be read as an array: {exc}") from exc
    if arr.dtype == object:
        ints = [v for v in arr.flat if isinstance(v, int) and not isinstance(v, bool)]
        if ints and len(ints) == arr.size:  # integers numpy could not hold in 64 bits
            check_total(arr, name)
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} must be numeric, got non-numeric entries") from exc
    if arr.dtype.kind == "b" or arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be a numeric array of counts, got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise ValueError(f"{name} must be a square K x K table, got shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} must have at least one class, got an empty table")
    if arr.dtype.kind == "f":
        if not np.isfinite(arr).all():
            raise ValueError(f"{name} contains NaN or infinite values")
    if (arr < 0).any():
        i, j = np.argwhere(arr < 0)[0]
        raise ValueError(f"{name} must be non-negative; found {arr[i, j]} at row {i}, column {j}")
    if arr.dtype.kind in "iu":
        check_total(arr, name)  # before the cast: a uint64 count past int64 would wrap
        return arr.astype(np.int64)
    return arr.astype(np.float64)


def _check_label_list(labels: Any, k: int) -> list[Any]:
    if labels is None:
        return list(range(k))
    vals = as_1d(labels, "labels").tolist() if not isinstance(labels, list) else list(labels)
    vals = [v.item() if isinstance(v, np.generic) else v for v in vals]
    if len(vals) != k:
        raise ValueError(f"labels has {len(vals)} entries but the table has {k} classes")
    try:
        if len(set(vals)) != k:
            raise ValueError(f"labels contains duplicates: {vals}")
    except TypeError as exc:
        raise TypeError(f"labels must be hashable: {exc}") from exc
    return vals


class ConfusionMatrix:
    """A confusion matrix: **rows are the true class, columns the predicted class**.

    ``C[i, j]`` counts samples whose true label is ``labels[i]`` and predicted label is
    ``labels[j]`` (the layout of scikit-learn and of seed 000). Tables printed the other way
    round (seed 003 prints predicted classes as rows) load with ``orientation="pred_rows"``.

    Counts are integers, or floats when they are sums of sample weights. The matrix is
    immutable and mergeable: ``a + b`` adds the counts of two evaluations with the same labels.

    Examples
    --------
    >>> cm = ConfusionMatrix([[61, 2], [8, 58]])
    >>> round(cm.metric("accuracy"), 4)
    0.9225
    >>> cm.metric("recall").round(4).tolist()
    [0.9683, 0.8788]
    """

    __slots__ = ("_has_other", "_labels", "_table")

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
        table = _check_table(counts)
        if orientation == "pred_rows":
            table = table.T.copy()
        self._labels = _check_label_list(labels, table.shape[0])
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
            If the table is not square or its size does not fit ``labels``.

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

        Raises
        ------
        ValueError
            ``labels`` names no class of ``y_true`` (with ``strict_labels``), or a bad input.
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
        """Evaluate a fitted scikit-learn style estimator (anything with ``predict``) on X, y."""
        if not hasattr(estimator, "predict"):
            raise TypeError(f"estimator must have a predict method, got {type(estimator).__name__}")
        return cls.from_predictions(
            y, estimator.predict(X), labels=labels, sample_weight=sample_weight
        )

    # ------------------------------------------------------------------ basic properties
    @property
    def counts(self) -> np.ndarray:
        """The K x K table (read-only view); rows = true class, columns = predicted class."""
        k = len(self._labels)
        return self._table[:k, :k]

    @property
    def labels(self) -> list[Any]:
        return list(self._labels)

    @property
    def n_classes(self) -> int:
        return len(self._labels)

    @property
    def n(self) -> float:
        """Total count (or weight) in the K x K table."""
        return self.counts.sum().item()

    @property
    def n_outside(self) -> float:
        """Samples left out of ``counts`` because a label fell outside the selected ``labels``."""
        if not self._has_other:
            return 0
        return (self._table.sum() - self.counts.sum()).item()

    @property
    def full_table(self) -> np.ndarray:
        """The stored table (read-only view): ``counts`` plus, when the matrix was counted over a
        label subset, a last row and column for the samples outside it (see :attr:`n_outside`)."""
        view = self._table.view()
        view.flags.writeable = False
        return view

    @property
    def has_outside_margin(self) -> bool:
        """True when the matrix was counted over a subset of the labels (``from_predictions(labels=...)``)."""
        return self._has_other

    @property
    def is_weighted(self) -> bool:
        return self._table.dtype.kind == "f"

    def stats(self, zero_division: Any = "warn") -> Stats:
        """Sufficient statistics for the metric functions."""
        return Stats(self._table, k=self.n_classes, zero_division=zero_division)

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
        """Sum of this matrix and ``others`` (all with the same labels)."""
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

    # ------------------------------------------------------------------ views
    def normalize(self, normalize: Literal["true", "pred", "all"] = "true") -> np.ndarray:
        """Normalised table as in scikit-learn: rows ('true'), columns ('pred') or the whole
        table ('all') sum to 1; an all-zero row or column stays 0."""
        if normalize not in ("true", "pred", "all"):
            raise ValueError(f"normalize must be 'true', 'pred' or 'all', got {normalize!r}")
        c = self.counts.astype(np.float64)
        if normalize == "true":
            den = c.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            den = c.sum(axis=0, keepdims=True)
        else:
            den = np.array(c.sum())
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den == 0, 0.0, c / np.where(den == 0, 1.0, den))

    def accuracy_matrix(self) -> np.ndarray:
        """Seed 002's per-class 'accuracy matrix': each row in percent of its row total, so the
        diagonal is the per-class accuracy (recall)."""
        return 100.0 * self.normalize("true")

    def binary(self, pos_label: Any, *, rest_label: Any = "rest") -> ConfusionMatrix:
        """The 2 x 2 table of ``pos_label`` against all other classes.

        Laid out as in seeds 000 and 002, positive first: ``[[TP, FN], [FP, TN]]`` with labels
        ``[pos_label, rest_label]``.
        """
        i = self.index_of(pos_label, "pos_label")
        s = self.stats()
        tp, fn, fp, tn = (x[i] for x in (s.tp, s.fn, s.fp, s.tn))
        if rest_label == pos_label:
            raise ValueError("rest_label must differ from pos_label")
        return ConfusionMatrix(np.array([[tp, fn], [fp, tn]]), labels=[pos_label, rest_label])

    def one_vs_rest(self) -> np.ndarray:
        """K stacked 2 x 2 tables ``[[TN, FP], [FN, TP]]``, the layout of scikit-learn's
        ``multilabel_confusion_matrix``."""
        s = self.stats()
        out = np.stack([s.tn, s.fp, s.fn, s.tp], axis=-1).reshape(-1, 2, 2)
        return out

    def relabel(self, mapping: Mapping[Any, Any] | Sequence[Any]) -> ConfusionMatrix:
        """Rename classes: a mapping old -> new (unmapped names are kept) or a full new list."""
        if isinstance(mapping, Mapping):
            unknown = [k for k in mapping if k not in self._labels]
            if unknown:
                raise ValueError(f"mapping names labels not in the matrix: {unknown}")
            new = [mapping.get(v, v) for v in self._labels]
        else:
            new = list(mapping)
        new = _check_label_list(new, self.n_classes)
        return ConfusionMatrix._from_table(self._table, new, self._has_other)

    def merge_classes(self, groups: Mapping[Any, Iterable[Any]]) -> ConfusionMatrix:
        """Pool classes: ``{"car": ["opel", "saab"]}`` sums their rows and columns into one class
        placed where the first member stood; other classes keep their order."""
        target: dict[Any, Any] = {}
        for new, members in groups.items():
            members = list(members)
            if not members:
                raise ValueError(f"group {new!r} has no members")
            for m in members:
                self.index_of(m, "groups")
                if m in target:
                    raise ValueError(f"label {m!r} appears in more than one group")
                target[m] = new
        order: list[Any] = []
        for v in self._labels:
            name = target.get(v, v)
            if name not in order:
                order.append(name)
        _check_label_list(order, len(order))
        k = self.n_classes
        m = self._table.shape[0]
        proj = np.zeros((m, len(order) + (m - k)), dtype=self._table.dtype)
        for i, v in enumerate(self._labels):
            proj[i, order.index(target.get(v, v))] = 1
        if m > k:
            proj[k, len(order)] = 1
        table = proj.T @ self._table @ proj
        return ConfusionMatrix._from_table(table, order, self._has_other)

    def index_of(self, label: Any, name: str = "label") -> int:
        """Position of ``label`` in :attr:`labels`; a ValueError naming ``name`` if it is not one."""
        try:
            return self._labels.index(label)
        except ValueError:
            raise ValueError(f"{name} {label!r} is not one of the labels {self._labels}") from None

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

        Returns a float for an overall metric, a per-class array for a per-class metric with
        ``average=None``, a float for ``average='micro' | 'macro' | 'weighted'`` or for
        ``pos_label=<label>`` (that class's value, like scikit-learn's ``average='binary'``).
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
        """Several metrics at once, sharing one set of statistics. By default every registry
        metric; with ``average`` set, per-class metrics are averaged and overall ones kept."""
        from .metrics import list_metrics

        stats = self.stats(zero_division)
        specs = [get_metric(n) for n in names] if names is not None else list_metrics()
        out: dict[str, Any] = {}
        for spec in specs:
            avg = average if spec.kind == "per_class" else None
            value = evaluate(spec.name, stats, avg)
            out[spec.name] = float(value) if value.ndim == 0 else value
        return out

    # ------------------------------------------------------------------ inference
    def ci(
        self,
        metric: str,
        *,
        level: float = 0.95,
        method: str = "auto",
        average: str | None = None,
        pos_label: Any = None,
        n_resamples: int = 9999,
        random_state: Any = None,
        zero_division: Any = "warn",
        **params: Any,
    ) -> Any:
        """Confidence interval ``(low, high)`` for any registry metric (per class where the
        metric is per-class and ``average`` is None).

        ``method``: 'wilson', 'agresti_coull', 'clopper_pearson', 'wald' (binomial proportions),
        'kappa_asymptotic' (kappa), 'fisher_z' (2 x 2 MCC, per-class MCC), or the multinomial
        bootstrap on the counts: 'percentile', 'basic', 'bca'. 'auto' picks Wilson for
        proportions, the asymptotic SE for kappa and BCa otherwise. The result unpacks as
        ``low, high`` and carries ``estimate``, ``method`` and ``references``; see
        :func:`confmat.inference.confidence_interval` and docs/inference.md.
        """
        return hooks.CONFIDENCE_INTERVAL(
            self, metric, level=level, method=method, average=average, pos_label=pos_label,
            n_resamples=n_resamples, random_state=random_state, zero_division=zero_division,
            **params,
        )

    def at_prevalence(self, prevalence: Any, *, n: float | None = None) -> ConfusionMatrix:
        """The expected matrix at other class prevalences (dict label -> p, or array summing to
        1): each row keeps its proportions and is rescaled to ``n * p`` (Bayes' rule), so PPV,
        NPV, accuracy, ... are those of the target population. See
        :func:`confmat.inference.at_prevalence`."""
        return hooks.AT_PREVALENCE(self, prevalence, n=n)

    def interpret(self, name: str, scale: str | None = None, *, average: str | None = None,
                  **params: Any) -> Any:
        """Put a metric's value into words on a published scale (``metrics.scales``).

        Returns an ``Interpretation`` (label, band, scale, reference) for an overall metric or
        an averaged per-class metric, and a list of them, one per class, otherwise. ``scale``
        defaults to the metric's first scale (Landis & Koch for kappa); an unknown scale
        raises ``ValueError`` listing the scales available for the metric.
        """
        from .metrics.scales import get_scale, interpret

        get_scale(name, scale)  # fail fast, before computing
        value = self.metric(name, average, zero_division="nan", **params)
        return interpret(name, value, scale, class_labels=self.labels)

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> dict[str, Any]:
        """Versioned, JSON-ready description (never pickle)."""
        d: dict[str, Any] = {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "orientation": "true_rows",
            "labels": json_labels(self._labels, "ConfusionMatrix.to_dict"),
            "counts": self.counts.tolist(),
            "dtype": "float64" if self.is_weighted else "int64",
        }
        if self._has_other:
            d["outside"] = self._table.tolist()
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ConfusionMatrix:
        """Rebuild a matrix from :meth:`to_dict` output, validated as untrusted input
        (:mod:`confmat.inputs.state`): exact non-negative counts of the declared ``dtype``, a
        K x K table for K distinct labels, an ``outside`` table that extends ``counts``."""
        return cls._from_state(data, "ConfusionMatrix.from_dict")

    @classmethod
    def _from_state(cls, data: Any, name: str) -> ConfusionMatrix:
        check_envelope(data, SCHEMA, SCHEMA_VERSION, name, what="confmat confusion matrix")
        orientation = read_choice(data, "orientation", name, ("true_rows", "pred_rows"),
                                  default="true_rows")
        labels = read_labels(data, "labels", name, tuples=True)
        k = len(labels)
        dtype = read_choice(data, "dtype", name, ("int64", "float64"), default=None)
        integer: bool | Literal["auto"] = "auto" if dtype is None else dtype == "int64"
        counts = read_counts(data, "counts", name, shape=(k, k), integer=integer,
                             why=f" (K x K for the {k} labels)")
        if orientation == "pred_rows":
            counts = counts.T.copy()
        if "outside" not in data:
            return cls._from_table(counts, labels, False)
        table = read_counts(data, "outside", name, shape=(k + 1, k + 1),
                            integer=counts.dtype.kind == "i",
                            why=f" (K + 1 rows and columns for the {k} labels)")
        if orientation == "pred_rows":
            table = table.T.copy()
        if not np.array_equal(table[:k, :k], counts):
            raise ValueError(
                f"{name}: the 'outside' table does not match 'counts' (its first {k} rows and "
                "columns must equal 'counts')"
            )
        return cls._from_table(table, labels, True)

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_json(cls, text: str) -> ConfusionMatrix:
        """Rebuild a matrix from :meth:`to_json` text (validated like :meth:`from_dict`)."""
        name = "ConfusionMatrix.from_json"
        return cls._from_state(parse_json(text, name), name)

    # ------------------------------------------------------------------ display
    def __repr__(self) -> str:
        head = f"ConfusionMatrix(labels={self._labels!r}, n={self.n:g})"
        if not hooks.MATRIX_TEXT.filled:  # a repr never raises: the bare counts instead
            return f"{head}\n{self.counts}"
        return f"{head}\n{self}"

    def __str__(self) -> str:
        """The terminal table (counts, totals, per-class recall), drawn by
        :func:`confmat.report.render_text.matrix_text` through :data:`confmat.hooks.MATRIX_TEXT`."""
        return str(hooks.MATRIX_TEXT(self._labels, self.counts))

    def _repr_html_(self) -> str:
        """The notebook view, drawn by :func:`confmat.report.render_html.matrix_html` through
        :data:`confmat.hooks.MATRIX_HTML`."""
        return str(hooks.MATRIX_HTML(self))
