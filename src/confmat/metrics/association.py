"""Association between the true and the predicted class as two categorical variables:
chi-squared and the coefficients built on it, Goodman and Kruskal's lambdas, Yule's Q."""

from __future__ import annotations

import numpy as np

from . import references as R
from .common import INF, declare, memo, ovr_covariance, undefined
from .exact import exact_difference, largest
from .stats import ClassCounts, Stats


def _assoc(name, full, formula, meaning, **kw):
    return declare(name, "overall", full, "association", formula, meaning, **kw)


_EMPTY_NOTE = ("Undefined (zero_division) when a class has no true or no predicted samples, "
               "since an expected count is then 0 (as in PyCM).")


@_assoc("chi_squared", "Pearson's chi-squared statistic",
        "X2 = sum_ij (C_ij - E_ij)^2 / E_ij, E_ij = P_i TOP_j / N",
        "How far the table is from what independent truth and prediction with the same "
        "marginals would give; grows with N.", pycm="Chi-Squared", aliases=("chi2", "chi_square"),
        rng=(0.0, INF), refs=(R.PEARSON, R.AGRESTI),
        prefer="Testing whether predictions depend on the truth at all (with K-1 squared "
               "degrees of freedom).",
        avoid="Comparing models on different sample sizes, or as a quality score: a model "
              "that is consistently wrong is also far from independence.",
        notes=_EMPTY_NOTE,
        scale_degree=1.0)
def chi_squared(s: Stats) -> np.ndarray:
    return memo(s, "chi_squared", lambda: _chi_squared(s))


def _chi_squared(s: Stats) -> np.ndarray:
    # X2 = sum_ij D_ij^2 / (N P_i TOP_j) with D_ij = N C_ij - P_i TOP_j, formed exactly: C_ij
    # minus its expected count cancels near independence
    c = np.asarray(s.counts)
    shape = c.shape
    n = np.asarray(s.n)
    rows = np.asarray(s.rows)[..., :, None]
    cols = np.asarray(s.cols)[..., None, :]
    d, = exact_difference(lambda n, c, r, p: (n * c, r * p),
                          [np.broadcast_to(x, shape) for x in (n[..., None, None], c, rows, cols)],
                          largest(n) ** 2)
    rc = np.asarray(rows, np.float64) * cols
    zero = (rows == 0) | (cols == 0)  # an expected count of 0 (also when N = 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(zero, 0.0, d * (d / np.where(zero, 1.0, rc)))
        total = terms.sum(axis=(-2, -1)) / np.where(n == 0, 1.0, n)
    return undefined(s.div, total, zero.any(axis=(-2, -1)), "chi_squared")


@_assoc("chi_squared_dof", "degrees of freedom of the chi-squared test", "DF = (K - 1)^2",
        "Degrees of freedom of the independence test on a K x K table.",
        pycm="Chi-Squared DF", aliases=("chi2_dof", "df"), rng=(0.0, INF), hib=None,
        is_count=True, refs=(R.AGRESTI,), scale_degree=0.0,
        prefer="Turning chi-squared into a p-value.",
        avoid="Tables with empty rows or columns: the effective degrees of freedom are fewer.")
def chi_squared_dof(s: Stats) -> np.ndarray:
    """Degrees of freedom of the chi-squared independence test, ``(K - 1)^2``.

    ``K`` is the size of the table's (selected) ``K x K`` block; empty rows or columns are not
    discounted.

    Parameters
    ----------
    s : Stats
        Statistics of one confusion table or of a batch of tables.

    Returns
    -------
    numpy.ndarray
        Float64 values, one per table: the batch shape of the tables (0-d for one table).
    """
    k = s.counts.shape[-1]
    return np.full(np.shape(s.n), float((k - 1) ** 2))


@_assoc("phi_squared", "phi-squared (mean square contingency)", "phi2 = X2 / N",
        "Chi-squared per sample: strength of dependence independent of the sample size.",
        pycm="Phi-Squared", aliases=("phi2",), rng=(0.0, INF), refs=(R.CRAMER, R.AGRESTI),
        prefer="Comparing dependence across sample sizes.",
        avoid="Comparing tables of different K: its maximum is K - 1; use Cramér's V.",
        notes=_EMPTY_NOTE)
def phi_squared(s: Stats) -> np.ndarray:
    return s.div(chi_squared(s), s.n, "phi_squared")


@_assoc("cramer_v", "Cramér's V", "V = sqrt(phi2 / (K - 1))",
        "Strength of dependence between truth and prediction on [0, 1], whatever K.",
        pycm="Cramer V", aliases=("cramers_v",), refs=(R.CRAMER,),
        prefer="A bounded association measure to compare tables of different size.",
        avoid="Judging correctness: a consistent relabelling also gives V = 1.",
        notes=_EMPTY_NOTE)
