"""confmat: evaluate classifiers from their confusion matrix.

Rows of every confusion matrix are the true class and columns the predicted class.

The package root imports lazily: ``import confmat`` loads only the version and the hooks, and
a name such as ``confmat.ConfusionMatrix`` imports its layer on first access (PEP 562). The
conveniences of the core that higher layers implement (``cm.ci``, ``str(cm)``, Dask inputs)
are loaded on first use through :mod:`confmat.hooks` (see docs/architecture.md).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from . import hooks
from .lazy import lazy_package
from .version import __version__

if TYPE_CHECKING:  # what the names below are, for type checkers
    from .accumulator import Accumulator, GroupedAccumulator
    from .binned import ScoreHistogram
    from .curves import (
        OneVsRestROC,
        PRCurve,
        ROCCurve,
        ThresholdChoice,
        ThresholdSweep,
        average_precision,
        best_threshold,
        partial_auc,
        precision_recall_curve,
        roc_auc,
        roc_curve,
        roc_curve_ovr,
        threshold_sweep,
    )
    from .curves.best import BestThresholds, best_thresholds
    from .curves.calibration import Calibration, calibration
    from .curves.cost import CostCurve, cost_curve
    from .curves.gain import GainCurve, KSResult, gain_curve, ks_statistic, lift_curve
    from .curves.multiclass_roc import MulticlassROC, multiclass_roc
    from .curves.smooth import SmoothROC, smooth_roc
    from .explain import explain
    from .groups.api import by_group
    from .groups.evaluation import GroupedEvaluation
    from .groups.intervals import GroupedIntervals
    from .inference import (
        RocBand,
        RocCI,
        RocTestResult,
        bowker,
        compare_models,
        delong,
        kappa_test,
        mcnemar,
        paired_bootstrap,
        partial_auc_ci,
        roc_cov,
        roc_var,
        score_ci,
        stuart_maxwell,
    )
    from .inference.compare import compare
    from .inference.power import (
        PowerResult,
        power_roc_test,
        power_roc_test_binormal,
        power_roc_test_variances,
    )
    from .inference.power_data import power_roc_test_data
    from .inference.power_prop import power_prop_test
    from .inference.roc_ci import roc_ci
    from .inference.roc_test import roc_test
    from .matrix import ConfusionMatrix
    from .metrics import MetricSpec, UndefinedMetricWarning, get_metric, list_metrics
    from .metrics.scales import interpret, list_scales
    from .multilabel import hamming_loss, multilabel_confusion_matrix
    from .report import build_comparison, build_report
    from .report.classification_report import classification_report

#: public name -> the module that defines it
_EXPORTS = {
    "multiclass_roc": ".curves.multiclass_roc",
    "MulticlassROC": ".curves.multiclass_roc",
    "power_prop_test": ".inference.power_prop",
    "power_roc_test": ".inference.power",
    "power_roc_test_binormal": ".inference.power",
    "power_roc_test_data": ".inference.power_data",
    "power_roc_test_variances": ".inference.power",
    "PowerResult": ".inference.power",
    "smooth_roc": ".curves.smooth",
    "SmoothROC": ".curves.smooth",
    "best_thresholds": ".curves.best",
    "BestThresholds": ".curves.best",
    "gain_curve": ".curves.gain",
    "lift_curve": ".curves.gain",
    "GainCurve": ".curves.gain",
    "ks_statistic": ".curves.gain",
    "KSResult": ".curves.gain",
    "cost_curve": ".curves.cost",
    "CostCurve": ".curves.cost",
    "GroupedAccumulator": ".accumulator",
    "calibration": ".curves.calibration",
    "Calibration": ".curves.calibration",
    "by_group": ".groups.api",
    "GroupedEvaluation": ".groups.evaluation",
    "GroupedIntervals": ".groups.intervals",
    "partial_auc": ".curves",
    "roc_ci": ".inference",
    "partial_auc_ci": ".inference",
    "roc_test": ".inference",
    "roc_var": ".inference",
    "RocCI": ".inference",
    "RocBand": ".inference",
    "RocTestResult": ".inference",
    "Accumulator": ".accumulator",
    "ConfusionMatrix": ".matrix",
    "MetricSpec": ".metrics",
    "OneVsRestROC": ".curves",
    "PRCurve": ".curves",
    "ROCCurve": ".curves",
    "ScoreHistogram": ".binned",
    "ThresholdChoice": ".curves",
    "ThresholdSweep": ".curves",
    "UndefinedMetricWarning": ".metrics",
    "average_precision": ".curves",
    "best_threshold": ".curves",
    "bowker": ".inference",
    "build_comparison": ".report",
    "build_report": ".report",
    "classification_report": ".report",
    "compare": ".inference",
    "compare_models": ".inference",
    "delong": ".inference",
    "explain": ".explain",
    "get_metric": ".metrics",
    "hamming_loss": ".multilabel",
    "interpret": ".metrics.scales",
    "kappa_test": ".inference",
    "list_metrics": ".metrics",
    "list_scales": ".metrics.scales",
    "mcnemar": ".inference",
    "multilabel_confusion_matrix": ".multilabel",
    "paired_bootstrap": ".inference",
    "precision_recall_curve": ".curves",
    "roc_auc": ".curves",
    "roc_cov": ".inference",
    "roc_curve": ".curves",
    "roc_curve_ovr": ".curves",
    "score_ci": ".inference",
    "stuart_maxwell": ".inference",
    "threshold_sweep": ".curves",
}

#: the subpackages and modules ``confmat.<name>`` reaches without an explicit import
_MODULES = frozenset({
    "accumulator", "binned", "cli", "counting", "curves", "dask", "deps", "explain", "groups",
    "hooks", "inference", "inputs", "io", "matrix", "metrics", "multilabel", "plots", "report",
    "sklearn", "sklearn_scorers", "version",
})


#: the names above and the subpackages, imported on first access; a submodule that shares a
#: public name (``confmat/explain.py``) never replaces it (:mod:`confmat.lazy`)
__getattr__, __dir__ = lazy_package(__name__, _EXPORTS, _MODULES)


def _load_hook(hook: hooks.Hook) -> None:
    """Fill a hook of the core with its provider's function (the package root sits above every
    layer, so it may import the provider): see :mod:`confmat.hooks`."""
    provider = importlib.import_module(hook.provider)
    hook.fill(getattr(provider, hook.attribute))


hooks.set_loader(_load_hook)

__all__ = [
    "Accumulator",
    "BestThresholds",
    "Calibration",
    "ConfusionMatrix",
    "CostCurve",
    "GainCurve",
    "GroupedAccumulator",
    "GroupedEvaluation",
    "GroupedIntervals",
    "KSResult",
    "MetricSpec",
    "MulticlassROC",
    "OneVsRestROC",
    "PRCurve",
    "PowerResult",
    "ROCCurve",
    "RocBand",
    "RocCI",
    "RocTestResult",
    "ScoreHistogram",
    "SmoothROC",
    "ThresholdChoice",
    "ThresholdSweep",
    "UndefinedMetricWarning",
    "__version__",
    "average_precision",
    "best_threshold",
    "best_thresholds",
    "bowker",
    "build_comparison",
    "build_report",
    "by_group",
    "calibration",
    "classification_report",
    "compare",
    "compare_models",
    "cost_curve",
    "delong",
    "explain",
    "gain_curve",
    "get_metric",
    "hamming_loss",
    "interpret",
    "kappa_test",
    "ks_statistic",
    "lift_curve",
    "list_metrics",
    "list_scales",
    "mcnemar",
    "multiclass_roc",
    "multilabel_confusion_matrix",
    "paired_bootstrap",
    "partial_auc",
    "partial_auc_ci",
    "power_prop_test",
    "power_roc_test",
    "power_roc_test_binormal",
    "power_roc_test_data",
    "power_roc_test_variances",
    "precision_recall_curve",
    "roc_auc",
    "roc_ci",
    "roc_cov",
    "roc_curve",
    "roc_curve_ovr",
    "roc_test",
    "roc_var",
    "score_ci",
    "smooth_roc",
    "stuart_maxwell",
    "threshold_sweep",
]
