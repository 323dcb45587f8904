"""Overall metrics: one number per (batched) confusion table."""

from __future__ import annotations

import math

import numpy as np

from ..inputs.options import check_flag
from .common import chance_terms, declare
from .exact import exact_difference, largest
from .per_class import (
    REF_FAWCETT,
    REF_KNEUSEL,
    REF_KUBAT,
    REF_MATTHEWS,
    REF_SKLEARN,
    REF_YAO,
    recall,
)
from .stats import Stats

REF_COHEN = "Cohen, J. (1960), A coefficient of agreement for nominal scales, Educ. Psychol. Meas. 20(1)."
REF_COHEN_W = (
    "Cohen, J. (1968), Weighted kappa: nominal scale agreement with provision for scaled "
    "disagreement or partial credit, Psychol. Bull. 70(4)."
)
REF_GORODKIN = (
    "Gorodkin, J. (2004), Comparing two K-category assignments by a K-category correlation "
    "coefficient, Comput. Biol. Chem. 28(5)."
)
REF_BRODERSEN = (
    "Brodersen, K. H. et al. (2010), The balanced accuracy and its posterior distribution, ICPR."
)


def _overall(name, full, formula, meaning, *, refs=(), rng=(0.0, 1.0), hib=True,
             family="summary", prefer="", avoid="", **kw):
    return declare(name, "overall", full, family, formula, meaning, refs=refs, prefer=prefer,
                   avoid=avoid, rng=rng, hib=hib, **kw)


@_overall("n", "number of samples", "N = sum_ij C[i, j]", "Total count (or weight) in the table.",
          pycm="POP", rng=(0.0, float("inf")), hib=None, family="counts",
          aliases=("population", "total"), refs=(REF_FAWCETT,),
          prefer="Always report it: every rate's uncertainty depends on it.",
          avoid="Comparing models: it describes the test set.",
          scale_degree=1.0)
def n(s: Stats) -> np.ndarray:
    """Number of samples (or total weight) in the table, ``N = sum_ij C[i, j]``.

    Parameters
    ----------
    s : Stats
        Statistics of one confusion table or of a batch of tables.

    Returns
    -------
    numpy.ndarray or numpy.generic
        ``N`` with the batch shape of the tables (a numpy scalar for one table); an integer for
        an integer table, a float for a weighted one.
    """
    return s.n


@_overall("accuracy", "accuracy", "ACC = sum_i C[i, i] / N",
          "Share of all samples classified correctly.", pycm="Overall ACC",
          sklearn="sklearn.metrics.accuracy_score", aliases=("acc", "overall_accuracy"),
          refs=(REF_FAWCETT,),
          prefer="Classes are balanced and all errors cost the same.",
          avoid="Imbalanced data: predicting the majority class scores high.")
def accuracy(s: Stats) -> np.ndarray:
    return s.div(s.correct, s.n, "accuracy")


@_overall("error_rate", "error rate", "ERR = 1 - ACC", "Share of samples misclassified.",
          hib=False, refs=(REF_FAWCETT,), aliases=("misclassification_rate",),
          prefer="Talking about mistakes rather than successes (same information as accuracy).",
          avoid="Imbalanced data, for the same reason as accuracy.")
def error_rate(s: Stats) -> np.ndarray:
    return s.div(s.errors, s.n, "error_rate")


def _check_adjusted(adjusted: bool) -> None:
    check_flag(adjusted, "adjusted")


@_overall("balanced_accuracy", "balanced accuracy", "BA = mean of TPR_i over classes with support",
          "Average recall over the classes present in the truth; chance level is 1/K.",
          sklearn="sklearn.metrics.balanced_accuracy_score", aliases=("bacc",),
          refs=(REF_BRODERSEN, REF_SKLEARN), params={"adjusted": False}, check=_check_adjusted,
          prefer="Imbalanced data where each class matters equally.",
          avoid="When class frequencies reflect real costs: it weighs a rare class as much as a "
                "common one.",
          notes="Classes with no true samples are left out, as scikit-learn does. With "
                "adjusted=True the score is rescaled so chance is 0 and perfect is 1.")