def cramer_v(s: Stats) -> np.ndarray:
    k = s.counts.shape[-1]
    return np.sqrt(s.div(phi_squared(s), k - 1.0, "cramer_v"))


@_assoc("pearson_c", "Pearson's contingency coefficient", "C = sqrt(X2 / (N + X2))",
        "Pearson's bounded version of chi-squared; its maximum sqrt((K-1)/K) is below 1.",
        pycm="Pearson C", aliases=("contingency_coefficient",), refs=(R.PEARSON, R.AGRESTI),
        prefer="Following literature that reports C.",
        avoid="Comparing tables of different K: the maximum depends on K; use Cramér's V.",
        notes=_EMPTY_NOTE)
def pearson_c(s: Stats) -> np.ndarray:
    x2 = chi_squared(s)
    return np.sqrt(s.div(x2, s.n + x2, "pearson_c"))


@_assoc("lambda_b", "Goodman and Kruskal's lambda B (predict the prediction from the truth)",
        "lambda_B = (sum_i max_j C_ij - max_j TOP_j) / (N - max_j TOP_j)",
        "Proportional reduction in errors when guessing the predicted class, from knowing the "
        "true class rather than always guessing the most predicted class.", pycm="Lambda B",
        rng=(0.0, 1.0), refs=(R.GOODMAN_KRUSKAL,),
        prefer="Asymmetric association: how much the truth determines the output.",
        avoid="Skewed predictions: lambda is 0 whenever every row's mode is the overall mode, "
              "even with strong association.",
        notes="Undefined (zero_division) when all predictions fall in one class.")
def lambda_b(s: Stats) -> np.ndarray:
    return _lambda(np.asarray(s.counts), s, "lambda_b")


def _lambda(c: np.ndarray, s: Stats, what: str) -> np.ndarray:
    """Goodman & Kruskal's lambda predicting the column from the row of ``c``. With ``m`` the
    most frequent column, both parts are sums of non-negative terms, ``sum_i (max_j C_ij -
    C_im)`` over ``sum_i sum_(j != m) C_ij``, so nothing cancels: a difference of margins
    (``N - TOP_m``) of weights spanning more than 2**53 lost every digit."""
    m = np.asarray(c.sum(-2)).argmax(-1)[..., None, None]
    at_m = np.take_along_axis(c, np.broadcast_to(m, (*c.shape[:-1], 1)), axis=-1)[..., 0]
    num = (c.max(-1) - at_m).sum(-1)
    den = c.sum(axis=(-2, -1)) - at_m.sum(-1) if c.dtype.kind in "iu" else (
        np.where(np.arange(c.shape[-1]) == m, 0.0, c).sum(axis=(-2, -1)))
    return s.div(num, den, what)


@_assoc("lambda_a", "Goodman and Kruskal's lambda A (predict the truth from the prediction)",
        "lambda_A = (sum_j max_i C_ij - max_i P_i) / (N - max_i P_i)",
        "Proportional reduction in errors when guessing the true class, from knowing the "
        "prediction rather than always guessing the majority class.", pycm="Lambda A",
        rng=(0.0, 1.0), refs=(R.GOODMAN_KRUSKAL,),
        prefer="Asymmetric association: how much the prediction tells about the truth.",
        avoid="Imbalanced truth: lambda A is 0 whenever every column's mode is the majority "
              "class.",
        notes="Undefined (zero_division) when only one true class occurs.")
def lambda_a(s: Stats) -> np.ndarray:
    return _lambda(np.swapaxes(np.asarray(s.counts), -1, -2), s, "lambda_a")


@declare("yule_q", "per_class", "Yule's Q (coefficient of association)", "association",
         "Q_i = (TP TN - FP FN) / (TP TN + FP FN) = (OR - 1) / (OR + 1)",
         "The odds ratio of the one-vs-rest table mapped to [-1, 1]: 0 no association, 1 "
         "whenever one of the error cells is empty and the diagonal is not.",
         aliases=("yules_q", "q"), rng=(-1.0, 1.0), refs=(R.YULE,),
         prefer="Association in 2 x 2 tables where margins should not matter.",
         avoid="Judging a classifier: a single empty error cell gives Q = 1 regardless of the "
               "other errors.",
         notes="Deliberately differs from PyCM where PyCM is undefined: PyCM forms the odds "
               "ratio first and gives None when FP FN = 0; the algebraically equal form used "
               "here is 1 there (defined unless TP TN = FP FN = 0).")
def yule_q(c: ClassCounts) -> np.ndarray:
    a = np.asarray(c.tp, np.float64) * c.tn
    b = np.asarray(c.fp, np.float64) * c.fn
    return c.div(ovr_covariance(c), a + b, "yule_q")
