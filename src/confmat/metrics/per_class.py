"""Per-class metrics: functions of one-vs-rest ``tp, fp, fn, tn`` (class on the last axis)."""

from __future__ import annotations

import numpy as np

from . import references as R
from .common import declare, memo, ovr_covariance, where_defined
from .stats import ClassCounts, Division

REF_SKLEARN = R.SKLEARN
REF_POWERS = R.POWERS
REF_FAWCETT = R.FAWCETT
REF_YAO = R.YAO
REF_KNEUSEL = R.KNEUSEL
REF_MATTHEWS = R.MATTHEWS
REF_RIJSBERGEN = R.RIJSBERGEN
REF_JACCARD = R.JACCARD
REF_GLAS = R.GLAS
REF_YOUDEN = R.YOUDEN
REF_KUBAT = R.KUBAT

PROPORTION = (0.0, 1.0)


def _f(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


def _count(name: str, full: str, formula: str, meaning: str, pycm: str | None, aliases=(),
           sklearn: str | None = "sklearn.metrics.multilabel_confusion_matrix"):
    return declare(
        name, "per_class", full, "counts", formula, meaning, refs=(REF_FAWCETT,),
        prefer="Reading the raw table; every other metric is built from these counts.",
        avoid="Comparing models on test sets of different sizes: use a rate instead.",
        rng=(0.0, float("inf")), hib=None, pycm=pycm, sklearn=sklearn, aliases=aliases,
        is_count=True,
    )


@_count("tp", "true positives", "TP_i = C[i, i]", "Samples of class i predicted as class i.", "TP",
        aliases=("true_positives",))
def tp(c: ClassCounts) -> np.ndarray:
    return c.tp


@_count("fn", "false negatives", "FN_i = sum_j C[i, j] - C[i, i]",
        "Samples of class i predicted as some other class (missed).", "FN",
        aliases=("false_negatives",))
def fn(c: ClassCounts) -> np.ndarray:
    return c.fn


@_count("fp", "false positives", "FP_i = sum_j C[j, i] - C[i, i]",
        "Samples of other classes predicted as class i (false alarms).", "FP",
        aliases=("false_positives",))
def fp(c: ClassCounts) -> np.ndarray:
    return c.fp


@_count("tn", "true negatives", "TN_i = N - TP_i - FN_i - FP_i",
        "Samples neither of class i nor predicted as class i.", "TN",
        aliases=("true_negatives",))
def tn(c: ClassCounts) -> np.ndarray:
    return c.tn


@_count("support", "support (actual positives)", "P_i = TP_i + FN_i = row sum i",
        "How many samples truly belong to class i.", "P", aliases=("actual_positives", "p"),
        sklearn="sklearn.metrics.precision_recall_fscore_support (support)")
def support(c: ClassCounts) -> np.ndarray:
    return c.support


@_count("predicted", "predicted positives", "TOP_i = TP_i + FP_i = column sum i",
        "How many samples the model assigned to class i.", "TOP",
        aliases=("predicted_positives", "top"), sklearn=None)
def predicted(c: ClassCounts) -> np.ndarray:
    return c.predicted


def _rate(name, full, formula, meaning, *, refs=(REF_FAWCETT,), rng=PROPORTION, hib=True,
          family="rates", prefer="", avoid="", **kw):
    return declare(name, "per_class", full, family, formula, meaning, refs=refs, prefer=prefer,
                   avoid=avoid, rng=rng, hib=hib, **kw)


@_rate("recall", "recall (true positive rate, sensitivity)", "TPR = TP / (TP + FN)",
       "Of the samples that truly are class i, the share the model found.",
       pycm="TPR", sklearn="sklearn.metrics.recall_score; imblearn.metrics.sensitivity_score",
       aliases=("tpr", "sensitivity", "hit_rate", "true_positive_rate"),
       refs=(REF_FAWCETT, REF_POWERS),
       prefer="Missing a positive is costly (disease screening, fraud).",
       avoid="Alone: predicting everything positive gives recall 1.")
def recall(c: ClassCounts) -> np.ndarray:
    return memo(c, "recall", lambda: c.div(c.tp, c.support, "recall"))


@_rate("specificity", "specificity (true negative rate)", "TNR = TN / (TN + FP)",
       "Of the samples that are not class i, the share correctly kept out of class i.",
       pycm="TNR", sklearn="imblearn.metrics.specificity_score",
       aliases=("tnr", "selectivity", "true_negative_rate"),
       prefer="False alarms are costly; pairs with recall.",
       avoid="Alone, or with very rare negatives.")
def specificity(c: ClassCounts) -> np.ndarray:
    return memo(c, "specificity", lambda: c.div(c.tn, c.negatives, "specificity"))


@_rate("precision", "precision (positive predictive value)", "PPV = TP / (TP + FP)",
       "Of the samples predicted as class i, the share that truly are class i.",
       pycm="PPV", sklearn="sklearn.metrics.precision_score",
       aliases=("ppv", "positive_predictive_value"),
       refs=(REF_FAWCETT, REF_POWERS),
       prefer="Acting on a prediction is costly (alerts a human must check).",
       avoid="Comparing across populations with different prevalence: PPV moves with the prior.")
def precision(c: ClassCounts) -> np.ndarray:
    return memo(c, "precision", lambda: c.div(c.tp, c.predicted, "precision"))


@_rate("npv", "negative predictive value", "NPV = TN / (TN + FN)",
       "Of the samples predicted as not class i, the share that truly are not class i.",
       pycm="NPV", aliases=("negative_predictive_value",),
       prefer="Ruling a condition out: how trustworthy a negative prediction is.",
       avoid="Comparing across populations with different prevalence.")
def npv(c: ClassCounts) -> np.ndarray:
    return memo(c, "npv", lambda: c.div(c.tn, c.tn + c.fn, "npv"))


@_rate("fpr", "false positive rate (fall-out)", "FPR = FP / (FP + TN) = 1 - TNR",
       "Of the samples that are not class i, the share wrongly put in class i.",
       pycm="FPR", aliases=("fall_out", "false_positive_rate"), hib=False,
       prefer="The x axis of the ROC curve; false alarms per negative case.",
       avoid="Rare negatives: a handful of samples make it jump.")
def fpr(c: ClassCounts) -> np.ndarray:
    return c.div(c.fp, c.negatives, "fpr")


@_rate("fnr", "false negative rate (miss rate)", "FNR = FN / (TP + FN) = 1 - TPR",
       "Of the samples that truly are class i, the share the model missed.",
       pycm="FNR", aliases=("miss_rate", "false_negative_rate"), hib=False,
       prefer="Stating the cost of misses directly (screening, safety).",
       avoid="Alone: predicting everything positive gives FNR 0.")
def fnr(c: ClassCounts) -> np.ndarray:
    return c.div(c.fn, c.support, "fnr")


@_rate("fdr", "false discovery rate", "FDR = FP / (TP + FP) = 1 - PPV",
       "Of the samples predicted as class i, the share that are not class i.",
       pycm="FDR", aliases=("false_discovery_rate",), hib=False,
       prefer="Many simultaneous positive calls (genomics, alerting): the share that are false.",
       avoid="Comparing across prevalences: like PPV it moves with the prior.")
def fdr(c: ClassCounts) -> np.ndarray:
    return c.div(c.fp, c.predicted, "fdr")


@_rate("for", "false omission rate", "FOR = FN / (FN + TN) = 1 - NPV",
       "Of the samples predicted as not class i, the share that truly are class i.",
       pycm="FOR", aliases=("false_omission_rate",), hib=False,
       prefer="Judging what is left behind by a filter (the positives among the rejected).",
       avoid="Comparing across prevalences: it moves with the prior.")
def false_omission_rate(c: ClassCounts) -> np.ndarray:
    return c.div(c.fn, c.fn + c.tn, "for")


def _check_beta(beta: float) -> None:
    if not isinstance(beta, int | float) or isinstance(beta, bool) or not np.isfinite(beta) or beta <= 0:
        raise ValueError(f"beta must be a positive finite number, got {beta!r}")


def fbeta_values(c: ClassCounts, beta: float, what: str) -> np.ndarray:
    """F-beta of one-vs-rest counts, shared by ``f1``, ``fbeta`` and the curves.

    Parameters
    ----------
    c : ClassCounts
        One-vs-rest counts.
    beta : float
        Weight of recall relative to precision.
    what : str
        Recorded when a value is undefined (``2 TP + FP + FN = 0``).

    Returns
    -------
    numpy.ndarray
        ``(1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP)`` per class.

    Examples
    --------
    >>> from confmat.metrics import Stats
    >>> from confmat.metrics.per_class import fbeta_values
    >>> fbeta_values(Stats([[5, 1], [2, 4]]).per_class, 1.0, "f1").round(4).tolist()
    [0.7692, 0.7273]
    """
    b2 = float(beta) ** 2
    return c.div((1 + b2) * c.tp, (1 + b2) * c.tp + b2 * c.fn + c.fp, what)


@_rate("f1", "F1 score", "F1 = 2 TP / (2 TP + FP + FN) = 2 PPV TPR / (PPV + TPR)",
       "Harmonic mean of precision and recall for class i.",
       pycm="F1", sklearn="sklearn.metrics.f1_score", aliases=("f1_score", "f_measure"),
       refs=(REF_RIJSBERGEN, REF_SKLEARN),
       prefer="Positives are rare and true negatives are uninteresting (retrieval, detection).",
       avoid="True negatives matter: F1 ignores TN entirely, so it can rank a worse model "
             "higher (Kneusel 2021 shows F1 above MCC and kappa for every model); prefer MCC.")
def f1(c: ClassCounts) -> np.ndarray:
    return fbeta_values(c, 1.0, "f1")


@_rate("fbeta", "F-beta score", "F_beta = (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP)",
       "Weighted harmonic mean of precision and recall; recall counts beta times as much.",
       sklearn="sklearn.metrics.fbeta_score", aliases=("f_beta", "fbeta_score"),
       refs=(REF_RIJSBERGEN, REF_SKLEARN), params={"beta": 1.0}, check=_check_beta,
       prefer="You can state how much more recall matters than precision (beta > 1) or less.",
       avoid="Same caveat as F1: true negatives are ignored.",
       notes="Yao et al. (2022) write the weight as 'a' and says a > 1 favours precision; in the "
             "formula it shows, a > 1 favours recall (the standard reading). PyCM keys "
             "'F0.5' and 'F2' are beta = 0.5 and 2.")
def fbeta(c: ClassCounts, beta: float = 1.0) -> np.ndarray:
    """F-beta score of each class (van Rijsbergen 1979).

    ``F_beta = (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP)``: the weighted harmonic mean of
    precision and recall.

    Parameters
    ----------
    c : ClassCounts
        One-vs-rest counts ``tp, fp, fn, tn`` with the class on the last axis
        (``Stats.per_class``).
    beta : float, default 1.0
        How many times recall counts as much as precision; 1 gives F1. Checked to be a positive
        finite number when the metric is called by name (``evaluate``, ``ConfusionMatrix.metric``).

    Returns
    -------
    numpy.ndarray
        Float64 values, one per class on the last axis, after the batch axes of the counts. Where
        ``2 TP + FP + FN`` is 0 the value is undefined and follows the ``zero_division`` policy of
        the counts.
    """
    return fbeta_values(c, beta, "fbeta")


@_rate("jaccard", "Jaccard index (threat score, critical success index)",
       "J = TP / (TP + FP + FN) = F1 / (2 - F1)",
       "Overlap between the samples of class i and the samples predicted as class i.",
       pycm="J", sklearn="sklearn.metrics.jaccard_score",
       aliases=("jaccard_index", "threat_score", "csi", "iou"), refs=(REF_JACCARD, REF_SKLEARN),
       prefer="Set overlap tasks (segmentation, retrieval) where TN is meaningless.",
       avoid="True negatives matter (like F1, it ignores TN).")
def jaccard(c: ClassCounts) -> np.ndarray:
    return c.div(c.tp, c.tp + c.fp + c.fn, "jaccard")


@_rate("informedness", "informedness (bookmaker informedness, Youden's J)",
       "BM = TPR + TNR - 1", "How much better than chance the model separates class i from the "
       "rest: 0 is chance, 1 perfect, -1 perfectly inverted.",
       pycm="BM", aliases=("bookmaker_informedness", "youden_j", "youden", "bm"),
       refs=(REF_POWERS, REF_YOUDEN), rng=(-1.0, 1.0),
       prefer="Prevalence should not influence the score (it is prevalence-independent).",
       avoid="Costs of misses and false alarms differ: it weighs TPR and TNR equally.")
def informedness(c: ClassCounts) -> np.ndarray:
    # = (TP TN - FP FN) / (P N): exact numerator, no cancellation of TPR + TNR against 1
    return where_defined(ovr_covariance(c), _f(c.support) * c.negatives,
                         lambda: recall(c) + specificity(c) - 1.0)


@_rate("markedness", "markedness", "MK = PPV + NPV - 1",
       "How much a prediction of class i (or not i) tells about the truth beyond chance.",
       pycm="MK", aliases=("mk", "deltap"), refs=(REF_POWERS,), rng=(-1.0, 1.0),
       prefer="Judging how informative the predictions are to someone who acts on them.",
       avoid="Comparing across prevalences: it moves with the prior, like PPV and NPV.")
def markedness(c: ClassCounts) -> np.ndarray:
    # = (TP TN - FP FN) / (TOP TON)
    return where_defined(ovr_covariance(c), _f(c.predicted) * (c.tn + c.fn),
                         lambda: precision(c) + npv(c) - 1.0)


@_rate("prevalence", "prevalence", "PRE = (TP + FN) / N",
       "Share of samples that truly belong to class i.", pycm="PRE", hib=None,
       family="counts",
       prefer="Reading any prevalence-dependent metric (PPV, NPV, accuracy): report it next to them.",
       avoid="Judging a model: it describes the data.")
def prevalence(c: ClassCounts) -> np.ndarray:
    return c.div(c.support, c.n, "prevalence")


@_rate("lr_plus", "positive likelihood ratio", "LR+ = TPR / FPR",
       "How many times more likely a positive prediction is for a true positive than for a "
       "true negative.", pycm="PLR", sklearn="sklearn.metrics.class_likelihood_ratios",
       aliases=("positive_likelihood_ratio", "plr"), refs=(REF_GLAS,), rng=(0.0, float("inf")),
       prefer="Diagnostic tests: it does not depend on prevalence.",
       avoid="Zero false positives: it is infinite (undefined here, zero_division applies).",
       notes="Undefined when FPR = 0; follows zero_division.")
def lr_plus(c: ClassCounts) -> np.ndarray:
    return c.div(recall(c), fpr(c), "lr_plus")


@_rate("lr_minus", "negative likelihood ratio", "LR- = FNR / TNR",
       "How many times more likely a negative prediction is for a true positive than for a "
       "true negative.", pycm="NLR", sklearn="sklearn.metrics.class_likelihood_ratios",
       aliases=("negative_likelihood_ratio", "nlr"), refs=(REF_GLAS,), rng=(0.0, float("inf")),
       hib=False,
       prefer="Ruling a condition out with a diagnostic test: prevalence-independent.",
       avoid="Zero specificity: it is undefined (zero_division applies).")
def lr_minus(c: ClassCounts) -> np.ndarray:
    return c.div(fnr(c), specificity(c), "lr_minus")


@_rate("dor", "diagnostic odds ratio", "DOR = LR+ / LR- = (TP TN) / (FP FN)",
       "Odds of a positive prediction for true positives over the same odds for negatives.",
       pycm="DOR", aliases=("diagnostic_odds_ratio",), refs=(REF_GLAS,), rng=(0.0, float("inf")),
       prefer="One prevalence-independent number for a diagnostic test (meta-analyses).",
       avoid="It hides which of sensitivity or specificity is weak; any empty cell breaks it.",
       notes="Undefined when LR- = 0 (no false negatives); follows zero_division.")
def dor(c: ClassCounts) -> np.ndarray:
    return c.div(lr_plus(c), lr_minus(c), "dor")


@_rate("class_accuracy", "per-class accuracy (diagonal of Kneusel's accuracy matrix)",
       "ACC_i = C[i, i] / sum_j C[i, j] = TPR_i",
       "The diagonal of the accuracy matrix of Kneusel (2021): the share of class i classified correctly.",
       refs=(REF_KNEUSEL,),
       prefer="Reading the accuracy matrix of Kneusel (2021).",
       avoid="Elsewhere: it is recall under another name; say 'recall' to avoid confusion with "
             "one-vs-rest accuracy.",
       notes="Equal to recall. PyCM's per-class 'ACC' is the one-vs-rest accuracy "
             "(TP + TN) / N, a different quantity.")
def class_accuracy(c: ClassCounts) -> np.ndarray:
    return c.div(c.tp, c.support, "class_accuracy")


def mcc_binary(tp, fp, fn, tn) -> np.ndarray:
    """MCC of 2 x 2 counts; 0 where the denominator vanishes (a constant prediction or truth).

    Parameters
    ----------
    tp, fp, fn, tn : array_like
        Counts, broadcast together (e.g. one entry per threshold).

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> from confmat.metrics.per_class import mcc_binary
    >>> round(float(mcc_binary(5, 2, 1, 4)), 4)  # (5*4 - 2*1) / sqrt(7*6*6*5)
    0.5071
    >>> float(mcc_binary(5, 5, 0, 0))
    0.0
    """
    return _mcc_of(ClassCounts(tp, fp, fn, tn, Division()))


def _mcc_of(c: ClassCounts) -> np.ndarray:
    num = ovr_covariance(c)  # TP TN - FP FN, formed exactly
    tp, fp, fn, tn = (np.asarray(a, dtype=np.float64) for a in (c.tp, c.fp, c.fn, c.tn))
    den = np.sqrt((tp + fp) * (tp + fn)) * np.sqrt((tn + fp) * (tn + fn))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den == 0, 0.0, num / np.where(den == 0, 1.0, den))


