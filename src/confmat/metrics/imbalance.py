"""Metrics designed for imbalanced classes: single-threshold AUC and its distances, IBA,
adjusted G-mean and F-score, optimized precision, class balance accuracy."""

from __future__ import annotations

import math

import numpy as np

from ..inputs.options import check_flag
from . import references as R
from .common import declare, undefined, where_defined
from .exact import exact_difference, largest
from .per_class import fbeta_values, fnr, fpr, recall, specificity
from .stats import ClassCounts, Stats


def _pc(name, full, formula, meaning, **kw):
    return declare(name, "per_class", full, "imbalance", formula, meaning, **kw)


@_pc("class_auc", "single-threshold AUC (one-vs-rest balanced accuracy)",
     "AUC_i = (TPR_i + TNR_i) / 2",
     "The area under the ROC 'curve' through the single operating point of a hard classifier "
     "(straight lines from (0, 0) to (FPR, TPR) to (1, 1)); equal to the balanced accuracy of "
     "class i against the rest.", pycm="AUC", aliases=("auc_single", "ovr_balanced_accuracy"),
     refs=(R.PYCM, R.SOKOLOVA, R.FAWCETT),
     prefer="Hard predictions only, imbalanced data: it weighs sensitivity and specificity "
            "equally. Its macro average is PyCM's AUNU, its support-weighted average AUNP.",
     avoid="Scored models: use the ROC curve and its real AUC; and even then a single area "
           "hides the curve's shape (Kneusel 2021: two curves with one AUC can differ where it "
           "matters, at low FPR).",
     notes="Not scikit-learn's roc_auc_score, which needs scores.")
def class_auc(c: ClassCounts) -> np.ndarray:
    return (recall(c) + specificity(c)) / 2.0


@_pc("dind", "distance index", "dInd_i = sqrt((1 - TNR_i)^2 + (1 - TPR_i)^2)",
     "Euclidean distance from the classifier's ROC point to the perfect corner (0, 1).",
     pycm="dInd", aliases=("distance_index",), rng=(0.0, math.sqrt(2.0)), hib=False,
     refs=(R.PYCM,),
     prefer="Ranking operating points by closeness to perfection in ROC space.",
     avoid="Different error costs: it treats FPR and FNR alike.")
def dind(c: ClassCounts) -> np.ndarray:
    # FPR and FNR from the counts: 1 - TNR loses every digit when TNR rounds near 1
    return np.hypot(fpr(c), fnr(c))


@_pc("sind", "similarity index", "sInd_i = 1 - dInd_i / sqrt(2)",
     "The distance index rescaled to [0, 1], 1 at the perfect corner of ROC space.",
     pycm="sInd", aliases=("similarity_index",), refs=(R.PYCM,),
     prefer="The distance index as a similarity, bounded in [0, 1].",
     avoid="Different error costs: it treats FPR and FNR alike.")
def sind(c: ClassCounts) -> np.ndarray:
    return 1.0 - dind(c) / math.sqrt(2.0)


@_pc("dp", "discriminant power",
     "DP_i = (sqrt(3) / pi) (log10(TPR_i / (1 - TPR_i)) + log10(TNR_i / (1 - TNR_i)))",
     "How well the classifier separates class i from the rest, on a logit scale: < 1 poor, "
     "1-2 limited, 2-3 fair, > 3 good.", pycm="DP", aliases=("discriminant_power",),
     rng=(-float("inf"), float("inf")), refs=(R.SOKOLOVA_2006,),
     prefer="Comparing separation on a scale that does not saturate near perfect rates.",
     avoid="Perfect or zero recall or specificity: the logits are infinite and DP is "
           "undefined.",
     notes="Undefined (zero_division) when TPR or TNR is 0 or 1, as in PyCM.")
