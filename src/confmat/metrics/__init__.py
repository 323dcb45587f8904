"""Metric registry and the metric families that register into it."""

from . import overall, per_class  # noqa: F401  (registration side effects)
from ._stats import ClassCounts, Division, Stats, UndefinedMetricWarning
from .registry import AVERAGES, MetricSpec, evaluate, get_metric, list_metrics, register

__all__ = [
    "AVERAGES",
    "ClassCounts",
    "Division",
    "MetricSpec",
    "Stats",
    "UndefinedMetricWarning",
    "evaluate",
    "get_metric",
    "list_metrics",
    "register",
]
