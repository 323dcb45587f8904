"""confmat: evaluate classifiers from their confusion matrix.

Rows of every confusion matrix are the true class and columns the predicted class.
"""

from .accumulator import Accumulator
from .inference import (
    bowker,
    compare,
    delong,
    mcnemar,
    paired_bootstrap,
    score_ci,
    stuart_maxwell,
)
from .matrix import ConfusionMatrix
from .metrics import MetricSpec, UndefinedMetricWarning, get_metric, list_metrics
from .multilabel import hamming_loss, multilabel_confusion_matrix
from .report import classification_report

__version__ = "0.1.0"

__all__ = [
    "Accumulator",
    "ConfusionMatrix",
    "MetricSpec",
    "UndefinedMetricWarning",
    "__version__",
    "bowker",
    "classification_report",
    "compare",
    "delong",
    "get_metric",
    "hamming_loss",
    "list_metrics",
    "mcnemar",
    "multilabel_confusion_matrix",
    "paired_bootstrap",
    "score_ci",
    "stuart_maxwell",
]
