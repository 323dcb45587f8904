"""fairlearn's disparity functions, with the same signatures and definitions, computed from
the groups' confusion tables (Weerts et al. 2023; Hardt et al. 2016; Agarwal et al. 2018).

Each is ``by_group(y_true, y_pred, sensitive_features, ...)`` followed by the measure of
:class:`~confmat.groups.GroupedEvaluation` of the same name; ``pos_label`` follows confmat's one
rule (:func:`confmat.inputs.targets.resolve_pos_label`).
"""

from __future__ import annotations

from typing import Any

from .api import by_group

__all__ = [
    "demographic_parity_difference",
    "demographic_parity_ratio",
    "equal_opportunity_difference",
    "equal_opportunity_ratio",
    "equalized_odds_difference",
    "equalized_odds_ratio",
]


def demographic_parity_difference(y_true: Any, y_pred: Any, *, sensitive_features: Any,
                                  method: str = "between_groups", sample_weight: Any = None,
                                  pos_label: Any = None) -> float:
    """Largest difference of the selection rate between groups.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Labels.
    sensitive_features : array-like or several
        The groups (as ``groups`` of :func:`confmat.groups.by_group`).
    method : {'between_groups', 'to_overall'}, default 'between_groups'
        ``max - min`` over the groups, or the largest distance to the overall value.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights.
    pos_label : label, optional
        The positive class (1 by default for labels within {0, 1} or {-1, 1}).

    Returns
    -------
    float

    Raises
    ------
    ValueError, TypeError
        As :func:`confmat.groups.by_group` and the measure.

    Examples
    --------
    >>> demographic_parity_difference([0, 1, 1, 0], [0, 1, 1, 1],
    ...                               sensitive_features=["a", "a", "b", "b"])
    0.5
    """
    ev = by_group(y_true, y_pred, sensitive_features, sample_weight=sample_weight,
                  pos_label=pos_label)
    return float(ev.demographic_parity_difference(method))


def demographic_parity_ratio(y_true: Any, y_pred: Any, *, sensitive_features: Any,
                             method: str = "between_groups", sample_weight: Any = None,
                             pos_label: Any = None) -> float:
    """Smallest ratio of the selection rate between groups.

    Parameters
    ----------
    y_true, y_pred, sensitive_features, method, sample_weight, pos_label
        As in :func:`demographic_parity_difference`.

    Returns
    -------
    float

    Raises
    ------
    ValueError, TypeError
        As :func:`demographic_parity_difference`.

    Examples
    --------
    >>> demographic_parity_ratio([0, 1, 1, 0], [0, 1, 1, 1], sensitive_features=[1, 1, 2, 2])
    0.5
    """
    ev = by_group(y_true, y_pred, sensitive_features, sample_weight=sample_weight,
                  pos_label=pos_label)
    return float(ev.demographic_parity_ratio(method))


def equal_opportunity_difference(y_true: Any, y_pred: Any, *, sensitive_features: Any,
                                 method: str = "between_groups", sample_weight: Any = None,
                                 pos_label: Any = None) -> float:
    """Largest difference of the true positive rate between groups.

    Parameters
    ----------
    y_true, y_pred, sensitive_features, method, sample_weight, pos_label
        As in :func:`demographic_parity_difference`.

    Returns
    -------
    float

    Raises
    ------
    ValueError, TypeError
        As :func:`demographic_parity_difference`.

    Examples
    --------
    >>> equal_opportunity_difference([0, 1, 1, 1], [0, 1, 1, 0], sensitive_features=[1, 1, 2, 2])
    0.5
    """
    ev = by_group(y_true, y_pred, sensitive_features, sample_weight=sample_weight,
                  pos_label=pos_label)
    return float(ev.equal_opportunity_difference(method))


def equal_opportunity_ratio(y_true: Any, y_pred: Any, *, sensitive_features: Any,
                            method: str = "between_groups", sample_weight: Any = None,
                            pos_label: Any = None) -> float:
    """Smallest ratio of the true positive rate between groups.

    Parameters
    ----------
    y_true, y_pred, sensitive_features, method, sample_weight, pos_label
        As in :func:`demographic_parity_difference`.

    Returns
    -------
    float

    Raises
    ------
    ValueError, TypeError
        As :func:`demographic_parity_difference`.

    Examples
    --------
    >>> equal_opportunity_ratio([0, 1, 1, 1], [0, 1, 1, 0], sensitive_features=[1, 1, 2, 2])
    0.5
    """
    ev = by_group(y_true, y_pred, sensitive_features, sample_weight=sample_weight,
                  pos_label=pos_label)
    return float(ev.equal_opportunity_ratio(method))


def equalized_odds_difference(y_true: Any, y_pred: Any, *, sensitive_features: Any,
                              method: str = "between_groups", sample_weight: Any = None,
                              agg: str = "worst_case", pos_label: Any = None) -> float:
    """The true and false positive rates' differences between groups, folded by ``agg``.

    Parameters
    ----------
    y_true, y_pred, sensitive_features, method, sample_weight, pos_label
        As in :func:`demographic_parity_difference`.
    agg : {'worst_case', 'mean'}, default 'worst_case'
        The larger difference, or the mean of the two.

    Returns
    -------
    float

    Raises
    ------
    ValueError, TypeError
        An unknown ``agg``, or as :func:`demographic_parity_difference`.

    Examples
    --------
    >>> equalized_odds_difference([0, 1, 0, 1], [1, 1, 0, 1], sensitive_features=[1, 1, 2, 2])
    1.0
    """
    ev = by_group(y_true, y_pred, sensitive_features, sample_weight=sample_weight,
                  pos_label=pos_label)
    return float(ev.equalized_odds_difference(method, agg=agg))


def equalized_odds_ratio(y_true: Any, y_pred: Any, *, sensitive_features: Any,
                         method: str = "between_groups", sample_weight: Any = None,
                         agg: str = "worst_case", pos_label: Any = None) -> float:
    """The true and false positive rates' ratios between groups, folded by ``agg``.

    Parameters
    ----------
    y_true, y_pred, sensitive_features, method, sample_weight, agg, pos_label
        As in :func:`equalized_odds_difference`.

    Returns
    -------
    float

    Raises
    ------
    ValueError, TypeError
        As :func:`equalized_odds_difference`.

    Examples
    --------
    >>> equalized_odds_ratio([0, 1, 0, 1, 1], [1, 1, 0, 1, 0], sensitive_features=[1, 1, 2, 2, 2])
    0.0
    """
    ev = by_group(y_true, y_pred, sensitive_features, sample_weight=sample_weight,
                  pos_label=pos_label)
    return float(ev.equalized_odds_ratio(method, agg=agg))
