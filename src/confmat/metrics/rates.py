"""More one-vs-rest rates and counts: the rest of PyCM's per-class table that is a simple
function of ``TP, FP, FN, TN``."""

from __future__ import annotations

import numpy as np

from . import references as R
from .common import INF, declare, where_defined
from .exact import exact_difference, largest
from .normal import z_quantile
from .per_class import npv, precision, recall, specificity
from .stats import ClassCounts


def _pc(name, full, formula, meaning, *, family="rates", **kw):
    return declare(name, "per_class", full, family, formula, meaning, **kw)


@_pc("negatives", "actual negatives", "N_i = FP_i + TN_i = N - P_i",
     "How many samples do not belong to class i.", family="counts", pycm="N",
     aliases=("actual_negatives",), rng=(0.0, INF), hib=None, is_count=True, refs=(R.FAWCETT,),
     prefer="Reading the one-vs-rest table of class i: the denominator of specificity and FPR.",
     avoid="Comparing test sets of different sizes: use prevalence instead.")
def negatives(c: ClassCounts) -> np.ndarray:
    return c.negatives


@_pc("predicted_negatives", "test outcome negatives", "TON_i = TN_i + FN_i = N - TOP_i",
     "How many samples the model did not assign to class i.", family="counts", pycm="TON",
     aliases=("ton", "test_outcome_negative"), rng=(0.0, INF), hib=None, is_count=True,
     refs=(R.PYCM,),
     prefer="Reading the one-vs-rest table: the denominator of NPV and FOR.",
     avoid="Comparing test sets of different sizes.")
def predicted_negatives(c: ClassCounts) -> np.ndarray:
    return c.tn + c.fn


@_pc("class_errors", "Hamming distance (errors involving class i)", "HD_i = FP_i + FN_i",
     "How many samples are wrong with respect to class i: missed or falsely assigned.",
     family="counts", pycm="HD", aliases=("hamming_distance", "hd"), rng=(0.0, INF), hib=False,
     is_count=True, refs=(R.HAMMING,),
     prefer="Counting where the errors of one class are, before turning them into rates.",
     avoid="Comparing classes of different sizes: use the one-vs-rest error rate.")
def class_errors(c: ClassCounts) -> np.ndarray:
    return c.fp + c.fn


@_pc("automatic_manual", "automatic/manual difference", "AM_i = TOP_i - P_i = FP_i - FN_i",
     "How many more samples the model assigns to class i than truly belong to it; positive "
     "means over-prediction, negative under-prediction.", family="counts", pycm="AM",
     aliases=("am",), rng=(-INF, INF), hib=None, is_count=True, refs=(R.PYCM,),
     prefer="Checking whether a model systematically over- or under-predicts a class "
            "(e.g. counting objects where only totals matter).",
     avoid="Judging accuracy: errors in both directions cancel, so AM = 0 does not mean correct.")
def automatic_manual(c: ClassCounts) -> np.ndarray:
    return c.fp - c.fn  # TOP - P without the cancellation of two rounded sums


@_pc("ovr_accuracy", "one-vs-rest accuracy", "ACC_i = (TP_i + TN_i) / N",
     "Share of all samples on which the model is right about 'class i or not'.", pycm="ACC",
     aliases=("ovr_acc",), refs=(R.PYCM, R.SOKOLOVA),
     prefer="Reproducing PyCM's per-class ACC, or a binary problem read as class i versus rest.",
     avoid="Imbalanced or many-class problems: TN dominates, so every class looks accurate.",
     notes="Not the per-class accuracy of Kneusel (2021) (that is recall, 'class_accuracy'). Its "
           "macro average is PyCM's 'ACC Macro'.")
def ovr_accuracy(c: ClassCounts) -> np.ndarray:
    return c.div(c.tp + c.tn, c.n, "ovr_accuracy")


