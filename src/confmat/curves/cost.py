r"""Cost curves (Drummond and Holte 2006): the expected cost of a scorer's thresholds over
every class prior and cost ratio, the dual of its ROC curve.

The operating conditions are summarised by the **probability cost** of the positive class,

.. math:: PC(+) = \frac{p(+)\,C(-|+)}{p(+)\,C(-|+) + p(-)\,C(+|-)},

with :math:`p(\pm)` the class priors and :math:`C(-|+)` the cost of a false negative,
:math:`C(+|-)` of a false positive. A threshold with rates FPR and FNR = 1 - TPR has the
**normalised expected cost**

.. math:: NE[C] = \mathrm{FNR}\cdot PC(+) + \mathrm{FPR}\cdot(1 - PC(+)),

a straight line from (0, FPR) to (1, FNR). The cost curve of the scorer is the lower
envelope of these lines over all thresholds (the trivial classifiers "all negative" and "all
positive", the points (0, 0) and (1, 1) of the ROC curve, included): the best threshold's
cost at each operating condition. Its vertices are the points of the ROC convex hull's edges,
at :math:`PC(+) = \Delta\mathrm{FPR} / (\Delta\mathrm{FPR} + \Delta\mathrm{TPR})` for each
edge, and its area is the expected cost when :math:`PC(+)` is uniform on [0, 1].
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..inputs.targets import binary_target
from .common import check_real
from .rank import cumulative_counts

__all__ = ["CostCurve", "cost_curve", "probability_cost"]

REF_DRUMMOND = (
    "Drummond, C., Holte, R. C. (2006), Cost curves: an improved method for visualizing "
    "classifier performance, Machine Learning 65(1), 95-130."
)


@dataclass(frozen=True)
class CostCurve:
    """A scorer's cost curve (:func:`cost_curve`).

    Parameters
    ----------
    thresholds : ndarray of shape (T,)
        ``inf`` and the distinct scores, decreasing (positive when ``score >= threshold``).
    fpr, fnr : ndarray of shape (T,)
        Each threshold's line runs from (0, ``fpr``) to (1, ``fnr``).
    pc, cost : ndarray
        Vertices of the lower envelope: probability cost and normalised expected cost,
        ``pc`` increasing from 0 to 1.
    area : float
        Area under the lower envelope.

    Examples
    --------
    >>> cc = cost_curve([0, 1], [0.2, 0.7])  # a perfect scorer costs nothing
    >>> cc.pc.tolist(), cc.cost.tolist(), cc.area
    ([0.0, 1.0], [0.0, 0.0], 0.0)
    """

    thresholds: np.ndarray
    fpr: np.ndarray
    fnr: np.ndarray
    pc: np.ndarray
    cost: np.ndarray
    area: float

    def at(self, pc: Any) -> np.ndarray:
        """The envelope (the best threshold's normalised expected cost) at probability costs.

        Parameters
        ----------
        pc : float or array-like in [0, 1]

        Returns
        -------
        ndarray

        Raises
        ------
        ValueError
            Values outside [0, 1].

        Examples
        --------
        >>> cost_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).at([0.5]).tolist()
        [0.25]
        """
        return np.interp(check_pc(pc), self.pc, self.cost)

    def lines(self, pc: Any) -> np.ndarray:
        """Every threshold's normalised expected cost at probability costs, shape ``(T, P)``.

        Parameters
        ----------
        pc : float or array-like in [0, 1]

        Returns
        -------
        ndarray

        Raises
        ------
        ValueError
            Values outside [0, 1].

        Examples
        --------
        >>> cost_curve([0, 1], [0.2, 0.7]).lines([0.0, 1.0]).tolist()
        [[0.0, 1.0], [0.0, 0.0], [1.0, 0.0]]
        """
        x = check_pc(pc)
        return self.fnr[:, None] * x[None, :] + self.fpr[:, None] * (1.0 - x[None, :])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form.

        Returns
        -------
        dict

        Examples
        --------
        >>> cost_curve([0, 1], [0.2, 0.7]).to_dict()["area"]
        0.0
        """
        return {"thresholds": ["inf", *self.thresholds[1:].tolist()],
                "fpr": self.fpr.tolist(), "fnr": self.fnr.tolist(), "pc": self.pc.tolist(),
                "cost": self.cost.tolist(), "area": self.area, "references": [REF_DRUMMOND]}


