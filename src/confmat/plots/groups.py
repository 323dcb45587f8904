"""The forest plot of an evaluation by group: one metric with its confidence interval in every
group, groups below the minimum support drawn hollow (flagged, not hidden)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .common import new_ax

__all__ = ["plot_group_forest"]


def plot_group_forest(ev: Any, metric: str = "balanced_accuracy", *, level: float = 0.95,
                      pos_label: Any = None, overall: bool = True, ax: Any = None,
                      random_state: Any = 0, **ci_params: Any) -> Any:
    """Draw ``metric`` with its interval per group (``GroupedEvaluation.ci``), one row each.

    Parameters
    ----------
    ev : GroupedEvaluation
        The evaluation by group (:func:`confmat.by_group`).
    metric : str, default 'balanced_accuracy'
        A metric with one value per group (a per-class metric needs ``pos_label``).
    level : float, default 0.95
        Confidence level.
    pos_label : label, optional
        The class of a per-class metric.
    overall : bool, default True
        Draw the overall value as a vertical line.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on (a new figure otherwise).
    random_state : int or numpy.random.Generator, default 0
        Seed of bootstrap intervals.
    **ci_params
        Passed to ``GroupedEvaluation.ci`` (``method``, ``average``, ...).

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ImportError
        Without matplotlib.
    ValueError
        As ``GroupedEvaluation.ci``.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from confmat.groups import by_group
    >>> ev = by_group([0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1], ["a"] * 3 + ["b"] * 3)
    >>> ax = plot_group_forest(ev, "accuracy", ax=Figure().add_subplot())
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['a (n=3)', 'b (n=3)']
    """
    ci = ev.ci(metric, level=level, pos_label=pos_label, random_state=random_state,
               **ci_params)
    _, ax = new_ax(ax, (5.5, 0.9 + 0.35 * len(ev.groups)))
    y = np.arange(len(ev.groups))[::-1]
    est, low, high = ci.estimate, ci.low, ci.high
    small = np.asarray(ev.small, dtype=bool)
    ax.hlines(y, low, high, color="C0")
    ax.plot(est[~small], y[~small], "o", color="C0", label="group")
    if small.any():
        ax.plot(est[small], y[small], "o", mfc="white", color="C0",
                label=f"fewer than {ev.min_support} samples")
    if overall:
        value = ev.overall_metric(metric, pos_label=pos_label)
        ax.axvline(float(value), color="0.5", ls="--", lw=1, label="overall")
    names = [" / ".join(map(str, k)) if isinstance(k, tuple) else str(k) for k in ev.groups]
    ax.set_yticks(y, [f"{g} (n={int(s)})" for g, s in zip(names, ev.sizes, strict=True)])
    ax.set_xlabel(f"{metric} ({level:.0%} interval, {ci.method})")
    ax.set_title(f"{metric} by {' x '.join(ev.names)}")
    ax.legend(loc="best", fontsize="small")
    return ax