@_pc("ovr_error_rate", "one-vs-rest error rate", "ERR_i = (FP_i + FN_i) / N = 1 - ACC_i",
     "Share of all samples on which the model is wrong about 'class i or not'.", pycm="ERR",
     aliases=("ovr_err",), hib=False, refs=(R.PYCM, R.SOKOLOVA),
     prefer="Reproducing PyCM's per-class ERR.",
     avoid="Imbalanced problems, for the same reason as one-vs-rest accuracy.")
def ovr_error_rate(c: ClassCounts) -> np.ndarray:
    return c.div(c.fp + c.fn, c.n, "ovr_error_rate")


@_pc("predicted_rate", "test outcome positive rate (detection prevalence)",
     "TOPR_i = TOP_i / N = (TP_i + FP_i) / N",
     "Share of samples the model assigns to class i; compare it with the prevalence.",
     pycm="TOPR", aliases=("topr", "detection_prevalence"), hib=None, family="counts",
     refs=(R.PYCM,),
     prefer="Checking calibration of class frequencies (does the model predict class i as often "
            "as it occurs?).",
     avoid="Judging correctness: it ignores whether the assignments are right.")
def predicted_rate(c: ClassCounts) -> np.ndarray:
    return c.div(c.predicted, c.n, "predicted_rate")


@_pc("lift", "lift score", "LS_i = PPV_i / PRE_i",
     "How many times more often a sample predicted as class i is truly class i than a sample "
     "drawn at random.", pycm="LS", aliases=("lift_score",), rng=(0.0, INF), refs=(R.TUFFERY,),
     prefer="Marketing or screening: how much better than random targeting the model is.",
     avoid="Comparing across data sets with different prevalence: the maximum lift is 1/PRE.")
def lift(c: ClassCounts) -> np.ndarray:
    return c.div(precision(c), c.div(c.support, c.n, "lift"), "lift")


@_pc("icsi", "individual classification success index", "ICSI_i = PPV_i + TPR_i - 1",
     "Precision plus recall minus one: 1 for a perfect class, -1 when the class is never "
     "found and never correctly predicted.", pycm="ICSI", aliases=("class_success_index",),
     rng=(-1.0, 1.0), refs=(R.PYCM,),
     prefer="A per-class score that, like F1, ignores TN but is linear in precision and recall; "
            "its macro average is PyCM's overall 'CSI'.",
     avoid="True negatives matter: like F1 it never looks at them.")
def icsi(c: ClassCounts) -> np.ndarray:
    # = (TP^2 - FP FN) / (TOP P): exact numerator, no cancellation of PPV + TPR against 1
    def compute():
        tp, fp, fn = np.broadcast_arrays(c.tp, c.fp, c.fn)
        bound = largest(c.n) ** 2 if tp.dtype.kind in "iu" else 0
        return exact_difference(lambda tp, fp, fn: (tp * tp, fp * fn), (tp, fp, fn), bound)[0]

    return where_defined(compute(), np.asarray(c.predicted, np.float64) * c.support,
                         lambda: precision(c) + recall(c) - 1.0)


@_pc("class_aupr", "single-threshold area under the precision-recall curve",
     "AUPR_i = (PPV_i + TPR_i) / 2",
     "The area under the precision-recall 'curve' through the one operating point of a "
     "hard classifier: the mean of precision and recall.", pycm="AUPR",
     aliases=("aupr_single",), refs=(R.PYCM,),
     prefer="Reproducing PyCM's AUPR for hard predictions.",
     avoid="Scored models: compute the real precision-recall curve from scores instead; one "
           "point hides the curve's shape (Kneusel's 2021 complaint about AUC applies doubly).")
def class_aupr(c: ClassCounts) -> np.ndarray:
    return (precision(c) + recall(c)) / 2.0