def balanced_accuracy(s: Stats, adjusted: bool = False) -> np.ndarray:
    """Balanced accuracy: the mean recall over the classes present in the truth.

    Classes with no true sample are left out, as scikit-learn does (Brodersen et al. 2010).

    Parameters
    ----------
    s : Stats
        Statistics of one confusion table or of a batch of tables.
    adjusted : bool, default False
        Rescale so that chance level (``1/K`` for ``K`` classes present) is 0 and a perfect table 1;
        the adjusted score can be negative. Checked to be a bool when the metric is called by name
        (``evaluate``, ``ConfusionMatrix.metric``).

    Returns
    -------
    numpy.ndarray
        Float64 values, one per table (0-d for one table). A table with no samples is undefined
        and follows the ``zero_division`` policy of the counts.
    """
    rows = s.rows
    present = rows > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        per = np.diagonal(s.counts, axis1=-2, axis2=-1) / np.where(present, rows, 1.0)
    k = present.sum(axis=-1)
    score = s.div(np.where(present, per, 0.0).sum(axis=-1), k, "balanced_accuracy")
    if adjusted:
        chance = s.div(1.0, k, "balanced_accuracy", fill=0.0)
        score = s.div(score - chance, 1.0 - chance, "balanced_accuracy")
    return score


def _check_kappa(weights=None) -> None:
    if weights not in (None, "linear", "quadratic"):
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}")


def kappa_weights(k: int, weights: str | None) -> np.ndarray:
    """The disagreement weights of Cohen's kappa for ``k`` ordered classes.

    Parameters
    ----------
    k : int
        Number of classes.
    weights : {None, "linear", "quadratic"}
        None gives 0 on the diagonal and 1 elsewhere; ``"linear"`` gives ``|i - j|``,
        ``"quadratic"`` ``(i - j)^2``.

    Returns
    -------
    numpy.ndarray
        ``k x k`` float64.

    Examples
    --------
    >>> from confmat.metrics.overall import kappa_weights
    >>> kappa_weights(3, "linear").tolist()
    [[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]]
    """
    idx = np.arange(k, dtype=np.float64)
    d = np.abs(idx[:, None] - idx[None, :])
    if weights is None:
        return (d > 0).astype(np.float64)
    return d if weights == "linear" else d**2


@_overall("kappa", "Cohen's kappa", "kappa = 1 - sum(w O) / sum(w E), E = outer(rows, cols) / N",
          "Agreement between truth and prediction beyond what the marginals alone would give: "
          "0 is chance agreement, 1 perfect.", pycm="Kappa",
          sklearn="sklearn.metrics.cohen_kappa_score", aliases=("cohen_kappa", "cohens_kappa"),
          refs=(REF_COHEN, REF_COHEN_W), rng=(-1.0, 1.0), params={"weights": None},
          check=_check_kappa, family="agreement",
          prefer="Ordinal classes (weights='linear' or 'quadratic') or comparing with "
                 "published agreement studies.",
          avoid="Imbalanced data: kappa drops as the marginals get skewed (Yao et al. 2022 note it).",
          notes="Unweighted kappa equals 1 - sum(O off-diagonal)/sum(E off-diagonal), i.e. "
                "(p_o - p_e) / (1 - p_e). Undefined when the expected disagreement is 0.")
def kappa(s: Stats, weights: str | None = None) -> np.ndarray:
    """Cohen's kappa, unweighted (Cohen 1960) or weighted (Cohen 1968).

    ``kappa = 1 - sum(w O) / sum(w E)`` with ``O`` the table, ``E = outer(rows, cols) / N`` the
    table expected from the marginals and ``w`` the disagreement weights of
    :func:`kappa_weights`.

    Parameters
    ----------
    s : Stats
        Statistics of one confusion table or of a batch of tables.
    weights : {None, "linear", "quadratic"}, default None
        Disagreement weights for ordered classes: None counts every disagreement as 1, ``"linear"``
        as ``|i - j|``, ``"quadratic"`` as ``(i - j)^2``. Checked when the metric is called by name
        (``evaluate``, ``ConfusionMatrix.metric``).

    Returns
    -------
    numpy.ndarray
        Float64 values, one per table (0-d for one table). Where the expected disagreement is 0
        the value is undefined and follows the ``zero_division`` policy of the counts.
    """
    if weights is None:  # (N c - sum t p) / (N^2 - sum t p): the marginals suffice
        cov, chance, _, _ = chance_terms(s)
        # weighted counts too: chance_terms sums N - p_k from the cells and forms the
        # covariance again exactly where it cancels (near chance level, or a class lighter
        # than the rounding of N: a perfect table with weights 2 and 2e-16 is 1)
        return s.div(cov, chance, "kappa")
    k = s.counts.shape[-1]
    w = np.rint(kappa_weights(k, weights)).astype(np.int64)

    def build(n, c, t, p):
        # kappa_w = 1 - sum(w O) / sum(w E) = (sum w t p - N sum w C) / sum w t p
        expected = (w * (t[..., :, None] * p[..., None, :])).sum(axis=(-2, -1))
        return expected, n * (w * c).sum(axis=(-2, -1)), expected

    n = np.asarray(s.n)
    num, den = exact_difference(build, (n, s.counts, s.rows, s.cols),
                                max(int(w.max()), 1) * largest(n) ** 2)
    return s.div(num, den, "kappa")


