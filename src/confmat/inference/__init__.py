"""Uncertainty and comparison: confidence intervals for every metric, tests between classifiers
evaluated on the same samples, model comparison tables, and prior shift.

Modules: ``intervals`` (analytic intervals and the multinomial bootstrap on the counts),
``scores`` (ROC AUC / average precision: DeLong and the sample-level bootstrap), ``paired``
(McNemar, Stuart--Maxwell, Bowker, paired bootstrap, Holm), ``compare`` (model tables) and
``prior`` (re-weighting to another class prevalence).
"""

from .compare import Comparison, compare, compare_curves, compare_models
from .intervals import (
    METHODS,
    ConfidenceInterval,
    auto_method,
    confidence_interval,
    describe_methods,
    interval_methods,
    kappa_standard_error,
    proportion_interval,
)
from .paired import (
    PairedResult,
    TestResult,
    bowker,
    holm,
    mcnemar,
    paired_bootstrap,
    stuart_maxwell,
)
from .prior import at_prevalence, prevalence_ci
from .roc_ci import RocBand, RocCI, partial_auc_ci, roc_ci
from .roc_test import RocTestResult, roc_test
from .scores import DeLongResult, delong, score_ci, score_metric

__all__ = [
    "METHODS",
    "Comparison",
    "ConfidenceInterval",
    "DeLongResult",
    "PairedResult",
    "RocBand",
    "RocCI",
    "RocTestResult",
    "TestResult",
    "at_prevalence",
    "auto_method",
    "bowker",
    "compare",
    "compare_curves",
    "compare_models",
    "confidence_interval",
    "delong",
    "describe_methods",
    "holm",
    "interval_methods",
    "kappa_standard_error",
    "mcnemar",
    "paired_bootstrap",
    "partial_auc_ci",
    "prevalence_ci",
    "proportion_interval",
    "roc_ci",
    "roc_test",
    "score_ci",
    "score_metric",
    "stuart_maxwell",
]