@_pc("random_accuracy", "random accuracy", "RACC_i = TOP_i P_i / N^2",
     "Share of samples expected on cell (i, i) if predictions were independent of the truth "
     "with the same marginals; the chance term of Cohen's kappa.", pycm="RACC",
     family="agreement", hib=None, refs=(R.PYCM, "Cohen, J. (1960), A coefficient of "
                                          "agreement for nominal scales, Educ. Psychol. Meas. "
                                          "20(1)."),
     prefer="Understanding how much of the accuracy is expected by chance.",
     avoid="Judging a model: it measures the marginals, not the model's skill.")
def random_accuracy(c: ClassCounts) -> np.ndarray:
    return c.div(c.predicted.astype(np.float64) * c.support, c.n.astype(np.float64) ** 2,
                 "random_accuracy")


@_pc("random_accuracy_unbiased", "unbiased random accuracy",
     "RACCU_i = ((TOP_i + P_i) / (2 N))^2",
     "Chance agreement on class i when truth and prediction share one pooled distribution; "
     "the chance term of Scott's pi.", pycm="RACCU", family="agreement", hib=None,
     refs=(R.PYCM, R.SCOTT),
     prefer="Understanding Scott's pi and Krippendorff's alpha.",
     avoid="Judging a model on its own.")
def random_accuracy_unbiased(c: ClassCounts) -> np.ndarray:
    return c.div(np.asarray(c.predicted, np.float64) + c.support, 2.0 * c.n,
                 "random_accuracy_unbiased") ** 2


# --------------------------------------------------------------------- set similarity
def _sim(name, full, formula, meaning, **kw):
    return _pc(name, full, formula, meaning, family="similarity", **kw)


@_sim("g_measure", "G-measure (Fowlkes-Mallows index, Otsuka-Ochiai coefficient)",
      "G_i = sqrt(PPV_i TPR_i) = TP_i / sqrt(TOP_i P_i)",
      "Geometric mean of precision and recall: the cosine similarity between the set of "
      "class-i samples and the set of samples predicted as class i.", pycm="G",
      aliases=("fowlkes_mallows", "ochiai", "otsuka_ochiai"), refs=(R.FOWLKES, R.POWERS),
      prefer="A symmetric precision/recall summary less dominated by the smaller of the two "
             "than F1.",
      avoid="True negatives matter: it ignores TN.",
      notes="PyCM's 'G' and 'OOC' are the same quantity; both keys map here.")
def g_measure(c: ClassCounts) -> np.ndarray:
    return np.sqrt(precision(c) * recall(c))


@_sim("overlap_coefficient", "overlap coefficient (Szymkiewicz-Simpson)",
      "OC_i = TP_i / min(TOP_i, P_i)",
      "Overlap of the true and predicted sets of class i relative to the smaller set: 1 when "
      "one set contains the other.", pycm="OC", aliases=("szymkiewicz_simpson",),
      refs=(R.VIJAYMEENA,),
      prefer="Checking whether predictions of class i are a subset (or superset) of the truth.",
      avoid="Judging a classifier: predicting class i once, correctly, already scores 1.")
def overlap_coefficient(c: ClassCounts) -> np.ndarray:
    return c.div(c.tp, np.minimum(c.predicted, c.support), "overlap_coefficient")


@_sim("braun_blanquet", "Braun-Blanquet similarity", "BB_i = TP_i / max(TOP_i, P_i)",
      "Overlap of the true and predicted sets of class i relative to the larger set; the "
      "smaller of precision and recall.", pycm="BB", refs=(R.VIJAYMEENA,),
      prefer="A strict set similarity: high only if both precision and recall are high.",
      avoid="True negatives matter: it ignores TN.")
def braun_blanquet(c: ClassCounts) -> np.ndarray:
    return c.div(c.tp, np.maximum(c.predicted, c.support), "braun_blanquet")


