"""The brute-force reference of the DeLong-type covariance of partial ROC areas, shared by
tests/test_roc_partial_delong.py and tests/test_roc_var.py.

Not a test file. Written from the influence functions in the false positive rate form
(docs/roc.md, "DeLong's variance of a partial area"): the component of a case is
``clip(t2 - max(FPR(x), t1), 0, t2 - t1)``, of a control ``ROC(t2) - ROC(clip(FPR(y), t1,
t2))``, in exact rational arithmetic (``fractions.Fraction``), with the class swap for a
sensitivity range. confmat's implementation clips DeLong et al.'s (1988) components instead:
a different form of the same numbers.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import numpy as np
from hypothesis import strategies as st

__all__ = ["BOUNDS", "problems", "reference_covariance"]




def _curve(cases: list[Fraction], controls: list[Fraction]) -> list[tuple[Fraction, Fraction]]:
    """(FPR, TPR) points of the empirical curve, one per distinct score plus (0, 0)."""
    m, n = len(cases), len(controls)
    pts = [(Fraction(0), Fraction(0))]
    for t in sorted(set(cases) | set(controls), reverse=True):
        pts.append((Fraction(sum(c >= t for c in controls), n),
                    Fraction(sum(c >= t for c in cases), m)))
    return pts


def _roc_at(pts: list[tuple[Fraction, Fraction]], u: Fraction) -> Fraction:
    """The curve at FPR ``u``: the middle of a vertical step at ``u``, else interpolated."""
    at = [tpr for fpr, tpr in pts if fpr == u]
    if at:
        return (min(at) + max(at)) / 2
    for (f0, r0), (f1, r1) in pairwise(pts):
        if f0 < u < f1:
            return r0 + (u - f0) / (f1 - f0) * (r1 - r0)
    raise AssertionError("u outside [0, 1]")


def _area(pts: list[tuple[Fraction, Fraction]], t1: Fraction, t2: Fraction) -> Fraction:
    total = Fraction(0)
    for (f0, r0), (f1, r1) in pairwise(pts):
        a, b = max(f0, t1), min(f1, t2)
        if b > a:  # the trapezoid of this segment between a and b
            ra = r0 + (a - f0) / (f1 - f0) * (r1 - r0)
            rb = r0 + (b - f0) / (f1 - f0) * (r1 - r0)
            total += (b - a) * (ra + rb) / 2
    return total


def _fpr(v: Fraction, controls: list[Fraction]) -> Fraction:
    """Share of controls above ``v``, ties counting one half."""
    above = sum(c > v for c in controls) + Fraction(sum(c == v for c in controls), 2)
    return above / len(controls)


def _cov(a: list[Fraction], b: list[Fraction]) -> Fraction:
    k = len(a)
    if k < 2:
        return Fraction(0)
    ma, mb = sum(a, Fraction(0)) / k, sum(b, Fraction(0)) / k
    return sum(((x - ma) * (y - mb) for x, y in zip(a, b, strict=True)), Fraction(0)) / (k - 1)


def _components(cases: list[Fraction], controls: list[Fraction], t1: Fraction, t2: Fraction
                ) -> tuple[Fraction, list[Fraction], list[Fraction]]:
    """Area on the FPR range [t1, t2] and the influence-function components."""
    pts = _curve(cases, controls)
    r2 = _roc_at(pts, t2)
    v10 = [min(max(t2 - max(_fpr(x, controls), t1), Fraction(0)), t2 - t1) for x in cases]
    v01 = [r2 - _roc_at(pts, min(max(_fpr(y, controls), t1), t2)) for y in controls]
    return _area(pts, t1, t2), v10, v01


def reference_covariance(y: np.ndarray, scores: list[np.ndarray], focus: str, lo: Fraction,
               hi: Fraction) -> tuple[list[Fraction], list[list[Fraction]]]:
    """Areas and covariance matrix of paired curves. A sensitivity range is the specificity
    range of the swapped problem (controls as cases, scores negated)."""
    out = []
    for s in scores:
        frac = [Fraction(float(v)) for v in s]
        cases = [v for v, t in zip(frac, y, strict=True) if t == 1]
        controls = [v for v, t in zip(frac, y, strict=True) if t == 0]
        if focus == "sensitivity":
            cases, controls = [-v for v in controls], [-v for v in cases]
        out.append(_components(cases, controls, 1 - hi, 1 - lo))
    m, n = len(out[0][1]), len(out[0][2])
    cov = [[_cov(a[1], b[1]) / m + _cov(a[2], b[2]) / n for b in out] for a in out]
    return [o[0] for o in out], cov


BOUNDS = st.sampled_from([Fraction(k, d) for d in (2, 3, 4, 5, 10) for k in range(d + 1)])


@st.composite
def problems(draw):  # type: ignore[no-untyped-def]
    n = draw(st.integers(3, 24))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[:2] = [0, 1]
    levels = draw(st.integers(2, 8))
    a = np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n)), float)
    b = np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n)), float)
    focus = draw(st.sampled_from(["specificity", "sensitivity"]))
    # bounds on the steps of the curve (k / #controls or k / #cases) as well as between them
    size = int((y == 0).sum() if focus == "specificity" else (y == 1).sum())
    step = st.integers(0, size).map(lambda k: Fraction(k, size))
    lo = draw(st.one_of(BOUNDS, step))
    hi = draw(st.one_of(BOUNDS, step).filter(lambda v: v != lo))
    return y, a, b, focus, min(lo, hi), max(lo, hi)