@_overall("mcc", "Matthews correlation coefficient (multi-class R_K)",
          "MCC = (c N - sum_k t_k p_k) / sqrt((N^2 - sum_k p_k^2)(N^2 - sum_k t_k^2)), "
          "c = trace, t = row sums, p = column sums",
          "Correlation between the true and predicted class indicators; uses every cell.",
          pycm="Overall MCC", sklearn="sklearn.metrics.matthews_corrcoef",
          aliases=("matthews_corrcoef", "phi", "r_k"), refs=(REF_MATTHEWS, REF_GORODKIN),
          rng=(-1.0, 1.0),
          prefer="A single summary of a classifier, balanced or not (Kneusel 2021: 'if only one "
                 "metric, choose MCC').",
          avoid="Explaining errors to a non-technical reader (it is a correlation, not a rate), "
                "or when one class is all that matters (then report that class's recall and "
                "precision).",
          notes="Kneusel (2021) says MCC lies in [0, 1]; it lies in [-1, 1] (the multi-class lower "
                "bound depends on K, between -1 and 0). A zero denominator gives 0.")
def mcc(s: Stats) -> np.ndarray:
    cov_tp, _, cov_pp, cov_tt = chance_terms(s)
    den = np.sqrt(cov_pp) * np.sqrt(cov_tt)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den == 0, 0.0, cov_tp / np.where(den == 0, 1.0, den))


