r"""The two parties of a disparity, and the interval of their comparison.

A disparity picks one comparison among many: ``max - min`` compares the highest group with the
lowest, ``to_overall`` the group farthest from the value on all samples. The bootstrap interval
of the disparity itself (``difference(..., ci=True)``) is the interval of a maximum of absolute
gaps: its replicates are never below 0 (a ratio: never above 1), whatever the truth, so it
excludes "no disparity" even when the groups do not differ (a small group's noise alone makes
its replicates positive). It answers "how large is the largest gap?", not "do these groups
differ?".

:meth:`PairMixin.pair_intervals` answers the second question: the two *parties* that give the
estimate (two groups, or a group and all samples, or a group and the reference group) are
fixed, and their *signed* comparison is resampled: ``v_upper - v_lower`` for a difference,
``v_lower / v_upper`` for a ratio, where "upper" is the party with the larger value in the
data. Its percentile interval contains 0 (1) when the data are compatible with the two parties
being equal, or in the other order. The estimate is the disparity's value. The parties are
chosen after looking at the data, so with many groups the interval is optimistic about the most
extreme pair (it makes no allowance for the choice); it is an honest interval of *that*
comparison.

For fairlearn's named measures (``'demographic_parity'``, ``'equal_opportunity'``,
``'equalized_odds'``) the rates are those of the measures (the positive class, 0 where a group
has no positive or negative sample); equalized odds compares the rate (true or false positive)
whose disparity is the worse, the true positive rate on ties, as ``agg='worst_case'`` does.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..inference import ConfidenceInterval
from ..inference.common import check_level, check_n_resamples, check_random_state
from ..inference.resampling import REF_EFRON, bootstrap_interval
from ..inference.scores import score_metric_name
from .disparity import REF_WEERTS, difference, ratio, resample_stack, weighed

if TYPE_CHECKING:
    from .binned_scores import ScoreData

__all__ = ["NAMED_TERMS", "PairMixin", "comparison", "parties"]

#: the rates compared by fairlearn's named measures
NAMED_TERMS = {"demographic_parity": ("predicted_rate",), "equal_opportunity": ("recall",),
               "equalized_odds": ("recall", "fpr")}
KINDS = ("difference", "ratio")


def parties(values: np.ndarray, overall: float, kind: str, method: str,
            ref: int | None = None) -> tuple[int, int] | None:
    """The two parties that give a disparity's value, as indices into ``[*values, overall]``.

    Parameters
    ----------
    values : ndarray of shape (G,)
        The metric per group (NaN: undefined, left out).
    overall : float
        The metric on all samples.
    kind : {'difference', 'ratio'}
        The disparity.
    method : {'between_groups', 'to_overall', 'to_group'}
        What each group is compared with.
    ref : int, optional
        The reference group (``to_group``).

    Returns
    -------
    (upper, lower) or None
        The party with the larger value and the other one (index ``G`` is the overall value);
        None when the disparity is undefined.

    Examples
    --------
    >>> v = np.array([0.5, 0.8, 0.6])
    >>> parties(v, 0.7, "difference", "between_groups"), parties(v, 0.7, "ratio", "to_overall")
    ((1, 0), (3, 0))
    """
    vals = np.asarray(values, dtype=np.float64)
    ext = np.append(vals, overall)
    ok = ~np.isnan(vals)
    if method == "between_groups":
        if not ok.any():
            return None
        idx = np.flatnonzero(ok)
        upper, lower = int(idx[np.argmax(vals[ok])]), int(idx[np.argmin(vals[ok])])
        if upper == lower and idx.size > 1:  # a tie: the first group against the last one
            lower = int(idx[-1])
        if kind == "ratio" and ext[upper] == 0:  # min / max is 0 / 0: undefined
            return None
        return upper, lower
    other = vals.shape[0] if method == "to_overall" else ref
    assert other is not None
    if np.isnan(ext[other]):
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        if kind == "difference":
            gap = np.abs(vals - ext[other])
            pick = np.where(np.isnan(gap), -np.inf, gap)
            if other < vals.shape[0] and np.isfinite(np.delete(pick, other)).any():
                pick[other] = -np.inf  # on a tie, another group rather than the reference
            k = int(np.argmax(pick))
        else:
            r = vals / ext[other]
            r = np.where(r > 1, 1.0 / r, r)
            pick = np.where(np.isnan(r), np.inf, r)
            if other < vals.shape[0] and np.isfinite(np.delete(pick, other)).any():
                pick[other] = np.inf
            k = int(np.argmin(pick))
    if not np.isfinite(pick[k]):
        return None
    return (k, other) if vals[k] >= ext[other] else (other, k)


def comparison(ext: np.ndarray, pair: tuple[int, int], kind: str) -> np.ndarray:
    """The signed comparison of two parties: ``upper - lower`` or ``lower / upper`` (1 where
    the two are equal, 0 / 0 included: equal parties show no disparity).

    Parameters
    ----------
    ext : ndarray of shape (..., G + 1)
        The metric per group and, last, on all samples (leading axes: replicates).
    pair : (int, int)
        ``(upper, lower)`` from :func:`parties`.
    kind : {'difference', 'ratio'}
        The disparity.

    Returns
    -------
    ndarray of shape (...)

    Examples
    --------
    >>> ext = np.array([[0.5, 0.8, 0.7], [0.9, 0.8, 0.85]])
    >>> comparison(ext, (1, 0), "difference").round(2).tolist()
    [0.3, -0.1]
    """
    upper, lower = ext[..., pair[0]], ext[..., pair[1]]
    if kind == "difference":
        return np.asarray(upper - lower)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(np.where(lower == upper, 1.0, lower / upper))


class PairMixin:
    """The interval of the comparison behind a disparity (mixed into ``GroupedEvaluation``)."""

    if TYPE_CHECKING:
        @property
        def stack(self) -> np.ndarray: ...

        @property
        def groups(self) -> list[Any]: ...

        @property
        def pos_label(self) -> Any: ...

        @property
        def scores(self) -> ScoreData | None: ...

        def metric(self, name: str, average: str | None = None, *, pos_label: Any = None,
                   zero_division: Any = "warn", **params: Any) -> np.ndarray: ...

        def overall_metric(self, name: str, average: str | None = None, *,
                           pos_label: Any = None, zero_division: Any = "warn",
                           **params: Any) -> Any: ...

        def table_metric(self, table: np.ndarray, name: str, average: str | None = None,
                         column: int | None = None, zero_division: Any = "warn",
                         warn: bool = True, params: dict[str, Any] | None = None
                         ) -> np.ndarray: ...

        def disparity_term(self, name: str, average: str | None, pos_label: Any,
                           params: dict[str, Any]) -> tuple[Any, ...]: ...

        def disparity_reference(self, methods: list[str], reference: Any) -> int | None: ...

    def pair_intervals(self, metric: str,
                       disparities: Sequence[tuple[str, str]] = (("difference",
                                                                  "between_groups"),),
                       *, reference: Any = None, average: str | None = None,
                       pos_label: Any = None, level: float = 0.95, n_resamples: int = 2000,
                       random_state: Any = None, zero_division: Any = "warn",
                       **params: Any) -> list[ConfidenceInterval]:
        """Intervals of the comparisons behind disparities of one metric, on shared resamples.

        For each ``(kind, method)`` the two parties that give the disparity's value are fixed
        and their signed comparison is resampled (see the module docstring): a difference's
        interval contains 0, a ratio's contains 1, when the data do not tell the two parties
        apart. The estimate is the disparity's value (:meth:`difference` / :meth:`ratio`).
        The resampling is that of ``ci=True``: each group's table on its own, or for ROC AUC and
        average precision each group's positives and negatives (Efron and Tibshirani 1993).

        Parameters
        ----------
        metric : str
            As in :meth:`difference`, or one of fairlearn's measures ``'demographic_parity'``,
            ``'equal_opportunity'``, ``'equalized_odds'`` (on the positive class).
        disparities : sequence of (kind, method)
            ``kind`` 'difference' or 'ratio'; ``method`` 'between_groups', 'to_overall' or
            'to_group'.
        reference : group key, optional
            The reference group of ``to_group``.
        average, pos_label, zero_division, **params
            As in :meth:`difference` (not for the named measures).
        level : float, default 0.95
            Confidence level.
        n_resamples : int, default 2000
            Bootstrap resamples, shared by every disparity.
        random_state : int or numpy.random.Generator, optional
            Source of randomness.

        Returns
        -------
        list of ConfidenceInterval
            One per disparity, labelled with its two parties (``'recall difference
            (between_groups): b vs a'``); NaN where the disparity is undefined. When a
            single group has a defined value, a difference between groups is 0 and a ratio 1
            (as :meth:`difference` and :meth:`ratio` give them) with a NaN interval: there is
            no second party to compare it with (``'... : only a has a defined value'``).

        Raises
        ------
        ValueError
            An unknown kind, method or metric, ``reference`` missing or not needed, or as
            :meth:`difference`.

        Examples
        --------
        >>> from confmat.groups import by_group
        >>> ev = by_group([1] * 8 + [0] * 4, [1] * 6 + [0] * 6, ["a"] * 6 + ["b"] * 6,
        ...               pos_label=1)
        >>> ci = ev.pair_intervals("recall", [("difference", "between_groups")],
        ...                        random_state=0)[0]
        >>> ci.metric, ci.estimate
        ('recall difference (between_groups): a vs b', 1.0)
        """
        pairs_asked = [tuple(d) for d in disparities]
        for kind, _ in pairs_asked:
            if kind not in KINDS:
                raise ValueError(f"kind must be 'difference' or 'ratio', got {kind!r}")
        ref = self.disparity_reference([m for _, m in pairs_asked], reference)
        if not pairs_asked:
            return []
        if metric in NAMED_TERMS:
            pos = self.pos_label
            terms = [self.disparity_term(n, None, pos, {}) for n in NAMED_TERMS[metric]]
            zero_division = 0
        else:
            terms = [self.disparity_term(metric, average, pos_label, params)]
        level = check_level(level)
        n_used = check_n_resamples(n_resamples, level)
        rng = check_random_state(random_state)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # undefined values are left out, as in difference
            ext = [self._pair_values(t, zero_division) for t in terms]
        chosen = [self._pair_choice(ext, kind, method, ref) for kind, method in pairs_asked]
        pooled = any(m == "to_overall" for _, m in pairs_asked)
        boot = self._pair_replicates(terms, zero_division, n_used, rng, pooled)
        names = [*map(str, self.groups), "overall"]
        out = []
        for (kind, method), (t, pair) in zip(pairs_asked, chosen, strict=True):
            label = f"{terms[0][0] if metric not in NAMED_TERMS else metric} {kind} ({method})"
            if pair is None:
                nan = float("nan")
                out.append(ConfidenceInterval(nan, nan, nan, label, "percentile", level,
                                              n_resamples=n_used))
                continue
            est = float(comparison(ext[t], pair, kind))
            if pair[0] == pair[1]:
                # one group with a defined value: the disparity is 0 (or 1) by convention, as
                # difference() / ratio() say, but nothing is compared, so no interval
                nan = float("nan")
                out.append(ConfidenceInterval(
                    nan, nan, est, f"{label}: only {names[pair[0]]} has a defined value",
                    "percentile", level, n_resamples=n_used))
                continue
            low, high = bootstrap_interval(comparison(boot[t], pair, kind), np.asarray(est),
                                           level, "percentile")
            out.append(ConfidenceInterval(
                float(low), float(high), est, f"{label}: {names[pair[0]]} vs {names[pair[1]]}",
                "percentile", level, n_resamples=n_used, references=(REF_WEERTS, REF_EFRON)))
        return out

    def _pair_values(self, term: tuple[Any, ...], zero_division: Any) -> np.ndarray:
        """The metric per group and, last, on all samples."""
        name, average, col, params = term
        if score_metric_name(name) is not None:
            return np.append(self.metric(name), self.overall_metric(name))
        vals = weighed(self.table_metric(self.stack, name, average, col, zero_division, False,
                                         params), self.stack)
        whole = self.table_metric(self.stack.sum(axis=0), name, average, col, zero_division,
                                  False, params)
        return np.append(vals, whole)

    @staticmethod
    def _pair_choice(ext: list[np.ndarray], kind: str, method: str, ref: int | None
                     ) -> tuple[int, tuple[int, int] | None]:
        """The term whose disparity is the worst (the first on ties or NaN), and its parties."""
        func = difference if kind == "difference" else ratio
        best = 0
        values = [float(func(e[:-1], e[-1], method, ref)) for e in ext]
        for t in range(1, len(ext)):
            if (values[t] > values[best]) if kind == "difference" else (values[t] < values[best]):
                best = t
        return best, parties(ext[best][:-1], float(ext[best][-1]), kind, method, ref)

    def _pair_replicates(self, terms: list[tuple[Any, ...]], zero_division: Any,
                         n_resamples: int, rng: np.random.Generator, pooled: bool
                         ) -> list[np.ndarray]:
        """Each term's (B, G + 1) replicates: per group and, last, on all samples."""
        name = terms[0][0]
        if score_metric_name(name) is not None:
            data = self.scores
            assert data is not None  # self.metric raised otherwise
            vals, whole = data.replicates(name, n_resamples, rng, pooled)
            return [np.column_stack([vals, np.full(n_resamples, np.nan) if whole is None
                                     else whole])]
        parts: list[list[np.ndarray]] = [[] for _ in terms]
        for chunk in resample_stack(self.stack, n_resamples, rng, keys=self.groups):
            for out, (nm, average, col, params) in zip(parts, terms, strict=True):
                vals = weighed(self.table_metric(chunk, nm, average, col, zero_division, False,
                                                 params), chunk)
                whole = self.table_metric(chunk.sum(axis=-3), nm, average, col, zero_division,
                                          False, params)
                out.append(np.column_stack([vals, whole]))
        return [np.concatenate(p, axis=0) for p in parts]
