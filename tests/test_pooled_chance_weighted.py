"""Scott's pi, Krippendorff's alpha and the adjusted Rand index of weighted tables, against
exact rationals (``fractions.Fraction``, from the textbook formulas in
``tests/exact_oracles.py``: Scott 1955, Krippendorff 2004, Hubert & Arabie 1985).

Weighted tables are float64 cells. Two kinds of table lose digits when the coefficients are
formed from float64 margins: weights spanning more than 2**53 within one table (a row sum
such as 2**53 + 1 rounds, and ``1 - p_e`` cancels), and tables near chance level (the
numerator cancels). Every cell of a float table is a binary fraction, so the oracle is exact.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confmat import ConfusionMatrix
from exact_oracles import OVERALL, agrees, value

NAMES = ("scott_pi", "krippendorff_alpha", "ari", "kappa")  # kappa: the same exact pass


def _fractions(table: np.ndarray) -> list[list[Fraction]]:
    return [[Fraction(float(v)) for v in row] for row in table]


def _disagreements(table: np.ndarray) -> list[str]:
    cm = ConfusionMatrix(table)
    exact = _fractions(table)
    bad = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in NAMES:
            got = cm.metric(name, zero_division=np.nan)
            want = value(OVERALL[name], exact)
            if not agrees(got, want):
                bad.append(f"{name}: {float(got)!r} vs {float(want) if want is not None else None}")
    return bad


@pytest.mark.parametrize("table", [
    [[2.0**53, 1.0], [1.0, 3.0]],            # rows 2**53 + 1 and 4: pi about 3/4
    [[2.0**60, 1.0, 0.0], [2.0, 5.0, 1.0], [0.0, 1.0, 7.0]],
    [[1.0, 2.0**-60], [2.0**-60, 2.0**-58]],
    [[2.0**70, 3.0], [0.5, 0.25]],
])
def test_weights_spanning_more_than_2_53(table: list[list[float]]) -> None:
    assert not _disagreements(np.array(table))


@pytest.mark.parametrize("table", [
    [[2.0**-20, 2.0**-47], [0.0, 0.0]],       # found by hypothesis: alpha about 2**19
    [[0.25, 2.0**-40], [2.0**-45, 0.125]],
    [[1e-300, 0.0], [1e-310, 0.0]],
])
def test_totals_below_one(table: list[list[float]]) -> None:
    # Krippendorff's 1 - 1/(2N) is negative below N = 1/2 and its two terms in 1/N cancel
    assert not _disagreements(np.array(table))


def test_scott_pi_by_hand_with_weights_spanning_2_53() -> None:
    """[[2**53, 1], [1, 3]]: rows and columns sum to 2**53 + 1 and 4, N = 2**53 + 5, so
    1 - p_o = 2 / N and 1 - p_e = sum_k m_k (1 - m_k) with m = (2**53 + 1, 4) / N; pi is
    1 - (1 - p_o) / (1 - p_e) = 1 - 2 N / (2 (2**53 + 1) 4) = 1 - N / (4 (2**53 + 1))."""
    n = 2**53 + 5
    expected = 1 - Fraction(n, 4 * (2**53 + 1))
    got = ConfusionMatrix(np.array([[2.0**53, 1.0], [1.0, 3.0]])).metric("scott_pi")
    assert got == pytest.approx(float(expected), rel=1e-15)


def test_at_chance_level_against_exact_rationals() -> None:
    """Cells equal to the product of their margins (truth and prediction independent, rows =
    columns): the coefficients are 0 up to the rounding of the decimal weights (0.1 * 0.7 is
    no binary fraction), so the float64 numerator cancels completely; the oracle is exact on
    the float cells as stored."""
    margins = np.array([0.1, 0.7, 0.2])
    table = np.outer(margins, margins) * 3.0
    assert not _disagreements(table)


_exponent = st.integers(-70, 70)
_mantissa = st.integers(1, 2**20)


@st.composite
def wide_tables(draw: st.DrawFn) -> np.ndarray:
    k = draw(st.integers(2, 5))
    cells = [[0.0 if draw(st.integers(0, 4)) == 0 else
              float(draw(_mantissa)) * 2.0 ** draw(_exponent) for _ in range(k)]
             for _ in range(k)]
    table = np.array(cells)
    if table.sum() == 0:
        table[0, 0] = 1.0
    return table


@st.composite
def near_chance_tables(draw: st.DrawFn) -> np.ndarray:
    """A table of independent truth and prediction (cells r_i c_j, integers times a power of
    two) with one cell nudged: the coefficients are tiny and their numerators cancel."""
    k = draw(st.integers(2, 5))
    rows = [draw(st.integers(1, 2**12)) for _ in range(k)]
    cols = rows if draw(st.booleans()) else [draw(st.integers(1, 2**12)) for _ in range(k)]
    table = np.outer(rows, cols).astype(np.float64)
    i, j = draw(st.integers(0, k - 1)), draw(st.integers(0, k - 1))
    table[i, j] += draw(st.sampled_from([0.0, 1.0, 2.0**-10, 3.0]))
    return table * 2.0 ** draw(st.integers(-40, 40))


@settings(max_examples=300, deadline=None)
@given(wide_tables())
def test_wide_weighted_tables_against_exact_rationals(table: np.ndarray) -> None:
    assert not _disagreements(table)


@settings(max_examples=300, deadline=None)
@given(near_chance_tables())
def test_near_chance_weighted_tables_against_exact_rationals(table: np.ndarray) -> None:
    assert not _disagreements(table)


@pytest.mark.parametrize("table", [
    [[3e-310, 1e-310], [2e-310, 5e-310]],    # subnormal cells: float64 keeps few digits
    [[5e-309, 1e-309], [0.0, 1e-309]],
    [[1e-320, 0.0], [0.0, 3e-320]],
])
def test_totals_below_the_normal_range(table: list[list[float]]) -> None:
    """Totals below 2**-1022: the exact value where it is a float64; Krippendorff's alpha of
    [[3e-310, 1e-310], [2e-310, 5e-310]] is about 1e309 (its pa holds 1 / (2N)), beyond
    float64, and rounds to +inf as IEEE 754 rounds an overflow."""
    t = np.array(table)
    exact = _fractions(t)
    cm = ConfusionMatrix(t)
    for name in NAMES:
        want = value(OVERALL[name], exact)
        got = cm.metric(name, zero_division=np.nan)
        if want is not None and abs(want) > Fraction(np.finfo(np.float64).max):
            assert got == (np.inf if want > 0 else -np.inf), name
        else:
            assert agrees(got, want), (name, float(got), want)
