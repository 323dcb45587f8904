"""Metric registry and the metric families that register into it.

Every metric is declared once, in one of the family modules (``per_class``, ``rates``,
``overall``, ``agreement``, ``association``, ``information``, ``imbalance``,
``significance``), as a pure function of counts decorated with its metadata::

    @declare("recall", "per_class", "recall (true positive rate, sensitivity)", "rates",
             "TPR = TP / (TP + FN)", "Share of class i that is found.", refs=(R.FAWCETT,),
             prefer="...", avoid="...", pycm="TPR", sklearn="sklearn.metrics.recall_score")
    def recall(c: ClassCounts) -> np.ndarray:
        return c.div(c.tp, c.tp + c.fn, "recall")

These registered functions share one documented pattern instead of a docstring each:

Parameters
    A per-class metric takes a :class:`ClassCounts` (one-vs-rest ``tp, fp, fn, tn``, class on
    the last axis); an overall metric, or a per-class one declared ``uses_table=True``, takes
    a :class:`Stats`. Further keyword parameters (``beta``, ``weights``, ``z``, ...) are listed
    with their defaults in the spec's ``params`` and validated by its ``check``.
Returns
    A float64 array with the batch shape of the counts (plus the class axis for per-class
    metrics). Undefined values follow the ``zero_division`` policy of the counts'
    :class:`Division`.
Raises
    ``ValueError``/``TypeError`` from the spec's ``check`` for a bad parameter.
Documentation
    The formula, meaning, range, references, when to prefer and avoid the metric and its
    scikit-learn and PyCM counterparts are fields of its :class:`MetricSpec`
    (``get_metric(name).describe()``, ``confmat.explain(name)``, ``docs/metrics.md``).

Users call metrics by name, through :func:`evaluate` or ``ConfusionMatrix.metric``, rather
than calling the functions directly.

Examples
--------
>>> from confmat.metrics import Stats, evaluate, get_metric
>>> s = Stats([[5, 1], [2, 4]])
>>> evaluate("recall", s).round(4).tolist()
[0.8333, 0.6667]
>>> get_metric("recall").func(s.per_class).round(4).tolist()
[0.8333, 0.6667]
>>> get_metric("recall").formula
'TPR = TP / (TP + FN)'
"""

from . import (  # noqa: F401  (the catalogue families register their metrics; pycm_keys last)
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
from .evaluation import average_values, bind_params, check_average, evaluate
from .registry import (
    AVERAGES,
    MetricSpec,
    PycmKey,
    find_pycm,
    get_metric,
    list_metrics,
    pycm_keys,
    register,
)
from .scales import PycmInterpretation, pycm_interpretations
from .stats import ClassCounts, Stats
from .zero_division import Division, UndefinedMetricWarning

__all__ = [
    "AVERAGES",
    "ClassCounts",
    "Division",
    "MetricSpec",
    "PycmInterpretation",
    "PycmKey",
    "Stats",
    "UndefinedMetricWarning",
    "average_values",
    "bind_params",
    "check_average",
    "evaluate",
    "find_pycm",
    "get_metric",
    "list_metrics",
    "pycm_interpretations",
    "pycm_keys",
    "register",
]
