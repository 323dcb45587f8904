"""The counting kernel: the numba path and the pure-numpy path give identical counts, and both
agree with scikit-learn and with the ``np.bincount`` version (v5) a counting blog post recommends.

Both paths are forced with ``use_numba=True`` / ``use_numba=False`` whatever the input size, on
every integer dtype, with negative labels, label ranges wider than ``MAX_DIRECT_RANGE`` (which
take the factorising path), sample weights and ``labels=`` subsets.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix

from confmat import ConfusionMatrix
from confmat.counting.kernels import MAX_DIRECT_RANGE, NUMBA_MIN_SIZE, confusion_counts

pytest.importorskip("numba")

# sklearn warns when only one label occurs; that case is part of what is being tested
pytestmark = pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@st.composite
def int_inputs(draw, dtype):
    info = np.iinfo(dtype)
    shape = draw(st.sampled_from(["small", "offset", "negative", "wide"]))
    if shape == "small":  # labels in [0, 64): the single-pass kernel
        pool = draw(st.lists(st.integers(0, 63), min_size=1, max_size=8, unique=True))
    elif shape == "offset":  # a narrow range away from 0
        lo = draw(st.integers(max(info.min, -100), min(info.max, 400) - 10))
        pool = draw(st.lists(st.integers(lo, lo + 10), min_size=1, max_size=8, unique=True))
    elif shape == "negative" and info.min < 0:
        pool = draw(st.lists(st.integers(info.min, 5), min_size=1, max_size=8, unique=True))
    else:  # a range wider than MAX_DIRECT_RANGE where the dtype allows it
        hi = int(min(info.max, 10**6))
        lo = int(max(info.min, -(10**6)))
        pool = draw(st.lists(st.integers(lo, hi), min_size=1, max_size=8, unique=True))
        if hi - lo > MAX_DIRECT_RANGE:
            pool = sorted(set(pool) | {lo, hi})
    n = draw(st.integers(1, 200))
    t = np.array(draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n)), dtype=dtype)
    p = np.array(draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n)), dtype=dtype)
    w = None
    if draw(st.booleans()):
        # integer-valued weights keep float sums exact whatever the summation order
        w = np.array(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), dtype=float)
        w[0] += 1
    labels = None
    if draw(st.booleans()):
        extra = draw(st.lists(st.integers(int(max(info.min, -50)), int(min(info.max, 50))),
                              max_size=3))
        chosen = draw(st.lists(st.sampled_from(pool), max_size=len(pool), unique=True))
        labels = list(dict.fromkeys([int(v) for v in chosen + extra])) or [int(pool[0])]
    return t, p, w, labels


def _sklearn_block(t, p, w, labels):
    """sklearn's table for the labels confmat reports (the selected K x K block)."""
    return confusion_matrix(t.astype(np.int64), p.astype(np.int64), labels=labels,
                            sample_weight=w)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
@settings(max_examples=25)
@given(data=st.data())
def test_numba_and_numpy_paths_agree_with_each_other_and_sklearn(dtype, data) -> None:
    t, p, w, labels = data.draw(int_inputs(dtype))
    if labels is not None and not set(labels) & {int(v) for v in t}:
        # as in scikit-learn: labels must name at least one class of y_true
        for use_numba in (True, False):
            with pytest.raises(ValueError, match="labels names no class that occurs in y_true"):
                confusion_counts(t, p, labels=labels, sample_weight=w, use_numba=use_numba)
        return
    fast, fast_labels, fast_other = confusion_counts(t, p, labels=labels, sample_weight=w,
                                                     use_numba=True)
    slow, slow_labels, slow_other = confusion_counts(t, p, labels=labels, sample_weight=w,
                                                     use_numba=False)
    assert fast_labels == slow_labels
    assert fast_other == slow_other
    assert fast.dtype == slow.dtype
    assert fast.dtype.kind == ("f" if w is not None else "i")
    np.testing.assert_array_equal(fast, slow)
    expected_labels = labels if labels is not None else sorted({int(v) for v in np.r_[t, p]})
    assert fast_labels == expected_labels
    k = len(expected_labels)
    np.testing.assert_array_equal(fast[:k, :k], _sklearn_block(t, p, w, expected_labels))
    # nothing is lost: the table (with its outside margin) holds every sample
    total = w.sum() if w is not None else t.shape[0]
    assert fast.sum() == total
    assert fast_other == (fast.shape[0] == k + 1)


