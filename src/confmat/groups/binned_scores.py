"""ROC AUC and average precision by group from one score histogram per group: the scores of
an evaluation by group counted from a file without its samples (``group_cols`` with one score
column and ``bins``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..binned.views import binned_auc
from ..curves.precision_recall import ap_from_count_stack
from .scores import GroupedScores, quiet, undefined_groups

if TYPE_CHECKING:
    from ..inference import ConfidenceInterval

__all__ = ["BinnedGroupedScores", "ScoreData"]


class BinnedGroupedScores:
    """ROC AUC and average precision by group from one score histogram per group.

    The sibling of :class:`GroupedScores` for evaluations counted without the samples
    (:func:`confmat.io.evaluate_file` with ``group_cols`` and one score column): each group's
    :class:`~confmat.binned.ScoreHistogram` gives its values by the histogram's rule, the
    exact metric of the scores rounded down to their bin's lower edge (pairs within a bin count
    one half), and the histograms merged give the pooled value. Intervals need the samples
    (DeLong et al. 1988; the stratified bootstrap, Carpenter and Bithell 2000) and are refused.

    Parameters
    ----------
    histograms : list of ScoreHistogram
        One binary histogram per group, in group order, of one layout (bins, range, labels).

    Raises
    ------
    ValueError
        No histogram, or histograms that are not binary or do not merge.

    Examples
    --------
    >>> from confmat.binned import ScoreHistogram
    >>> a = ScoreHistogram([0, 1], bins=4).update([0, 1], [0.1, 0.9])
    >>> b = ScoreHistogram([0, 1], bins=4).update([0, 1, 1], [0.3, 0.2, 0.8])
    >>> BinnedGroupedScores([a, b]).values("roc_auc").tolist()
    [1.0, 0.5]
    """

    #: no sample weights are kept: intervals are refused before any method is chosen
    weight = None

    def __init__(self, histograms: list[Any]) -> None:
        hists = list(histograms)
        if not hists:
            raise ValueError("histograms must hold one histogram per group, got none")
        if not all(h.is_binary for h in hists):
            raise ValueError("histograms must be binary (one score column per group)")
        self.pooled_histogram = hists[0].merge(*hists[1:])  # refuses mixed layouts
        self.histograms = hists
        self._stack: np.ndarray | None = None

    def values(self, name: str) -> np.ndarray:
        """ROC AUC (``'roc_auc'``) or average precision (``'average_precision'``) per group.

        A group with one class only has no ROC AUC (NaN), with one
        :class:`~confmat.metrics.UndefinedMetricWarning` naming how many groups are affected,
        as :meth:`GroupedScores.values`. A group whose counts are all zero (sample weights all
        zero) has neither value (NaN).

        Parameters
        ----------
        name : {'roc_auc', 'average_precision'}
            The metric.

        Returns
        -------
        ndarray of float64, shape (G,)

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> h = ScoreHistogram([0, 1], bins=2).update([0, 1, 1], [0.2, 0.7, 0.4])
        >>> BinnedGroupedScores([h]).values("average_precision").tolist()  # 1/2 + 1/2 * 2/3
        [0.8333333333333333]
        """
        stack = self.stack
        out = np.empty(stack.shape[0], dtype=np.float64)
        # blocks of groups whose temporaries stay in the CPU cache (a whole stack of 10^4
        # groups of 256 bins makes arrays of 20 MB, read a dozen times)
        step = max(1, _BLOCK_CELLS // max(1, stack.shape[2]))
        with quiet():
            for start in range(0, stack.shape[0], step):
                neg, pos = stack[start:start + step, 0], stack[start:start + step, 1]
                if name == "roc_auc":
                    out[start:start + step] = binned_auc(pos, neg)
                else:  # cumulative counts from the top bin down, empty bins kept (a repeated
                    # point adds nothing to the step area: see ap_from_count_stack)
                    out[start:start + step] = ap_from_count_stack(
                        np.cumsum(pos[:, ::-1], axis=1), np.cumsum(neg[:, ::-1], axis=1), "step")
        return undefined_groups(name, out, self.weightless)

    @property
    def stack(self) -> np.ndarray:
        """Every group's histogram counts as one array: negatives ``[:, 0]`` and positives
        ``[:, 1]`` per bin (bins in increasing score order), made once.

        Returns
        -------
        ndarray of shape (G, 2, bins)
            Integer counts, or float sums of weights when a histogram is weighted.

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> h = ScoreHistogram([0, 1], bins=2).update([0, 1, 1], [0.2, 0.7, 0.4])
        >>> BinnedGroupedScores([h, h]).stack.shape
        (2, 2, 2)
        """
        if self._stack is None:
            self._stack = np.stack([h.counts[:, 0] for h in self.histograms])
        return self._stack

    def pooled(self, name: str) -> float:
        """ROC AUC or average precision of every group's histogram merged.

        Parameters
        ----------
        name : {'roc_auc', 'average_precision'}
            The metric.

        Returns
        -------
        float
            NaN for ROC AUC when all samples hold one class.

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> a = ScoreHistogram([0, 1], bins=4).update([0, 1], [0.1, 0.9])
        >>> b = ScoreHistogram([0, 1], bins=4).update([0, 1], [0.3, 0.2])
        >>> BinnedGroupedScores([a, b]).pooled("roc_auc")  # 0.9 beats 0.1 and 0.3; 0.2 ties 0.1
        0.625
        """
        with quiet():
            return _binned_score(name, self.pooled_histogram)

    @property
    def sizes(self) -> np.ndarray:
        """Samples (sums of weights when weighted) per group.

        Returns
        -------
        ndarray
        """
        return self.stack.sum(axis=(1, 2))

    @property
    def weightless(self) -> np.ndarray:
        """Which groups' histograms hold no weight at all (no value, as :class:`GroupedScores`).

        Returns
        -------
        ndarray of bool, shape (G,)
        """
        return np.logical_not(self.stack.any(axis=(1, 2)))

    def roc_curves(self, drop_intermediate: bool = True
                   ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Each group's binned ROC curve ``(fpr, tpr, thresholds)``, the thresholds the lower
        edges of its non-empty bins (:meth:`confmat.binned.ScoreHistogram.roc_curve`).

        Parameters
        ----------
        drop_intermediate : bool, default True
            Drop points that are not corners of the curve.

        Returns
        -------
        list of (ndarray, ndarray, ndarray)

        Examples
        --------
        >>> from confmat.binned import ScoreHistogram
        >>> h = ScoreHistogram([0, 1], bins=4).update([0, 1], [0.1, 0.9])
        >>> BinnedGroupedScores([h]).roc_curves()[0][2].tolist()
        [inf, 0.75, 0.0]
        """
        with quiet():
            return [h.roc_curve(drop_intermediate=drop_intermediate) for h in self.histograms]

    def replicates(self, name: str, n_resamples: int, rng: np.random.Generator,
                   pooled: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        """Refused: a bootstrap resamples the samples, which a histogram does not keep.

        Parameters
        ----------
        name, n_resamples, rng, pooled
            As :meth:`GroupedScores.replicates`.

        Returns
        -------
        tuple
            Never returns.

        Raises
        ------
        ValueError
            Always.
        """
        raise ValueError(_NO_INTERVAL.format(name=name))

    def intervals(self, name: str, *, level: float, method: str, n_resamples: int,
                  random_state: Any) -> list[ConfidenceInterval]:
        """Refused: DeLong's variance and the bootstrap need the samples.

        Parameters
        ----------
        name, level, method, n_resamples, random_state
            As :meth:`GroupedScores.intervals`.

        Returns
        -------
        list of ConfidenceInterval
            Never returns.

        Raises
        ------
        ValueError
            Always.
        """
        raise ValueError(_NO_INTERVAL.format(name=name))


#: cells (groups x bins) computed at a time by :meth:`BinnedGroupedScores.values`
_BLOCK_CELLS = 1 << 14

_NO_INTERVAL = ("{name} by group from score histograms (a file counted with bins) has no "
                "interval: DeLong's variance and the bootstrap need the samples; evaluate in "
                "memory with confmat.by_group(..., scores=) for intervals")

#: the score data of an evaluation by group: the samples, or one histogram per group
ScoreData = GroupedScores | BinnedGroupedScores


def _binned_score(name: str, hist: Any) -> float:
    """The histogram's ROC AUC or average precision (step), NaN where undefined."""
    if name == "roc_auc":
        return float(hist.roc_auc())
    return float(hist.average_precision())