@_sim("bray_curtis", "Bray-Curtis dissimilarity", "BCD_i = |TOP_i - P_i| / (2 N)",
      "How different the predicted and true counts of class i are, as a share of twice the "
      "sample size; 0 when the model predicts class i exactly as often as it occurs.",
      pycm="BCD", hib=False, rng=(0.0, 0.5), refs=(R.BRAY_CURTIS,),
      prefer="Comparing predicted and true class frequencies (quantification).",
      avoid="Judging correctness: a model can match the counts while being wrong on every "
            "sample.")
def bray_curtis(c: ClassCounts) -> np.ndarray:
    return c.div(np.abs(c.fp - c.fn), 2.0 * c.n, "bray_curtis")


__all__ = ["npv", "specificity"]


@declare("jaccard_sum", "overall", "sum of the per-class Jaccard indices", "similarity",
         "sum_i J_i (the first element of PyCM's 'Overall J'; the second is the macro mean)",
         "The Jaccard indices of all classes added up; K times the macro-averaged Jaccard "
         "index.", rng=(0.0, INF), refs=(R.PYCM,),
         prefer="Reproducing PyCM's 'Overall J'.",
         avoid="Comparing problems with different numbers of classes: use "
               "metric('jaccard', average='macro').",
         notes="PyCM reports 'Overall J' as the pair (sum, mean); confmat maps the pair to "
               "jaccard_sum and jaccard with average='macro'.")
def jaccard_sum(s) -> np.ndarray:
    from .per_class import jaccard

    return jaccard(s.per_class).sum(axis=-1)


# --------------------------------------------------------------------- PyCM's parametrised
# per-class methods (ConfusionMatrix.TI, .NB, .sensitivity_index): not in class_stat, but
# users of PyCM call them.
def _check_weights(**kw) -> None:
    for k, v in kw.items():
        if isinstance(v, bool) or not isinstance(v, int | float) or not np.isfinite(v) or v < 0:
            raise ValueError(f"{k} must be a non-negative finite number, got {v!r}")


@_sim("tversky_index", "Tversky index", "TI_i = TP_i / (TP_i + alpha FN_i + beta FP_i)",
      "An asymmetric set similarity between the true and predicted sets of class i: alpha "
      "prices misses, beta false alarms; alpha = beta = 0.5 gives F1, alpha = beta = 1 the "
      "Jaccard index.", params={"alpha": 0.5, "beta": 0.5},
      check=lambda alpha=0.5, beta=0.5: _check_weights(alpha=alpha, beta=beta),
      aliases=("ti",), refs=("Tversky, A. (1977), Features of similarity, Psychol. Rev. 84(4).",
                             R.PYCM),
      prefer="Segmentation or retrieval where misses and false alarms have different costs.",
      avoid="True negatives matter: it ignores TN.",
      notes="PyCM's ConfusionMatrix.TI(alpha, beta).")
def tversky_index(c: ClassCounts, alpha: float = 0.5, beta: float = 0.5) -> np.ndarray:
    """Tversky index of each class (Tversky 1977), ``TP / (TP + alpha FN + beta FP)``.

    Parameters
    ----------
    c : ClassCounts
        One-vs-rest counts ``tp, fp, fn, tn`` with the class on the last axis
        (``Stats.per_class``).
    alpha : float, default 0.5
        Price of a miss (false negative).
    beta : float, default 0.5
        Price of a false alarm (false positive). ``alpha = beta = 0.5`` gives F1 and
        ``alpha = beta = 1`` the Jaccard index. Both are checked to be non-negative finite
        numbers when the metric is called by name (``evaluate``, ``ConfusionMatrix.metric``).

    Returns
    -------
    numpy.ndarray
        Float64 values, one per class on the last axis, after the batch axes of the counts. Where
        the denominator is 0 the value is undefined and follows the ``zero_division`` policy of the
        counts.
    """
    return c.div(c.tp, c.tp + alpha * np.asarray(c.fn, np.float64) + beta * c.fp,
                 "tversky_index")