@settings(max_examples=50)
@given(st.integers(1, 40), st.integers(1, 500), st.data())
def test_bincount_v5(num_classes, n, data) -> None:
    """The recommended v5 of a counting blog post: np.bincount(num_classes * y_true + y_pred)."""
    ints = st.lists(st.integers(0, num_classes - 1), min_size=n, max_size=n)
    t = np.array(data.draw(ints))
    p = np.array(data.draw(ints))
    v5 = np.bincount(num_classes * t + p, minlength=num_classes**2).reshape(num_classes,
                                                                            num_classes)
    labels = list(range(num_classes))
    for use_numba in (True, False):
        table, out_labels, other = confusion_counts(t, p, labels=labels, use_numba=use_numba)
        assert out_labels == labels and not other
        np.testing.assert_array_equal(table, v5)


def test_default_path_on_a_large_input_matches_numpy_path(rng) -> None:
    """Above NUMBA_MIN_SIZE the default picks the JIT path; it gives the numpy path's counts."""
    n = NUMBA_MIN_SIZE + 12_345
    t = rng.integers(0, 10, size=n)
    p = np.where(rng.random(n) < 0.7, t, rng.integers(0, 10, size=n))
    default, labels, _ = confusion_counts(t, p)
    numpy_path, labels2, _ = confusion_counts(t, p, use_numba=False)
    assert labels == labels2 == list(range(10))
    np.testing.assert_array_equal(default, numpy_path)
    np.testing.assert_array_equal(default, np.bincount(10 * t + p, minlength=100).reshape(10, 10))
    # a label outside [0, 64) in the last element falls back to the two-pass kernel
    t[-1] = 1000
    default, labels, _ = confusion_counts(t, p)
    numpy_path, _, _ = confusion_counts(t, p, use_numba=False)
    assert labels[-1] == 1000
    np.testing.assert_array_equal(default, numpy_path)


def test_mixed_dtypes_and_from_predictions(rng) -> None:
    t = rng.integers(-3, 4, size=1000).astype(np.int8)
    p = rng.integers(-3, 4, size=1000).astype(np.int64)
    fast, labels, _ = confusion_counts(t, p, use_numba=True)
    slow, labels2, _ = confusion_counts(t, p, use_numba=False)
    assert labels == labels2 == list(range(-3, 4))
    np.testing.assert_array_equal(fast, slow)
    np.testing.assert_array_equal(fast, confusion_matrix(t, p))
    np.testing.assert_array_equal(ConfusionMatrix.from_predictions(t, p).counts, fast)


def test_strings_and_bools_count_like_sklearn(rng) -> None:
    names = np.array(["bus", "opel", "saab", "van"])
    t = names[rng.integers(0, 4, size=500)]
    p = names[rng.integers(0, 3, size=500)]
    for use_numba in (True, False):
        table, labels, _ = confusion_counts(t, p, use_numba=use_numba)
        assert labels == ["bus", "opel", "saab", "van"]
        np.testing.assert_array_equal(table, confusion_matrix(t, p))
    b_t, b_p = t == "bus", p == "bus"
    table, labels, _ = confusion_counts(b_t, b_p)
    assert labels == [False, True]
    np.testing.assert_array_equal(table, confusion_matrix(b_t, b_p))