def dp(c: ClassCounts) -> np.ndarray:
    # the odds TPR / (1 - TPR) and TNR / (1 - TNR) are TP / FN and TN / FP: formed from the
    # counts, so that a rate rounding to 1 in float64 (TP = 2**60, FN = 1) keeps its value
    tpr = recall(c)
    tnr = specificity(c)
    missing = np.isnan(tpr) | np.isnan(tnr)
    tp, fp, fn, tn = (np.asarray(x, dtype=np.float64) for x in (c.tp, c.fp, c.fn, c.tn))
    bad = ((tp <= 0) | (fn <= 0) | (tn <= 0) | (fp <= 0)) & ~missing
    with np.errstate(divide="ignore", invalid="ignore"):
        x = (np.log10(tp) - np.log10(fn)) + (np.log10(tn) - np.log10(fp))
    return undefined(c.div, np.where(missing, np.nan, (math.sqrt(3.0) / math.pi) * x), bad,
                     "dp")


@_pc("optimized_precision", "optimized precision",
     "OP_i = ACC_i - |TNR_i - TPR_i| / (TNR_i + TPR_i)",
     "One-vs-rest accuracy penalised by the imbalance between recall and specificity.",
     pycm="OP", aliases=("op",), rng=(-1.0, 1.0), refs=(R.RANAWANA,),
     prefer="Model selection on imbalanced data where accuracy alone would favour the "
            "majority class.",
     avoid="Comparing across problems: the penalty term is ad hoc.")
def optimized_precision(c: ClassCounts) -> np.ndarray:
    def composed():
        tpr = recall(c)
        tnr = specificity(c)
        acc = c.div(c.tp + c.tn, c.n, "optimized_precision")
        return acc - c.div(np.abs(tnr - tpr), tnr + tpr, "optimized_precision")

    def build(tp, fp, fn, tn):
        # with x = TN P, y = TP N: OP = ((TP + TN)(x + y) - n |x - y|) / (n (x + y)); the
        # numerator written per sign of x - y so that no term cancels inside it
        x = tn * (tp + fn)
        y = tp * (fp + tn)
        n = tp + fp + fn + tn
        up, down = n + tp + tn, fp + fn
        ge = x >= y
        return (np.where(ge, y * up, x * up), np.where(ge, x * down, y * down),
                n * (x + y))

    tp, fp, fn, tn = np.broadcast_arrays(c.tp, c.fp, c.fn, c.tn)
    bound = 2 * largest(c.n) ** 3 if tp.dtype.kind in "iu" else 0
    num, den = exact_difference(build, (tp, fp, fn, tn), bound)
    both = (np.asarray(c.support) > 0) & (np.asarray(c.negatives) > 0)
    return where_defined(num, np.where(both, den, 0.0), composed)


def _check_iba(alpha=1.0, squared=True) -> None:
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not np.isfinite(alpha):
        raise ValueError(f"alpha must be a finite number, got {alpha!r}")
    check_flag(squared, "squared")


@_pc("iba", "index of balanced accuracy",
     "IBA_i = (1 + alpha (TPR_i - TNR_i)) * TPR_i TNR_i  (squared=True; else times sqrt(TPR TNR))",
     "The G-mean (squared by default) weighted up when recall exceeds specificity and down "
     "otherwise, so that of two models with one G-mean the one better on class i wins.",
     pycm="IBA", aliases=("index_balanced_accuracy",), rng=(0.0, 1.0),
     params={"alpha": 1.0, "squared": True}, check=_check_iba,
     sklearn="imblearn.metrics.classification_report_imbalanced (column 'iba')",
     refs=(R.GARCIA_IBA, R.IMBLEARN),
     prefer="Imbalanced problems where the minority class (class i) matters more.",
     avoid="Balanced problems or symmetric costs: the dominance term is a deliberate bias.",
     notes="PyCM uses alpha=1; imbalanced-learn's report uses alpha=0.1. The range [0, 1] "
           "holds for alpha <= 1; a larger alpha can exceed 1 (up to (1 + alpha)^2 / (4 "
           "alpha)).")
