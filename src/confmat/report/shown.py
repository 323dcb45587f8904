"""Which registry metrics a report shows, in which order, and which intervals it shows beside
them."""

from __future__ import annotations

import math
from typing import Literal

from ..metrics import list_metrics
from ..metrics.registry import MetricSpec

__all__ = ["honest_interval", "interval_applies", "shown_metrics"]


def shown_metrics(kind: Literal["per_class", "overall"]) -> list[MetricSpec]:
    """Registry metrics that a report shows for ``kind`` ('per_class' or 'overall').

    Raw counts are left out (the matrix shows them): per-class specs flagged ``is_count`` and
    specs of the 'counts' family other than rates of the population (prevalence). Metrics are
    grouped by family, families with more scikit-learn counterparts first (the familiar rates
    and summaries before the specialised families), each in the registry's order.

    Parameters
    ----------
    kind : {'per_class', 'overall'}

    Returns
    -------
    list of MetricSpec

    Examples
    --------
    >>> names = [s.name for s in shown_metrics("per_class")]
    >>> "recall" in names, "tp" in names
    (True, False)
    """
    out = []
    for spec in list_metrics(kind=kind):
        if spec.is_count or (spec.family == "counts" and spec.range[1] != 1.0):
            continue
        out.append(spec)
    families = list(dict.fromkeys(s.family for s in out))
    familiar = {f: sum(s.family == f and bool(s.sklearn) for s in out) for f in families}
    return sorted(out, key=lambda s: (-familiar[s.family], families.index(s.family)))


def interval_applies(spec: MetricSpec) -> bool:
    """Whether a metric's value is an estimate that a confidence interval qualifies.

    Not for values that are themselves parts of an inference (standard errors, interval
    bounds, p-values): an interval around a bound or a p-value misleads.

    Parameters
    ----------
    spec : MetricSpec

    Returns
    -------
    bool

    Examples
    --------
    >>> from confmat.metrics import get_metric
    >>> interval_applies(get_metric("kappa")), interval_applies(get_metric("kappa_ci_upper"))
    (True, False)
    >>> interval_applies(get_metric("p_value")), interval_applies(get_metric("accuracy_se"))
    (False, False)
    """
    name, full = spec.name, spec.full_name.lower()
    return not (name.endswith(("_ci_lower", "_ci_upper", "_se")) or "p-value" in full
                or "standard error" in full or " bound of " in f" {full}")


def honest_interval(spec: MetricSpec, value: float, iv: tuple[float, float] | None
                    ) -> tuple[float, float] | None:
    """An interval as a report shows it: clipped to the metric's range, and none at all for
    values that are not estimates (:func:`interval_applies`), infinite or undefined values,
    and intervals of zero width (a fixed index such as N / K, which resampling the table
    cannot move).

    Parameters
    ----------
    spec : MetricSpec
    value : float
    iv : (low, high) or None

    Returns
    -------
    (low, high) or None

    Examples
    --------
    >>> from confmat.metrics import get_metric
    >>> honest_interval(get_metric("kappa"), 0.95, (0.90, 1.004))
    (0.9, 1.0)
    >>> honest_interval(get_metric("mcc"), 0.5, (0.5, 0.5)) is None
    True
    """
    if iv is None or not interval_applies(spec) or not math.isfinite(value):
        return None
    lo, hi = float(iv[0]), float(iv[1])
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return None
    if hi - lo <= 1e-12 * max(1.0, abs(value)):
        return None
    return max(lo, spec.range[0]), min(hi, spec.range[1])