def test_numba_is_imported_lazily_and_can_be_disabled() -> None:
    """``import confmat`` does not import numba; with CONFMAT_DISABLE_NUMBA set the default
    path is pure numpy and still gives the v5 (``np.bincount``) counts on a large input."""
    code = (
        "import sys, numpy as np, confmat\n"
        "assert 'numba' not in sys.modules, 'numba imported eagerly'\n"
        "from confmat.counting.kernels import NUMBA_MIN_SIZE, confusion_counts\n"
        "rng = np.random.default_rng(1)\n"
        "t = rng.integers(0, 7, NUMBA_MIN_SIZE + 5); p = rng.integers(0, 7, t.size)\n"
        "table, labels, _ = confusion_counts(t, p)\n"
        "assert 'numba' not in sys.modules, 'numba imported although disabled'\n"
        "v5 = np.bincount(7 * t + p, minlength=49).reshape(7, 7)\n"
        "assert labels == list(range(7)) and (table == v5).all()\n"
    )
    env = {**os.environ, "CONFMAT_DISABLE_NUMBA": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("late", [-5, 127, 64, 1023, 1024, 2**40], ids=str)
def test_a_label_the_sample_missed_is_still_counted(rng, late) -> None:
    """The integer ranges are guessed from a sample and checked while counting: a label that
    only turns up late (below, above or far outside the guess) costs a recount, not a count."""
    n = NUMBA_MIN_SIZE + 4321
    dtype = np.int8 if -128 <= late <= 127 else np.int64
    t = rng.integers(0, 10, size=n).astype(dtype)
    p = rng.integers(0, 10, size=n).astype(dtype)
    t[-3] = late
    p[-2] = late
    fast, labels, _ = confusion_counts(t, p)
    slow, labels2, _ = confusion_counts(t, p, use_numba=False)
    assert labels == labels2 == sorted(set(range(10)) | {late})
    np.testing.assert_array_equal(fast, slow)
    assert fast.sum() == n
    np.testing.assert_array_equal(fast, confusion_matrix(t.astype(np.int64), p.astype(np.int64),
                                                         labels=labels))


@pytest.mark.parametrize("use_numba", [True, False])
def test_mixed_int_dtypes_keep_exact_labels(use_numba) -> None:
    """int8 next to uint64 near 2**64: no float64 promotion (np.unique of the concatenation
    would collapse 2**64 - 1 and 2**64 - 2), no wrap-around onto negative labels."""
    top = 2**64 - 1
    t = np.array([top, top - 1, 0, 5, top], dtype=np.uint64)
    p = np.array([-1, -128, 0, 5, 127], dtype=np.int8)
    table, labels, _ = confusion_counts(t, p, use_numba=use_numba)
    assert labels == [-128, -1, 0, 5, 127, top - 1, top]
    assert all(type(v) is int for v in labels)
    pairs = list(zip([int(v) for v in t], [int(v) for v in p], strict=True))
    expected = np.zeros((7, 7), dtype=np.int64)
    for a, b in pairs:
        expected[labels.index(a), labels.index(b)] += 1
    np.testing.assert_array_equal(table, expected)


@pytest.mark.parametrize("use_numba", [True, False])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint32])
def test_numbers_counted_through_their_bits(use_numba, dtype, rng) -> None:
    """Float labels and integers too widely spread for a direct count are factorised (by the
    compiled table, keyed by each value's bits, or by pandas): 0.0 and -0.0 are one label."""
    pool = np.array([0.0, -0.0, 1.5, 2.25, 1e6] if np.dtype(dtype).kind == "f"
                    else [0, 7, 10**6, 3 * 10**6], dtype=dtype)
    t = pool[rng.integers(0, pool.size, 500)]
    p = pool[rng.integers(0, pool.size, 500)]
    table, labels, _ = confusion_counts(t, p, use_numba=use_numba)
    expected_labels = sorted({v.item() for v in pool})
    assert labels == expected_labels
    tally = Counter(zip(t.tolist(), p.tolist(), strict=True))  # 0.0 == -0.0: one key
    expected = [[tally[(a, b)] for b in labels] for a in labels]
    np.testing.assert_array_equal(table, expected)
