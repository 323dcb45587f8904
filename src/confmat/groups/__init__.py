"""Evaluation by group: every metric per slice, with intervals and disparities.

:func:`by_group` counts a confusion table per group (the intersections of one or several
sensitive features) in one pass; :class:`GroupedEvaluation` computes any registry metric per
group on the whole stack at once, intervals per group, differences and ratios between groups
with bootstrap intervals, and fairlearn's named measures (Weerts et al. 2023; Hardt et al.
2016; Agarwal et al. 2018).

Modules: ``evaluation`` (:func:`by_group`, :class:`GroupedEvaluation`), ``measures``
(disparities and the named measures), ``disparity`` (their definitions and the per-group
bootstrap), ``pairs`` (the interval of the comparison behind a disparity), ``scores`` (ROC AUC
and average precision per group), ``score_bootstrap`` (their stratified bootstrap), ``intervals``
(:class:`GroupedIntervals`) and ``fairness`` (functions with fairlearn's signatures).
"""

from .api import by_group
from .evaluation import DEFAULT_MIN_SUPPORT, GroupedEvaluation
from .fairness import (
    demographic_parity_difference,
    demographic_parity_ratio,
    equal_opportunity_difference,
    equal_opportunity_ratio,
    equalized_odds_difference,
    equalized_odds_ratio,
)
from .intervals import GroupedIntervals
from .names import default_group_metrics

__all__ = [
    "DEFAULT_MIN_SUPPORT",
    "GroupedEvaluation",
    "GroupedIntervals",
    "by_group",
    "default_group_metrics",
    "demographic_parity_difference",
    "demographic_parity_ratio",
    "equal_opportunity_difference",
    "equal_opportunity_ratio",
    "equalized_odds_difference",
    "equalized_odds_ratio",
]
