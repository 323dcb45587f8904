"""A drop-in for scikit-learn's classification metrics: ``from confmat.sklearn import f1_score``.

Every function has scikit-learn's signature and behaviour (values, errors and warnings of the
same classes, ``zero_division`` semantics of scikit-learn 1.9); the computation is confmat's
own: labels go through confmat's input door, tables are counted by its kernels, ratios and
coefficients come from its metric registry and curves. scikit-learn is never imported at run
time, except for its ``UndefinedMetricWarning`` class when it is installed (so filters written
for scikit-learn keep working). See docs/sklearn.md ("Switching from scikit-learn").

Examples
--------
>>> from confmat.sklearn import f1_score, roc_auc_score
>>> f1_score([0, 1, 1, 0], [0, 1, 0, 0])
0.6666666666666666
>>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
0.75
"""

from __future__ import annotations

from .classification import (
    accuracy_score,
    balanced_accuracy_score,
    class_likelihood_ratios,
    cohen_kappa_score,
    hamming_loss,
    matthews_corrcoef,
    zero_one_loss,
)
from .confusion import confusion_matrix, multilabel_confusion_matrix
from .curves import confusion_matrix_at_thresholds, det_curve, precision_recall_curve, roc_curve
from .fscores import (
    f1_score,
    fbeta_score,
    jaccard_score,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
)
from .probabilities import brier_score_loss, log_loss
from .ranking import auc, average_precision_score, roc_auc_score, top_k_accuracy_score
from .report import classification_report

__all__ = [
    "accuracy_score",
    "auc",
    "average_precision_score",
    "balanced_accuracy_score",
    "brier_score_loss",
    "class_likelihood_ratios",
    "classification_report",
    "cohen_kappa_score",
    "confusion_matrix",
    "confusion_matrix_at_thresholds",
    "det_curve",
    "f1_score",
    "fbeta_score",
    "hamming_loss",
    "jaccard_score",
    "log_loss",
    "matthews_corrcoef",
    "multilabel_confusion_matrix",
    "precision_recall_curve",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "roc_auc_score",
    "roc_curve",
    "top_k_accuracy_score",
    "zero_one_loss",
]
