r"""Confidence intervals for every registry metric of a confusion matrix.

Two kinds of interval live here:

* **analytic** intervals where a closed form exists: Wilson, Agresti--Coull, Clopper--Pearson (and,
  for the coverage study, Wald) for metrics that are a binomial proportion of the counts; the
  Fleiss--Cohen--Everitt asymptotic standard error of Cohen's kappa; Fisher's z for a 2 x 2 phi
  coefficient (MCC);
* the **multinomial bootstrap on the counts**, valid for any metric of the table. A resample of
  ``N`` test samples drawn with replacement has exactly the table distribution
  ``Multinomial(N, C / N)``, so the resampled tables are drawn directly, ``B`` at a time, as a
  ``(B, K, K)`` stack, and the batched metric code evaluates all of them in one call. Percentile,
  basic and BCa intervals are read from the ``B`` values; BCa's acceleration comes from the exact
  jackknife on the counts (leaving out one sample of cell ``(i, j)`` gives the same table for all
  ``C_ij`` samples of that cell, so ``K^2`` evaluations replace ``N``).

``METHODS`` names every method with its reference; ``interval_methods(metric)`` says which apply.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..metrics import Stats, evaluate, get_metric
from .analytic import (
    METHOD_ALIASES,
    PROPORTION_METHODS,
    REF_AGRESTI,
    REF_BROWN,
    REF_CLOPPER,
    REF_FISHER,
    REF_FLEISS,
    REF_WILSON,
    fisher_z_interval,
    kappa_standard_error,
    proportion_interval,
)
from .common import (
    DEFAULT_RESAMPLES,
    check_level,
    check_n_resamples,
    check_random_state,
    z_quantile,
)
from .resampling import (
    REF_DAVISON,
    REF_EFRON,
    REF_EFRON_BCA,
    bootstrap_interval,
    bootstrap_values,
    jackknife_values,
    nanquantile,
    resample_tables,
)


@dataclass(frozen=True)
class Method:
    """An interval method: its name, kind ('analytic' or 'bootstrap'), summary and reference.

    Parameters
    ----------
    name : str
        The name accepted by ``method=``.
    kind : {'analytic', 'bootstrap'}
        A closed form, or read from multinomial resamples of the counts.
    summary : str
        One line on what the method does.
    references : tuple of str
        Its sources.

    Examples
    --------
    >>> METHODS["wilson"].kind
    'analytic'
    """

    name: str
    kind: str
    summary: str
    references: tuple[str, ...]


METHODS: dict[str, Method] = {
    m.name: m
    for m in (
        Method("wilson", "analytic", "Wilson score interval for a binomial proportion x / n.",
               (REF_WILSON, REF_BROWN)),
        Method("agresti_coull", "analytic",
               "Wald interval around (x + z^2/2) / (n + z^2) with n + z^2 trials.",
               (REF_AGRESTI, REF_BROWN)),
        Method("clopper_pearson", "analytic",
               "'Exact' interval from beta quantiles; conservative (coverage >= nominal).",
               (REF_CLOPPER, REF_BROWN)),
        Method("jeffreys", "analytic",
               "Equal-tailed Beta(x + 1/2, n - x + 1/2) posterior interval (Jeffreys' prior); "
               "0 at x = 0 and 1 at x = n.", (REF_BROWN,)),
        Method("wald", "analytic",
               "p +- z sqrt(p (1 - p) / n); shown for comparison, poor when p is near 0 or 1.",
               (REF_BROWN,)),
        Method("kappa_asymptotic", "analytic",
               "kappa +- z SE with the large-sample SE of (weighted) kappa.", (REF_FLEISS,)),
        Method("fisher_z", "analytic",
               "tanh(atanh(r) +- z / sqrt(N - 3)) for a 2 x 2 phi coefficient (MCC); too narrow "
               "for phi (coverage 0.6-0.9 at 95 %, docs/inference.md), never chosen by 'auto'.",
               (REF_FISHER,)),
        Method("percentile", "bootstrap",
               "Quantiles of the metric over multinomial resamples of the counts.", (REF_EFRON,)),
        Method("basic", "bootstrap",
               "Reflected percentile interval 2 theta - quantiles.", (REF_DAVISON,)),
        Method("bca", "bootstrap",
               "Bias-corrected and accelerated percentile interval; acceleration from the exact "
               "count jackknife.", (REF_EFRON_BCA, REF_EFRON)),
    )
}
BOOTSTRAP_METHODS = ("percentile", "basic", "bca")


# ---------------------------------------------------------------------------------------------
# which metrics are binomial proportions, and of which counts
Counts = Callable[[Any], np.ndarray]

#: per-class proportions: metric -> (numerator, denominator) as functions of ClassCounts
PER_CLASS_PROPORTIONS: dict[str, tuple[Counts, Counts]] = {
    "recall": (lambda c: c.tp, lambda c: c.support),
    "class_accuracy": (lambda c: c.tp, lambda c: c.support),
    "fnr": (lambda c: c.fn, lambda c: c.support),
    "precision": (lambda c: c.tp, lambda c: c.predicted),
    "fdr": (lambda c: c.fp, lambda c: c.predicted),
    "specificity": (lambda c: c.tn, lambda c: c.negatives),
    "fpr": (lambda c: c.fp, lambda c: c.negatives),
    "npv": (lambda c: c.tn, lambda c: c.tn + c.fn),
    "for": (lambda c: c.fn, lambda c: c.tn + c.fn),
    "prevalence": (lambda c: c.support, lambda c: c.n),
    "jaccard": (lambda c: c.tp, lambda c: c.tp + c.fp + c.fn),
}
#: per-class proportions whose micro average is still one proportion of N samples
MICRO_PROPORTIONS = frozenset({"recall", "class_accuracy", "fnr", "precision", "fdr"})

#: overall proportions: metric -> (numerator, denominator) as functions of Stats
OVERALL_PROPORTIONS: dict[str, tuple[Counts, Counts]] = {
    "accuracy": (lambda s: s.correct, lambda s: s.n),
    "weighted_accuracy": (lambda s: s.correct, lambda s: s.n),
    "error_rate": (lambda s: s.n - s.correct, lambda s: s.n),
    "hamming_loss": (lambda s: s.n - s.correct, lambda s: s.n),
    "zero_one_loss": (lambda s: s.n - s.correct, lambda s: s.n),
}


@dataclass(frozen=True)
class ConfidenceInterval:
    """A confidence interval; unpacks as ``low, high``.

    ``low``/``high``/``estimate`` are floats for an overall (or averaged, or ``pos_label``)
    metric and per-class arrays otherwise.

    Parameters
    ----------
    low, high, estimate : float or numpy.ndarray
        The bounds and the point estimate.
    metric : str
        Canonical registry name of the metric.
    method : str
        The interval method used (a key of :data:`METHODS`).
    level : float
        Confidence level.
    average : str, optional
        The averaging of a per-class metric, if any.
    n_resamples : int, optional
        Bootstrap resamples drawn (None for analytic methods).
    references : tuple of str
        Sources of the method.

    Examples
    --------
    >>> ci = ConfidenceInterval(0.5, 0.7, 0.6, "accuracy", "wilson", 0.95)
    >>> low, high = ci
    >>> (low, high, len(ci), ci[1])
    (0.5, 0.7, 2, 0.7)
    """

    low: Any
    high: Any
    estimate: Any
    metric: str
    method: str
    level: float
    average: str | None = None
    n_resamples: int | None = None
    references: tuple[str, ...] = field(default=())

    def __iter__(self) -> Iterator[Any]:
        yield self.low
        yield self.high

    def __len__(self) -> int:
        return 2

    def __getitem__(self, i: int) -> Any:
        return (self.low, self.high)[i]

    def to_dict(self) -> dict[str, Any]:
        """The interval as a dictionary.

        Returns
        -------
        dict
            Plain Python values (arrays as lists), ready for JSON.

        Examples
        --------
        >>> ConfidenceInterval(0.5, 0.7, 0.6, "accuracy", "wilson", 0.95).to_dict()["method"]
        'wilson'
        """
        def plain(v: Any) -> Any:
            return v.tolist() if isinstance(v, np.ndarray) else v

        return {
            "metric": self.metric,
            "estimate": plain(self.estimate),
            "low": plain(self.low),
            "high": plain(self.high),
            "level": self.level,
            "method": self.method,
            "average": self.average,
            "n_resamples": self.n_resamples,
            "references": list(self.references),
        }


# ---------------------------------------------------------------------------------------------
def _is_proportion(name: str, kind: str, average: str | None, params: dict[str, Any]) -> bool:
    if kind == "overall":
        if name not in OVERALL_PROPORTIONS:
            return False
        return not (name == "zero_one_loss" and not params.get("normalize", True))
    if name not in PER_CLASS_PROPORTIONS:
        return False
    return average is None or (average == "micro" and name in MICRO_PROPORTIONS)


def interval_methods(metric: str, average: str | None = None, n_classes: int = 2) -> list[str]:
    """Methods that apply to ``metric`` (with ``average``, on a table of ``n_classes``).

    Parameters
    ----------
    metric : str
        A registry name or alias.
    average : str, optional
        The averaging of a per-class metric.
    n_classes : int, default 2
        Classes of the table (Fisher's z needs two).

    Returns
    -------
    list of str
        Keys of :data:`METHODS`, analytic ones first.

    Examples
    --------
    >>> interval_methods("accuracy")
    ['wilson', 'agresti_coull', 'clopper_pearson', 'jeffreys', 'wald', 'percentile', 'basic', 'bca']
    """
    spec = get_metric(metric)
    out: list[str] = []
    if _is_proportion(spec.name, spec.kind, average, {}):
        out += list(PROPORTION_METHODS)
    if spec.name == "kappa":
        out.append("kappa_asymptotic")
    if (spec.name == "mcc" and n_classes == 2) or (spec.name == "class_mcc" and average is None):
        out.append("fisher_z")
    return out + list(BOOTSTRAP_METHODS)


def describe_methods(metric: str, average: str | None = None, n_classes: int = 2
                     ) -> list[dict[str, Any]]:
    """The interval methods that apply to ``metric``, each with its kind, summary, references
    and whether ``method='auto'`` picks it (for reports and ``explain``).

    Parameters
    ----------
    metric, average, n_classes
        As in :func:`interval_methods`.

    Returns
    -------
    list of dict
        ``name``, ``kind``, ``summary``, ``references`` and ``auto`` of each method.

    Examples
    --------
    >>> [m["name"] for m in describe_methods("kappa") if m["auto"]]
    ['kappa_asymptotic']
    """
    auto = auto_method(metric, average, n_classes)
    return [
        {"name": m, "kind": METHODS[m].kind, "summary": METHODS[m].summary,
         "references": list(METHODS[m].references), "auto": m == auto}
        for m in interval_methods(metric, average, n_classes)
    ]


def auto_method(metric: str, average: str | None = None, n_classes: int = 2,
                params: dict[str, Any] | None = None) -> str:
    """The ``method='auto'`` choice: Wilson for binomial proportions (Brown, Cai and DasGupta
    2001), the Fleiss--Cohen--Everitt SE for kappa, BCa on the counts for everything else.

    Parameters
    ----------
    metric, average, n_classes
        As in :func:`interval_methods`.
    params : dict, optional
        The metric's parameters (``zero_one_loss`` with ``normalize=False`` is no proportion).

    Returns
    -------
    str
        A key of :data:`METHODS`.

    Examples
    --------
    >>> auto_method("recall"), auto_method("mcc")
    ('wilson', 'bca')
    """
    spec = get_metric(metric)
    if _is_proportion(spec.name, spec.kind, average, params or {}):
        return "wilson"
    if spec.name == "kappa":
        return "kappa_asymptotic"
    return "bca"


def confidence_interval(
    cm: Any,
    metric: str,
    *,
    level: float = 0.95,
    method: str = "auto",
    average: str | None = None,
    pos_label: Any = None,
    n_resamples: int = DEFAULT_RESAMPLES,
    random_state: Any = None,
    zero_division: Any = "warn",
    **params: Any,
) -> ConfidenceInterval:
    """Confidence interval for one registry metric of a :class:`~confmat.ConfusionMatrix`.

    This is the engine behind :meth:`ConfusionMatrix.ci`; see its docstring.

    Parameters
    ----------
    cm : ConfusionMatrix
        The table.
    metric : str
        A registry name or alias.
    level : float, default 0.95
        Confidence level.
    method : str, default 'auto'
        A key of :data:`METHODS` (or an alias), or 'auto' (:func:`auto_method`).
    average : str, optional
        Averaging of a per-class metric; without it and without ``pos_label`` the bounds are
        per-class arrays.
    pos_label : label, optional
        One class of a per-class metric.
    n_resamples : int
        Bootstrap resamples.
    random_state : int or numpy.random.Generator, optional
        Seed of the bootstrap.
    zero_division : {'warn', 'nan'} or float
        Value of an undefined metric; resamples where it is undefined are left out unless a
        number is given.
    **params
        Parameters of the metric.

    Returns
    -------
    ConfidenceInterval
        Bounds clipped to the metric's range.

    Raises
    ------
    ValueError
        An unknown method, a method that does not apply to the metric, ``pos_label`` with an
        overall metric or together with ``average``; ``fisher_z`` with 3 samples or fewer; a
        bootstrap of a weighted table whose total rounds to no case.

    Examples
    --------
    >>> from confmat import ConfusionMatrix
    >>> cm = ConfusionMatrix([[40, 10], [5, 45]])
    >>> ci = confidence_interval(cm, "accuracy")
    >>> ci.method, round(ci.low, 4), round(ci.high, 4)
    ('wilson', 0.7672, 0.9069)
    """
    level = check_level(level)
    spec = get_metric(metric)
    if not isinstance(method, str):
        raise TypeError(f"method must be a string, got {type(method).__name__}")
    method = METHOD_ALIASES.get(method.lower(), method.lower())
    if pos_label is not None:
        if spec.kind != "per_class":
            raise ValueError(f"pos_label applies to per-class metrics, not {spec.name!r}")
        if average is not None:
            raise ValueError("give either pos_label or average, not both")
    k = cm.n_classes
    if method == "auto":
        method = auto_method(spec.name, average, k, params)
    if method not in METHODS:
        raise ValueError(f"method must be 'auto' or one of {', '.join(METHODS)}, got {method!r}")
    allowed = interval_methods(spec.name, average, k)
    if method in PROPORTION_METHODS:
        if not _is_proportion(spec.name, spec.kind, average, params):
            raise ValueError(
                f"method={method!r} needs a metric that is a binomial proportion of the counts; "
                f"{spec.name!r} with average={average!r} is not one (use 'bca' or 'percentile')"
            )
    elif method not in allowed:
        raise ValueError(
            f"method={method!r} does not apply to {spec.name!r} with average={average!r} on "
            f"{k} classes; choose one of {', '.join(allowed)}"
        )
    table = cm.full_table
    stats = Stats(table, k=k, zero_division=zero_division)
    estimate = np.asarray(evaluate(spec.name, stats, average, **params), dtype=np.float64)
    n_used: int | None = None
    info = METHODS[method]

    if method in PROPORTION_METHODS:
        if spec.kind == "overall":
            num_f, den_f = OVERALL_PROPORTIONS[spec.name]
            src: Any = stats
        else:
            num_f, den_f = PER_CLASS_PROPORTIONS[spec.name]
            src = stats.per_class if average is None else stats.micro
        num, den = num_f(src), den_f(src)
        if average == "micro":
            num, den = num[..., 0], den[..., 0]
        low, high = proportion_interval(num, den, level, method)
    elif method == "kappa_asymptotic":
        _, se = kappa_standard_error(stats.counts, params.get("weights"))
        z = float(z_quantile(0.5 + level / 2.0))
        low, high = estimate - z * se, estimate + z * se
    elif method == "fisher_z":
        n = stats.n if spec.kind == "overall" else stats.per_class.n
        if np.any(np.asarray(n) <= 3):
            raise ValueError(
                f"method='fisher_z' needs more than 3 samples (its standard error is "
                f"1 / sqrt(N - 3)); the table has N = {float(np.max(n)):g}; use 'bca' or "
                "'percentile'")
        low, high = fisher_z_interval(estimate, n, level)
    else:
        n_used = check_n_resamples(n_resamples, level)
        rng = check_random_state(random_state)
        # a value filled in by convention where a resample's metric is undefined is not an
        # estimate: such resamples are left out unless a numeric zero_division was asked for
        zd = "nan" if zero_division == "warn" else zero_division
        boot = bootstrap_values(table, k, spec.name, average, n_used, rng, zd, **params)
        jack = None
        if method == "bca":
            jack = jackknife_values(table, k, spec.name, average, zd, **params)
        low, high = bootstrap_interval(boot, estimate, level, method, jack)

    # an interval never leaves the metric's declared range (kappa + z SE can exceed 1)
    lo_r, hi_r = spec.range
    with np.errstate(invalid="ignore"):
        low = np.clip(np.asarray(low, dtype=np.float64), lo_r, hi_r)
        high = np.clip(np.asarray(high, dtype=np.float64), lo_r, hi_r)
    if pos_label is not None:
        i = cm.index_of(pos_label, "pos_label")
        low, high, estimate = low[i], high[i], estimate[i]

    def out(a: np.ndarray) -> Any:
        return float(a) if a.ndim == 0 else a

    return ConfidenceInterval(
        low=out(low), high=out(high), estimate=out(estimate), metric=spec.name, method=method,
        level=level, average=average, n_resamples=n_used, references=info.references,
    )


__all__ = [
    "METHODS",
    "MICRO_PROPORTIONS",
    "OVERALL_PROPORTIONS",
    "PER_CLASS_PROPORTIONS",
    "REF_DAVISON",
    "REF_EFRON",
    "REF_EFRON_BCA",
    "ConfidenceInterval",
    "Method",
    "auto_method",
    "bootstrap_interval",
    "bootstrap_values",
    "confidence_interval",
    "describe_methods",
    "fisher_z_interval",
    "interval_methods",
    "jackknife_values",
    "kappa_standard_error",
    "nanquantile",
    "proportion_interval",
    "resample_tables",
]
