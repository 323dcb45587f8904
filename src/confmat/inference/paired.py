r"""Tests between two classifiers evaluated on the same samples.

* :func:`mcnemar` -- do the two models have the same error rate? (2 x 2 table of correctness)
* :func:`stuart_maxwell` -- marginal homogeneity of a K x K table of paired labels;
* :func:`bowker` -- symmetry of that table;
* :func:`paired_bootstrap` -- any registry metric, or ROC AUC / average precision from scores.

For labels, the joint table of ``(true, pred_a, pred_b)`` is a sufficient statistic of a paired
comparison: resampling the N samples with replacement is a multinomial draw of that
``K x K x K`` table, so the paired bootstrap runs on counts exactly as ``cm.ci`` does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..inputs.options import check_flag
from ..metrics import Stats, evaluate, get_metric
from ..words import arg_value
from .common import (
    DEFAULT_RESAMPLES,
    check_level,
    check_n_resamples,
    check_numbers,
    check_random_state,
    scipy_stats,
)
from .comparison import encode_many
from .intervals import REF_EFRON, nanquantile, resample_tables
from .scores import score_bootstrap, score_metric_name

REF_MCNEMAR = (
    "McNemar, Q. (1947), Note on the sampling error of the difference between correlated "
    "proportions or percentages, Psychometrika 12(2)."
)
REF_EDWARDS = (
    "Edwards, A. L. (1948), Note on the 'correction for continuity' in testing the significance "
    "of the difference between correlated proportions, Psychometrika 13(3)."
)
REF_DIETTERICH = (
    "Dietterich, T. G. (1998), Approximate statistical tests for comparing supervised "
    "classification learning algorithms, Neural Comput. 10(7)."
)
REF_STUART = (
    "Stuart, A. (1955), A test for homogeneity of the marginal distributions in a two-way "
    "classification, Biometrika 42(3/4); Maxwell, A. E. (1970), Comparing the classification of "
    "subjects by two independent judges, Br. J. Psychiatry 116."
)
REF_BOWKER = (
    "Bowker, A. H. (1948), A test for symmetry in contingency tables, J. Am. Stat. Assoc. "
    "43(244)."
)
REF_HALL_WILSON = (
    "Hall, P., Wilson, S. R. (1991), Two guidelines for bootstrap hypothesis testing, "
    "Biometrics 47(2)."
)
REF_HOLM = (
    "Holm, S. (1979), A simple sequentially rejective multiple test procedure, Scand. J. "
    "Stat. 6(2)."
)


@dataclass(frozen=True)
class TestResult:
    """Result of a test: ``statistic``, ``pvalue``, ``method``, and what it was computed from.

    The entries of ``details`` read as attributes too (``result.b`` for McNemar's test).

    Parameters
    ----------
    statistic : float
        The test statistic.
    pvalue : float
        The two-sided p-value.
    method : str
        The test and variant (``'exact binomial'``, ``'chi2 corrected'``, ``'bowker'``, ...).
    df : float, optional
        Degrees of freedom of a chi-squared statistic (None for an exact test).
    table : ndarray, optional
        The table the test was computed from.
    references : tuple of str, default ()
        The sources of the method.
    details : dict, optional
        Further values of the test.

    Examples
    --------
    >>> r = mcnemar([0, 1, 1, 0, 1, 1, 0, 1], [0, 1, 1, 0, 1, 1, 1, 0],
    ...             [1, 0, 1, 1, 1, 0, 1, 0])
    >>> r.method, r.pvalue, r.b, r.c
    ('exact binomial', 0.125, 4, 0)
    """

    __test__ = False  # a result, not a test class: pytest must not collect it

    statistic: float
    pvalue: float
    method: str
    df: float | None = None
    table: np.ndarray | None = None
    references: tuple[str, ...] = ()
    details: dict[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        details = object.__getattribute__(self, "details")
        if name in details:
            return details[name]
        raise AttributeError(name)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form.

        Returns
        -------
        dict
            The fields (arrays as lists) and the entries of ``details``.
        """

        def plain(v: Any) -> Any:
            return v.tolist() if isinstance(v, np.ndarray) else v

        out = {"method": self.method, "statistic": self.statistic, "pvalue": self.pvalue,
               "df": self.df, "table": plain(self.table), "references": list(self.references)}
        out.update({k: plain(v) for k, v in self.details.items()})
        return out


def mcnemar(
    y_true: Any, pred_a: Any, pred_b: Any, *, exact: bool | None = None, correction: bool = True
) -> TestResult:
    r"""McNemar's test: do two classifiers have the same error rate on the same samples?

    With ``b`` = samples model A gets right and B wrong and ``c`` = the reverse, under the null
    ``b ~ Binomial(b + c, 1/2)``.

    Parameters
    ----------
    y_true, pred_a, pred_b : array-like of shape (n,)
    exact : bool or None
        ``True``: exact two-sided binomial p-value :math:`\min(1, 2 F(\min(b, c); b + c, 1/2))`
        (statistic ``min(b, c)``). ``False``: :math:`\chi^2_1` statistic
        :math:`(|b - c| - 1)^2 / (b + c)` (without the ``- 1`` if ``correction=False``);
        when ``b = c`` the correction is not applied, so the statistic is 0 and the p-value
        1, as R's ``mcnemar.test`` (statsmodels' ``mcnemar`` applies it and reports
        :math:`1 / (b + c)`); ``b = c = 0`` gives statistic 0 and p-value 1.
        ``None`` (default): exact when ``b + c < 25``, the usual rule of thumb, chi-squared
        otherwise.
    correction : bool
        Edwards' continuity correction for the chi-squared version.

    Returns
    -------
    TestResult
        ``statistic``, ``pvalue``, ``method`` ('exact binomial' or 'chi2' / 'chi2 corrected'),
        ``table`` = [[both right, A right B wrong], [A wrong B right, both wrong]], and
        ``b``, ``c``, ``n_discordant``.

    Raises
    ------
    TypeError
        If ``exact`` or ``correction`` is not a bool (``exact`` may be None).
    ValueError
        Empty or invalid labels, or predictions of another length than ``y_true``.

    References
    ----------
    McNemar (1947); Edwards (1948); Dietterich (1998) recommends it for comparing classifiers.

    Examples
    --------
    >>> r = mcnemar([0, 1, 1, 0, 1, 1, 0, 1], [0, 1, 1, 0, 1, 1, 1, 0],
    ...             [1, 0, 1, 1, 1, 0, 1, 0])
    >>> r.table.tolist(), r.pvalue  # 2 * P(Binomial(4, 1/2) <= 0)
    ([[2, 4], [0, 2]], 0.125)
    """
    if exact is not None and not isinstance(exact, bool | np.bool_):
        raise TypeError(f"exact must be True, False or None, got {exact!r}")
    check_flag(correction, "correction")
    t, (a, b_), _, _ = encode_many(y_true, [pred_a, pred_b], ["pred_a", "pred_b"])
    if t.size == 0:
        raise ValueError("y_true is empty; at least one sample is needed")
    ra, rb = a == t, b_ == t
    table = np.array([[np.sum(ra & rb), np.sum(ra & ~rb)], [np.sum(~ra & rb), np.sum(~ra & ~rb)]],
                     dtype=np.int64)
    b, c = int(table[0, 1]), int(table[1, 0])
    return _mcnemar_counts(b, c, table, exact, bool(correction))


def _mcnemar_counts(b: int, c: int, table: np.ndarray, exact: bool | None, correction: bool
                    ) -> TestResult:
    st = scipy_stats()
    nd = b + c
    if exact is None:
        exact = nd < 25
    if exact:
        stat = float(min(b, c))
        p = 1.0 if nd == 0 else float(min(1.0, 2.0 * st.binom.cdf(min(b, c), nd, 0.5)))
        method = "exact binomial"
    else:
        if nd == 0:
            stat, p = 0.0, 1.0
        else:
            diff = abs(b - c) - (1.0 if correction else 0.0)
            stat = float(max(diff, 0.0) ** 2 / nd)
            p = float(st.chi2.sf(stat, 1))
        method = "chi2 corrected" if correction else "chi2"
    return TestResult(stat, p, method, None if exact else 1.0, table,
                      (REF_MCNEMAR, REF_EDWARDS, REF_DIETTERICH),
                      {"b": b, "c": c, "n_discordant": nd, "exact": bool(exact)})


def _square(table: Any) -> np.ndarray:
    from ..matrix import ConfusionMatrix
    from ..matrix.tables import check_table

    if isinstance(table, ConfusionMatrix):
        arr = table.counts
    else:
        arr = check_table(table, "table")
    if arr.shape[0] < 2:
        raise ValueError(f"table must have at least two classes, got a {arr.shape[0]} x "
                         f"{arr.shape[0]} table")
    return arr.astype(np.float64)


def stuart_maxwell(table: Any) -> TestResult:
    r"""Stuart--Maxwell test of marginal homogeneity of a K x K table of paired labels.

    Rows are the labels given by one rater (or model, or the truth) and columns by the other.
    With :math:`d_i = n_{i\cdot} - n_{\cdot i}` and :math:`V_{ii} = n_{i\cdot} + n_{\cdot i} -
    2 n_{ii}`, :math:`V_{ij} = -(n_{ij} + n_{ji})`, the statistic :math:`d^\top V^{-} d` is
    :math:`\chi^2` with ``rank(V)`` (normally K - 1) degrees of freedom.

    ``V`` is the Laplacian of the graph whose edges join the classes confused with each other
    (weights :math:`n_{ij} + n_{ji}`), so its rank is K minus the number of connected
    components of that graph, found exactly rather than from rounded singular values. ``d``
    sums to zero over each component, and the statistic is the sum over components of the
    ordinary Stuart--Maxwell statistic, each solved with one class left out (as Stuart 1955
    does for the whole table): a class never confused with another drops out, and a table of
    classes confused only within separate groups is tested group by group. Solving each
    component's system directly keeps the accuracy of statsmodels' ``homogeneity`` on
    ill-conditioned tables (counts 1 beside 1e12), where a pseudo-inverse loses digits.

    Build the table with ``ConfusionMatrix.from_predictions(pred_a, pred_b)``; on a
    ``(y_true, y_pred)`` matrix the test asks whether the predicted class distribution matches
    the true one.

    Parameters
    ----------
    table : array-like of shape (K, K) or ConfusionMatrix
        Counts of paired labels, K >= 2.

    Returns
    -------
    TestResult
        ``statistic``, ``pvalue``, ``df`` (the rank of V), ``table``.

    Raises
    ------
    TypeError
        If the table does not hold numbers.
    ValueError
        If the table is not square, has fewer than two classes, or holds negative or
        non-finite counts.

    Examples
    --------
    >>> r = stuart_maxwell([[20, 5, 2], [3, 30, 4], [6, 1, 25]])
    >>> round(r.statistic, 6), r.df
    (0.25, 2.0)
    """
    from scipy.sparse.csgraph import connected_components

    c = _square(table)
    d = c.sum(axis=1) - c.sum(axis=0)
    v = -(c + c.T)
    np.fill_diagonal(v, 0.0)
    n_groups, group = connected_components(v < 0, directed=False)
    np.fill_diagonal(v, -v.sum(axis=1))  # = n_i. + n_.i - 2 n_ii, without cancellation
    stat, rank = 0.0, 0
    for g in range(n_groups):
        keep = np.flatnonzero(group == g)[:-1]  # one class of each component left out
        if keep.size:
            stat += float(d[keep] @ np.linalg.solve(v[np.ix_(keep, keep)], d[keep]))
            rank += keep.size
    p = float(scipy_stats().chi2.sf(stat, rank)) if rank else 1.0
    return TestResult(stat, p, "stuart_maxwell", float(rank), c, (REF_STUART,))


def bowker(table: Any) -> TestResult:
    r"""Bowker's test of symmetry :math:`n_{ij} = n_{ji}` of a K x K table of paired labels.

    :math:`\sum_{i<j} (n_{ij} - n_{ji})^2 / (n_{ij} + n_{ji})` over pairs with
    :math:`n_{ij} + n_{ji} > 0`, :math:`\chi^2` with K(K - 1)/2 degrees of freedom (as in
    Bowker 1948 and statsmodels). For K = 2 it is McNemar's statistic without continuity
    correction.

    Parameters
    ----------
    table : array-like of shape (K, K) or ConfusionMatrix
        Counts of paired labels, K >= 2.

    Returns
    -------
    TestResult
        ``statistic``, ``pvalue``, ``df``, ``table``.

    Raises
    ------
    TypeError
        If the table does not hold numbers.
    ValueError
        If the table is not square, has fewer than two classes, or holds negative or
        non-finite counts.

    Examples
    --------
    >>> r = bowker([[20, 5, 2], [3, 30, 4], [6, 1, 25]])
    >>> round(r.statistic, 6), r.df  # 2**2/8 + 4**2/8 + 3**2/5
    (4.3, 3.0)
    """
    c = _square(table)
    iu = np.triu_indices(c.shape[0], 1)
    up, lo = c[iu], c.T[iu]
    s = up + lo
    with np.errstate(invalid="ignore", divide="ignore"):
        stat = float(np.where(s > 0, (up - lo) ** 2 / np.where(s > 0, s, 1.0), 0.0).sum())
    df = c.shape[0] * (c.shape[0] - 1) / 2.0
    return TestResult(stat, float(scipy_stats().chi2.sf(stat, df)), "bowker", df, c,
                      (REF_BOWKER,))


# ---------------------------------------------------------------------------------------------
def holm(pvalues: Any) -> np.ndarray:
    r"""Holm's step-down adjusted p-values: sort ascending, :math:`\tilde p_{(i)} =
    \max_{j \le i} \min(1, (m - j + 1) p_{(j)})` (Holm 1979); NaN p-values stay NaN, uncounted.

    NaN marks a test that could not be computed: it is left out of the family (``m`` counts
    the other tests), where statsmodels' ``multipletests`` would count it. An array of any
    shape is one family.

    Parameters
    ----------
    pvalues : array-like of float
        The p-values of the tests, in [0, 1] or NaN.

    Returns
    -------
    ndarray of float64
        The adjusted p-values, in the order (and shape) of ``pvalues``.

    Raises
    ------
    TypeError
        If ``pvalues`` does not hold numbers (booleans and None are refused).
    ValueError
        If a p-value lies outside [0, 1].

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03, float("nan")]).round(6).tolist()
    [0.03, 0.06, 0.06, nan]
    """
    p = check_numbers(pvalues, "pvalues")
    with np.errstate(invalid="ignore"):
        outside = (p < 0.0) | (p > 1.0)
    if outside.any():
        raise ValueError(f"pvalues must lie in [0, 1] (or be NaN), found "
                         f"{float(p[outside].flat[0])!r}")
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    m = q.size
    if m == 0:
        return out
    order = np.argsort(q, kind="mergesort")
    adj = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * q[order]))
    res = np.empty(m)
    res[order] = adj
    out[ok] = res
    return out


