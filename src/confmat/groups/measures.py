"""Disparity measures of a :class:`~confmat.groups.GroupedEvaluation`: ``difference``,
``ratio`` and fairlearn's named measures (Weerts et al. 2023), with bootstrap intervals.

Named measures, all on the positive class (``pos_label``, resolved by the one rule of
:func:`confmat.inputs.targets.resolve_pos_label`):

* demographic parity: the selection rate ``P(h(X) = pos | A = a)`` (Agarwal et al. 2018);
* equal opportunity: the true positive rate ``P(h(X) = pos | A = a, Y = pos)``
  (Hardt et al. 2016);
* equalized odds: the true and the false positive rate together (Hardt et al. 2016), folded by
  ``agg='worst_case'`` (the larger difference, the smaller ratio) or ``agg='mean'``.

The mixin reaches the evaluation through its public interface only (``stack``, ``metric``,
``index``, ``class_column``, ``table_metric``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from ..inference import ConfidenceInterval
from ..inference.common import check_level, check_n_resamples, check_random_state
from ..inference.resampling import REF_EFRON, bootstrap_interval
from ..inference.scores import score_metric_name
from .disparity import (
    DISPARITY_METHODS,
    REF_WEERTS,
    combine,
    difference,
    ratio,
    resample_stack,
    weighed,
)
from .names import registry_spec
from .score_bootstrap import REF_CARPENTER

if TYPE_CHECKING:
    from .binned_scores import ScoreData

__all__ = ["AGGREGATIONS", "DEFAULT_DISPARITY_RESAMPLES", "DisparityMixin"]

AGGREGATIONS = ("worst_case", "mean")
DEFAULT_DISPARITY_RESAMPLES = 2000
REF_HARDT = (
    "Hardt, M., Price, E., Srebro, N. (2016), Equality of opportunity in supervised learning, "
    "NeurIPS 29."
)
REF_AGARWAL = (
    "Agarwal, A., Beygelzimer, A., Dudik, M., Langford, J., Wallach, H. (2018), A reductions "
    "approach to fair classification, ICML."
)

Term = tuple[str, str | None, int | None, dict[str, Any]]


class DisparityMixin:
    """Differences and ratios of metrics between groups (mixed into ``GroupedEvaluation``)."""

    if TYPE_CHECKING:
        @property
        def stack(self) -> np.ndarray: ...

        @property
        def groups(self) -> list[Any]: ...

        @property
        def pos_label(self) -> Any: ...

        def metric(self, name: str, average: str | None = None, *, pos_label: Any = None,
                   zero_division: Any = "warn", **params: Any) -> np.ndarray: ...

        def index(self, key: Any, name: str = "reference") -> int: ...

        def overall_metric(self, name: str, average: str | None = None, *,
                           pos_label: Any = None, zero_division: Any = "warn",
                           **params: Any) -> Any: ...

        @property
        def scores(self) -> ScoreData | None: ...

        def class_column(self, kind: str, average: str | None, pos_label: Any
                         ) -> int | None: ...

        def table_metric(self, table: np.ndarray, name: str, average: str | None = None,
                         column: int | None = None, zero_division: Any = "warn",
                         warn: bool = True, params: dict[str, Any] | None = None
                         ) -> np.ndarray: ...

    # ------------------------------------------------------------------ the engine
    def disparity_term(self, name: str, average: str | None, pos_label: Any,
                       params: dict[str, Any]) -> Term:
        """The metric a disparity compares, as ``(name, average, class column, params)``.

        Parameters
        ----------
        name : str
            A registry metric or alias, ``'selection_rate'``, or a score metric.
        average : str, optional
            Averaging of a per-class metric.
        pos_label : label, optional
            The class of a per-class metric.
        params : dict
            The metric's parameters.

        Returns
        -------
        tuple
            The canonical name, the averaging, the class column (or None) and the parameters.

        Raises
        ------
        ValueError
            A per-class metric without a class or an averaging, or an unknown metric.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> by_group([0, 1], [0, 1], ["a", "b"]).disparity_term("TPR", None, 1, {})
        ('recall', None, 1, {})
        """
        if score_metric_name(name) is not None:
            return (score_metric_name(name) or name, None, None, {})
        spec = registry_spec(name)
        col = self.class_column(spec.kind, average, pos_label)
        if spec.kind == "per_class" and average is None and col is None:
            raise ValueError(
                f"{spec.name} is a per-class metric: give pos_label (or average) to compare "
                "one value per group"
            )
        return (spec.name, average, col, params)

    def disparity_reference(self, methods: list[str], reference: Any) -> int | None:
        """Check disparity methods and return the index of the reference group.

        Parameters
        ----------
        methods : list of str
            Methods asked for (``'between_groups'``, ``'to_overall'``, ``'to_group'``).
        reference : group key, optional
            The reference group, needed by ``'to_group'`` and refused without it.

        Returns
        -------
        int or None

        Raises
        ------
        ValueError
            An unknown method, ``reference`` missing, unknown or not needed.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> by_group([0, 1], [0, 1], ["a", "b"]).disparity_reference(["to_group"], "b")
        1
        """
        for method in methods:
            if not isinstance(method, str) or method not in DISPARITY_METHODS:
                raise ValueError(f"method must be one of "
                                 f"{', '.join(map(repr, DISPARITY_METHODS))}, got {method!r}")
        if "to_group" in methods:
            if reference is None:
                raise ValueError("method='to_group' needs reference= (one of the groups)")
            return self.index(reference)
        if reference is not None:
            asked = ", ".join(map(repr, methods)) or "no method"
            raise ValueError(f"reference applies to method='to_group', not {asked}")
        return None

    def _measure(self, kind: str, terms: list[Term], fold: Callable[[list[Any]], Any] | None,
                 method: str, reference: Any, ci: bool, level: float, n_resamples: int,
                 random_state: Any, zero_division: Any, label: str) -> Any:
        ref = self.disparity_reference([method], reference)
        func = difference if kind == "difference" else ratio
        if len(terms) == 1 and score_metric_name(terms[0][0]) is not None:
            return self._score_measure(terms[0][0], func, method, ref, ci, level, n_resamples,
                                       random_state, label)

        def statistic(stack: np.ndarray, warn: bool) -> Any:
            parts = []
            for name, average, col, params in terms:
                vals = weighed(self.table_metric(stack, name, average, col, zero_division,
                                                 warn, params), stack)
                overall = self.table_metric(stack.sum(axis=-3), name, average, col,
                                            zero_division, False, params)
                parts.append(func(vals, overall, method, ref))
            return parts[0] if fold is None else fold(parts)

        estimate = float(np.asarray(statistic(self.stack, True), dtype=np.float64))
        if not ci:
            return estimate
        level = check_level(level)
        n_used = check_n_resamples(n_resamples, level)
        rng = check_random_state(random_state)
        boot = np.concatenate([
            np.asarray(statistic(chunk, False), dtype=np.float64).reshape(-1)
            for chunk in resample_stack(self.stack, n_used, rng, keys=self.groups)
        ])
        low, high = bootstrap_interval(boot, np.asarray(estimate), level, "percentile")
        return ConfidenceInterval(float(low), float(high), estimate, label, "percentile", level,
                                  n_resamples=n_used, references=(REF_WEERTS,))

    def _score_measure(self, name: str, func: Callable[..., np.ndarray], method: str,
                       ref: int | None, ci: bool, level: float, n_resamples: int,
                       random_state: Any, label: str) -> Any:
        """A disparity of ROC AUC or average precision; its interval from the stratified
        bootstrap of every group's samples (:meth:`GroupedScores.replicates
        <confmat.groups.scores.GroupedScores.replicates>`), the overall value of a replicate
        being the metric of all groups' resampled samples pooled."""
        overall = self.overall_metric(name) if method == "to_overall" else np.nan
        estimate = float(np.asarray(func(self.metric(name), overall, method, ref)))
        if not ci:
            return estimate
        level = check_level(level)
        n_used = check_n_resamples(n_resamples, level)
        rng = check_random_state(random_state)
        data = self.scores
        assert data is not None  # self.metric(name) raised otherwise
        boot, pooled = data.replicates(name, n_used, rng, pooled=method == "to_overall")
        stat = np.asarray(func(boot, np.nan if pooled is None else pooled, method, ref))
        low, high = bootstrap_interval(stat, np.asarray(estimate), level, "percentile")
        return ConfidenceInterval(float(low), float(high), estimate, label, "percentile", level,
                                  n_resamples=n_used,
                                  references=(REF_WEERTS, REF_EFRON, REF_CARPENTER))

    # ------------------------------------------------------------------ generic
    def difference(self, metric: str, *, method: str = "between_groups", reference: Any = None,
                   average: str | None = None, pos_label: Any = None, ci: bool = False,
                   level: float = 0.95, n_resamples: int = DEFAULT_DISPARITY_RESAMPLES,
                   random_state: Any = None, zero_division: Any = "warn", **params: Any) -> Any:
        """The largest difference of ``metric`` between groups.

        ``between_groups``: ``max - min`` over the groups; ``to_overall``: the largest
        ``|v_g - overall|``; ``to_group``: the largest ``|v_g - v_reference|`` (fairlearn's
        ``MetricFrame.difference`` for the first two; Weerts et al. 2023). Groups whose value is
        undefined are left out (a group of one class has no ROC AUC: it is left out of the
        estimate and of every bootstrap replicate, with the warning of
        :meth:`GroupedEvaluation.metric`), and so is a group whose sample weights are all zero
        (whatever ``zero_division`` says of its empty table).

        ROC AUC and average precision (with ``scores``): the overall value is the metric of
        all groups' samples pooled, and the interval resamples each group's positives and
        negatives on their own (the stratified bootstrap, Carpenter and Bithell 2000), carrying
        the sample weights; a replicate's overall value is the metric of all groups' resampled
        samples pooled. The draws are described in :mod:`confmat.groups.score_bootstrap`.

        Parameters
        ----------
        metric : str
            As in :meth:`GroupedEvaluation.metric` (one value per group: a per-class metric
            needs ``pos_label`` or ``average``).
        method : {'between_groups', 'to_overall', 'to_group'}, default 'between_groups'
            What each group is compared with.
        reference : group key, optional
            The reference group of ``to_group``.
        average, pos_label, zero_division, **params
            As in :meth:`GroupedEvaluation.metric`.
        ci : bool, default False
            Return a percentile bootstrap interval, each group's table (score metrics: each
            group's positives and negatives) resampled on its own (Efron and Tibshirani 1993).
        level : float, default 0.95
            Confidence level.
        n_resamples : int, default 2000
            Bootstrap resamples.
        random_state : int or numpy.random.Generator, optional
            Seed of the bootstrap.

        Returns
        -------
        float or ConfidenceInterval
            The difference; with ``ci=True`` an interval whose ``estimate`` is it.

        Raises
        ------
        ValueError
            An unknown method, ``reference`` missing or unknown, a per-class metric without a
            class.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> ev = by_group([0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1], ["a"] * 3 + ["b"] * 3)
        >>> ev.difference("recall", pos_label=1)
        0.5
        >>> ev.difference("accuracy", method="to_group", reference="b")
        0.33333333333333337
        >>> ev = by_group([0, 1, 1, 0, 1, 0, 1, 1], [0] * 8, ["a"] * 4 + ["b"] * 4,
        ...               scores=[.2, .9, .6, .7, .8, .3, .4, .5])
        >>> ev.metric("roc_auc").tolist(), ev.difference("roc_auc")
        ([0.75, 1.0], 0.25)
        >>> ci = ev.difference("roc_auc", ci=True, random_state=0)
        >>> ci.method, ci.low <= ci.estimate <= ci.high
        ('percentile', True)
        """
        term = self.disparity_term(metric, average, pos_label, params)
        return self._measure("difference", [term], None, method, reference, ci, level,
                             n_resamples, random_state, zero_division,
                             f"{term[0]} difference ({method})")

    def ratio(self, metric: str, *, method: str = "between_groups", reference: Any = None,
              average: str | None = None, pos_label: Any = None, ci: bool = False,
              level: float = 0.95, n_resamples: int = DEFAULT_DISPARITY_RESAMPLES,
              random_state: Any = None, zero_division: Any = "warn", **params: Any) -> Any:
        """The smallest ratio of ``metric`` between groups (at most 1).

        ``between_groups``: ``min / max``; ``to_overall`` and ``to_group``: the smallest of
        ``v_g / v_ref`` and its inverse, whichever is at most 1 (fairlearn's
        ``MetricFrame.ratio`` for the first two; Weerts et al. 2023).

        Parameters
        ----------
        metric, method, reference, average, pos_label, ci, level
            As in :meth:`difference`.
        n_resamples, random_state, zero_division, **params
            As in :meth:`difference`.

        Returns
        -------
        float or ConfidenceInterval

        Raises
        ------
        ValueError
            As :meth:`difference`.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> ev = by_group([0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1], ["a"] * 3 + ["b"] * 3)
        >>> ev.ratio("recall", pos_label=1)
        0.5
        """
        term = self.disparity_term(metric, average, pos_label, params)
        return self._measure("ratio", [term], None, method, reference, ci, level, n_resamples,
                             random_state, zero_division, f"{term[0]} ratio ({method})")

    # ------------------------------------------------------------------ named measures
    def _named(self, kind: str, names: list[str], agg: str | None, method: str, ci: bool,
               level: float, n_resamples: int, random_state: Any, label: str) -> Any:
        if not isinstance(method, str) or method not in ("between_groups", "to_overall"):
            raise ValueError(f"method must be 'between_groups' or 'to_overall', got {method!r} "
                             "(a comparison with one group: difference or ratio of the rate "
                             "with method='to_group' and reference=)")
        pos = self.pos_label
        terms = [self.disparity_term(n, None, pos, {}) for n in names]
        fold = None
        if agg is not None:
            if agg not in AGGREGATIONS:
                raise ValueError(f"agg must be one of 'worst_case' or 'mean', got {agg!r}")
            how = "mean" if agg == "mean" else (
                "worst_case_max" if kind == "difference" else "worst_case_min")
            fold = partial(combine, agg=how)
        return self._measure(kind, terms, fold, method, None, ci, level, n_resamples,
                             random_state, 0, label)

    def demographic_parity_difference(self, method: str = "between_groups", *, ci: bool = False,
                                      level: float = 0.95,
                                      n_resamples: int = DEFAULT_DISPARITY_RESAMPLES,
                                      random_state: Any = None) -> Any:
        """Largest difference of the selection rate (share predicted positive) between groups
        (Agarwal et al. 2018; fairlearn's ``demographic_parity_difference``).

        Parameters
        ----------
        method : {'between_groups', 'to_overall'}, default 'between_groups'
            As in :meth:`difference`.
        ci, level, n_resamples, random_state
            As in :meth:`difference`.

        Returns
        -------
        float or ConfidenceInterval

        Raises
        ------
        ValueError
            Labels other than {0, 1}, {-1, 1}, {False, True} without ``pos_label``, or a
            method other than the two above.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> ev = by_group([0, 1, 1, 0], [0, 1, 1, 1], ["a", "a", "b", "b"])
        >>> ev.demographic_parity_difference()
        0.5
        """
        return self._named("difference", ["predicted_rate"], None, method, ci, level,
                           n_resamples, random_state, "demographic parity difference")

    def demographic_parity_ratio(self, method: str = "between_groups", *, ci: bool = False,
                                 level: float = 0.95,
                                 n_resamples: int = DEFAULT_DISPARITY_RESAMPLES,
                                 random_state: Any = None) -> Any:
        """Smallest ratio of the selection rate between groups (fairlearn's
        ``demographic_parity_ratio``).

        Parameters
        ----------
        method, ci, level, n_resamples, random_state
            As in :meth:`demographic_parity_difference`.

        Returns
        -------
        float or ConfidenceInterval

        Raises
        ------
        ValueError
            As :meth:`demographic_parity_difference`.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> by_group([0, 1, 1, 0], [0, 1, 1, 1], ["a", "a", "b", "b"]).demographic_parity_ratio()
        0.5
        """
        return self._named("ratio", ["predicted_rate"], None, method, ci, level, n_resamples,
                           random_state, "demographic parity ratio")

    def equal_opportunity_difference(self, method: str = "between_groups", *, ci: bool = False,
                                     level: float = 0.95,
                                     n_resamples: int = DEFAULT_DISPARITY_RESAMPLES,
                                     random_state: Any = None) -> Any:
        """Largest difference of the true positive rate between groups (Hardt et al. 2016;
        fairlearn's ``equal_opportunity_difference``).

        Parameters
        ----------
        method, ci, level, n_resamples, random_state
            As in :meth:`demographic_parity_difference`.

        Returns
        -------
        float or ConfidenceInterval

        Raises
        ------
        ValueError
            As :meth:`demographic_parity_difference`.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> ev = by_group([0, 1, 1, 1], [0, 1, 1, 0], ["a", "a", "b", "b"])
        >>> ev.equal_opportunity_difference()
        0.5
        """
        return self._named("difference", ["recall"], None, method, ci, level, n_resamples,
                           random_state, "equal opportunity difference")

    def equal_opportunity_ratio(self, method: str = "between_groups", *, ci: bool = False,
                                level: float = 0.95,
                                n_resamples: int = DEFAULT_DISPARITY_RESAMPLES,
                                random_state: Any = None) -> Any:
        """Smallest ratio of the true positive rate between groups (fairlearn's
        ``equal_opportunity_ratio``).

        Parameters
        ----------
        method, ci, level, n_resamples, random_state
            As in :meth:`demographic_parity_difference`.

        Returns
        -------
        float or ConfidenceInterval

        Raises
        ------
        ValueError
            As :meth:`demographic_parity_difference`.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> by_group([0, 1, 1, 1], [0, 1, 1, 0], ["a", "a", "b", "b"]).equal_opportunity_ratio()
        0.5
        """
        return self._named("ratio", ["recall"], None, method, ci, level, n_resamples,
                           random_state, "equal opportunity ratio")

    def equalized_odds_difference(self, method: str = "between_groups", *,
                                  agg: str = "worst_case", ci: bool = False, level: float = 0.95,
                                  n_resamples: int = DEFAULT_DISPARITY_RESAMPLES,
                                  random_state: Any = None) -> Any:
        """The true and false positive rates' differences between groups, folded by ``agg``
        (Hardt et al. 2016; fairlearn's ``equalized_odds_difference``).

        Parameters
        ----------
        method : {'between_groups', 'to_overall'}, default 'between_groups'
            As in :meth:`difference`.
        agg : {'worst_case', 'mean'}, default 'worst_case'
            The larger of the two differences, or their mean.
        ci, level, n_resamples, random_state
            As in :meth:`difference`.

        Returns
        -------
        float or ConfidenceInterval

        Raises
        ------
        ValueError
            An unknown ``agg``, or as :meth:`demographic_parity_difference`.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> ev = by_group([0, 1, 0, 1], [1, 1, 0, 1], ["a", "a", "b", "b"])
        >>> ev.equalized_odds_difference(), ev.equalized_odds_difference(agg="mean")
        (1.0, 0.5)
        """
        return self._named("difference", ["recall", "fpr"], agg, method, ci, level,
                           n_resamples, random_state, "equalized odds difference")

    def equalized_odds_ratio(self, method: str = "between_groups", *, agg: str = "worst_case",
                             ci: bool = False, level: float = 0.95,
                             n_resamples: int = DEFAULT_DISPARITY_RESAMPLES,
                             random_state: Any = None) -> Any:
        """The true and false positive rates' ratios between groups, folded by ``agg`` (the
        smaller, or the mean; fairlearn's ``equalized_odds_ratio``).

        Parameters
        ----------
        method, agg, ci, level, n_resamples, random_state
            As in :meth:`equalized_odds_difference`.

        Returns
        -------
        float or ConfidenceInterval

        Raises
        ------
        ValueError
            As :meth:`equalized_odds_difference`.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> ev = by_group([0, 1, 0, 1, 1], [1, 1, 0, 1, 0], ["a", "a", "b", "b", "b"])
        >>> ev.equalized_odds_ratio()
        0.0
        """
        return self._named("ratio", ["recall", "fpr"], agg, method, ci, level, n_resamples,
                           random_state, "equalized odds ratio")