def iba(c: ClassCounts, alpha: float = 1.0, squared: bool = True) -> np.ndarray:
    """Index of balanced accuracy of each class (García, Mollineda and Sánchez 2009).

    ``IBA_i = (1 + alpha (TPR_i - TNR_i)) g_i`` with ``g_i = TPR_i TNR_i`` (the squared
    G-mean) or ``sqrt(TPR_i TNR_i)``.

    Parameters
    ----------
    c : ClassCounts
        One-vs-rest counts ``tp, fp, fn, tn`` with the class on the last axis
        (``Stats.per_class``).
    alpha : float, default 1.0
        Weight of the dominance ``TPR_i - TNR_i``; PyCM uses 1, imbalanced-learn's report 0.1.
        Checked to be a finite number when the metric is called by name (``evaluate``,
        ``ConfusionMatrix.metric``).
    squared : bool, default True
        Use the squared G-mean ``TPR_i TNR_i``; False uses ``sqrt(TPR_i TNR_i)``. Checked to be
        a bool when the metric is called by name (``evaluate``, ``ConfusionMatrix.metric``).

    Returns
    -------
    numpy.ndarray
        Float64 values, one per class on the last axis, after the batch axes of the counts.
    """
    tpr = recall(c)
    tnr = specificity(c)
    g = tpr * tnr if squared else np.sqrt(tpr * tnr)
    # 1 + alpha (TPR - TNR) = (1 - alpha) + alpha (TPR + FPR): no cancellation for alpha <= 1
    neg = np.asarray(c.negatives, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        fpr = np.asarray(c.fp, np.float64) / np.where(neg > 0, neg, 1.0)
    dominance = np.where(neg > 0, (1.0 - alpha) + alpha * (tpr + fpr), 1.0 + alpha * (tpr - tnr))
    return dominance * g


@_pc("agm", "adjusted G-mean", "AGM_i = (GM_i + TNR_i N_i / N) / (1 + N_i / N), 0 if TPR_i = 0",
     "G-mean adjusted to reward specificity in proportion to the share of negatives, so a "
     "gain on the majority is not ignored; 0 whenever class i is never found.", pycm="AGM",
     aliases=("adjusted_gmean",), refs=(R.BATUWITA,),
     prefer="Imbalanced bioinformatics-style problems where both classes matter but the "
            "minority must be found.",
     avoid="Multi-class summaries: it is a one-vs-rest measure.")
def agm(c: ClassCounts) -> np.ndarray:
    tpr = recall(c)
    tnr = specificity(c)
    share = c.div(c.negatives, c.n, "agm")
    value = (np.sqrt(tpr * tnr) + tnr * share) / (1.0 + share)
    return np.where(tpr == 0, 0.0, value)


@_pc("agf", "adjusted F-score", "AGF_i = sqrt(F2_i * InvF0.5_i), InvF0.5 = F0.5 with the "
     "classes swapped (TP<->TN, FP<->FN)",
     "Geometric mean of the F2 score of class i and the F0.5 score of 'not class i', so all "
     "four cells count.", pycm="AGF", aliases=("adjusted_f_score",), refs=(R.MARATEA,),
     prefer="Imbalanced problems when you want an F-type score that does not ignore TN.",
     avoid="Reporting to readers who expect plain F1: it is less familiar.")
def agf(c: ClassCounts) -> np.ndarray:
    f2 = fbeta_values(c, 2.0, "agf")
    inv = fbeta_values(ClassCounts(c.tn, c.fn, c.fp, c.tp, c.div), 0.5, "agf")
    return np.sqrt(f2 * inv)


@declare("cba", "overall", "class balance accuracy", "imbalance",
         "CBA = (1/K) sum_i C[i, i] / max(TOP_i, P_i)",
         "Mean over classes of the smaller of precision and recall; low unless every class is "
         "both found and predicted cleanly.", pycm="CBA", aliases=("class_balance_accuracy",),
         refs=(R.MOSLEY,),
         prefer="Multi-class imbalanced problems where every class matters equally.",
         avoid="A class absent from both truth and prediction makes it undefined "
               "(zero_division).")
def cba(s: Stats) -> np.ndarray:
    per = s.div(s.tp, np.maximum(s.predicted, s.support), "cba")
    return per.mean(axis=-1)