@_pc("net_benefit", "net benefit (decision curve analysis)", "NB_i = (TP_i - w FP_i) / N",
     "True positives per sample minus false positives per sample priced at w, the odds of "
     "the decision threshold: the clinical value of acting on the predictions.",
     params={"w": 1.0}, check=lambda w=1.0: _check_weights(w=w), rng=(-INF, 1.0),
     refs=("Vickers, A. J., Elkin, E. B. (2006), Decision curve analysis: a novel method for "
           "evaluating prediction models, Med. Decis. Making 26(6).", R.PYCM),
     prefer="Deciding whether acting on the model beats treating all or none, at a stated "
            "threshold odds w = p_t / (1 - p_t).",
     avoid="Without a meaningful threshold: w fixes the trade-off and the value moves with it.",
     notes="PyCM's ConfusionMatrix.NB(w).")
def net_benefit(c: ClassCounts, w: float = 1.0) -> np.ndarray:
    """Net benefit of each class (Vickers and Elkin 2006), ``(TP - w FP) / N``.

    Parameters
    ----------
    c : ClassCounts
        One-vs-rest counts ``tp, fp, fn, tn`` with the class on the last axis
        (``Stats.per_class``).
    w : float, default 1.0
        Price of a false positive in true positives: the odds ``p_t / (1 - p_t)`` of the decision
        threshold ``p_t``. Checked to be a non-negative finite number when the metric is called by
        name (``evaluate``, ``ConfusionMatrix.metric``).

    Returns
    -------
    numpy.ndarray
        Float64 values, one per class on the last axis, after the batch axes of the counts. A table
        with no samples is undefined and follows the ``zero_division`` policy of the counts.
    """
    # TP - w FP as (TP - FP) + (1 - w) FP: exact for the default w = 1
    fp = np.asarray(c.fp, np.float64)
    return c.div(np.asarray(c.tp - c.fp, np.float64) + (1.0 - w) * fp, c.n, "net_benefit")


def _probit(p: np.ndarray) -> np.ndarray:
    return z_quantile(p)


@_pc("sensitivity_index", "sensitivity index d' (signal detection)",
     "d'_i = Phi^-1(TPR_i) - Phi^-1(FPR_i)",
     "Separation between the classes in standard deviations of an equal-variance Gaussian "
     "model: 0 is chance, larger is better.", aliases=("d_prime", "dprime"),
     rng=(-INF, INF),
     refs=("Macmillan, N. A., Creelman, C. D. (2005), Detection Theory: A User's Guide, 2nd "
           "ed., Erlbaum.", R.PYCM),
     prefer="Comparing detectors independently of their threshold, under the Gaussian model.",
     avoid="Rates of exactly 0 or 1: the probits are infinite (undefined here).",
     notes="PyCM's ConfusionMatrix.sensitivity_index(); undefined (zero_division) when TPR or "
           "FPR is 0 or 1.")
def sensitivity_index(c: ClassCounts) -> np.ndarray:
    from .common import undefined
    from .per_class import fnr, fpr

    # each probit taken on the smaller tail (Phi^-1(TPR) = -Phi^-1(FNR)), both rates formed
    # from the counts: a rate that rounds to 1 in float64 keeps its value
    t, f = recall(c), fpr(c)
    miss, tnr = fnr(c), specificity(c)
    nan = np.isnan(t) | np.isnan(f)
    bad = ((np.asarray(c.tp) <= 0) | (np.asarray(c.fn) <= 0) | (np.asarray(c.fp) <= 0)
           | (np.asarray(c.tn) <= 0)) & ~nan
    hit = np.where(t > 0.5, -_probit(np.where(bad | nan, 0.5, miss)),
                   _probit(np.where(bad | nan, 0.5, t)))
    alarm = np.where(f > 0.5, -_probit(np.where(bad | nan, 0.5, tnr)),
                     _probit(np.where(bad | nan, 0.5, f)))
    value = np.where(nan, np.nan, hit - alarm)
    return undefined(c.div, value, bad, "sensitivity_index")
