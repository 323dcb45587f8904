"""Uncertainty and comparison: confidence intervals for every metric, tests between classifiers
evaluated on the same samples, model comparison tables, and prior shift.

Modules: ``intervals`` (analytic intervals and the multinomial bootstrap on the counts),
``scores`` (ROC AUC / average precision: DeLong and the sample-level bootstrap), ``roc_var``
(variance and covariance of ROC areas, full or partial: pROC's ``var`` and ``cov``), ``paired``
(McNemar, Stuart--Maxwell, Bowker, paired bootstrap, Holm), ``kappa_test`` (kappa = 0),
``power_prop`` (power and sample size of two proportions: R's ``power.prop.test``),
``compare`` (model tables) and
``prior`` (re-weighting to another class prevalence).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_package

if TYPE_CHECKING:  # what the names below are, for type checkers
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
    from .kappa_test import kappa_test
    from .paired import (
        PairedResult,
        TestResult,
        bowker,
        holm,
        mcnemar,
        paired_bootstrap,
        stuart_maxwell,
    )
    from .power_prop import PropPowerResult, power_prop_test
    from .prior import at_prevalence, prevalence_ci
    from .roc_ci import RocBand, RocCI, partial_auc_ci, roc_ci
    from .roc_test import RocTestResult, roc_test
    from .roc_var import RocVariance, roc_cov, roc_var
    from .scores import DeLongResult, delong, score_ci, score_metric

#: public name -> the module that defines it, imported on first use (PEP 562): ``cm.ci`` loads
#: the intervals, not the model comparison or the ROC analysis
_EXPORTS = {
    "Comparison": ".compare",
    "compare": ".compare",
    "compare_curves": ".compare",
    "compare_models": ".compare",
    "METHODS": ".intervals",
    "ConfidenceInterval": ".intervals",
    "auto_method": ".intervals",
    "confidence_interval": ".intervals",
    "describe_methods": ".intervals",
    "interval_methods": ".intervals",
    "kappa_standard_error": ".intervals",
    "proportion_interval": ".intervals",
    "kappa_test": ".kappa_test",
    "PairedResult": ".paired",
    "TestResult": ".paired",
    "bowker": ".paired",
    "holm": ".paired",
    "mcnemar": ".paired",
    "paired_bootstrap": ".paired",
    "stuart_maxwell": ".paired",
    "PropPowerResult": ".power_prop",
    "power_prop_test": ".power_prop",
    "at_prevalence": ".prior",
    "prevalence_ci": ".prior",
    "RocBand": ".roc_ci",
    "RocCI": ".roc_ci",
    "partial_auc_ci": ".roc_ci",
    "roc_ci": ".roc_ci",
    "RocTestResult": ".roc_test",
    "roc_test": ".roc_test",
    "RocVariance": ".roc_var",
    "roc_cov": ".roc_var",
    "roc_var": ".roc_var",
    "DeLongResult": ".scores",
    "delong": ".scores",
    "score_ci": ".scores",
    "score_metric": ".scores",
}


__getattr__, __dir__ = lazy_package(__name__, _EXPORTS)

__all__ = [
    "METHODS",
    "Comparison",
    "ConfidenceInterval",
    "DeLongResult",
    "PairedResult",
    "PropPowerResult",
    "RocBand",
    "RocCI",
    "RocTestResult",
    "RocVariance",
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
    "kappa_test",
    "mcnemar",
    "paired_bootstrap",
    "partial_auc_ci",
    "power_prop_test",
    "prevalence_ci",
    "proportion_interval",
    "roc_ci",
    "roc_cov",
    "roc_test",
    "roc_var",
    "score_ci",
    "score_metric",
    "stuart_maxwell",
]
