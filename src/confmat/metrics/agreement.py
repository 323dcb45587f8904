"""Agreement coefficients: chance-corrected accuracy in its many variants (Scott, Gwet,
Bennett, Krippendorff), kappa's standard error and interval, Bangdiwala's B and the adjusted
Rand index. Cohen's kappa itself lives in ``overall.py``."""

from __future__ import annotations

import numpy as np

from ..deps import numba_kernels
from . import references as R
from .common import (
    INF,
    Z_95,
    chance_terms,
    check_z,
    declare,
    memo,
    undefined,
    where_defined,
)
from .exact import CANCEL, exact_difference, exact_ratios, largest
from .one_vs_rest import one_vs_rest
from .stats import Stats


def _agree(name, full, formula, meaning, **kw):
    kw.setdefault("rng", (-1.0, 1.0))
    return declare(name, "overall", full, "agreement", formula, meaning, **kw)


def _f(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


def _acc(s: Stats) -> np.ndarray:
    return memo(s, "accuracy", lambda: s.div(s.correct, s.n, "accuracy"))


def _racc(s: Stats) -> np.ndarray:
    def compute():
        n = _f(s.n)
        return s.div((_f(s.rows) * s.cols).sum(-1), n * n, "random accuracy")

    return memo(s, "random accuracy", compute)


def _raccu(s: Stats) -> np.ndarray:
    n = _f(s.n)
    share = s.div(_f(s.rows) + s.cols, 2.0 * n[..., None], "random accuracy")
    return (share**2).sum(-1)


def _chance_corrected(s: Stats, observed, chance, what: str) -> np.ndarray:
    return s.div(observed - chance, 1.0 - chance, what)


def _kappa(s: Stats) -> np.ndarray:
    """Unweighted Cohen's kappa from the marginals only (O(K), no K x K expected table)."""
    def compute():
        cov, chance, _, _ = chance_terms(s)
        return where_defined(cov, chance,
                             lambda: _chance_corrected(s, _acc(s), _racc(s), "kappa"))

    return memo(s, "kappa", compute)


# The chance-corrected coefficients below are ratios of polynomials in the counts whose
# numerators cancel near chance level; each is formed as ``(pos - neg) / den`` in exact
# arithmetic (``exact_difference``), ``t``, ``p`` the row and column sums and ``c`` the trace.
# Where a denominator vanishes, the coefficient composed of its parts gives the zero-division
# value, as it always did.
def _exact_ratio(s: Stats, build, bound_factor: int, composed) -> np.ndarray:
    n = np.asarray(s.n)
    num, den = exact_difference(build, (n, s.correct, s.rows, s.cols),
                                bound_factor * largest(n) ** 2)
    return where_defined(num, den, composed)


def _with_unit(s: Stats) -> tuple[np.ndarray, ...]:
    """``(n, counts, rows, cols, one)`` for the polynomials of the adjusted Rand index,
    which hold the constant 1 beside the counts (pairs ``t (t - 1)``).

    Weighted counts beyond ``2**Stats.SAFE`` are scaled down by the power of two of
    :attr:`Stats.rescaled`, and the constant with them (``one = 2**e``): the polynomials,
    homogeneous in the counts and ``one``, keep their ratio, and products of four counts stay
    within float64. Integer counts come back as they are, with ``one = 1``.
    """
    n = np.asarray(s.n)
    pair = s.rescaled
    if pair is None:
        return n, s.counts, s.rows, s.cols, np.ones_like(n)
    f = np.ldexp(1.0, np.minimum(pair[1], 0))
    return n * f, s.counts * f[..., None, None], s.rows * f[..., None], s.cols * f[..., None], f


def _pooled(n, c, t, p):
    return t + p, 2 * n[..., None]


# Weighted tables (float cells): the margins are rounded sums, so ``2N - s_k`` (the pooled
# weight outside class k) loses a class lighter than 1e-16 of N when formed as a difference,
# and the numerators cancel near chance level and, when the weights of one table span more
# than 2**53, near perfect agreement too. The complements are summed from the cells instead
# (``one_vs_rest``), every other term is a sum of like-signed parts or is checked for
# cancellation, and the tables whose float64 evaluation cancelled are formed again in exact
# rationals (every float weight is a binary fraction).
def _outside(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``N - t_k`` and ``N - p_k`` summed from the cells (None for negative or non-finite
    weights, which keep the composed formulas)."""
    try:
        fn, fp, tn = one_vs_rest(counts, counts.shape[-1])
    except ValueError:
        return None
    return fp + tn, fn + tn


def _cancelled(result: np.ndarray, *parts: np.ndarray) -> np.ndarray:
    """Where ``result`` (a sum of ``parts``) kept fewer than three digits, or is not finite."""
    scale = sum(np.abs(p) for p in parts)
    with np.errstate(invalid="ignore"):
        return ~(np.isfinite(result) & (np.abs(result) >= CANCEL * scale))


def _exact_margins(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(N, c, t, p)`` of a table of Python-int cells, as the polynomials take them."""
    trace = sum((cells[i, i] for i in range(cells.shape[0])), 0)
    return (np.array(cells.sum(), dtype=object), np.array(trace, dtype=object),
            cells.sum(axis=1), cells.sum(axis=0))


def _redo_exactly(counts: np.ndarray, num: np.ndarray, den: np.ndarray, shaky: np.ndarray,
                  terms) -> tuple[np.ndarray, np.ndarray]:
    """``num``, ``den`` with the ``shaky`` tables replaced by their exact ratio over 1 (over
    0 where the exact denominator is 0, so the zero-division policy applies); ``terms`` as
    :func:`~confmat.metrics.exact.exact_ratios` takes it."""
    if not shaky.any():
        return num, den
    idx = np.flatnonzero(shaky)
    k = counts.shape[-1]
    ratio, defined = exact_ratios(counts.reshape(-1, k, k)[idx], terms)
    num, den = np.array(num, np.float64), np.array(den, np.float64)
    num.reshape(-1)[idx] = ratio
    den.reshape(-1)[idx] = defined
    return num, den


@_agree("overall_random_accuracy", "overall random accuracy", "RACC = sum_i TOP_i P_i / N^2",
        "Accuracy expected if predictions were drawn independently of the truth with the same "
        "class frequencies; the chance term of Cohen's kappa.", pycm="Overall RACC",
        rng=(0.0, 1.0), hib=None, refs=(R.PYCM,),
        prefer="Seeing how much of the accuracy the marginals alone explain.",
        avoid="Judging a model: it describes the class frequencies, not the model's skill.")
def overall_random_accuracy(s: Stats) -> np.ndarray:
    return _racc(s)


@_agree("overall_random_accuracy_unbiased", "overall unbiased random accuracy",
        "RACCU = sum_i ((TOP_i + P_i) / (2 N))^2",
        "Chance accuracy when truth and prediction are assumed to share one pooled class "
        "distribution; the chance term of Scott's pi.", pycm="Overall RACCU", rng=(0.0, 1.0),
        hib=None, refs=(R.PYCM, R.SCOTT),
        prefer="Understanding Scott's pi and Krippendorff's alpha.",
        avoid="Judging a model on its own.")
def overall_random_accuracy_unbiased(s: Stats) -> np.ndarray:
    return _raccu(s)


@_agree("scott_pi", "Scott's pi (unbiased kappa)", "pi = (ACC - RACCU) / (1 - RACCU)",
        "Agreement beyond chance, with chance computed from the pooled distribution of truth "
        "and prediction, so a model is not rewarded for predicting different frequencies than "
        "the truth.", pycm="Kappa Unbiased", aliases=("kappa_unbiased", "scotts_pi", "pi"),
        refs=(R.SCOTT, R.PYCM),
        prefer="Comparing with content-analysis literature, or when prediction and truth "
               "should have the same class distribution.",
        avoid="Heavily imbalanced data: like kappa it drops as the pooled distribution gets "
              "skewed.",
        notes="PyCM reports it twice, as 'Kappa Unbiased' and 'Scott PI'.")
def scott_pi(s: Stats) -> np.ndarray:
    def build(n, c, t, p):  # (4 N c - sum s^2) / sum s (2N - s), s = t + p
        pooled, twice = _pooled(n, c, t, p)
        return 4 * n * c, (pooled * pooled).sum(-1), (pooled * (twice - pooled)).sum(-1)

    def composed():
        return _chance_corrected(s, _acc(s), _raccu(s), "scott_pi")

    counts = np.asarray(s.counts)
    outside = _outside(counts) if counts.dtype.kind == "f" else None
    if outside is None:
        return _exact_ratio(s, build, 4, composed)
    pooled = _f(s.rows) + s.cols
    pos, neg = 4.0 * _f(s.n) * s.correct, (pooled * pooled).sum(-1)
    num, den = _redo_exactly(counts, pos - neg, (pooled * (outside[0] + outside[1])).sum(-1),
                             _cancelled(pos - neg, pos, neg),
                             lambda cells, one: build(*_exact_margins(cells)))
    return where_defined(num, den, composed)


@_agree("kappa_no_prevalence", "prevalence- and bias-adjusted kappa (PABAK)",
        "PABAK = 2 ACC - 1",
        "Kappa recomputed as if both marginals were uniform over two categories: a linear "
        "rescaling of accuracy to [-1, 1].", pycm="Kappa No Prevalence",
        aliases=("pabak",), refs=(R.BYRT,),
        prefer="Reporting next to kappa to show how much prevalence lowers kappa (Yao et al. "
               "2022 note that kappa drops on imbalanced data).",
        avoid="Multi-class problems: 2 ACC - 1 is the two-category formula (PyCM uses it for "
              "any K; Bennett's S is the K-class generalisation).")
def kappa_no_prevalence(s: Stats) -> np.ndarray:
    # (c - (N - c)) / N: exact, where 2 ACC - 1 cancels near ACC = 1/2
    return where_defined(s.correct - (s.n - s.correct), s.n, lambda: 2.0 * _acc(s) - 1.0)


@_agree("gwet_ac1", "Gwet's AC1", "AC1 = (ACC - pe) / (1 - pe), "
        "pe = sum_i pi_i (1 - pi_i) / (K - 1), pi_i = (TOP_i + P_i) / (2 N)",
        "Agreement beyond chance with a chance term that stays small when one class dominates, "
        "so it does not collapse on imbalanced data as kappa does.", pycm="Gwet AC1",
        aliases=("ac1",), refs=(R.GWET,),
        prefer="High agreement on imbalanced data (the 'kappa paradox').",
        avoid="Comparing with studies that report kappa: the numbers are not interchangeable.")
def gwet_ac1(s: Stats) -> np.ndarray:
    k = s.counts.shape[-1]

    def composed():
        pi = s.div(_f(s.rows) + s.cols, 2.0 * _f(s.n)[..., None], "gwet_ac1")
        pe = s.div((pi * (1.0 - pi)).sum(-1), k - 1.0, "gwet_ac1")
        return _chance_corrected(s, _acc(s), pe, "gwet_ac1")

    if k < 2:
        return composed()

    def build(n, c, t, p):  # (4 (K-1) N c - x) / (4 (K-1) N^2 - x), x = sum s (2N - s)
        pooled, twice = _pooled(n, c, t, p)
        x = (pooled * (twice - pooled)).sum(-1)
        return 4 * (k - 1) * n * c, x, 4 * (k - 1) * n * n - x

    return _exact_ratio(s, build, 4 * (k - 1), composed)


@_agree("bennett_s", "Bennett, Alpert and Goldstein's S", "S = (ACC - 1/K) / (1 - 1/K)",
        "Accuracy corrected for the chance of guessing uniformly among K classes.",
        pycm="Bennett S", aliases=("bennett_s_score", "s_score"), refs=(R.BENNETT,),
        prefer="When every class is a priori equally likely to be chosen by chance.",
        avoid="Imbalanced data: uniform guessing is a weak baseline, so S flatters the model.")
def bennett_s(s: Stats) -> np.ndarray:
    k = s.counts.shape[-1]
    n = np.asarray(s.n)
    num, den = exact_difference(lambda n, c: (k * c, n, (k - 1) * n), (n, s.correct),
                                k * largest(n))
    return where_defined(num, den, lambda: _chance_corrected(s, _acc(s), np.asarray(1.0 / k),
                                                             "bennett_s"))


@_agree("kappa_se", "standard error of Cohen's kappa",
        "SE = sqrt(ACC (1 - ACC) / (N (1 - RACC)^2))",
        "Large-sample standard error of kappa, treating accuracy as a binomial proportion.",
        pycm="Kappa Standard Error", aliases=("kappa_standard_error",), rng=(0.0, float("inf")),
        hib=False, refs=(R.FLEISS_SE, R.PYCM),
        prefer="A quick interval for kappa on a reasonably large sample.",
        avoid="Small samples or kappa near +-1: use a bootstrap interval (confmat.inference).",
        notes="This is PyCM's simple formula, not the full Fleiss-Cohen-Everitt variance.",
        scale_degree=-0.5)
def kappa_se(s: Stats) -> np.ndarray:
    def compute():
        # 1 - ACC = (N - C) / N and 1 - RACC = chance / N^2 (chance_terms), both formed from
        # the counts: a table whose chance agreement rounds to 1 (a class of 2**62 - 3 beside
        # three counts of 1) gave NaN
        n = _f(s.n)
        acc = _acc(s)
        err = s.div(s.errors, s.n, "kappa_se")
        disagree = s.div(s.div(chance_terms(s)[1], n, "kappa_se"), n, "kappa_se")
        return np.sqrt(s.div(acc * err, n * disagree**2, "kappa_se"))

    return memo(s, "kappa_se", compute)


_CI_NOTE = ("PyCM's 'Kappa 95% CI' is the pair (kappa_ci_lower, kappa_ci_upper) with z = 1.96.")


@_agree("kappa_ci_lower", "lower bound of kappa's normal-approximation interval",
        "kappa - z SE", "Lower end of kappa +- z standard errors (95 % for z = 1.96).",
        params={"z": Z_95}, check=check_z, refs=(R.FLEISS_SE, R.PYCM), rng=(-INF, 1.0),
        prefer="Reporting kappa with its uncertainty on a large sample.",
        avoid="Small samples: the normal approximation can leave [-1, 1].", notes=_CI_NOTE,
        scale_degree=None)
def kappa_ci_lower(s: Stats, z: float = Z_95) -> np.ndarray:
    """Lower bound of kappa's normal-approximation interval, ``kappa - z SE``.

    ``SE`` is :func:`kappa_se` (Fleiss, Cohen and Everitt 1969, in PyCM's simple form).

    Parameters
    ----------
    s : Stats
        Statistics of one confusion table or of a batch of tables.
    z : float, default 1.96
        Number of standard errors below kappa; 1.96 gives PyCM's 95 % interval. Checked to
        be a positive finite number when the metric is called by name (``evaluate``,
        ``ConfusionMatrix.metric``).

    Returns
    -------
    numpy.ndarray
        Float64 values, one per table (0-d for one table).
    """
    return s.homogeneous(_kappa, 0) - z * s.homogeneous(kappa_se, -0.5)


@_agree("kappa_ci_upper", "upper bound of kappa's normal-approximation interval",
        "kappa + z SE", "Upper end of kappa +- z standard errors (95 % for z = 1.96).",
        params={"z": Z_95}, check=check_z, refs=(R.FLEISS_SE, R.PYCM), rng=(-1.0, INF),
        prefer="Reporting kappa with its uncertainty on a large sample.",
        avoid="Small samples: the normal approximation can leave [-1, 1].", notes=_CI_NOTE,
        scale_degree=None)
def kappa_ci_upper(s: Stats, z: float = Z_95) -> np.ndarray:
    """Upper bound of kappa's normal-approximation interval, ``kappa + z SE``.

    ``SE`` is :func:`kappa_se` (Fleiss, Cohen and Everitt 1969, in PyCM's simple form).

    Parameters
    ----------
    s : Stats
        Statistics of one confusion table or of a batch of tables.
    z : float, default 1.96
        Number of standard errors above kappa; 1.96 gives PyCM's 95 % interval. Checked to
        be a positive finite number when the metric is called by name (``evaluate``,
        ``ConfusionMatrix.metric``).

    Returns
    -------
    numpy.ndarray
        Float64 values, one per table (0-d for one table).
    """
    return s.homogeneous(_kappa, 0) + z * s.homogeneous(kappa_se, -0.5)


@_agree("krippendorff_alpha", "Krippendorff's alpha (nominal, two coders)",
        "alpha = (pa - RACCU) / (1 - RACCU), pa = (1 - 1/(2N)) ACC + 1/(2N)",
        "Scott's pi with a small-sample correction of the observed agreement; the reliability "
        "coefficient of content analysis.", pycm="Krippendorff Alpha",
        aliases=("alpha", "kripp_alpha"), refs=(R.KRIPPENDORFF, R.PYCM),
        prefer="Reliability studies that follow Krippendorff's conventions (alpha >= 0.8 "
               "reliable, >= 0.667 tentative).",
        avoid="Judging a classifier against ground truth: alpha treats both as fallible coders.",
        scale_degree=None)
def krippendorff_alpha(s: Stats) -> np.ndarray:
    def composed():
        eps = s.div(1.0, 2.0 * _f(s.n), "krippendorff_alpha")
        pa = (1.0 - eps) * _acc(s) + eps
        return _chance_corrected(s, pa, _raccu(s), "krippendorff_alpha")

    def build(n, c, t, p, one=1):  # (2 (2N - 1) c + 2N - sum s^2) / sum s (2N - s)
        pooled, twice = _pooled(n, c, t, p)
        return (2 * (2 * n - one) * c + 2 * n * one, (pooled * pooled).sum(-1),
                (pooled * (twice - pooled)).sum(-1))

    counts = np.asarray(s.counts)
    outside = _outside(counts) if counts.dtype.kind == "f" else None
    if outside is None:
        return _exact_ratio(s, build, 4, composed)
    # weighted counts: the polynomials mix degrees (the 1 of 2N - 1), so no power of two keeps
    # their products in float64 for weights near 1e300 or 1e-300; divided by N**2 every term
    # is a share (s_k / N <= 2) or 1 / N
    n = _f(s.n)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        share = (_f(s.rows) + s.cols) / n[..., None]
        # 2 (2 - 1/N) c/N + 2/N as three terms: below N = 1 the two in 1/N cancel too
        # ([[9.5e-7, 7.1e-15], [0, 0]] kept 8 digits when it was checked as one)
        accuracy = s.correct / n
        parts = (4.0 * accuracy, -2.0 * accuracy / n, 2.0 / n)
        neg = (share * share).sum(-1)
        num = parts[0] + parts[1] + parts[2] - neg
        den = (share * ((outside[0] + outside[1]) / n[..., None])).sum(-1)
    num, den = _redo_exactly(counts, num, den, _cancelled(num, *parts, neg),
                             lambda cells, one: build(*_exact_margins(cells), one=one))
    return where_defined(num, den, composed)


@_agree("bangdiwala_b", "Bangdiwala's B", "B = sum_i C[i, i]^2 / sum_i TOP_i P_i",
        "Agreement read off the agreement chart: the area of the diagonal squares over the "
        "area of the rectangles made by the marginals.", pycm="Bangdiwala B",
        rng=(0.0, 1.0), refs=(R.BANGDIWALA,),
        prefer="Alongside an agreement chart, as a picture-backed agreement measure.",
        avoid="When chance agreement must be removed: B is not chance-corrected.")
def bangdiwala_b(s: Stats) -> np.ndarray:
    return s.div((_f(s.tp) ** 2).sum(-1), (_f(s.rows) * s.cols).sum(-1), "bangdiwala_b")


@_agree("ari", "adjusted Rand index", "ARI = (sum_ij C(n_ij, 2) - E) / ((sum_i C(P_i, 2) + "
        "sum_j C(TOP_j, 2)) / 2 - E), E = sum_i C(P_i, 2) sum_j C(TOP_j, 2) / C(N, 2)",
        "Agreement between the partition of samples by true class and by predicted class, "
        "counted over pairs of samples and corrected for chance; label names do not matter.",
        pycm="ARI", sklearn="sklearn.metrics.adjusted_rand_score",
        aliases=("adjusted_rand_index", "adjusted_rand_score"), refs=(R.HUBERT,),
        rng=(-0.5, 1.0),
        prefer="Clustering-style evaluation where predicted labels are arbitrary names.",
        avoid="Classification with meaningful labels: a model that swaps two classes "
              "consistently scores 1.",
        notes="Undefined (zero_division) when the denominator vanishes; scikit-learn returns "
              "1.0 for those degenerate partitions.",
        scale_degree=None)
def ari(s: Stats) -> np.ndarray:
    def build(n, counts, t, p, one):
        # with twice the pair counts S = sum C (C-1), A = sum t (t-1), B = sum p (p-1),
        # T = N (N-1): ARI = 2 (S T - A B) / (A (T - B) + B (T - A)), T - B = sum p (N - p)
        m = n[..., None]
        a = (t * (t - one[..., None])).sum(-1)
        b = (p * (p - one[..., None])).sum(-1)
        cells = (counts * (counts - one[..., None, None])).sum(axis=(-2, -1))
        return (cells * (n * (n - one)), a * b,
                a * (p * (m - p)).sum(-1) + b * (t * (m - t)).sum(-1))

    def exact(cells, one):
        total = np.array(cells.sum(), dtype=object)
        pos, neg, den = build(total, cells, cells.sum(axis=1), cells.sum(axis=0),
                              np.array(one, dtype=object))
        return 2 * pos, 2 * neg, den

    n, counts, rows, cols, one = _with_unit(s)
    outside = _outside(np.asarray(counts)) if np.asarray(counts).dtype.kind == "f" else None
    if outside is not None:
        return s.div(*_weighted_ari((n, counts, rows, cols, one), outside,
                                    np.asarray(s.counts), exact), "ari")
    num, den = exact_difference(build, (n, counts, rows, cols, one), 2 * largest(s.n) ** 4)
    return s.div(2.0 * num, den, "ari")  # den = 0 also covers N < 2


def _weighted_ari(scaled, outside, raw: np.ndarray, exact) -> tuple[np.ndarray, np.ndarray]:
    """Twice the numerator and the denominator of the adjusted Rand index of weighted tables
    from the ``scaled`` terms of :func:`_with_unit`, with ``N - p_k`` and ``N - t_k`` summed
    from the cells (``outside``); the tables where a difference cancelled, and those of total
    below 1 (where the 1 of ``t (t - 1)`` outweighs the counts and float64 keeps no digit of
    the index, nor any number below 1e-308), are formed again exactly from the ``raw``
    cells (the index is not scale-free: the 1 of ``t (t - 1)`` is a sample)."""
    n, counts, rows, cols, one = scaled
    u = one[..., None]
    with np.errstate(invalid="ignore", over="ignore", under="ignore"):
        a_parts, b_parts = rows * (rows - u), cols * (cols - u)
        a, b = a_parts.sum(-1), b_parts.sum(-1)
        c_parts = counts * (counts - u[..., None])
        cells = c_parts.sum(axis=(-2, -1))
        pos, neg = 2.0 * cells * (n * (n - one)), 2.0 * a * b
        x, y = a * (cols * outside[1]).sum(-1), b * (rows * outside[0]).sum(-1)
        num, den = pos - neg, x + y
        # the sums N, t_k, p_k are rounded: where one lies within CANCEL of 1, its t (t - 1)
        # keeps fewer than three digits
        near_one = (_cancelled(n - one, n) | _cancelled(rows - u, rows).any(-1)
                    | _cancelled(cols - u, cols).any(-1))
        shaky = (_cancelled(num, pos, neg) | _cancelled(den, x, y) | (np.asarray(n) < one)
                 | _cancelled(a, np.abs(a_parts).sum(-1)) | _cancelled(b, np.abs(b_parts).sum(-1))
                 | _cancelled(cells, np.abs(c_parts).sum(axis=(-2, -1))) | near_one)
    return _redo_exactly(raw, num, den, shaky, exact)


def _check_aickin(max_iter=200, epsilon=1e-4) -> None:
    if isinstance(max_iter, bool) or not isinstance(max_iter, int | np.integer) or max_iter < 1:
        raise ValueError(f"max_iter must be a positive integer, got {max_iter!r}")
    if isinstance(epsilon, bool) or not isinstance(epsilon, int | float) or not epsilon > 0:
        raise ValueError(f"epsilon must be a positive number, got {epsilon!r}")


@numba_kernels
def _aickin_kernel():
    """The iteration compiled (:mod:`confmat.metrics.aickin_kernels`), or None without numba
    or with ``CONFMAT_DISABLE_NUMBA`` set (see :mod:`confmat.deps`); the numpy loop of
    :func:`aickin_alpha` is its fallback."""
    from .aickin_kernels import aickin_alpha_stack

    return aickin_alpha_stack


@_agree("aickin_alpha", "Aickin's alpha",
        "alpha = (ACC - pe) / (1 - pe), pe = sum_i pA_i pB_i, with pA, pB re-estimated from "
        "the marginals given alpha until alpha changes by less than epsilon",
        "Agreement beyond chance under a model where a share alpha of the samples is "
        "classified with certainty and the rest at random; the chance term is estimated only "
        "from the uncertain share, so it is less pessimistic than kappa.",
        params={"max_iter": 200, "epsilon": 1e-4}, check=_check_aickin,
        aliases=("aickin",),
        refs=("Aickin, M. (1990), Maximum likelihood estimation of agreement in the constant "
              "predictive probability model, and its relation to Cohen's kappa, Biometrics "
              "46(2).", R.PYCM),
        prefer="Agreement studies that want a kappa-like coefficient with an explicit model of "
               "certain versus random classification.",
        avoid="Small tables with empty classes: the fixed-point iteration can be undefined.",
        notes="PyCM's ConfusionMatrix.aickin_alpha(); the same fixed-point iteration and "
              "stopping rule, vectorised over batches. Deliberately differs where the "
              "iteration diverges (an iterate leaves [-1, 1]) or does not converge within "
              "max_iter: PyCM returns whichever chaotic iterate happens to stop it, confmat "
              "reports the value as undefined (zero_division).")
def aickin_alpha(s: Stats, max_iter: int = 200, epsilon: float = 1e-4) -> np.ndarray:
    """Aickin's alpha (Aickin 1990): agreement beyond chance, by fixed-point iteration.

    ``alpha = (ACC - pe) / (1 - pe)`` with ``pe = sum_i pA_i pB_i``, the marginals ``pA, pB``
    re-estimated from ``alpha`` at each step, starting from ``alpha = 0``.

    Parameters
    ----------
    s : Stats
        Statistics of one confusion table or of a batch of tables.
    max_iter : int, default 200
        Iteration limit: a table whose alpha has not converged after ``max_iter + 1`` steps
        is undefined.
    epsilon : float, default 1e-4
        The iteration stops when alpha changes by less than this.

    Returns
    -------
    numpy.ndarray
        Float64 values, one per table (0-d for one table). Where the iteration diverges (an
        iterate leaves [-1, 1] or is not finite) or does not converge, the value is undefined
        and follows the ``zero_division`` policy of the counts.
    """
    shape = np.shape(s.n)
    k = s.rows.shape[-1]
    n = _f(s.n).reshape(-1, 1)
    top = _f(s.cols).reshape(-1, k)
    p = _f(s.rows).reshape(-1, k)
    acc = _f(_acc(s)).reshape(-1)
    kernel = _aickin_kernel() if acc.shape[0] >= 4096 else None
    if kernel is not None:  # a sweep: one compiled loop per table instead of 200 array passes
        alpha, bad = kernel(top, p, n[:, 0], acc, int(max_iter), float(epsilon))
        return undefined(s.div, alpha.reshape(shape), bad.reshape(shape), "aickin_alpha")
    # the numpy fallback of the compiled kernel (small stacks, or no numba): the same steps
    # and stopping rule, with PyCM's update written as array expressions
    alpha = np.zeros(acc.shape)
    bad = np.zeros(acc.shape, dtype=bool)
    # iterate only the tables that have not converged yet (a sweep has a million of them),
    # carrying their inputs along so that no step gathers from the full arrays
    idx = np.arange(acc.shape[0])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        pa = top / n
        pb = p / n
        a = alpha.copy()
        step = 1
        while idx.size:
            pe = (pa * pb).sum(-1)
            new = (acc - pe) / (1.0 - pe)
            wrong = ~np.isfinite(new)
            previous = a
            a = np.where(wrong, a, new)
            pa = top / (((1.0 - a)[:, None] + a[:, None] * (pb / pe[:, None])) * n)
            pb = p / (((1.0 - a)[:, None] + a[:, None] * (pa / pe[:, None])) * n)
            wrong |= ~np.isfinite(pa.sum(-1) + pb.sum(-1))  # NaN/inf anywhere propagates
            wrong |= np.abs(a) > 1.0  # left [-1, 1]: the iteration is diverging
            converged = np.abs(a - previous) < epsilon
            if step > max_iter:
                wrong |= ~converged  # no fixed point reached: no estimate
            alpha[idx] = a
            bad[idx] |= wrong
            keep = ~(converged | wrong | (step > max_iter))
            if not keep.all():
                idx, pa, pb, a = idx[keep], pa[keep], pb[keep], a[keep]
                top, p, n, acc = top[keep], p[keep], n[keep], acc[keep]
            step += 1
    alpha = alpha.reshape(shape)
    bad = bad.reshape(shape)
    return undefined(s.div, alpha, bad, "aickin_alpha")