def _log_abs_diff(la: np.ndarray, lb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """log|exp(la) - exp(lb)| and its sign, stable for huge or tiny values."""
    hi = np.maximum(la, lb)
    lo = np.minimum(la, lb)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        gap = np.where(np.isneginf(hi), 0.0, lo - hi)
        mag = hi + np.log1p(-np.exp(gap))
    sign = np.sign(np.where(np.isneginf(hi), 0.0, np.where(la >= lb, 1.0, -1.0)))
    sign = np.where(la == lb, 0.0, sign)
    return mag, sign


def _yao_logs(counts: np.ndarray) -> tuple[np.ndarray, ...]:
    """The logarithms of the four products of :func:`mcc_yao2022`: ``(K - 1) log prod_i C_ii``,
    ``log prod_{i != j} C_ij`` and the logs of the row and column factors of the denominator."""
    c = counts.astype(np.float64)
    k = c.shape[-1]
    diag = np.diagonal(c, axis1=-2, axis2=-1)
    off = ~np.eye(k, dtype=bool)
    with np.errstate(divide="ignore"):
        log_t = (k - 1) * np.log(diag).sum(axis=-1)
        log_f = np.log(c[..., off]).sum(axis=-1)
        log_rows = np.log((diag[..., :, None] + c)[..., off]).sum(axis=-1)
        log_cols = np.log((diag[..., None, :] + c)[..., off]).sum(axis=-1)
    return log_t, log_f, log_rows, log_cols


def _yao_logs_binary(counts: np.ndarray) -> tuple[np.ndarray, ...]:
    """:func:`_yao_logs` of 2 x 2 tables from their four cells, without the K x K temporaries
    and gathers (a threshold sweep has a million tables): the same logs added in the same
    order, so the same numbers to the last bit."""
    a, b, c, d = (np.asarray(counts[..., i, j], dtype=np.float64)
                  for i, j in ((0, 0), (0, 1), (1, 0), (1, 1)))
    with np.errstate(divide="ignore"):
        return (np.log(a) + np.log(d), np.log(b) + np.log(c),
                np.log(a + b) + np.log(d + c), np.log(d + b) + np.log(a + c))


def _prod(values: list[int]) -> int:
    """Product of many integers, multiplied pairwise (a balanced tree keeps it fast)."""
    while len(values) > 1:
        values = [values[i] * values[i + 1] if i + 1 < len(values) else values[i]
                  for i in range(0, len(values), 2)]
    return values[0] if values else 1


def _yao_exact(c: np.ndarray) -> float:
    """Exact-integer evaluation for one integer table, rounded once at the end."""
    ci = [[int(v) for v in row] for row in np.asarray(c)]
    k = len(ci)
    off = [(i, j) for i in range(k) for j in range(k) if i != j]
    num = _prod([ci[i][i] for i in range(k)]) ** (k - 1) - _prod([ci[i][j] for i, j in off])
    den2 = _prod([ci[i][i] + ci[i][j] for i, j in off]) * _prod([ci[j][j] + ci[i][j]
                                                              for i, j in off])
    if den2 == 0 or num == 0:
        return 0.0
    # |num| / sqrt(den2) <= 1: scale num^2 / den2 by 4^shift into [1/4, 4] before dividing
    # (int / int is correctly rounded however large), so even 1e-200 keeps its digits
    square = num * num
    shift = max(0, (den2.bit_length() - square.bit_length() + 1) // 2)
    mag = math.ldexp(math.sqrt((square << (2 * shift)) / den2), -shift)
    return mag if num > 0 else -mag


#: the log-space evaluation is redone exactly where its error estimate passes this
YAO_RTOL = 1e-11
#: largest K evaluated exactly (the products have about K^2 * 50 bits)
YAO_MAX_EXACT_K = 128


@_overall("mcc_yao2022", "multi-class MCC of Yao, Yang and Li (2022)",
          "MCC_Y = ((prod_i C_ii)^(K-1) - prod_{i!=j} C_ij) / sqrt(prod_i prod_{j!=i} (C_ii + C_ij) "
          "* prod_j prod_{i!=j} (C_jj + C_ij))",
          "Yao et al.'s (2022) generalisation of the binary MCC to K classes by products of cells; equal "
          "to MCC for two classes.", refs=(REF_YAO,), rng=(-1.0, 1.0),
          aliases=("yao_mcc",),
          prefer="Reproducing Yao et al. (2022).",
          avoid="General use: any zero off-diagonal cell removes the penalty term entirely and "
                "any zero diagonal cell removes the reward, so it is not a correlation for K > 2; "
                "prefer 'mcc' (R_K).",
          notes="Computed in log space (exact integers when the two terms nearly cancel), so a "
                "50-class table with counts near 1e6 stays finite. A zero denominator gives 0.")
def mcc_yao2022(s: Stats) -> np.ndarray:
    k = s.counts.shape[-1]
    log_t, log_f, log_rows, log_cols = (_yao_logs_binary if k == 2 else _yao_logs)(s.counts)
    mag, sign = _log_abs_diff(log_t, log_f)
    log_den = 0.5 * (log_rows + log_cols)
    with np.errstate(invalid="ignore", over="ignore"):
        out = sign * np.exp(mag - log_den)
    out = np.where(np.isneginf(log_den) | (sign == 0), 0.0, out)
    if np.issubdtype(s.counts.dtype, np.integer) and 2 <= k <= YAO_MAX_EXACT_K:
        # each log carries a rounding error of about eps |log|; a near-cancelling difference
        # of the two products magnifies it by 1 / (1 - exp(-|log_t - log_f|))
        def size(x):
            return np.where(np.isfinite(x), np.abs(x), 0.0)

        scale = size(log_t) + size(log_f) + size(log_rows) + size(log_cols)
        both = np.isfinite(log_t) & np.isfinite(log_f)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            gap = np.expm1(np.abs(np.where(both, log_t - log_f, np.inf)))
            error = 8 * np.finfo(np.float64).eps * scale * (1.0 + 1.0 / gap)
        redo = np.isfinite(log_den) & (both | (sign != 0)) & ~(error <= YAO_RTOL)
        if redo.any():
            out = np.array(out, dtype=np.float64)
            tables = np.asarray(s.counts).reshape(-1, k, k)
            for i in np.flatnonzero(redo):
                out.reshape(-1)[i] = _yao_exact(tables[i])
    return out


def _check_correction(correction: float = 0.0) -> None:
    if (isinstance(correction, bool) or not isinstance(correction, int | float)
            or not 0.0 <= correction <= 1.0):
        raise ValueError(f"correction must be a number in [0, 1], got {correction!r}")


@_overall("gmean", "multi-class G-mean", "G = (prod_i TPR_i)^(1/K)",
          "Geometric mean of the per-class recalls (the multi-class G-mean of Yao et al. 2022): high only "
          "when every class is recognised.", sklearn="imblearn.metrics.geometric_mean_score",
          aliases=("g_mean", "geometric_mean"), refs=(REF_KUBAT, REF_YAO),
          prefer="Imbalanced data where failing any single class must be visible.",
          avoid="Many classes with one at recall 0: the score is 0 regardless of the others.",
          params={"correction": 0.0}, check=_check_correction,
          notes="Computed as exp(mean(log TPR)) so it cannot underflow with many classes. For "
                "two classes it equals sqrt(TPR * TNR), the binary G-mean of Yao et al. (2022). "
                "correction replaces a recall of 0 (as imbalanced-learn's correction does), so "
                "one missed class no longer zeroes the score.")
def gmean(s: Stats, correction: float = 0.0) -> np.ndarray:
    """Multi-class G-mean: the geometric mean of the per-class recalls.

    ``G = (prod_i TPR_i)^(1/K)`` (Kubat and Matwin 1997; Yao et al. 2022), computed as
    ``exp(mean(log TPR_i))`` so that it does not underflow with many classes.

    Parameters
    ----------
    s : Stats
        Statistics of one confusion table or of a batch of tables.
    correction : float, default 0.0
        Replaces a recall of exactly 0 (0 leaves it, so one missed class gives 0). Checked to
        lie in [0, 1] when the metric is called by name (``evaluate``, ``ConfusionMatrix.metric``).

    Returns
    -------
    numpy.ndarray
        Float64 values, one per table (0-d for one table).
    """
    r = recall(s.per_class)
    if correction:
        r = np.where(r == 0, float(correction), r)
    with np.errstate(divide="ignore"):
        return np.exp(np.log(r).mean(axis=-1))


def _check_normalize(normalize: bool = True) -> None:
    check_flag(normalize, "normalize")


@_overall("zero_one_loss", "zero-one loss", "L01 = (N - sum_i C[i, i]) / N (or the count)",
          "Share (normalize=True) or number of misclassified samples.", hib=False,
          sklearn="sklearn.metrics.zero_one_loss", params={"normalize": True},
          check=_check_normalize, rng=(0.0, float("inf")), refs=(REF_SKLEARN,),
          prefer="Reproducing scikit-learn's zero_one_loss or PyCM's 'Zero-one Loss' (count).",
          avoid="Imbalanced data: it is the error rate, with the same blind spot as accuracy.",
          notes="PyCM's 'Zero-one Loss' is the count, i.e. normalize=False.",
          scale_degree=lambda normalize=True: 0.0 if normalize else 1.0)
def zero_one_loss(s: Stats, normalize: bool = True) -> np.ndarray:
    """Zero-one loss: the share or the number of misclassified samples.

    Parameters
    ----------
    s : Stats
        Statistics of one confusion table or of a batch of tables.
    normalize : bool, default True
        True gives the share ``(N - sum_i C[i, i]) / N`` (the error rate), False the count ``N -
        sum_i C[i, i]`` (PyCM's 'Zero-one Loss'). Checked to be a bool when the metric is called by
        name (``evaluate``, ``ConfusionMatrix.metric``).

    Returns
    -------
    numpy.ndarray
        Float64 values, one per table (0-d for one table).
    """
    if normalize:
        return error_rate(s)
    return np.asarray(s.errors).astype(np.float64)


@_overall("hamming_loss", "Hamming loss", "HL = (N - sum_i C[i, i]) / N for single-label data",
          "Fraction of wrong labels; for single-label data it equals the error rate.",
          hib=False, sklearn="sklearn.metrics.hamming_loss", refs=(REF_SKLEARN,),
          prefer="Multilabel problems, where it counts wrong labels rather than wrong samples.",
          avoid="Single-label data: it is just the error rate.",
          notes="For multilabel indicator matrices use confmat.hamming_loss(y_true, y_pred).")
def hamming_loss(s: Stats) -> np.ndarray:
    return error_rate(s)


@_overall("weighted_accuracy", "weighted mean accuracy (Kneusel 2021)",
          "WACC = sum_i (C_i / N) (C[i, i] / C_i) with C_i the row sums",
          "Kneusel's (2021) weighted mean of per-class accuracies, weights = class frequencies. "
          "Algebraically it equals accuracy.", refs=(REF_KNEUSEL,),
          prefer="Reproducing the weighted mean accuracy of Kneusel (2021).",
          avoid="Elsewhere: it equals accuracy, so report accuracy.",
          notes="Kneusel (2021) prints it in percent (88.71 % for Table 11-8); confmat returns the "
                "fraction. Its accuracy-matrix code divides by cmat.sum(axis=1) without "
                "keeping dimensions, which divides columns, not rows; ConfusionMatrix."
                "accuracy_matrix() divides rows.")
def weighted_accuracy(s: Stats) -> np.ndarray:
    return s.div(s.correct, s.n, "weighted_accuracy")


__all__ = ["REF_KNEUSEL", "REF_MATTHEWS"]
