"""Score metrics by group: ROC AUC, average precision and ROC curves of every group's slice.

The samples are put in group order once (a stable sort of the small group codes); each group's
slice then goes through the exact functions of :mod:`confmat.curves` (the same numbers as
:func:`confmat.roc_auc` and :func:`confmat.average_precision` on that slice), and intervals
through :func:`confmat.inference.score_ci` (DeLong et al. 1988 for ROC AUC).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..curves.precision_recall import ap_from_counts
from ..curves.rank import cumulative_counts
from ..curves.roc import binary_auc, roc_points
from ..inference import ConfidenceInterval, score_ci
from ..inputs.targets import BinaryTarget
from ..metrics import UndefinedMetricWarning

__all__ = ["GroupedScores", "group_slices"]


def group_slices(codes: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, list[slice]]:
    """The order that puts samples in group order, and each group's slice of it.

    Parameters
    ----------
    codes : ndarray of int, shape (n,)
        Group codes.
    sizes : ndarray of int, shape (G,)
        Samples per group.

    Returns
    -------
    order : ndarray of int64
        Sample indices, group by group (the original order kept within a group).
    slices : list of slice
        ``order[slices[g]]`` are the samples of group ``g``.

    Examples
    --------
    >>> order, sl = group_slices(np.array([1, 0, 1]), np.array([1, 2]))
    >>> order.tolist(), [order[s].tolist() for s in sl]
    ([1, 0, 2], [[1], [0, 2]])
    """
    order = np.argsort(codes, kind="stable")
    ends = np.cumsum(sizes)
    starts = ends - sizes
    return order, [slice(int(a), int(b)) for a, b in zip(starts, ends, strict=True)]


@dataclass(frozen=True)
class GroupedScores:
    """A validated binary score problem split by group.

    Parameters
    ----------
    pos, score : ndarray
        Positive mask and scores, in group order.
    weight : ndarray or None
        Sample weights in group order.
    slices : list of slice
        Each group's samples.
    """

    pos: np.ndarray
    score: np.ndarray
    weight: np.ndarray | None
    slices: list[slice]

    @classmethod
    def build(cls, target: BinaryTarget, codes: np.ndarray, sizes: np.ndarray) -> GroupedScores:
        """Put a validated binary problem in group order.

        Parameters
        ----------
        target : BinaryTarget
            From :func:`confmat.inputs.targets.binary_target`.
        codes : ndarray of int
            Group of each sample.
        sizes : ndarray of int
            Samples per group.

        Returns
        -------
        GroupedScores

        Examples
        --------
        >>> from confmat.inputs.targets import binary_target
        >>> b = binary_target([0, 1, 1], [0.2, 0.9, 0.4])
        >>> gs = GroupedScores.build(b, np.array([1, 0, 1]), np.array([1, 2]))
        >>> gs.score.tolist(), gs.slices
        ([0.9, 0.2, 0.4], [slice(0, 1, None), slice(1, 3, None)])
        """
        order, slices = group_slices(codes, sizes)
        w = None if target.weight is None else target.weight[order]
        return cls(target.pos[order], target.score[order], w, slices)

    def parts(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray | None]]:
        """Each group's (positive mask, scores, weights).

        Yields
        ------
        tuple
            ``(pos, score, weight)`` of one group; ``weight`` None without weights.

        Examples
        --------
        >>> from confmat.inputs.targets import binary_target
        >>> gs = GroupedScores.build(binary_target([0, 1], [0.2, 0.9]), np.array([0, 0]),
        ...                          np.array([2]))
        >>> [p.tolist() for p, _, _ in gs.parts()]
        [[False, True]]
        """
        for sl in self.slices:
            yield self.pos[sl], self.score[sl], None if self.weight is None else self.weight[sl]

    def values(self, name: str) -> np.ndarray:
        """ROC AUC (``'roc_auc'``) or average precision (``'average_precision'``) per group.

        A group with one class only has no ROC AUC: its value is NaN, and one
        :class:`~confmat.metrics.UndefinedMetricWarning` names how many groups are affected.

        Parameters
        ----------
        name : {'roc_auc', 'average_precision'}
            The metric.

        Returns
        -------
        ndarray of float64, shape (G,)

        Examples
        --------
        >>> from confmat.inputs.targets import binary_target
        >>> b = binary_target([0, 1, 0, 1], [0.2, 0.9, 0.4, 0.3])
        >>> gs = GroupedScores.build(b, np.array([0, 0, 1, 1]), np.array([2, 2]))
        >>> gs.values("roc_auc").tolist()
        [1.0, 0.0]
        """
        out = np.empty(len(self.slices))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            warnings.simplefilter("ignore", UserWarning)
            for i, (pos, score, w) in enumerate(self.parts()):
                if name == "roc_auc":
                    out[i] = binary_auc(pos, score, w, None)
                else:
                    _, tps, fps = cumulative_counts(pos, score, w)
                    out[i] = ap_from_counts(tps, fps, "step")
        if name == "roc_auc" and np.isnan(out).any():
            warnings.warn(
                f"ROC AUC is undefined in {int(np.isnan(out).sum())} group(s) holding one class "
                "only; their value is NaN",
                UndefinedMetricWarning, stacklevel=3)
        return out

    def roc_curves(self, drop_intermediate: bool = True
                   ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """The ROC curve ``(fpr, tpr, thresholds)`` of every group (as :func:`confmat.roc_curve`).

        Parameters
        ----------
        drop_intermediate : bool, default True
            Drop points that are not corners of the curve.

        Returns
        -------
        list of (ndarray, ndarray, ndarray)

        Examples
        --------
        >>> from confmat.inputs.targets import binary_target
        >>> gs = GroupedScores.build(binary_target([0, 1], [0.2, 0.9]), np.array([0, 0]),
        ...                          np.array([2]))
        >>> fpr, tpr, thr = gs.roc_curves()[0]
        >>> fpr.tolist(), tpr.tolist()
        ([0.0, 0.0, 1.0], [0.0, 1.0, 1.0])
        """
        out = []
        for pos, score, w in self.parts():
            thr, tps, fps = cumulative_counts(pos, score, w)
            out.append(roc_points(thr, tps.astype(np.float64), fps.astype(np.float64),
                                  drop_intermediate))
        return out

    def intervals(self, name: str, *, level: float, method: str, n_resamples: int,
                  random_state: Any) -> list[ConfidenceInterval]:
        """:func:`confmat.inference.score_ci` of every group's slice.

        Parameters
        ----------
        name : {'roc_auc', 'average_precision'}
            The metric.
        level, method, n_resamples, random_state
            As in :func:`confmat.inference.score_ci` (one generator serves every group).

        Returns
        -------
        list of ConfidenceInterval

        Raises
        ------
        ValueError
            With sample weights (the score intervals take none), or as ``score_ci``.

        Examples
        --------
        >>> from confmat.inputs.targets import binary_target
        >>> b = binary_target([0, 1, 0, 1, 1, 0], [.1, .8, .4, .35, .9, .2])
        >>> gs = GroupedScores.build(b, np.zeros(6, dtype=int), np.array([6]))
        >>> ci = gs.intervals("roc_auc", level=0.95, method="delong", n_resamples=1000,
        ...                   random_state=0)[0]
        >>> ci.method, round(ci.estimate, 4)
        ('delong', 0.8889)
        """
        if self.weight is not None:
            raise ValueError(
                f"intervals of {name} by group take no sample_weight; evaluate without weights"
            )
        rng = np.random.default_rng(random_state)
        out = []
        for pos, score, _ in self.parts():
            if pos.all() or not pos.any():
                nan = float("nan")
                out.append(ConfidenceInterval(nan, nan, nan, name, method, level))
                continue
            out.append(score_ci(pos.astype(np.int8), score, name, level=level, method=method,
                                n_resamples=n_resamples, random_state=rng))
        return out
