"""confmat: evaluate classifiers from their confusion matrix.

Rows of every confusion matrix are the true class and columns the predicted class.
"""

from .accumulator import Accumulator
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
    "classification_report",
    "get_metric",
    "hamming_loss",
    "list_metrics",
    "multilabel_confusion_matrix",
]
