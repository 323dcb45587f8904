"""confmat: evaluate classifiers from their confusion matrix.

Rows of every confusion matrix are the true class and columns the predicted class.
"""

from .accumulator import Accumulator
from .binned import ScoreHistogram
from .curves import (
    OneVsRestROC,
    PRCurve,
    ROCCurve,
    ThresholdChoice,
    ThresholdSweep,
    average_precision,
    best_threshold,
    precision_recall_curve,
    roc_auc,
    roc_curve,
    roc_curve_ovr,
    threshold_sweep,
)
from .explain import explain
from .inference import (
    bowker,
    compare,
    compare_models,
    delong,
    mcnemar,
    paired_bootstrap,
    score_ci,
    stuart_maxwell,
)
from .matrix import ConfusionMatrix
from .metrics import MetricSpec, UndefinedMetricWarning, get_metric, list_metrics
from .metrics.scales import interpret, list_scales
from .multilabel import hamming_loss, multilabel_confusion_matrix
from .report import build_comparison, build_report, classification_report
from .version import __version__


def _fill_hooks() -> None:
    """Give the core the conveniences that layers above it implement (``cm.ci``, ``str(cm)``,
    ``cm._repr_html_``, Dask inputs): see :mod:`confmat.hooks` and docs/architecture.md."""
    from . import dask, hooks
    from .inference import at_prevalence, confidence_interval
    from .report.render_html import matrix_html
    from .report.render_text import matrix_text

    hooks.CONFIDENCE_INTERVAL.fill(confidence_interval)
    hooks.AT_PREVALENCE.fill(at_prevalence)
    hooks.MATRIX_TEXT.fill(matrix_text)
    hooks.MATRIX_HTML.fill(matrix_html)
    hooks.DASK_CONFUSION_COUNTS.fill(dask.confusion_counts)
    hooks.DASK_ACCUMULATE.fill(dask.accumulate)


_fill_hooks()

__all__ = [
    "Accumulator",
    "ConfusionMatrix",
    "MetricSpec",
    "OneVsRestROC",
    "PRCurve",
    "ROCCurve",
    "ScoreHistogram",
    "ThresholdChoice",
    "ThresholdSweep",
    "UndefinedMetricWarning",
    "__version__",
    "average_precision",
    "best_threshold",
    "bowker",
    "build_comparison",
    "build_report",
    "classification_report",
    "compare",
    "compare_models",
    "delong",
    "explain",
    "get_metric",
    "hamming_loss",
    "interpret",
    "list_metrics",
    "list_scales",
    "mcnemar",
    "multilabel_confusion_matrix",
    "paired_bootstrap",
    "precision_recall_curve",
    "roc_auc",
    "roc_curve",
    "roc_curve_ovr",
    "score_ci",
    "stuart_maxwell",
    "threshold_sweep",
]