def check_pc(pc: Any) -> np.ndarray:
    """Probability costs as a 1-D float array within [0, 1].

    Parameters
    ----------
    pc : float or array-like

    Returns
    -------
    ndarray of float64

    Raises
    ------
    TypeError
        Not numbers.
    ValueError
        Values outside [0, 1] or NaN.

    Examples
    --------
    >>> check_pc(0.5).tolist()
    [0.5]
    """
    x = np.atleast_1d(np.asarray(pc))
    if x.dtype.kind not in "iuf":
        raise TypeError(f"pc must be numbers in [0, 1], got dtype {x.dtype}")
    x = x.astype(np.float64)
    if np.isnan(x).any() or (x < 0).any() or (x > 1).any():
        raise ValueError("pc must lie within [0, 1]")
    return x


def probability_cost(prior_positive: float, cost_fn: float, cost_fp: float) -> float:
    """The probability cost :math:`PC(+)` of given class prior and misclassification costs.

    Parameters
    ----------
    prior_positive : float in [0, 1]
        :math:`p(+)`.
    cost_fn, cost_fp : float >= 0
        Costs of a false negative and of a false positive (not both zero).

    Returns
    -------
    float

    Raises
    ------
    TypeError
        An argument that is not a real number (a string or a bool, say).
    ValueError
        Values out of range.

    Examples
    --------
    >>> probability_cost(0.1, 9.0, 1.0)  # a rare class whose misses cost 9 times more
    0.5
    """
    p, a, b = (check_real(v, name) for v, name in (
        (prior_positive, "prior_positive"), (cost_fn, "cost_fn"), (cost_fp, "cost_fp")))
    if not 0 <= p <= 1:
        raise ValueError(f"prior_positive must lie within [0, 1], got {prior_positive!r}")
    if not (a >= 0 and b >= 0 and np.isfinite(a) and np.isfinite(b)) or a == b == 0:
        raise ValueError(f"cost_fn and cost_fp must be finite, non-negative and not both zero, "
                         f"got {cost_fn!r}, {cost_fp!r}")
    den = p * a + (1.0 - p) * b
    if den == 0:
        raise ValueError("the probability cost is undefined: p(+) C(-|+) + p(-) C(+|-) = 0")
    return p * a / den


def _upper_hull(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Upper convex hull of points sorted by x (then y), from (0, 0) to (1, 1)."""
    hx: list[float] = []
    hy: list[float] = []
    for px, py in zip(x.tolist(), y.tolist(), strict=True):
        while len(hx) >= 2 and (hx[-1] - hx[-2]) * (py - hy[-2]) - (hy[-1] - hy[-2]) * (
                px - hx[-2]) >= 0:
            hx.pop()
            hy.pop()
        if hx and hx[-1] == px:  # a vertical step: keep the higher point
            hy[-1] = max(hy[-1], py)
            continue
        hx.append(px)
        hy.append(py)
    return np.array(hx), np.array(hy)


def cost_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> CostCurve:
    """Cost curve of a binary scorer (Drummond and Holte 2006; see the module notes).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples,)
        Scores; higher means more likely positive.
    pos_label : label, optional
        The positive class.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights (weighted rates).

    Returns
    -------
    CostCurve

    Raises
    ------
    ValueError
        A class missing (or without weight); bad labels, scores or weights.

    Examples
    --------
    >>> cc = cost_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> # thresholds 0.8 (FPR 0, FNR 1/2) and 0.35 (FPR 1/2, FNR 0) cross at PC(+) = 1/2
    >>> cc.pc.tolist(), cc.cost.tolist(), cc.area
    ([0.0, 0.5, 1.0], [0.0, 0.25, 0.0], 0.125)
    """
    b = binary_target(y_true, y_score, pos_label, sample_weight)
    thr, tps, fps = cumulative_counts(b.pos, b.score, b.weight)
    if tps.size == 0 or not (tps[-1] > 0 and fps[-1] > 0):
        raise ValueError("a cost curve needs both classes in y_true (with positive weight)")
    tpr = np.concatenate([[0.0], tps / tps[-1]])
    fpr = np.concatenate([[0.0], fps / fps[-1]])
    hx, hy = _upper_hull(fpr, tpr)
    dx, dy = np.diff(hx), np.diff(hy)
    # the edge between hull vertices i and i+1 is where their lines cross
    pc_v = dx / (dx + dy)
    cost_v = (1.0 - hy[:-1]) * pc_v + hx[:-1] * (1.0 - pc_v)
    pc = np.concatenate([[0.0], pc_v, [1.0]])
    cost = np.concatenate([[0.0], cost_v, [0.0]])
    keep = np.concatenate([[True], np.diff(pc) > 0])  # repeated vertices (vertical steps)
    pc, cost = pc[keep], cost[keep]
    area = float(np.sum((cost[1:] + cost[:-1]) / 2.0 * np.diff(pc)))
    return CostCurve(np.concatenate([[np.inf], thr]), fpr, 1.0 - tpr, pc, cost, area)
