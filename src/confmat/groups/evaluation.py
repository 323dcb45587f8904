"""Evaluation by group: a confusion table per slice, every metric per slice, with intervals.

``by_group(y_true, y_pred, groups)`` counts the G x K x K stack of the groups' tables in one
pass (:func:`confmat.counting.grouped.grouped_counts`); every registry metric is then computed
on the whole stack at once (the batched statistics of :class:`confmat.metrics.Stats`, as the
bootstrap computes its resamples). The stack is the sufficient statistic of everything that
fairlearn's ``MetricFrame`` (Weerts et al. 2023) computes from labels, so the values are the
same, exactly, at the cost of one count.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..counting.grouped import GroupedCounts
from ..deps import require
from ..inference import ConfidenceInterval, confidence_interval
from ..inference.common import DEFAULT_RESAMPLES, check_level, check_n_resamples, check_random_state
from ..inference.scores import score_metric_name
from ..inputs.grouping import GroupCodes
from ..inputs.kinds import py_scalar
from ..inputs.targets import resolve_pos_label
from ..matrix import ConfusionMatrix
from ..metrics import Stats, evaluate
from .binned_scores import ScoreData
from .intervals import GroupedIntervals
from .measures import DisparityMixin
from .names import METRIC_ALIASES, default_group_metrics, registry_spec
from .pairs import PairMixin

__all__ = ["DEFAULT_MIN_SUPPORT", "METRIC_ALIASES", "GroupedEvaluation"]

#: Groups with fewer samples are flagged ``small`` (never dropped).
DEFAULT_MIN_SUPPORT = 30


class GroupedEvaluation(DisparityMixin, PairMixin):
    """The confusion tables of every group, their metrics, intervals and disparities.

    Built by :func:`by_group`. Every per-group result is ordered like :attr:`groups`.

    Parameters
    ----------
    counts : GroupedCounts
        The stack of tables (:func:`confmat.counting.grouped.grouped_counts`).
    groups : GroupCodes
        The samples' groups (:func:`confmat.inputs.grouping.encode_groups`).
    min_support : int, default 30
        Groups with fewer samples are flagged in :attr:`small` and in :meth:`to_frame`.
    pos_label : label, optional
        The positive class: the default class of per-class metrics and of the binary measures.
    scores : GroupedScores or BinnedGroupedScores, optional
        Scores of the positive class in group order, or one score histogram per group
        (:class:`~confmat.groups.binned_scores.BinnedGroupedScores`): ROC AUC, average precision.

    Examples
    --------
    >>> from confmat.groups import by_group
    >>> ev = by_group([0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1], ["a", "a", "a", "b", "b", "b"],
    ...               pos_label=1)
    >>> ev.groups, ev.sizes.tolist()
    (['a', 'b'], [3, 3])
    >>> ev.metric("recall").tolist()
    [0.5, 1.0]
    """

    def __init__(self, counts: GroupedCounts, groups: GroupCodes, *,
                 min_support: int = DEFAULT_MIN_SUPPORT, pos_label: Any = None,
                 scores: ScoreData | None = None) -> None:
        if isinstance(min_support, bool) or not isinstance(min_support, int | np.integer):
            raise TypeError(f"min_support must be an integer, got {min_support!r}")
        if min_support < 0:
            raise ValueError(f"min_support must be non-negative, got {min_support}")
        self._counts = counts
        self._groups = groups
        self._min_support = int(min_support)
        self._pos_given = None if pos_label is None else py_scalar(pos_label)
        if self._pos_given is not None:
            resolve_pos_label(counts.labels, self._pos_given, "y_true and y_pred")
        self._scores = scores
        stack = counts.stack
        stack.setflags(write=False)

    # ------------------------------------------------------------------ structure
    @property
    def groups(self) -> list[Any]:
        """The group keys, sorted (tuples for several features).

        Returns
        -------
        list
        """
        return list(self._groups.keys)

    @property
    def names(self) -> list[str]:
        """The names of the sensitive features.

        Returns
        -------
        list of str
        """
        return list(self._groups.names)

    @property
    def labels(self) -> list[Any]:
        """The classes of every table.

        Returns
        -------
        list
        """
        return list(self._counts.labels)

    @property
    def sizes(self) -> np.ndarray:
        """Samples of each group (weights aside).

        Returns
        -------
        ndarray of int64
        """
        return self._counts.sizes.copy()

    @property
    def totals(self) -> np.ndarray:
        """The total of each group's table (sums of weights when weighted).

        Returns
        -------
        ndarray
        """
        return self._counts.stack.sum(axis=(1, 2))

    @property
    def min_support(self) -> int:
        """The size below which a group is flagged small.

        Returns
        -------
        int
        """
        return self._min_support

    @property
    def small(self) -> np.ndarray:
        """Which groups have fewer than ``min_support`` samples.

        Returns
        -------
        ndarray of bool
        """
        return self._counts.sizes < self._min_support

    @property
    def stack(self) -> np.ndarray:
        """The G x M x M stack of tables (read-only; ``M = K + 1`` with an outside margin).

        Returns
        -------
        ndarray
        """
        return self._counts.stack

    @property
    def overall(self) -> ConfusionMatrix:
        """The confusion matrix of all samples (the sum of the groups' tables).

        Returns
        -------
        ConfusionMatrix
        """
        return ConfusionMatrix.from_table(self._counts.stack.sum(axis=0), self.labels,
                                          has_outside_margin=self._counts.has_other)

    @property
    def matrices(self) -> dict[Any, ConfusionMatrix]:
        """Each group's confusion matrix.

        Returns
        -------
        dict
            Group key -> :class:`~confmat.ConfusionMatrix`.
        """
        return {key: self._matrix(i) for i, key in enumerate(self._groups.keys)}

    def _matrix(self, i: int) -> ConfusionMatrix:
        return ConfusionMatrix.from_table(self._counts.stack[i], self.labels,
                                          has_outside_margin=self._counts.has_other)

    @property
    def pos_label(self) -> Any:
        """The positive class: ``pos_label`` as given, else 1 (True) for labels within {0, 1},
        {-1, 1} or {False, True} (:func:`confmat.inputs.targets.resolve_pos_label`).

        Returns
        -------
        label

        Raises
        ------
        ValueError
            Other labels without ``pos_label``.
        """
        return resolve_pos_label(self._counts.labels, self._pos_given, "y_true and y_pred")

    def index(self, key: Any, name: str = "reference") -> int:
        """Position of group ``key`` in :attr:`groups`.

        Parameters
        ----------
        key : group key
            A value (a tuple for several features).
        name : str, default 'reference'
            The argument's name, for the message.

        Returns
        -------
        int

        Raises
        ------
        ValueError
            ``key`` is not a group (nor is a key of another kind that Python finds equal:
            ``True`` is not the group ``1``).
        """
        return self._groups.index_of(key, name)

    # ------------------------------------------------------------------ metrics
    def class_column(self, kind: str, average: str | None, pos_label: Any) -> int | None:
        """The class a per-class metric is read at (index into :attr:`labels`), or None.

        Parameters
        ----------
        kind : {'per_class', 'overall'}
            The metric's kind (:class:`~confmat.metrics.MetricSpec`).
        average : str, optional
            Its averaging.
        pos_label : label, optional
            The class asked for; without it (and without ``average``), the ``pos_label`` given
            to :func:`by_group`.

        Returns
        -------
        int or None

        Raises
        ------
        ValueError
            ``pos_label`` with an overall metric or with ``average``, or not one of the labels.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> by_group([0, 1], [0, 1], [1, 1]).class_column("per_class", None, 1)
        1
        """
        if pos_label is None and average is None and kind == "per_class":
            pos_label = self._pos_given
        if pos_label is None:
            return None
        if kind != "per_class":
            raise ValueError("pos_label applies to per-class metrics only")
        if average is not None:
            raise ValueError("give either pos_label or average, not both")
        label = resolve_pos_label(self._counts.labels, pos_label, "y_true and y_pred")
        return self._counts.labels.index(label)

    def table_metric(self, table: np.ndarray, name: str, average: str | None = None,
                     column: int | None = None, zero_division: Any = "warn", warn: bool = True,
                     params: dict[str, Any] | None = None) -> np.ndarray:
        """A registry metric on tables of this evaluation's classes (a stack, a stack of
        resampled stacks, or one table), all at once.

        Parameters
        ----------
        table : ndarray of shape (..., M, M)
            Tables over :attr:`labels` (with the outside margin when :attr:`stack` has one).
        name : str
            Canonical registry name.
        average : str, optional
            Averaging of a per-class metric.
        column : int, optional
            Read a per-class metric at this class.
        zero_division : {'warn', 0, 1, nan}, default 'warn'
            Value of a ratio whose denominator is 0.
        warn : bool, default True
            Emit the undefined-value warning.
        params : dict, optional
            The metric's parameters.

        Returns
        -------
        ndarray of float64
            The batch shape, plus the class axis for a per-class metric without a column.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> ev = by_group([0, 1, 1, 0], [0, 1, 0, 1], [1, 1, 2, 2])
        >>> ev.table_metric(ev.stack, "accuracy").tolist()
        [1.0, 0.0]
        """
        stats = Stats(table, k=len(self._counts.labels), zero_division=zero_division)
        out = np.asarray(evaluate(name, stats, average, warn=warn, **(params or {})),
                         dtype=np.float64)
        return out if column is None else out[..., column]

    def metric(self, name: str, average: str | None = None, *, pos_label: Any = None,
               zero_division: Any = "warn", **params: Any) -> np.ndarray:
        """One metric in every group.

        Parameters
        ----------
        name : str
            A registry metric or alias (:func:`confmat.list_metrics`), ``'selection_rate'``
            (the registry's ``predicted_rate``), or, with ``scores``, ``'roc_auc'`` /
            ``'average_precision'``.
        average : {None, 'micro', 'macro', 'weighted'}, optional
            Averaging of a per-class metric.
        pos_label : label, optional
            The class of a per-class metric (by default the ``pos_label`` given to
            :func:`by_group`; without either, one value per class).
        zero_division : {'warn', 0, 1, nan}, default 'warn'
            Value of a ratio whose denominator is 0 (one warning for all groups).
        **params
            The metric's parameters (``beta``, ...).

        Returns
        -------
        ndarray
            Shape (G,), or (G, K) for a per-class metric without a class.

        Raises
        ------
        ValueError
            An unknown metric, ``pos_label`` with an overall metric or with ``average``, a
            score metric without ``scores``.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> ev = by_group([0, 1, 1, 0], [0, 1, 0, 1], [1, 1, 2, 2])
        >>> ev.metric("accuracy").tolist(), ev.metric("recall", pos_label=1).tolist()
        ([1.0, 0.0], [1.0, 0.0])
        """
        score_name = score_metric_name(name)
        if score_name is not None:
            return self._score_data("metric").values(score_name)
        spec = registry_spec(name)
        col = self.class_column(spec.kind, average, pos_label)
        return self.table_metric(self._counts.stack, spec.name, average, col, zero_division,
                                 True, params)

    def overall_metric(self, name: str, average: str | None = None, *, pos_label: Any = None,
                       zero_division: Any = "warn", **params: Any) -> Any:
        """One metric on all samples (as :meth:`metric` reads it); ROC AUC and average
        precision of all groups' samples pooled.

        Parameters
        ----------
        name, average, pos_label, zero_division, **params
            As in :meth:`metric`.

        Returns
        -------
        float or ndarray

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> by_group([0, 1, 1, 0], [0, 1, 0, 1], [1, 1, 2, 2]).overall_metric("accuracy")
        0.5
        """
        score_name = score_metric_name(name)
        if score_name is not None:
            return self._score_data("overall_metric").pooled(score_name)
        spec = registry_spec(name)
        col = self.class_column(spec.kind, average, pos_label)
        out = self.table_metric(self._counts.stack.sum(axis=0), spec.name, average, col,
                                zero_division, True, params)
        return float(out) if out.ndim == 0 else out

    @property
    def scores(self) -> ScoreData | None:
        """The scores in group order, or the score histograms by group (ROC AUC, average
        precision), or None without scores.

        Returns
        -------
        GroupedScores, BinnedGroupedScores or None
        """
        return self._scores

    def _score_data(self, what: str) -> ScoreData:
        if self._scores is None:
            raise ValueError(f"{what}: ROC AUC and average precision need scores; pass "
                             "scores= to by_group")
        return self._scores

    def roc_curves(self, drop_intermediate: bool = True
                   ) -> dict[Any, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Each group's ROC curve ``(fpr, tpr, thresholds)``, as :func:`confmat.roc_curve`.

        Parameters
        ----------
        drop_intermediate : bool, default True
            Keep only the corners of each curve.

        Returns
        -------
        dict
            Group key -> (fpr, tpr, thresholds).

        Raises
        ------
        ValueError
            Without ``scores``.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> ev = by_group([0, 1, 0, 1], [0, 1, 0, 0], ["a", "a", "b", "b"],
        ...               scores=[0.1, 0.9, 0.3, 0.2])
        >>> ev.roc_curves()["a"][1].tolist()
        [0.0, 1.0, 1.0]
        """
        curves = self._score_data("roc_curves").roc_curves(drop_intermediate)
        return dict(zip(self._groups.keys, curves, strict=True))

    def to_frame(self, metrics: Any = None, *, average: str | None = None,
                 pos_label: Any = None, zero_division: Any = "warn") -> Any:
        """A pandas DataFrame with one row per group: ``size``, ``small`` and the metrics.

        Parameters
        ----------
        metrics : list of str, optional
            Metric names (as :meth:`metric`). By default accuracy and balanced accuracy, with
            a positive class also recall, precision, F1, false positive rate and selection
            rate, and with scores ROC AUC and average precision.
        average, pos_label, zero_division
            As in :meth:`metric`; a per-class metric without a class gives one column per
            class (``recall[a]``).

        Returns
        -------
        pandas.DataFrame
            Indexed by the groups (a MultiIndex for several features).

        Raises
        ------
        ImportError
            Without pandas.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> ev = by_group([0, 1, 1, 0], [0, 1, 0, 1], [1, 1, 2, 2], min_support=3)
        >>> ev.to_frame(["accuracy"]).to_dict("list")
        {'size': [2, 2], 'small': [True, True], 'accuracy': [1.0, 0.0]}
        """
        pd = require("pandas", "GroupedEvaluation.to_frame")
        if metrics is None:
            metrics, pos_label = self._default_metrics(pos_label, average)
        elif isinstance(metrics, str):
            metrics = [metrics]
        data: dict[str, Any] = {"size": self._counts.sizes, "small": self.small}
        for name in metrics:
            per_class = (score_metric_name(name) is None
                         and registry_spec(name).kind == "per_class")
            vals = self.metric(name, average if per_class else None,
                               pos_label=pos_label if per_class else None,
                               zero_division=zero_division)
            if vals.ndim == 1:
                data[name] = vals
            else:
                for j, label in enumerate(self._counts.labels):
                    data[f"{name}[{label}]"] = vals[:, j]
        keys = self._groups.keys
        if len(self._groups.names) > 1:
            index = pd.MultiIndex.from_tuples(keys, names=self._groups.names)
        else:
            index = pd.Index(keys, name=self._groups.names[0])
        return pd.DataFrame(data, index=index)

    def _default_metrics(self, pos_label: Any, average: str | None) -> tuple[list[str], Any]:
        if pos_label is None and average is None:
            try:
                pos_label = self.pos_label
            except ValueError:
                pos_label = None
        return default_group_metrics(positive=pos_label is not None or average is not None,
                                     scores=self._scores is not None), pos_label

    # ------------------------------------------------------------------ intervals
    def ci(self, metric: str, *, method: str = "auto", level: float = 0.95,
           average: str | None = None, pos_label: Any = None,
           n_resamples: int = DEFAULT_RESAMPLES, random_state: Any = None,
           zero_division: Any = "warn", **params: Any) -> GroupedIntervals:
        """A confidence interval of ``metric`` in every group.

        Registry metrics use :func:`confmat.inference.confidence_interval` on each group's
        table: ``method='auto'`` is the Wilson (1927) interval for proportions (recall,
        precision, accuracy, selection rate, ...) and the BCa bootstrap on the group's counts
        otherwise (Efron 1987). ROC AUC uses DeLong et al. (1988) without sample weights;
        average precision, and ROC AUC with weights, the percentile interval of the stratified
        bootstrap of the group's samples (positives and negatives resampled on their own,
        weights carried; :meth:`GroupedScores.intervals
        <confmat.groups.scores.GroupedScores.intervals>`). A group whose sample weights are all
        zero holds no evidence: its interval and estimate are NaN, and it draws no resample.

        Parameters
        ----------
        metric : str
            As in :meth:`metric`.
        method : str, default 'auto'
            An interval method (:func:`confmat.inference.interval_methods`); for ROC AUC and
            average precision ``'delong'`` (ROC AUC without weights), ``'percentile'`` or
            ``'basic'``.
        level : float, default 0.95
            Confidence level.
        average, pos_label, zero_division, **params
            As in :meth:`metric`.
        n_resamples : int, default 9999
            Bootstrap resamples per group.
        random_state : int or numpy.random.Generator, optional
            Seed; one generator serves the groups in order.

        Returns
        -------
        GroupedIntervals

        Raises
        ------
        ValueError
            A method that does not apply to the metric (``'delong'`` with ``sample_weight``),
            a group whose total weight a bootstrap cannot draw (named as ``sample_weight`` of
            that group), every group's weights zero, or as :meth:`metric`.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> ev = by_group([0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1], ["a"] * 3 + ["b"] * 3)
        >>> ci = ev.ci("accuracy")
        >>> ci.method, ci.low.round(4).tolist()
        ('wilson', [0.2077, 0.4385])
        """
        level = check_level(level)
        rng = check_random_state(random_state)
        score_name = score_metric_name(metric)
        if score_name is not None:
            data = self._score_data("ci")
            delong = score_name == "roc_auc" and data.weight is None
            m = ("delong" if delong else "percentile") if method == "auto" else method
            n_used = check_n_resamples(n_resamples, level) if m != "delong" else None
            cis = data.intervals(score_name, level=level, method=m, n_resamples=n_used or 0,
                                 random_state=rng)
            return GroupedIntervals.collect(self.groups, self._groups.names, self.sizes, cis,
                                            score_name, m, level, n_used)
        spec = registry_spec(metric)
        col = self.class_column(spec.kind, average, pos_label)
        label = None if col is None else self._counts.labels[col]
        per_class = spec.kind == "per_class" and average is None and col is None
        found: list[ConfidenceInterval | None] = []
        for i, key in enumerate(self._groups.keys):
            if not self._counts.stack[i].any():  # weights all zero: no evidence, no interval
                found.append(None)
                continue
            try:
                found.append(confidence_interval(
                    self._matrix(i), spec.name, level=level, method=method, average=average,
                    pos_label=label, n_resamples=n_resamples, random_state=rng,
                    zero_division=zero_division, **params))
            except ValueError as exc:  # the bootstrap's refusal of a weighted table's total
                if not str(exc).startswith("table: a weighted table"):
                    raise
                raise ValueError(f"sample_weight of group {key!r}: "
                                 f"{str(exc).removeprefix('table: ')}") from None
        done = [c for c in found if c is not None]
        if not done:
            raise ValueError("ci: every group's sample weights are zero")
        nan = np.full(len(self.labels), np.nan) if per_class else np.nan
        filled = [c if c is not None else ConfidenceInterval(
            nan, nan, nan, spec.name, done[0].method, level, average,
            done[0].n_resamples) for c in found]
        return GroupedIntervals.collect(self.groups, self._groups.names, self.sizes, filled,
                                        spec.name, done[0].method, level, done[0].n_resamples,
                                        self.labels if per_class else None)

