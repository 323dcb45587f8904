"""Confidence intervals of one metric in every group, gathered in one object."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..deps import require
from ..inference import ConfidenceInterval

__all__ = ["GroupedIntervals"]


@dataclass(frozen=True)
class GroupedIntervals:
    """A confidence interval of one metric per group; unpacks as ``low, high``.

    Parameters
    ----------
    groups : list
        The group keys.
    names : list of str
        The sensitive features' names.
    sizes : ndarray of int64
        Samples per group.
    estimate, low, high : ndarray
        Shape (G,), or (G, K) for a per-class metric without a class.
    metric : str
        Canonical name of the metric.
    method : str
        The interval method.
    level : float
        Confidence level.
    n_resamples : int, optional
        Bootstrap resamples per group (None for analytic methods).
    intervals : list of ConfidenceInterval
        The interval of each group, with its references.
    labels : list, optional
        The classes of per-class bounds (columns of ``estimate``, ``low``, ``high``).

    Examples
    --------
    >>> from confmat.inference import ConfidenceInterval
    >>> cis = [ConfidenceInterval(0.1, 0.5, 0.3, "recall", "wilson", 0.95),
    ...        ConfidenceInterval(0.4, 0.9, 0.7, "recall", "wilson", 0.95)]
    >>> gi = GroupedIntervals.collect(["a", "b"], ["g"], np.array([5, 6]), cis, "recall",
    ...                               "wilson", 0.95, None)
    >>> low, high = gi
    >>> low.tolist(), high.tolist()
    ([0.1, 0.4], [0.5, 0.9])
    """

    groups: list[Any]
    names: list[str]
    sizes: np.ndarray
    estimate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    metric: str
    method: str
    level: float
    n_resamples: int | None
    intervals: list[ConfidenceInterval]
    labels: list[Any] | None = None

    @classmethod
    def collect(cls, groups: list[Any], names: list[str], sizes: np.ndarray,
                cis: Sequence[ConfidenceInterval], metric: str, method: str, level: float,
                n_resamples: int | None, labels: list[Any] | None = None
                ) -> GroupedIntervals:
        """Gather the intervals of the groups (in the order of ``groups``).

        Parameters
        ----------
        groups, names, sizes
            As the parameters of the class.
        cis : sequence of ConfidenceInterval
            One per group.
        metric, method, level, n_resamples, labels
            As the parameters of the class.

        Returns
        -------
        GroupedIntervals

        Examples
        --------
        >>> from confmat.inference import ConfidenceInterval
        >>> ci = ConfidenceInterval(0.1, 0.5, 0.3, "accuracy", "wilson", 0.95)
        >>> GroupedIntervals.collect([1], ["g"], np.array([4]), [ci], "accuracy", "wilson",
        ...                          0.95, None).estimate.tolist()
        [0.3]
        """
        def stacked(attr: str) -> np.ndarray:
            return np.array([np.asarray(getattr(c, attr), dtype=np.float64) for c in cis])

        return cls(list(groups), list(names), np.asarray(sizes), stacked("estimate"),
                   stacked("low"), stacked("high"), metric, method, level, n_resamples,
                   list(cis), None if labels is None else list(labels))

    def __iter__(self) -> Any:
        yield self.low
        yield self.high

    def __len__(self) -> int:
        return 2

    def to_frame(self) -> Any:
        """The intervals as a pandas DataFrame: ``size``, ``estimate``, ``low``, ``high``.

        Returns
        -------
        pandas.DataFrame
            One row per group (per-class metrics: one column per class of each).

        Raises
        ------
        ImportError
            Without pandas.

        Examples
        --------
        >>> from confmat.inference import ConfidenceInterval
        >>> ci = ConfidenceInterval(0.1, 0.5, 0.3, "accuracy", "wilson", 0.95)
        >>> gi = GroupedIntervals.collect(["a"], ["g"], np.array([4]), [ci], "accuracy",
        ...                               "wilson", 0.95, None)
        >>> list(gi.to_frame().columns)
        ['size', 'estimate', 'low', 'high']
        """
        pd = require("pandas", "GroupedIntervals.to_frame")
        data: dict[str, Any] = {"size": self.sizes}
        for name in ("estimate", "low", "high"):
            vals = getattr(self, name)
            if vals.ndim == 1:
                data[name] = vals
            else:
                names = self.labels if self.labels is not None else range(vals.shape[1])
                for j, label in enumerate(names):
                    data[f"{name}[{label}]"] = vals[:, j]
        if len(self.names) > 1:
            index = pd.MultiIndex.from_tuples(self.groups, names=self.names)
        else:
            index = pd.Index(self.groups, name=self.names[0])
        return pd.DataFrame(data, index=index)
