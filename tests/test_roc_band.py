"""The confidence band of :meth:`RocCurveDisplay.plot` (``band=`` a :class:`RocCI`): the shaded
polygon's vertices are exactly the interval bounds of the band, on ROC axes (x = 1 - sp)."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

from confmat.curves import threshold_sweep
from confmat.inference import roc_ci
from confmat.plots.curves import RocCurveDisplay


def _data(seed: int = 0, n: int = 300) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return y, rng.normal(size=n) + 1.2 * y


def _edges(display: RocCurveDisplay, q: int) -> tuple[np.ndarray, np.ndarray]:
    """The polygon's two edges: the ``q`` points after its start, and the ``q`` points before
    it closes (matplotlib's ``fill_between`` walks the first edge out and the second back)."""
    paths = display.band_.get_paths()
    assert len(paths) == 1
    v = paths[0].vertices
    assert paths[0].codes[-1] == paths[0].CLOSEPOLY
    return v[1:q + 1], v[-q - 1:-1]


@pytest.mark.parametrize("seed", [0, 1])
def test_band_at_specificities_is_the_sensitivity_interval(seed):
    y, s = _data(seed)
    sp = np.array([0.95, 0.2, 0.5, 0.8, 0.35, 0.65])  # not sorted on purpose
    ci = roc_ci(y, s, specificities=sp, n_resamples=300, random_state=seed)
    d = RocCurveDisplay(threshold_sweep(y, s)).plot(ax=Figure().add_subplot(), band=ci)
    lower, upper = _edges(d, sp.size)
    order = np.argsort(sp)
    want_x = 1.0 - sp[order]
    np.testing.assert_array_equal(lower, np.c_[want_x, ci.sensitivity.low[order]])
    np.testing.assert_array_equal(upper[::-1], np.c_[want_x, ci.sensitivity.high[order]])
    assert np.all(lower[:, 1] <= upper[::-1, 1])


def test_band_at_sensitivities_is_the_specificity_interval():
    y, s = _data(3)
    se = np.array([0.3, 0.9, 0.6, 0.75])
    ci = roc_ci(y, s, sensitivities=se, n_resamples=300, random_state=3)
    d = RocCurveDisplay(threshold_sweep(y, s)).plot(
        ax=Figure().add_subplot(), band=ci, band_kw={"color": "red", "label": "band"})
    lower, upper = _edges(d, se.size)
    order = np.argsort(se)
    np.testing.assert_array_equal(lower, np.c_[1.0 - ci.specificity.high[order], se[order]])
    np.testing.assert_array_equal(upper[::-1], np.c_[1.0 - ci.specificity.low[order], se[order]])
    assert d.band_.get_label() == "band"
    # the band is drawn under the curve and appears in the legend
    assert "band" in [t.get_text() for t in d.ax_.get_legend().get_texts()]


def test_no_band_by_default():
    y, s = _data()
    d = RocCurveDisplay(threshold_sweep(y, s)).plot(ax=Figure().add_subplot())
    assert not hasattr(d, "band_") and not d.ax_.collections


@pytest.mark.parametrize(
    ("band", "err", "msg"),
    [
        ("ci", TypeError, "band must be a confmat RocCI"),
        ({"thresholds": [0.0, 0.5]}, ValueError, "given thresholds"),
        ({"specificities": [0.5]}, ValueError, "single point"),
    ],
)
def test_bad_band(band, err, msg):
    y, s = _data()
    if isinstance(band, dict):
        band = roc_ci(y, s, n_resamples=200, random_state=0, **band)
    d = RocCurveDisplay(threshold_sweep(y, s))
    with pytest.raises(err, match=msg):
        d.plot(ax=Figure().add_subplot(), band=band)
