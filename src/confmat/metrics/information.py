"""Information-theoretic metrics: entropies of the truth, the prediction and the table, mutual
information, KL divergence, confusion entropy (CEN / MCEN) and the information score.
All logarithms are base 2 (bits)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import references as R
from .common import INF, declare, memo, undefined, xlog2x
from .per_class import precision
from .stats import ClassCounts, Stats


def _info(name, full, formula, meaning, **kw):
    kw.setdefault("rng", (0.0, INF))
    return declare(name, "overall", full, "information", formula, meaning, **kw)


def _shares(s: Stats, counts, what: str) -> np.ndarray:
    n = np.asarray(s.n, dtype=np.float64)
    return s.div(counts, n.reshape(n.shape + (1,) * (np.ndim(counts) - n.ndim)), what)


def share_log2(part: Any, total: Any, rest: Any = None) -> np.ndarray:
    """``p log2 p`` of the share ``p = part / total`` (0 where ``part`` or ``total`` is 0).

    A share near 1 takes its logarithm as ``log1p(-rest / total)``: ``log2(p)`` of a ``p``
    that rounds to 1 loses every digit, which made the entropies of a table with a class of
    2**62 - 3 beside three counts of 1 wrong by a factor of two.

    Parameters
    ----------
    part, total : array_like
        Counts (or weights) and the totals they are shares of (broadcast together).
    rest : array_like, optional
        ``total - part``, when the caller has it without cancellation; by default formed in
        the counts' own type (exact for integer counts).

    Returns
    -------
    numpy.ndarray
        Float64 values, shaped as the broadcast of ``part`` and ``total``.

    Examples
    --------
    >>> import math
    >>> v = float(share_log2(2**62 - 1, 2**62))
    >>> math.isclose(v, (1 - 2**-62) * math.log1p(-2**-62) / math.log(2), rel_tol=1e-15)
    True
    """
    part, total = np.broadcast_arrays(np.asarray(part), np.asarray(total))
    rest = np.asarray(total - part if rest is None else rest, dtype=np.float64)
    tot = np.asarray(total, dtype=np.float64)
    ok = (np.asarray(part) > 0) & (tot > 0)
    safe = np.where(ok, tot, 1.0)
    p = np.where(ok, np.asarray(part, dtype=np.float64) / safe, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        near_one = p * np.log1p(-rest / safe) / math.log(2.0)
    return np.where(p > 0.5, near_one, xlog2x(p))


def _terms(parts: np.ndarray, total: Any) -> np.ndarray:
    """``share_log2`` of every entry of ``parts`` (last axis) in ``total``. Only the largest
    entry can hold more than half; for weights its rest is summed from the other entries
    (``total - part`` of weights spanning more than 2**53 cancels)."""
    parts = np.asarray(parts)
    if parts.dtype.kind != "f" or parts.shape[-1] == 0:
        return share_log2(parts, total)
    top = parts.argmax(-1)[..., None] == np.arange(parts.shape[-1])
    rest_top = np.where(top, 0.0, parts).sum(-1, keepdims=True)
    return share_log2(parts, total, np.where(top, rest_top, np.asarray(total) - parts))


def _entropy(s: Stats, counts, what: str) -> np.ndarray:
    shares = _shares(s, counts, what)  # the zero-division rule of an empty table
    n = np.asarray(s.n)
    exact = -_terms(counts, n.reshape(n.shape + (1,) * (np.ndim(counts) - n.ndim)))
    return np.where(n > 0, exact.sum(-1), -xlog2x(shares).sum(-1))


@_info("reference_entropy", "reference entropy H(true)", "H(T) = -sum_i (P_i/N) log2(P_i/N)",
       "Uncertainty of the true class in bits: log2 K for balanced classes, 0 for one class.",
       pycm="Reference Entropy", aliases=("true_entropy",), hib=None, refs=(R.SHANNON, R.COVER),
       prefer="Describing how hard the label distribution is before any model.",
       avoid="Judging a model: it does not depend on the predictions.")
def reference_entropy(s: Stats) -> np.ndarray:
    return memo(s, "reference_entropy", lambda: _entropy(s, s.rows, "reference_entropy"))


@_info("response_entropy", "response entropy H(pred)",
       "H(P) = -sum_j (TOP_j/N) log2(TOP_j/N)",
       "Uncertainty of the predicted class in bits; 0 when the model always predicts one class.",
       pycm="Response Entropy", aliases=("predicted_entropy",), hib=None,
       refs=(R.SHANNON, R.COVER),
       prefer="Spotting collapsed models (response entropy far below reference entropy).",
       avoid="Judging correctness: it ignores the truth.")
def response_entropy(s: Stats) -> np.ndarray:
    return memo(s, "response_entropy", lambda: _entropy(s, s.cols, "response_entropy"))


@_info("joint_entropy", "joint entropy H(true, pred)", "H(T, P) = -sum_ij (C_ij/N) log2(C_ij/N)",
       "Uncertainty of the (true, predicted) pair in bits.", pycm="Joint Entropy", hib=None,
       refs=(R.SHANNON, R.COVER),
       prefer="As a building block: H(T, P) = H(T) + H(P | T).",
       avoid="Judging a model on its own: a perfect model has H(T, P) = H(T), not 0.")
def joint_entropy(s: Stats) -> np.ndarray:
    n = np.asarray(s.n, dtype=np.float64)
    total = _cell_xlogx(s).sum(axis=(-2, -1))
    composed = -s.div(total - xlog2x(n), n, "joint_entropy")  # zero division of empty tables
    counts = np.asarray(s.counts)
    flat = counts.reshape((*counts.shape[:-2], -1))
    exact = -_terms(flat, np.asarray(s.n)[..., None]).sum(-1)
    return np.where(n > 0, exact, composed)


@_info("conditional_entropy", "conditional entropy H(pred | true)",
       "H(P | T) = -sum_i (P_i/N) sum_j (C_ij/P_i) log2(C_ij/P_i)",
       "Bits still needed to know the prediction once the true class is known: 0 when each "
       "true class always gets the same prediction.", pycm="Conditional Entropy", hib=False,
       refs=(R.SHANNON, R.COVER),
       prefer="Measuring how scattered the predictions of each true class are.",
       avoid="Judging correctness: a model that maps every class to a wrong but fixed class "
             "also scores 0.")
def conditional_entropy(s: Stats) -> np.ndarray:
    def compute():
        # sum_i (P_i / N) sum_j (C_ij / P_i) log2(C_ij / P_i), each share's logarithm taken
        # without cancellation (share_log2)
        rows = np.asarray(s.rows)
        within = _terms(np.asarray(s.counts), rows[..., None]).sum(-1)
        return -s.div((np.asarray(rows, dtype=np.float64) * within).sum(-1), s.n,
                      "conditional_entropy")

    return memo(s, "conditional_entropy", compute)


@_info("mutual_information", "mutual information I(true; pred)",
       "I(T; P) = H(P) - H(P | T)",
       "Bits of information the prediction carries about the true class: 0 for a prediction "
       "independent of the truth, H(T) for a perfect (or perfectly relabelled) one.",
       pycm="Mutual Information", aliases=("mi",), refs=(R.SHANNON, R.COVER),
       prefer="Measuring dependence between prediction and truth without caring about label "
              "names.",
       avoid="Classification with fixed labels: a consistent relabelling scores as well as "
             "the truth.")
def mutual_information(s: Stats) -> np.ndarray:
    return memo(s, "mutual_information", lambda: response_entropy(s) - conditional_entropy(s))


@_info("rci", "relative classifier information", "RCI = I(T; P) / H(T)",
       "Share of the uncertainty about the true class that the prediction removes: 0 useless, "
       "1 fully informative.", pycm="RCI", aliases=("relative_classifier_information",),
       rng=(0.0, 1.0), refs=(R.SINDHWANI,),
       prefer="Comparing classifiers across data sets with different class distributions.",
       avoid="Fixed labels matter: like mutual information it rewards consistent relabelling.",
       notes="Undefined (zero_division) when only one true class occurs (H(T) = 0).")
def rci(s: Stats) -> np.ndarray:
    return s.div(mutual_information(s), reference_entropy(s), "rci")


@_info("cross_entropy", "cross entropy of the class distributions",
       "H(T; P) = -sum_i (P_i/N) log2(TOP_i/N)",
       "Bits needed to code the true class distribution with a code built for the predicted "
       "class distribution; equals H(T) + KL(T || P).", hib=False,
       refs=(R.COVER, R.PYCM),
       prefer="Comparing predicted and true class frequencies on an information scale.",
       avoid="Sample-level quality: it only compares the marginals, and it is not the "
             "log-loss of probabilistic predictions.",
       notes="Deliberately differs from PyCM: a class that occurs but is never predicted makes "
             "it +inf (the mathematical value); PyCM silently drops that term.")
def cross_entropy(s: Stats) -> np.ndarray:
    p = _shares(s, s.rows, "cross_entropy")
    q = _shares(s, s.cols, "cross_entropy")
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log2(q), 0.0)
    return -terms.sum(-1)


@_info("kl_divergence", "Kullback-Leibler divergence of the class distributions",
       "KL(T || P) = sum_i (P_i/N) log2(P_i / TOP_i)",
       "Extra bits paid for coding the true class distribution with the predicted one: 0 when "
       "the model predicts each class exactly as often as it occurs.",
       aliases=("kl", "relative_entropy"), hib=False, refs=(R.KULLBACK, R.COVER),
       prefer="Detecting prior shift between predictions and truth.",
       avoid="Sample-level quality: it only compares the marginals.",
       notes="Deliberately differs from PyCM where PyCM is undefined: a class absent from the "
             "truth contributes 0 (0 log 0 = 0) and a class that occurs but is never predicted "
             "makes it +inf, as scipy.stats.entropy does.")
def kl_divergence(s: Stats) -> np.ndarray:
    p = _shares(s, s.rows, "kl_divergence")
    q = _shares(s, s.cols, "kl_divergence")
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * (np.log2(p) - np.log2(q)), 0.0)
    return terms.sum(-1)


# --------------------------------------------------------------------- confusion entropy
def _cen_per_class(s: Stats, modified: bool, what: str) -> np.ndarray:
    return memo(s, ("cen", modified), lambda: _cen_compute(s, modified, what))


def _cell_xlogx(s: Stats) -> np.ndarray:
    """``C log2 C`` for every cell, computed once: entropies and CEN are sums of it."""
    return memo(s, "cell_xlogx", lambda: xlog2x(s.counts))


def _cen_compute(s: Stats, modified: bool, what: str) -> np.ndarray:
    # sum_k (c_k/d) log(c_k/d) = (sum_k c_k log c_k - (sum_k c_k) log d) / d, so one pass of
    # c log c over the table serves rows, columns, CEN and MCEN.
    c = np.asarray(s.counts, dtype=np.float64)
    k = c.shape[-1]
    if k == 1:
        return np.zeros(c.shape[:-1])
    diag = np.diagonal(c, axis1=-2, axis2=-1)
    clogc = _cell_xlogx(s)
    diag_term = np.diagonal(clogc, axis1=-2, axis2=-1)
    rows = np.asarray(s.rows, dtype=np.float64)
    cols = np.asarray(s.cols, dtype=np.float64)
    den = rows + cols - (diag if modified else 0.0)
    zero = den == 0
    safe = np.where(zero, 1.0, den)
    mass = rows + cols - 2.0 * diag  # off-diagonal mass of row i plus column i
    sums = clogc.sum(-1) + clogc.sum(-2) - 2.0 * diag_term
    with np.errstate(divide="ignore", invalid="ignore"):
        total = (sums - mass * np.log2(safe)) / safe
    value = 0.0 - total / np.log2(2.0 * (k - 1))  # 0.0 - x: no negative zero
    return undefined(s.div, value, zero, what)


_CEN_REFS = (R.WEI_CEN, R.DELGADO_MCEN)
# CEN and MCEN lie in [0, 1] for K >= 3; with K = 2 (log base 2, two terms whose sum may be
# below 1) the maximum is 2 / (e ln 2), about 1.06.
CEN_MAX = 2.0 / (math.e * math.log(2.0))


@declare("cen", "per_class", "confusion entropy of class i", "information",
         "CEN_i = -sum_{k != i} (p_ik log_{2(K-1)} p_ik + p_ki log_{2(K-1)} p_ki), "
         "p_ik = C[i, k] / (TOP_i + P_i)",
         "How evenly the errors of class i spread over the other classes, in both directions; "
         "0 when class i has no errors, larger when the confusion is more disordered.",
         pycm="CEN", aliases=("confusion_entropy",), hib=False, rng=(0.0, CEN_MAX),
         refs=_CEN_REFS, uses_table=True,
         prefer="Distinguishing a model whose errors concentrate on one neighbour class from one "
                "whose errors scatter.",
         avoid="Binary problems and as a sole score: CEN is not monotone in accuracy "
               "(Delgado and Núñez-González); use MCEN or MCC.",
         notes="Needs the whole table, so average='micro' means the CEN of the pooled "
               "one-vs-rest 2 x 2 table. Bounded by 1 for K >= 3 but not for K = 2 (maximum "
               "2 / (e ln 2), about 1.06).")
def cen(s: Stats) -> np.ndarray:
    return _cen_per_class(s, False, "cen")


@declare("mcen", "per_class", "modified confusion entropy of class i", "information",
         "MCEN_i = CEN_i with p_ik = C[i, k] / (TOP_i + P_i - C[i, i])",
         "Confusion entropy with the correct predictions removed from the normaliser, which "
         "repairs CEN's non-monotone behaviour for two classes.", pycm="MCEN",
         aliases=("modified_confusion_entropy",), hib=False, rng=(0.0, CEN_MAX), refs=_CEN_REFS,
         uses_table=True,
         prefer="A confusion-entropy view that behaves sensibly for binary problems too.",
         avoid="Readers unfamiliar with it: MCC is easier to interpret.",
         notes="Needs the whole table, so average='micro' means the MCEN of the pooled "
               "one-vs-rest 2 x 2 table.")
def mcen(s: Stats) -> np.ndarray:
    return _cen_per_class(s, True, "mcen")


@_info("overall_cen", "overall confusion entropy",
       "CEN = sum_i (TOP_i + P_i) / (2 N) CEN_i",
       "The per-class confusion entropies weighted by how much of the table each class "
       "touches.", pycm="Overall CEN", rng=(0.0, CEN_MAX), hib=False, refs=_CEN_REFS,
       prefer="One number for how disordered the errors of a multi-class model are.",
       avoid="Binary problems (use MCEN) and as the only score: it is not monotone in "
             "accuracy.")
def overall_cen(s: Stats) -> np.ndarray:
    w = s.div(np.asarray(s.rows, dtype=np.float64) + s.cols,
              2.0 * np.asarray(s.n, dtype=np.float64)[..., None], "overall_cen")
    return (w * cen(s)).sum(-1)


@_info("overall_mcen", "overall modified confusion entropy",
       "MCEN = sum_i (TOP_i + P_i - C[i, i]) / (2 N - a sum_k C[k, k]) MCEN_i, a = 0 if K = 2 "
       "else 1", "The per-class modified confusion entropies weighted by each class's share "
       "of the errors.", pycm="Overall MCEN", rng=(0.0, CEN_MAX), hib=False, refs=_CEN_REFS,
       prefer="One confusion-entropy number that also behaves for binary problems.",
       avoid="Readers unfamiliar with it: MCC is easier to interpret.")
def overall_mcen(s: Stats) -> np.ndarray:
    k = s.counts.shape[-1]
    diag = np.asarray(s.tp, dtype=np.float64)
    a = 0.0 if k == 2 else 1.0
    den = 2.0 * np.asarray(s.n, dtype=np.float64) - a * diag.sum(-1)
    w = s.div(np.asarray(s.rows, dtype=np.float64) + s.cols - diag, den[..., None],
              "overall_mcen")
    return (w * mcen(s)).sum(-1)


@declare("information_score", "per_class", "information score", "information",
         "IS_i = log2(TP_i / TOP_i) - log2(P_i / N) = log2(lift_i)",
         "Bits of information a prediction of class i gives about the sample being class i: "
         "0 for no better than the prior, log2(N / P_i) for a perfect precision.",
         pycm="IS", aliases=("is",), rng=(-INF, INF), refs=(R.KONONENKO,),
         prefer="Scoring rare classes, where a correct prediction is more informative.",
         avoid="Classes never predicted correctly: log2(0) is undefined (zero_division).",
         notes="Undefined where TP, TOP, P or N is 0, as in PyCM.")
def information_score(c: ClassCounts) -> np.ndarray:
    ppv = precision(c)
    pre = c.div(c.support, c.n, "information_score")
    bad = (ppv <= 0) | (pre <= 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.log2(np.where(bad, 1.0, ppv)) - np.log2(np.where(bad, 1.0, pre))
    value = np.where(np.isnan(ppv) | np.isnan(pre), np.nan, value)
    return undefined(c.div, value, bad & ~np.isnan(ppv) & ~np.isnan(pre), "information_score")
