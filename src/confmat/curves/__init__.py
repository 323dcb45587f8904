"""Scores and thresholds: ROC and precision-recall curves, AUC, threshold sweeps and choice.

One pipeline serves every function here::

    validate (inputs/ front door) -> sort the scores once -> cumulative counts at every
    distinct score -> a (T, 2, 2) stack of confusion tables -> any registry metric

**Decision rule.** A sample is predicted positive when ``score >= threshold`` (the rule of
Kneusel 2021's threshold table and of scikit-learn's curves). The thresholds of a curve are the
distinct scores in decreasing order; ROC curves start with ``+inf`` (nothing predicted positive).

**Table layout.** Every 2 x 2 table built here has rows = true class and columns = predicted
class, both ordered ``[negative, positive]``: ``[[TN, FP], [FN, TP]]``, the layout of
``sklearn.metrics.confusion_matrix`` for labels ``[0, 1]``.

The exact functions reproduce scikit-learn's ``roc_curve``, ``roc_auc_score``,
``precision_recall_curve`` and ``average_precision_score`` (ties, sample weights, the leading
``inf`` threshold, ``max_fpr`` with McClish's correction, one-vs-rest and one-vs-one averaging).
The binned, mergeable form for data that does not fit in memory lives in :mod:`confmat.binned`.

Modules: ``rank`` (the one sort and its compiled kernels), ``roc``, ``precision_recall``,
``multiclass`` (one-vs-rest / one-vs-one averaging), ``areas`` (:func:`roc_auc`,
:func:`average_precision`, :func:`roc_pr_curves`), ``sweep`` (threshold sweeps and choice) and
``common`` (checks shared with :mod:`confmat.binned`).

Tools of ROC smoothing and cost analysis exported here beside the curves: :func:`bandwidth`
(the kernel bandwidth rules of Silverman 1986, Scott 1992 and Sheather & Jones 1991, as R's
``bw.*``), :func:`fit_log_concave` (the log-concave density estimate of Dümbgen & Rufibach
2009) and :func:`probability_cost` (the operating condition of Drummond & Holte 2006's cost
curves).
"""

from .areas import average_precision, roc_auc, roc_pr_curves
from .bandwidth import BANDWIDTHS, bandwidth
from .calibration import Calibration, ReliabilityCurve, calibration
from .choice import ThresholdChoice, best_threshold
from .cost import probability_cost
from .logconcave import LogConcaveDensity, fit_log_concave
from .multiclass import OneVsRestROC, roc_curve_ovr
from .partial import partial_auc
from .precision_recall import PRCurve, precision_recall_curve
from .roc import ROCCurve, roc_curve
from .sweep import ThresholdSweep, threshold_sweep

__all__ = [
    "BANDWIDTHS",
    "Calibration",
    "LogConcaveDensity",
    "OneVsRestROC",
    "PRCurve",
    "ROCCurve",
    "ReliabilityCurve",
    "ThresholdChoice",
    "ThresholdSweep",
    "average_precision",
    "bandwidth",
    "best_threshold",
    "calibration",
    "fit_log_concave",
    "partial_auc",
    "precision_recall_curve",
    "probability_cost",
    "roc_auc",
    "roc_curve",
    "roc_curve_ovr",
    "roc_pr_curves",
    "threshold_sweep",
]
