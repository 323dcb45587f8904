"""Binned, mergeable score statistics: per-class histograms of scores.

For data that does not fit in memory or is spread over machines, :class:`ScoreHistogram`
counts scores into ``B`` equal-width bins over a fixed range (default 10,000 bins over
``[0, 1]``), separately for every true class. Histograms of chunks add up exactly, so
``update`` chunk by chunk, ``merge`` / ``+`` across workers, and ``to_dict`` / ``from_dict``
(versioned JSON, no pickle) to ship them.

**What is exact.** Bin ``j`` holds the scores ``e_j <= s < e_{j+1}`` (the last bin also holds
``s = hi``) with edges ``e_j = lo + (hi - lo) * j / B``. The counts at or above an edge are
therefore exact: a :meth:`ScoreHistogram.threshold_sweep` at bin edges gives exactly the
confusion matrices of the decision rule ``score >= edge``. Every curve and area computed here
equals the exact one computed on the scores rounded *down* to their bin's lower edge.

**Error bound of the AUC.** Rounding scores down within a bin only changes the order of a
positive and a negative that fall in the same bin: such a pair counts 1/2 in the binned AUC
and 0, 1/2 or 1 in the exact one. Hence, with ``pos_b`` and ``neg_b`` the (weighted) counts of
positives and negatives in bin ``b``,

.. math:: |\\mathrm{AUC}_{exact} - \\mathrm{AUC}_{binned}| \\le
          \\frac{1}{2} \\frac{\\sum_b pos_b\\, neg_b}{P N},

which :meth:`ScoreHistogram.auc_error_bound` reports (it is computable from the histogram
alone). For well-spread scores it is about ``1 / (2B)`` or less.

Modules: ``histogram`` (:class:`ScoreHistogram`: accumulation, merging), ``state`` (its
versioned JSON), ``views`` (its curves, areas and threshold sweeps) and ``binning`` (one chunk
binned by numba or numpy).
"""

from .histogram import ScoreHistogram, read_histogram

__all__ = ["ScoreHistogram", "read_histogram"]
