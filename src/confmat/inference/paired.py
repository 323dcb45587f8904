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

from ..inputs.encode import as_1d, encode_pair
from ..metrics import Stats, evaluate, get_metric
from .common import (
    DEFAULT_RESAMPLES,
    check_level,
    check_n_resamples,
    check_random_state,
    scipy_stats,
)
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
    """Result of a test: ``statistic``, ``pvalue``, ``method``, and what it was computed from."""

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
        def plain(v: Any) -> Any:
            return v.tolist() if isinstance(v, np.ndarray) else v

        out = {"method": self.method, "statistic": self.statistic, "pvalue": self.pvalue,
               "df": self.df, "table": plain(self.table), "references": list(self.references)}
        out.update({k: plain(v) for k, v in self.details.items()})
        return out


def encode_many(y_true: Any, preds: list[Any], names: list[str], labels: Any = None
                ) -> tuple[np.ndarray, list[np.ndarray], list[Any], bool]:
    """Encode y_true and several prediction vectors with one code book."""
    t = as_1d(y_true, "y_true")
    arrs = []
    for name, p in zip(names, preds, strict=True):
        a = as_1d(p, name)
        if a.shape[0] != t.shape[0]:
            raise ValueError(
                f"{name} has {a.shape[0]} predictions but y_true has {t.shape[0]} samples"
            )
        arrs.append(a)
    m = len(arrs)
    try:
        big_t = np.concatenate([t] * m)
        big_p = np.concatenate(arrs)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"predictions could not be combined: {exc}") from exc
    tc, pc, book, has_other = encode_pair(big_t, big_p, labels)
    n = t.shape[0]
    return tc[:n], [pc[i * n:(i + 1) * n] for i in range(m)], book, has_other


# ---------------------------------------------------------------------------------------------
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
        :math:`(|b - c| - 1)^2 / (b + c)` (without the ``- 1`` if ``correction=False``).
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

    References
    ----------
    McNemar (1947); Edwards (1948); Dietterich (1998) recommends it for comparing classifiers.
    """
    if exact is not None and not isinstance(exact, bool | np.bool_):
        raise TypeError(f"exact must be True, False or None, got {exact!r}")
    if not isinstance(correction, bool | np.bool_):
        raise TypeError(f"correction must be True or False, got {correction!r}")
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

    if isinstance(table, ConfusionMatrix):
        return table.counts.astype(np.float64)
    arr = np.asarray(table)
    if arr.dtype.kind not in "iuf" or arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise ValueError(
            f"table must be a square K x K numeric table or a ConfusionMatrix, got shape "
            f"{arr.shape} and dtype {arr.dtype}"
        )
    if arr.shape[0] < 2:
        raise ValueError("table must have at least two classes")
    if (arr < 0).any() or not np.isfinite(arr).all():
        raise ValueError("table must hold finite, non-negative counts")
    return arr.astype(np.float64)


def stuart_maxwell(table: Any) -> TestResult:
    r"""Stuart--Maxwell test of marginal homogeneity of a K x K table of paired labels.

    Rows are the labels given by one rater (or model, or the truth) and columns by the other.
    With :math:`d_i = n_{i\cdot} - n_{\cdot i}` and :math:`V_{ii} = n_{i\cdot} + n_{\cdot i} -
    2 n_{ii}`, :math:`V_{ij} = -(n_{ij} + n_{ji})`, the statistic :math:`d^\top V^{-} d` is
    :math:`\chi^2` with ``rank(V)`` (normally K - 1) degrees of freedom. The generalised
    inverse makes classes that occur in neither margin drop out.

    Build the table with ``ConfusionMatrix.from_predictions(pred_a, pred_b)``; on a
    ``(y_true, y_pred)`` matrix the test asks whether the predicted class distribution matches
    the true one.
    """
    c = _square(table)
    d = c.sum(axis=1) - c.sum(axis=0)
    v = -(c + c.T)
    np.fill_diagonal(v, c.sum(axis=1) + c.sum(axis=0) - 2.0 * np.diag(c))
    rank = int(np.linalg.matrix_rank(v))
    if rank == 0:
        stat, p = 0.0, 1.0
    else:
        stat = float(d @ np.linalg.pinv(v) @ d)
        p = float(scipy_stats().chi2.sf(stat, rank))
    return TestResult(stat, p, "stuart_maxwell", float(rank), c, (REF_STUART,))


def bowker(table: Any) -> TestResult:
    r"""Bowker's test of symmetry :math:`n_{ij} = n_{ji}` of a K x K table of paired labels.

    :math:`\sum_{i<j} (n_{ij} - n_{ji})^2 / (n_{ij} + n_{ji})` over pairs with
    :math:`n_{ij} + n_{ji} > 0`, :math:`\chi^2` with K(K - 1)/2 degrees of freedom (as in
    Bowker 1948 and statsmodels). For K = 2 it is McNemar's statistic without continuity
    correction.
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
    \max_{j \le i} \min(1, (m - j + 1) p_{(j)})`. NaN p-values are kept as NaN and not counted."""
    p = np.asarray(pvalues, dtype=np.float64)
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
    """Paired bootstrap comparison of one metric between two models."""

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
            raise ValueError(f"pos_label {pos_label!r} is not one of the labels {book}")
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

