r"""The best thresholds of a ROC curve as pROC's ``coords(roc, "best", best.method=,
best.weights=)`` (Robin et al. 2011).

With a relative cost ``cost`` of a false negative (to a false positive) and the prevalence
:math:`\pi` of the positive class in the population where the test will be used, pROC weighs
specificity by :math:`r = (1 - \pi) / (\mathrm{cost}\cdot\pi)` and picks the points of the
empirical curve that maximise

- Youden's index (Youden 1950), generalised: :math:`\mathrm{Se} + r\,\mathrm{Sp}` (the plain
  index :math:`J = \mathrm{Se} + \mathrm{Sp} - 1` when :math:`r = 1`, the default
  ``cost=1, prevalence=0.5``);
- closeness to the top-left corner: :math:`-\left((1 - \mathrm{Se})^2 + r\,(1 -
  \mathrm{Sp})^2\right)` (reported as the positive squared distance).

Every point that reaches the optimum is returned (pROC returns ties too). The points are those
of :func:`confmat.curves.partial.se_sp_points`: ``+inf`` (nothing positive) and each distinct
score (positive when ``score >= threshold``). pROC reports each point by the midpoint between
its score and the next lower distinct score (``-inf`` for the lowest score: everything
positive); both forms are given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..inputs.targets import binary_target
from .partial import REF_ROBIN, se_sp_points

__all__ = ["BEST_METHODS", "BestThresholds", "best_thresholds", "midpoints", "roc_criterion"]

REF_YOUDEN = "Youden, W. J. (1950), Index for rating diagnostic tests, Cancer 3(1), 32-35."
REF_PERKINS = (
    "Perkins, N. J., Schisterman, E. F. (2006), The inconsistency of \"optimal\" cutpoints "
    "obtained using two criteria based on the receiver operating characteristic curve, "
    "American Journal of Epidemiology 163(7), 670-675."
)
BEST_METHODS = ("youden", "closest_topleft")


@dataclass(frozen=True)
class BestThresholds:
    """The points of a ROC curve that optimise pROC's criterion (:func:`best_thresholds`).

    Parameters
    ----------
    method : str
        ``'youden'`` or ``'closest_topleft'``.
    thresholds : ndarray
        confmat's thresholds (positive when ``score >= threshold``; ``inf``: nothing
        positive), increasing.
    midpoints : ndarray
        The same points as pROC reports them (midpoints between distinct scores).
    sensitivity, specificity : ndarray
    value : ndarray
        :math:`\\mathrm{Se} + r\\,\\mathrm{Sp}` (youden) or the weighted squared distance to the
        top-left corner (closest_topleft), as pROC's column of the same name.
    cost, prevalence : float
        pROC's ``best.weights``.
    references : tuple of str

    Examples
    --------
    >>> b = best_thresholds([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> b.thresholds.tolist(), b.midpoints.round(3).tolist(), b.value.tolist()
    ([0.35, 0.8], [0.225, 0.6], [1.5, 1.5])
    """

    method: str
    thresholds: np.ndarray
    midpoints: np.ndarray
    sensitivity: np.ndarray
    specificity: np.ndarray
    value: np.ndarray
    cost: float
    prevalence: float
    references: tuple[str, ...] = field(default=(REF_ROBIN, REF_YOUDEN))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (infinite thresholds as the strings ``'inf'`` / ``'-inf'``).

        Returns
        -------
        dict

        Examples
        --------
        >>> best_thresholds([0, 1], [0.2, 0.7]).to_dict()["thresholds"]
        [0.7]
        """
        def conv(a: np.ndarray) -> list[Any]:
            return [str(v) if np.isinf(v) else float(v) for v in a]

        return {"method": self.method, "thresholds": conv(self.thresholds),
                "midpoints": conv(self.midpoints), "sensitivity": self.sensitivity.tolist(),
                "specificity": self.specificity.tolist(), "value": self.value.tolist(),
                "cost": self.cost, "prevalence": self.prevalence,
                "references": list(self.references)}


def check_weights_pair(cost: Any, prevalence: Any) -> float:
    """The specificity weight :math:`r = (1 - \\pi) / (\\mathrm{cost}\\cdot\\pi)`.

    Parameters
    ----------
    cost : float > 0
        Relative cost of a false negative to a false positive.
    prevalence : float in (0, 1)
        Prevalence of the positive class.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        Not numbers.
    ValueError
        ``cost`` not positive or ``prevalence`` outside (0, 1).

    Examples
    --------
    >>> check_weights_pair(2.0, 0.2)
    2.0
    """
    for name, v in (("cost", cost), ("prevalence", prevalence)):
        if isinstance(v, bool) or not isinstance(v, int | float | np.number):
            raise TypeError(f"{name} must be a number, got {v!r}")
    if not (np.isfinite(cost) and cost > 0):
        raise ValueError(f"cost must be a positive finite number, got {cost!r}")
    if not 0 < prevalence < 1:
        raise ValueError(f"prevalence must lie in the open interval (0, 1), got {prevalence!r}")
    return (1.0 - float(prevalence)) / (float(cost) * float(prevalence))


def midpoints(lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """pROC's thresholds between consecutive distinct scores ``lower < upper``: the midpoint
    (halves added when the sum would overflow), or ``upper`` when no float lies strictly
    between them.

    Parameters
    ----------
    lower, upper : ndarray

    Returns
    -------
    ndarray

    Examples
    --------
    >>> midpoints(np.array([1.0, 1.0]), np.array([2.0, np.nextafter(1.0, 2.0)])).tolist()
    [1.5, 1.0000000000000002]
    """
    with np.errstate(over="ignore"):
        t = (lower + upper) / 2.0
    t = np.where(np.abs(t) > 1e100, lower / 2.0 + upper / 2.0, t)
    return np.where(t == lower, upper, t)


def roc_criterion(se: np.ndarray, sp: np.ndarray, method: str, r: float = 1.0) -> np.ndarray:
    """pROC's criterion to maximise: ``se + r * sp`` (youden) or ``-((1 - se)**2 + r * (1 -
    sp)**2)`` (closest_topleft).

    Parameters
    ----------
    se, sp : ndarray
        Sensitivities and specificities.
    method : {'youden', 'closest_topleft'}
    r : float, default=1.0
        Weight of the specificity (:func:`check_weights_pair`).

    Returns
    -------
    ndarray

    Examples
    --------
    >>> roc_criterion(np.array([0.5]), np.array([0.5]), "closest_topleft").tolist()
    [-0.5]
    """
    if method == "youden":
        return se + r * sp
    return -((1.0 - se) ** 2 + r * (1.0 - sp) ** 2)


def best_thresholds(
    y_true: Any,
    y_score: Any,
    *,
    method: str = "youden",
    cost: float = 1.0,
    prevalence: float = 0.5,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> BestThresholds:
    """Every point of the empirical ROC curve that optimises pROC's ``best.method`` with
    ``best.weights = (cost, prevalence)`` (see the module notes).

    For a single threshold with a richer choice of criteria (MCC, F-beta, expected cost,
    a recall or precision target) see :func:`confmat.curves.best_threshold`, which also
    accepts ``'closest_topleft'``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples,)
        Scores; higher means more likely positive.
    method : {'youden', 'closest_topleft'}, default='youden'
        pROC's ``best.method`` (``'closest.topleft'`` and ``'topleft'`` are accepted too).
    cost : float, default=1.0
        Relative cost of a false negative to a false positive.
    prevalence : float in (0, 1), default=0.5
        Prevalence of the positive class in the target population.
    pos_label : label, optional
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights (weighted rates).

    Returns
    -------
    BestThresholds

    Raises
    ------
    ValueError
        Unknown method; ``cost`` or ``prevalence`` out of range; a class missing; bad labels,
        scores or weights.
    TypeError
        ``cost`` or ``prevalence`` not a number.

    Examples
    --------
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> b = best_thresholds(y, s, method="closest_topleft")  # pROC: 0.275 and 0.6, both 1/9
    >>> b.thresholds.tolist(), b.midpoints.round(3).tolist(), b.value.round(7).tolist()
    ([0.35, 0.8], [0.275, 0.6], [0.1111111, 0.1111111])
    >>> b = best_thresholds(y, s, cost=2, prevalence=0.3)  # pROC: 0.6, youden 1.833333
    >>> b.midpoints.round(3).tolist(), b.value.round(6).tolist()
    ([0.6], [1.833333])
    """
    m = {"closest.topleft": "closest_topleft", "topleft": "closest_topleft"}.get(method, method) \
        if isinstance(method, str) else method
    if m not in BEST_METHODS:
        raise ValueError(f"method must be 'youden' or 'closest_topleft', got {method!r}")
    r = check_weights_pair(cost, prevalence)
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    w = b.weight
    p_mass = b.pos.sum() if w is None else w[b.pos].sum()
    n_mass = (~b.pos).sum() if w is None else w[~b.pos].sum()
    if not (p_mass > 0 and n_mass > 0):
        raise ValueError("best_thresholds needs both classes in y_true (with positive weight)")
    thr, se, sp = se_sp_points(b.pos, b.score, w)
    mids = np.concatenate([[np.inf], midpoints(thr[2:], thr[1:-1]), [-np.inf]])
    crit = roc_criterion(se, sp, m, r)
    keep = np.flatnonzero(crit == crit.max())[::-1]  # increasing thresholds, as pROC
    value = crit[keep] if m == "youden" else -crit[keep]
    refs = (REF_ROBIN, REF_YOUDEN) if m == "youden" else (REF_ROBIN, REF_PERKINS)
    return BestThresholds(m, thr[keep], mids[keep], se[keep], sp[keep], value, float(cost),
                          float(prevalence), refs)