@dataclass(frozen=True)
class PairedResult:
    """Paired bootstrap comparison of one metric between two models.

    Returned by :func:`paired_bootstrap`. Per-class metrics with ``average=None`` hold arrays
    (one value per class) where the fields say float.

    Parameters
    ----------
    metric : str
        The metric's canonical name.
    estimate_a, estimate_b : float or ndarray
        The metric of each model on the samples.
    difference : float or ndarray
        ``estimate_a - estimate_b``.
    low, high : float or ndarray
        Percentile interval of the difference.
    pvalue : float or ndarray
        Two-sided p-value of "equal metric".
    level : float
        Confidence level of the interval.
    n_resamples : int
        Number of resamples.
    method : str, default 'paired bootstrap'
        The method.
    references : tuple of str
        Efron and Tibshirani (1993); Hall and Wilson (1991).

    Examples
    --------
    >>> r = paired_bootstrap([0, 1, 1, 0, 1, 1, 0, 1], [0, 1, 1, 0, 1, 1, 1, 0],
    ...                      [1, 0, 1, 1, 1, 0, 1, 0], n_resamples=1000, random_state=0)
    >>> r.estimate_a, r.estimate_b, r.difference
    (0.75, 0.25, 0.5)
    """

    metric: str
    estimate_a: Any
    estimate_b: Any
    difference: Any
    low: Any
    high: Any
    pvalue: Any
    level: float
    n_resamples: int
    method: str = "paired bootstrap"
    references: tuple[str, ...] = (REF_EFRON, REF_HALL_WILSON)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form.

        Returns
        -------
        dict
        """

        def plain(v: Any) -> Any:
            return v.tolist() if isinstance(v, np.ndarray) else v

        return {k: plain(getattr(self, k)) for k in (
            "metric", "estimate_a", "estimate_b", "difference", "low", "high", "pvalue",
            "level", "n_resamples", "method")} | {"references": list(self.references)}


def _bootstrap_p(diffs: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """Two-sided p-value of 'no difference' from the resampled differences, centred on the
    observed one (Hall and Wilson 1991): ``(1 + #{|d* - d| >= |d|}) / (1 + B)``."""
    valid = ~np.isnan(diffs)
    dev = np.abs(diffs - observed) >= np.abs(observed) - 1e-12 * np.maximum(1, np.abs(observed))
    count = (dev & valid).sum(axis=0)
    nb = valid.sum(axis=0)
    return (1.0 + count) / (1.0 + nb)


def paired_bootstrap(
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    metric: str = "accuracy",
    *,
    level: float = 0.95,
    average: str | None = None,
    n_resamples: int = DEFAULT_RESAMPLES,
    random_state: Any = None,
    labels: Any = None,
    pos_label: Any = None,
    **params: Any,
) -> PairedResult:
    r"""Paired bootstrap test of ``metric(A) - metric(B)`` on the same samples.

    For a registry metric ``pred_a``/``pred_b`` are predicted labels and the ``(true, A, B)``
    joint table is resampled from ``Multinomial(N, joint / N)`` (identical in distribution to
    resampling samples, at the cost of ``K^3`` cells instead of ``N`` samples). For
    ``metric='roc_auc'`` or ``'average_precision'`` they are scores and samples are resampled
    (the same multiplicities for both models); multiclass scores ``(n, K)`` are averaged
    one-vs-rest (``average`` 'macro', the default, or 'weighted'; ``labels`` orders the columns).

    Returns the difference, its percentile interval, and the two-sided p-value of the null
    'equal metric', from the resampled differences centred on the observed one (Hall and Wilson
    1991): :math:`(1 + \#\{|\Delta^* - \hat\Delta| \ge |\hat\Delta|\}) / (1 + B)`. Per-class
    metrics with ``average=None`` give per-class arrays.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    pred_a, pred_b : array-like of shape (n,) or (n, K)
        Predicted labels of each model (registry metrics), or scores (``'roc_auc'``,
        ``'average_precision'``).
    metric : str, default 'accuracy'
        A registry metric, ``'roc_auc'`` or ``'average_precision'``.
    level : float, default 0.95
        Confidence level of the interval.
    average : {'macro', 'micro', 'weighted'}, optional
        Averaging of a per-class metric (None: per-class arrays); for multiclass scores
        ``'macro'`` (the default) or ``'weighted'``.
    n_resamples : int, default 9999
        Number of resamples (at least 100, and enough for both tails of ``level``).
    random_state : None, int or numpy.random.Generator
        Seed of the resampling.
    labels : array-like, optional
        Fixed classes (labels), or the column order of 2-D scores.
    pos_label : label, optional
        Registry metrics: the one class of a per-class metric with ``average=None``; scores:
        the positive class.
    **params
        Parameters of the metric (e.g. ``beta`` of ``fbeta``).

    Returns
    -------
    PairedResult

    Raises
    ------
    TypeError, ValueError
        Invalid ``level``, ``n_resamples``, ``random_state``, labels, scores or metric;
        ``pos_label`` with a metric that is not per-class or with ``average``, or not one of
        the labels.

    Examples
    --------
    >>> r = paired_bootstrap([0, 1, 1, 0, 1, 1, 0, 1], [0, 1, 1, 0, 1, 1, 1, 0],
    ...                      [1, 0, 1, 1, 1, 0, 1, 0], n_resamples=1000, random_state=0)
    >>> r.difference, r.low <= r.difference <= r.high, r.n_resamples
    (0.5, True, 1000)
    """
    level = check_level(level)
    n_used = check_n_resamples(n_resamples, level)
    rng = check_random_state(random_state)
    alpha = 1.0 - level
    score_name = score_metric_name(metric)
    if score_name is not None:
        est, boot = score_bootstrap(y_true, {"pred_a": pred_a, "pred_b": pred_b}, score_name,
                                    n_used, rng, pos_label, average=average or "macro",
                                    labels=labels)
        diffs = boot[:, 0] - boot[:, 1]
        obs = est[0] - est[1]
        q = nanquantile(diffs, [alpha / 2.0, 1.0 - alpha / 2.0])
        return PairedResult(score_name, float(est[0]), float(est[1]), float(obs), float(q[0]),
                            float(q[1]), float(_bootstrap_p(diffs, obs)), level, n_used)
    spec = get_metric(metric)
    t, (a, b), book, has_other = encode_many(y_true, [pred_a, pred_b], ["pred_a", "pred_b"],
                                             labels)
    k = len(book)
    m = k + 1 if has_other else k
    joint = np.bincount((t * m + a) * m + b, minlength=m**3).reshape(m, m, m)
    idx = None
    if pos_label is not None:
        if spec.kind != "per_class" or average is not None:
            raise ValueError("pos_label applies to per-class metrics with average=None")
        if pos_label not in book:
            raise ValueError(f"{arg_value('pos_label', pos_label, ' ')} is not one of the labels "
                             f"{book}")
        idx = book.index(pos_label)

    def both(stack: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ta, tb = stack.sum(axis=-1), stack.sum(axis=-2)
        va = evaluate(spec.name, Stats(ta, k=k, zero_division="nan"), average, warn=False,
                      **params)
        vb = evaluate(spec.name, Stats(tb, k=k, zero_division="nan"), average, warn=False,
                      **params)
        return np.asarray(va, np.float64), np.asarray(vb, np.float64)

    ea, eb = both(joint[None])
    ea, eb = ea[0], eb[0]
    parts = [both(stack) for stack in resample_tables(joint, n_used, rng)]
    va = np.concatenate([p[0] for p in parts])
    vb = np.concatenate([p[1] for p in parts])
    if idx is not None:
        ea, eb, va, vb = ea[idx], eb[idx], va[:, idx], vb[:, idx]
    diffs = va - vb
    obs = ea - eb
    q = nanquantile(diffs, [alpha / 2.0, 1.0 - alpha / 2.0])
    p = _bootstrap_p(diffs, obs)

    def out(v: Any) -> Any:
        v = np.asarray(v, dtype=np.float64)
        return float(v) if v.ndim == 0 else v

    return PairedResult(spec.name, out(ea), out(eb), out(obs), out(q[0]), out(q[1]), out(p),
                        level, n_used)