@_rate("class_mcc", "one-vs-rest Matthews correlation coefficient",
       "MCC_i = (TP TN - FP FN) / sqrt((TP + FP)(TP + FN)(TN + FP)(TN + FN))",
       "Correlation between 'is class i' and 'predicted as class i', using all four counts.",
       pycm="MCC", aliases=("ovr_mcc",), refs=(REF_MATTHEWS,), rng=(-1.0, 1.0),
       prefer="A single balanced per-class summary that uses TN (unlike F1).",
       avoid="Readers who need a rate: a correlation has no 'share of samples' reading.",
       notes="Zero denominator gives 0, as Yao et al. (2022) and Kneusel (2021) argue.")
def class_mcc(c: ClassCounts) -> np.ndarray:
    return _mcc_of(c)


@_rate("class_gmean", "one-vs-rest G-mean", "GM_i = sqrt(TPR_i TNR_i)",
       "Geometric mean of the recall of class i and of the rest: high only if both are high.",
       pycm="GM", aliases=("ovr_gmean",), refs=(REF_KUBAT, REF_YAO),
       sklearn="imblearn.metrics.geometric_mean_score (average=None); "
               "classification_report_imbalanced column 'geo'",
       prefer="Imbalanced binary problems (Yao et al. 2022: insensitive to the class distribution).",
       avoid="When precision matters: it never looks at false positives relative to TP.")
def class_gmean(c: ClassCounts) -> np.ndarray:
    return np.sqrt(recall(c) * specificity(c))
