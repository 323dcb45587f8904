"""What is shaded on ROC axes (x = 1 - specificity, y = sensitivity): a curve's confidence band
and the range of a partial AUC. Used by :class:`confmat.plots.curves.RocCurveDisplay`, the
comparison's ROC overlay and the HTML report's figures.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..curves.partial import PartialRange

__all__ = ["draw_band", "draw_partial_range", "partial_range_label"]


def draw_band(ax: Any, band: Any, band_kw: dict[str, Any] | None = None) -> Any:
    """Shade a :class:`~confmat.inference.RocCI` on ROC axes (x = 1 - specificity).

    With intervals at given specificities, the sensitivity interval at each is shaded
    between them (``ax.fill_between``); at given sensitivities, the specificity interval
    across (``ax.fill_betweenx``). The polygon's vertices are the interval bounds.

    Parameters
    ----------
    ax : matplotlib Axes
    band : RocCI
        From :func:`confmat.roc_ci` with ``specificities=`` or ``sensitivities=``.
    band_kw : dict, optional
        Keywords of the fill (default ``alpha=0.25``, no edge, label ``'95% CI'``).

    Returns
    -------
    matplotlib collection
        The shaded polygon.

    Raises
    ------
    TypeError
        ``band`` is not a RocCI.
    ValueError
        ``band`` holds intervals at given thresholds, or a single point.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from confmat.inference import roc_ci
    >>> ci = roc_ci([0, 0, 1, 1], [.1, .4, .35, .8], specificities=[0, .5, 1],
    ...             n_resamples=100, random_state=0)
    >>> draw_band(Figure().add_subplot(), ci).get_label()
    '95% CI'
    """
    from ..inference.roc_ci import RocCI

    if not isinstance(band, RocCI):
        raise TypeError(f"band must be a confmat RocCI (from confmat.roc_ci), got "
                        f"{type(band).__name__}")
    if band.given not in ("specificity", "sensitivity"):
        raise ValueError(f"band holds intervals at given {band.given}s; a band needs "
                         "roc_ci(specificities=...) or roc_ci(sensitivities=...)")
    if band.at.shape[0] < 2:
        raise ValueError("band has a single point; a band needs at least two "
                         f"{band.given} values")
    kw = {"alpha": 0.25, "linewidth": 0, "label": f"{band.level:.0%} CI"}
    kw.update(band_kw or {})
    order = np.argsort(band.at)
    at = band.at[order]
    if band.given == "specificity":
        se = band.sensitivity
        assert se is not None
        return ax.fill_between(1.0 - at, se.low[order], se.high[order], **kw)
    sp = band.specificity
    assert sp is not None
    return ax.fill_betweenx(at, 1.0 - sp.high[order], 1.0 - sp.low[order], **kw)


def partial_range_label(prange: PartialRange, value: float | None = None) -> str:
    """The legend text of a shaded partial-AUC range: the range, and the area when given.

    Parameters
    ----------
    prange : PartialRange
        The range (:meth:`confmat.curves.partial.PartialRange.parse`).
    value : float, optional
        The partial area on it (McClish-standardised or not, as ``prange.correct`` says;
        nan reads "undefined").

    Returns
    -------
    str

    Examples
    --------
    >>> r = PartialRange.parse((0.8, 1))
    >>> partial_range_label(r, 0.8123)
    'partial AUC = 0.812 (specificity 0.8 to 1, McClish-corrected)'
    >>> partial_range_label(r)
    'partial AUC range: specificity 0.8 to 1'
    """
    if value is None:
        return f"partial AUC range: {prange.focus} {prange.low:g} to {prange.high:g}"
    shown = "undefined" if np.isnan(value) else f"= {value:.3f}"
    return f"partial AUC {shown} ({prange.label})"


def draw_partial_range(ax: Any, prange: PartialRange,
                       range_kw: dict[str, Any] | None = None) -> Any:
    """Shade the range of a partial AUC on ROC axes (x = 1 - specificity, y = sensitivity).

    A specificity range ``[low, high]`` is the strip of false positive rates
    ``[1 - high, 1 - low]`` over sensitivities 0 to 1 (``ax.fill_between``); a sensitivity
    range the strip of true positive rates ``[low, high]`` across false positive rates 0 to 1
    (``ax.fill_betweenx``). The strip is the area of the perfect curve on the range (McClish
    1989): the partial area is the part of it under the ROC curve.

    Parameters
    ----------
    ax : matplotlib Axes
    prange : PartialRange
        The range and its focus (:meth:`confmat.curves.partial.PartialRange.parse`).
    range_kw : dict, optional
        Keywords of the fill (default light grey, ``alpha=0.15``, no edge, label
        :func:`partial_range_label` without a value).

    Returns
    -------
    matplotlib collection
        The shaded polygon.

    Raises
    ------
    TypeError
        ``prange`` is not a PartialRange.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> poly = draw_partial_range(Figure().add_subplot(), PartialRange.parse((0.8, 1)))
    >>> v = poly.get_paths()[0].vertices
    >>> [float(v[:, 0].min()), round(float(v[:, 0].max()), 12)], poly.get_label()
    ([0.0, 0.2], 'partial AUC range: specificity 0.8 to 1')
    """
    if not isinstance(prange, PartialRange):
        raise TypeError("prange must be a confmat.curves.partial.PartialRange (from "
                        f"PartialRange.parse), got {type(prange).__name__}")
    kw: dict[str, Any] = {"color": "0.5", "alpha": 0.15, "linewidth": 0,
                          "label": partial_range_label(prange)}
    kw.update(range_kw or {})
    if prange.focus == "specificity":
        return ax.fill_between([1.0 - prange.high, 1.0 - prange.low], 0.0, 1.0, **kw)
    return ax.fill_betweenx([prange.low, prange.high], 0.0, 1.0, **kw)
