"""The forest plot of an evaluation by group: one metric with its confidence interval in every
group, groups below the minimum support drawn hollow (flagged, not hidden)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..groups import GroupedEvaluation
from .common import literal_text, new_ax

__all__ = ["draw_group_forest", "plot_group_forest"]


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
    TypeError
        ``ev`` is not a ``GroupedEvaluation``.
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
    if not isinstance(ev, GroupedEvaluation):
        raise TypeError("ev must be a GroupedEvaluation (made by confmat.by_group), got "
                        f"{type(ev).__name__}")
    ci = ev.ci(metric, level=level, pos_label=pos_label, random_state=random_state,
               **ci_params)
    forest = {"metric": metric, "method": ci.method, "level": level, "names": list(ev.names),
              "groups": list(ev.groups), "sizes": [int(v) for v in ev.sizes],
              "small": [bool(v) for v in ev.small], "estimate": ci.estimate.tolist(),
              "low": ci.low.tolist(), "high": ci.high.tolist(),
              "overall": float(ev.overall_metric(metric, pos_label=pos_label))
              if overall else None}
    return draw_group_forest(forest, ax=ax, min_support=ev.min_support)


def _floats(values: Any) -> np.ndarray:
    return np.array([np.nan if v is None else float(v) for v in values], dtype=np.float64)


def draw_group_forest(forest: Mapping[str, Any], *, ax: Any = None,
                      min_support: int | None = None) -> Any:
    """Draw a forest plot from its data: the ``forest`` of a report's by-group section
    (:class:`confmat.report.groups_section.GroupsSection`), so that a report draws what it
    holds and computes nothing.

    Parameters
    ----------
    forest : mapping
        ``metric``, ``method``, ``level``, ``names`` (the features), and per group
        ``groups``, ``sizes``, ``small``, ``estimate``, ``low``, ``high`` (None or NaN where
        undefined); ``overall`` (optional, None for no line).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on (a new figure otherwise).
    min_support : int, optional
        The minimum support, named in the legend of small groups.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ImportError
        Without matplotlib.
    TypeError
        ``forest`` is not a mapping.
    ValueError
        ``forest`` lacks a key, or its per-group lists differ in length.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> f = {"metric": "recall", "method": "wilson", "level": 0.95, "names": ["site"],
    ...      "groups": ["a", "b"], "sizes": [40, 5], "small": [False, True],
    ...      "estimate": [0.8, 0.6], "low": [0.65, 0.23], "high": [0.9, 0.88], "overall": 0.78}
    >>> ax = draw_group_forest(f, ax=Figure().add_subplot())
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['a (n=40)', 'b (n=5)']
    """
    groups = _check_forest(forest)
    _, ax = new_ax(ax, (5.5, 0.9 + 0.35 * len(groups)))
    y = np.arange(len(groups))[::-1]
    est, low, high = (_floats(forest[k]) for k in ("estimate", "low", "high"))
    small = np.asarray(forest["small"], dtype=bool)
    ax.hlines(y, low, high, color="C0")
    ax.plot(est[~small], y[~small], "o", color="C0", label="group")
    if small.any():
        ax.plot(est[small], y[small], "o", mfc="white", color="C0",
                label="fewer than " + (f"{min_support} samples" if min_support is not None
                                       else "the minimum support"))
    value = forest.get("overall")
    if value is not None and np.isfinite(value):
        ax.axvline(float(value), color="0.5", ls="--", lw=1, label="overall")
    names = [" / ".join(map(str, k)) if isinstance(k, tuple | list) else str(k) for k in groups]
    ax.set_yticks(y, [f"{literal_text(g)} (n={int(s)})" for g, s in zip(names, forest["sizes"], strict=True)])
    metric, level = forest["metric"], float(forest["level"])
    ax.set_xlabel(f"{metric} ({level:.0%} interval, {forest['method']})")
    ax.set_title(f"{metric} by {literal_text(' x '.join(map(str, forest['names'])))}")
    ax.legend(loc="best", fontsize="small")
    return ax


_PER_GROUP = ("groups", "sizes", "small", "estimate", "low", "high")


def _check_forest(forest: Any) -> list[Any]:
    """The groups of a forest plot's data, after checking its keys and lengths."""
    if not isinstance(forest, Mapping):
        raise TypeError(f"forest must be a mapping (a report's by-group 'forest'), got "
                        f"{type(forest).__name__}")
    missing = [k for k in ("metric", "method", "level", "names", *_PER_GROUP) if k not in forest]
    if missing:
        raise ValueError(f"forest lacks the key(s) {', '.join(map(repr, missing))}")
    lengths = {k: len(forest[k]) for k in _PER_GROUP}
    if len(set(lengths.values())) > 1:
        raise ValueError("forest's per-group lists must have one entry per group, got lengths "
                         + ", ".join(f"{k}={n}" for k, n in lengths.items()))
    return list(forest["groups"])
