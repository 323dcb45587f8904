"""Integer and bool labels counted over their value ranges: the guess of each range from a
sample of the column, and the table folded onto the sorted labels by index arithmetic on the
two ranges (``_fold_ranges``), against ``sklearn.metrics.confusion_matrix`` and a
``collections.Counter`` of the pairs.

Every integer dtype (int8 ... uint64, their extremes included), bool, ranges that coincide,
overlap or lie apart, classes seen in one column only, one and zero samples, sample weights,
``labels=``, the compiled and the numpy path; columns long enough for the sample to be a
sample, sorted, strided, or with an extreme value the sample misses.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix

import confmat.counting.kernels as kernels
from confmat import ConfusionMatrix
from confmat.counting.kernels import confusion_counts

pytest.importorskip("numba")

# sklearn warns when only one label occurs; that case is part of what is being tested
pytestmark = pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.bool_]


def _column(draw, dtype, n: int, lo: int, k: int) -> np.ndarray:
    """``n`` labels of ``dtype`` drawn from the ``k`` values from ``lo``."""
    values = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    if dtype is np.bool_:
        return np.array([bool(v) for v in values], dtype=bool)
    return np.array([lo + v for v in values], dtype=dtype)


@st.composite
def range_inputs(draw, dtype):
    """Two label columns of one dtype over random ranges, optional weights and labels."""
    if dtype is np.bool_:
        lo_t = lo_p = 0
        k_t = k_p = 2
    else:
        info = np.iinfo(dtype)
        k_t = draw(st.integers(1, min(40, int(info.max) - int(info.min) + 1)))
        # near 0, near either end of the dtype, or anywhere
        lo_t = draw(st.sampled_from([0, int(info.min), int(info.max) - k_t + 1, None]))
        if lo_t is None:
            lo_t = draw(st.integers(int(info.min), int(info.max) - k_t + 1))
        placement = draw(st.sampled_from(["same", "near", "apart"]))
        k_p = k_t if placement == "same" else draw(st.integers(1, 40))
        if placement == "same":
            lo_p = lo_t
        elif placement == "near":  # overlapping or adjacent ranges
            lo_p = lo_t + draw(st.integers(-k_p, k_t))
        else:
            lo_p = draw(st.integers(int(info.min), int(info.max)))
        lo_p = min(max(lo_p, int(info.min)), int(info.max) - k_p + 1)
        k_p = min(k_p, int(info.max) - lo_p + 1)
    n = draw(st.integers(1, 300))
    t = _column(draw, dtype, n, lo_t, k_t)
    p = _column(draw, dtype, n, lo_p, k_p)
    w = None
    if draw(st.booleans()):
        # integer-valued weights keep float sums exact whatever the summation order
        w = np.array(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), dtype=float)
        w[0] += 1
    labels = None
    if draw(st.booleans()):
        seen = sorted(set(t.tolist()) | set(p.tolist()))
        labels = draw(st.lists(st.sampled_from(seen), min_size=1, max_size=len(seen),
                               unique=True))
    return t, p, w, labels


def _expected(t: np.ndarray, p: np.ndarray, w: np.ndarray | None, labels: list):
    """The table over ``labels`` from a Counter of the pairs (weights summed in Python)."""
    index = {v: i for i, v in enumerate(labels)}
    pairs: Counter = Counter()
    for a, b, c in zip(t.tolist(), p.tolist(), w.tolist() if w is not None else [1] * len(t),
                       strict=True):
        pairs[a, b] += c
    table = np.zeros((len(labels), len(labels)), dtype=float if w is not None else np.int64)
    for (a, b), c in pairs.items():
        if a in index and b in index:
            table[index[a], index[b]] = c
    return table


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
@settings(max_examples=60)
@given(data=st.data())
def test_int_ranges_agree_with_sklearn_and_a_counter(dtype, data) -> None:
    t, p, w, labels = data.draw(range_inputs(dtype))
    seen = sorted(set(t.tolist()) | set(p.tolist()))
    if labels is not None and not set(labels) & set(t.tolist()):
        for use_numba in (True, False):
            with pytest.raises(ValueError, match="labels names no class that occurs in y_true"):
                confusion_counts(t, p, labels=labels, sample_weight=w, use_numba=use_numba)
        with pytest.raises(ValueError):
            confusion_matrix(t, p, labels=np.array(labels, dtype=t.dtype), sample_weight=w)
        return
    expected_labels = labels if labels is not None else seen
    k = len(expected_labels)
    # (labels as an array of the columns' dtype: sklearn would read a list holding 2**64 - 1
    # as floats)
    oracle = confusion_matrix(t, p, labels=np.array(expected_labels, dtype=t.dtype),
                              sample_weight=w)
    by_hand = _expected(t, p, w, expected_labels)
    np.testing.assert_array_equal(oracle, by_hand)
    for use_numba in (True, False):
        table, out_labels, has_other = confusion_counts(t, p, labels=labels, sample_weight=w,
                                                        use_numba=use_numba)
        assert out_labels == expected_labels
        assert [type(v) for v in out_labels] == [type(v) for v in expected_labels]
        assert table.dtype == (np.float64 if w is not None else np.int64)
        np.testing.assert_array_equal(table[:k, :k], oracle)
        assert has_other == (table.shape[0] == k + 1)
        # samples outside the labels form the extra row / column when they weigh something
        # (a weight of 0 adds nothing to count, as in scikit-learn's table)
        outside = [i for i, (a, b) in enumerate(zip(t.tolist(), p.tolist(), strict=True))
                   if labels is not None and (a not in labels or b not in labels)]
        assert has_other == any(w is None or w[i] != 0 for i in outside)
        assert table.sum() == (w.sum() if w is not None else t.shape[0])


@given(st.integers(1, 40), st.sampled_from([np.int8, np.int64, np.uint64]), st.booleans())
@settings(max_examples=30)
def test_one_sample(k, dtype, use_numba) -> None:
    """A single sample: a 1 x 1 table of its one label."""
    v = k if dtype is not np.uint64 else 2**64 - k
    t = np.array([v], dtype=dtype)
    table, labels, other = confusion_counts(t, t.copy(), use_numba=use_numba)
    assert labels == [v] and type(labels[0]) is int and not other
    np.testing.assert_array_equal(table, confusion_matrix(t, t))


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint64, np.bool_],
                         ids=lambda d: d.__name__)
@pytest.mark.parametrize("use_numba", [True, False])
def test_no_sample_is_refused(dtype, use_numba) -> None:
    empty = np.array([], dtype=dtype)
    with pytest.raises(ValueError, match="y_true"):
        confusion_counts(empty, empty.copy(), use_numba=use_numba)


@st.composite
def long_columns(draw):
    """Columns longer than the sample (64 runs of 64 values), in random, sorted or periodic
    order, sometimes strided views, sometimes with an extreme value at one random row."""
    dtype = draw(st.sampled_from([np.int8, np.int32, np.int64, np.uint16, np.uint64]))
    k = draw(st.integers(1, 30))
    n = draw(st.integers(4097, 20_000))
    info = np.iinfo(dtype)
    lo = draw(st.sampled_from([0, int(info.min), int(info.max) - k + 1]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    t = rng.integers(0, k, n).astype(dtype) + dtype(lo)
    p = np.where(rng.random(n) < 0.8, t, t[rng.permutation(n)])
    order = draw(st.sampled_from(["random", "sorted", "periodic"]))
    if order == "sorted":
        t, p = np.sort(t), np.sort(p)[::-1].copy()
    elif order == "periodic":
        t = t[np.arange(n) % k] if n >= k else t
    if draw(st.booleans()):  # one label the sample may well miss
        where = draw(st.integers(0, n - 1))
        t[where] = info.max if draw(st.booleans()) else info.min
    if draw(st.booleans()):  # strided views
        m = n // 2
        t, p = t[::2][:m], p[1::2][:m]
    return t, p


@settings(max_examples=40)
@given(long_columns())
def test_long_columns_guessed_from_a_sample_agree_with_sklearn(cols) -> None:
    t, p = cols
    labels = sorted(set(t.tolist()) | set(p.tolist()))
    oracle = confusion_matrix(t, p, labels=np.array(labels, dtype=t.dtype))
    for use_numba in (True, False):
        table, out_labels, other = confusion_counts(t, p, use_numba=use_numba)
        assert out_labels == labels and not other
        np.testing.assert_array_equal(table, oracle)
    np.testing.assert_array_equal(ConfusionMatrix.from_predictions(t, p).counts, oracle)


def test_the_index_arithmetic_fold_is_the_one_taken(monkeypatch) -> None:
    """Integer columns without ``labels`` are folded by ``_fold_ranges`` (so the differential
    tests above exercise it), both when every value of one range occurs and when not; ranges
    far apart take the general fold, with the same result as scikit-learn."""
    taken = []
    original = kernels._fold_ranges

    def spy(counts, ranges):
        out = original(counts, ranges)
        taken.append(out is not None)
        return out

    monkeypatch.setattr(kernels, "_fold_ranges", spy)
    full = np.array([0, 1, 2, 2]), np.array([2, 1, 0, 1])
    gaps = np.array([3, 9, 9, -4]), np.array([9, 12, 3, 3])
    apart = np.array([0, 1, 2]), np.array([5000, 5001, 5000])  # each range narrow
    for use_numba in (True, False):
        for t, p in (full, gaps, apart):
            taken.clear()
            table, labels, _ = confusion_counts(t, p, use_numba=use_numba)
            assert taken == [t is not apart[0]]
            assert labels == sorted(set(t.tolist()) | set(p.tolist()))
            np.testing.assert_array_equal(table, confusion_matrix(t, p))


@settings(max_examples=40)
@given(st.integers(1, 30_000), st.sampled_from([np.int8, np.int64, np.uint64]),
       st.integers(0, 2**32 - 1), st.booleans())
def test_the_sample_lies_within_the_column_and_is_exact_when_sorted(n, dtype, seed, desc) -> None:
    """The range guess reads a sample: its extremes are values of the column between the
    column's own extremes (numpy's min / max), and are those extremes for a sorted column
    (its first and last values are always read) and for a column no longer than the sample."""
    kern = kernels.load_kernels()
    if kern is None:
        pytest.skip("numba disabled")
    info = np.iinfo(dtype)
    x = np.random.default_rng(seed).integers(info.min, info.max, n, dtype=dtype,
                                             endpoint=True)
    lo, hi = kern.sample_minmax(x, kernels.SAMPLE_BLOCKS, kernels.SAMPLE_BLOCK)
    assert x.min() <= lo <= hi <= x.max()
    assert lo in x and hi in x
    if n <= kernels.SAMPLE_BLOCKS * kernels.SAMPLE_BLOCK:
        assert (lo, hi) == (x.min(), x.max())
    s = np.sort(x)[::-1] if desc else np.sort(x)
    assert kern.sample_minmax(s, kernels.SAMPLE_BLOCKS, kernels.SAMPLE_BLOCK) == \
        (x.min(), x.max())
