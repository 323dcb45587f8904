"""Metric registry and the metric families that register into it."""

from . import (  # noqa: F401  (registration side effects)  # noqa: F401  (the catalogue families; pycm_keys last)
    agreement,
    association,
    imbalance,
    information,
    overall,
    per_class,
    rates,
    significance,
)
from . import pycm_keys as _pycm_keys  # noqa: F401
from .registry import (
    AVERAGES,
    MetricSpec,
    PycmKey,
    evaluate,
    find_pycm,
    get_metric,
    list_metrics,
    pycm_keys,
    register,
)
from .stats import ClassCounts, Division, Stats, UndefinedMetricWarning

__all__ = [
    "AVERAGES",
    "ClassCounts",
    "Division",
    "MetricSpec",
    "PycmKey",
    "Stats",
    "UndefinedMetricWarning",
    "evaluate",
    "find_pycm",
    "get_metric",
    "list_metrics",
    "pycm_keys",
    "register",
]
