"""Shared pieces of the displays: axes, estimator scores, threshold labels, ``savefig``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..inputs.targets import encode_truth, resolve_pos_label


def literal_text(text: Any) -> str:
    """A user's label or name as matplotlib text that is drawn as typed.

    Matplotlib reads text between two ``$`` as mathtext (``"$x^2$"`` drawn as a formula, and
    ``"$\\frac$"`` fails to draw at all) and leaves out of a legend every label that starts
    with ``_``. Each ``$`` is escaped (``\\$``, drawn as ``$``) and a leading ``_`` gets a
    zero-width space before it, so class labels, model and group names reach the figure as
    text.

    Parameters
    ----------
    text : object
        Converted with ``str``.

    Returns
    -------
    str

    Examples
    --------
    >>> print(literal_text("cost $1-$5"))
    cost \\$1-\\$5
    >>> literal_text("_neg")
    '\\u200b_neg'
    """
    s = str(text).replace("$", "\\$")
    return "\u200b" + s if s.startswith("_") else s


def new_ax(ax: Any, figsize: tuple[float, float] = (5.0, 4.5)) -> tuple[Any, Any]:
    """The figure and axes to draw on: those of ``ax``, or a new figure.

    Parameters
    ----------
    ax : matplotlib.axes.Axes or None
        Axes to draw on; None creates a figure with ``matplotlib.pyplot.subplots``.
    figsize : tuple of float, default (5.0, 4.5)
        Size in inches of a new figure.

    Returns
    -------
    tuple
        ``(figure, axes)``.

    Raises
    ------
    ImportError
        If matplotlib is not installed (the message names the ``plot`` extra).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from confmat.plots.common import new_ax
    >>> ax = Figure().add_subplot()
    >>> new_ax(ax) == (ax.figure, ax)
    True
    """
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:  # pragma: no cover - matplotlib is in the plot extra
        raise ImportError("plots need matplotlib: pip install 'confmat[plot]'") from exc
    if ax is not None:
        return ax.figure, ax
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=figsize)
    return fig, ax


def scores_of(estimator: Any, X: Any, y: Any, pos_label: Any,
               response_method: str = "auto") -> tuple[np.ndarray, Any]:
    """Scores of the positive class from a fitted binary classifier, and that class.

    The positive class is resolved by the input door from the estimator's ``classes_`` (or
    the classes of ``y``); the score column is the one of that class.

    Parameters
    ----------
    estimator : object
        A fitted classifier with ``predict_proba`` or ``decision_function``.
    X : array_like
        The samples to score.
    y : array_like
        True labels; their classes are used only when the estimator has no ``classes_``.
    pos_label : label or None
        The positive class, resolved by
        :func:`~confmat.inputs.targets.resolve_pos_label` (None: the rule for {0, 1},
        {-1, 1} and {False, True}).
    response_method : {"auto", "predict_proba", "decision_function"}, default "auto"
        The method giving the scores; ``"auto"`` tries ``predict_proba``, then
        ``decision_function``.

    Returns
    -------
    scores : numpy.ndarray of float64, shape (n,)
        The positive class's column of ``predict_proba``, or the decision function (negated
        when the positive class is ``classes_[0]``).
    pos_label : label
        The positive class.

    Raises
    ------
    ValueError
        If the positive class cannot be resolved, the score columns do not match the classes,
        or a one-column decision function comes with more than two classes.
    TypeError
        If the estimator has none of the methods asked for.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from confmat.plots.common import scores_of
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> y = np.array(["no", "no", "yes", "yes"])
    >>> model = LogisticRegression().fit(X, y)
    >>> scores, pos = scores_of(model, X, y, "yes")
    >>> pos, bool(np.allclose(scores, model.predict_proba(X)[:, 1]))
    ('yes', True)
    """
    classes = list(getattr(estimator, "classes_", [])) or encode_truth(y)[0]
    pos = resolve_pos_label([c.item() if isinstance(c, np.generic) else c for c in classes],
                            pos_label)
    k = [c.item() if isinstance(c, np.generic) else c for c in classes].index(pos)
    methods = ["predict_proba", "decision_function"] if response_method == "auto" else [
        response_method]
    for m in methods:
        fn = getattr(estimator, m, None)
        if fn is None:
            continue
        s = np.asarray(fn(X), dtype=np.float64)
        if s.ndim == 2:
            if s.shape[1] != len(classes):
                raise ValueError(f"{m} gave {s.shape[1]} columns for {len(classes)} classes")
            return s[:, k], pos
        if len(classes) != 2:
            raise ValueError("from_estimator draws binary problems; use from_predictions with "
                             "pos_label and that class's score column")
        return (s if k == 1 else -s), pos  # decision_function scores classes_[1]
    raise TypeError(
        f"estimator {type(estimator).__name__} has neither predict_proba nor decision_function"
    )


def annotate_thresholds(ax: Any, points: list[tuple[float, float, float]],
                         offset: tuple[float, float], min_gap: float = 0.07) -> None:
    """Label marked thresholds on ``ax``; nearby points share one label.

    A point closer than ``min_gap`` (in both coordinates) to the first point of a label group
    joins that group instead of overprinting it; a group of consecutive thresholds reads
    ``θ=0.6–0.8``, other groups list their thresholds.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes to annotate.
    points : list of tuple of float
        ``(x, y, threshold)`` of each marked point, in data coordinates.
    offset : tuple of float
        Offset of each label from its point, in points.
    min_gap : float, default 0.07
        Distance in data coordinates under which points share a label.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from confmat.plots.common import annotate_thresholds
    >>> ax = Figure().add_subplot()
    >>> annotate_thresholds(ax, [(0.1, 0.5, 0.8), (0.12, 0.52, 0.6), (0.6, 0.9, 0.2)], (4, -8))
    >>> sorted(t.get_text() for t in ax.texts)
    ['θ=0.2', 'θ=0.6–0.8']
    """
    groups: list[list[tuple[float, float, float]]] = []
    for x, y, t in points:
        for g in groups:
            if abs(g[0][0] - x) < min_gap and abs(g[0][1] - y) < min_gap:
                g.append((x, y, t))
                break
        else:
            groups.append([(x, y, t)])
    order = sorted(t for _, _, t in points)
    for g in groups:
        ts = sorted(t for _, _, t in g)
        pos = [order.index(t) for t in ts]
        if len(ts) == 1:
            text = f"θ={ts[0]:.2g}"
        elif pos == list(range(pos[0], pos[0] + len(pos))):
            text = f"θ={ts[0]:.2g}–{ts[-1]:.2g}"
        else:
            text = "θ=" + ", ".join(f"{t:.2g}" for t in ts)
        ax.annotate(text, (g[0][0], g[0][1]), textcoords="offset points", xytext=offset,
                    fontsize=7)


class Saving:
    """Mixin of every display: ``savefig``."""

    figure_: Any
    ax_: Any

    def savefig(self, path: Any, **kwargs: Any) -> Any:
        """Save the drawn figure (PNG, SVG or PDF from the extension), drawing it if needed.

        Parameters
        ----------
        path : str or path-like
            Where to write; the extension chooses the format.
        **kwargs
            Passed to ``Figure.savefig`` (``bbox_inches="tight"`` by default).

        Returns
        -------
        str or path-like
            ``path``, as given.

        Examples
        --------
        >>> import os, tempfile
        >>> from matplotlib.figure import Figure
        >>> from confmat.plots import ConfusionMatrixDisplay
        >>> d = ConfusionMatrixDisplay([[3, 1], [0, 4]]).plot(ax=Figure().add_subplot())
        >>> out = d.savefig(os.path.join(tempfile.mkdtemp(), "cm.svg"))
        >>> os.path.getsize(out) > 0
        True
        """
        if getattr(self, "figure_", None) is None:
            self.plot()  # type: ignore[attr-defined]
        kwargs.setdefault("bbox_inches", "tight")
        self.figure_.savefig(path, **kwargs)
        return path


#: legend entries of reference lines, listed after the curves
REFERENCE_LABELS = ("chance", "chance (prevalence)", "perfect")


def place_legend(ax: Any, *, loc: str = "lower right", max_inside: int = 4,
                 fontsize: float = 8) -> Any:
    """Draw the legend of ``ax`` where it covers no tick label.

    Entries keep the order in which their lines were drawn (curves of several classes: class
    order), with the reference lines (chance, perfect) last. Up to ``max_inside`` entries go
    inside the axes at ``loc``; more go below the axes, under the x label, in two columns, so
    that a long legend hides neither curves nor tick labels (of the axes or of an inset).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes whose labelled lines make the legend.
    loc : str, default "lower right"
        Where a short legend goes inside the axes.
    max_inside : int, default 4
        The most entries drawn inside the axes; 0 puts every legend below.
    fontsize : float, default 8
        Font size of the entries.

    Returns
    -------
    matplotlib.legend.Legend or None
        The legend; None when no line has a label.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().add_subplot()
    >>> for k in range(6):
    ...     _ = ax.plot([0, 1], [0, k], label=f"class {k}")
    >>> _ = ax.plot([0, 1], [0, 1], label="chance")
    >>> leg = place_legend(ax)
    >>> [t.get_text() for t in leg.get_texts()][-2:], bool(leg.get_bbox_to_anchor().y0 < ax.bbox.y0)
    (['class 5', 'chance'], True)
    """
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    order = sorted(range(len(labels)), key=lambda i: labels[i] in REFERENCE_LABELS)
    handles, labels = [handles[i] for i in order], [labels[i] for i in order]
    if len(handles) <= max_inside:
        return ax.legend(handles, labels, loc=loc, fontsize=fontsize)
    ax.figure.draw_without_rendering()  # lay out tick labels and axis labels first
    below = ax.get_tightbbox().transformed(ax.transAxes.inverted()).y0
    return ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, below - 0.02),
                     ncol=2, fontsize=fontsize, frameon=False)
