"""GroupedAccumulator: chunked updates, merges and JSON round trips equal one ``by_group`` call
on the concatenated data (itself checked against fairlearn in test_groups.py), and each group's
table equals scikit-learn's ``confusion_matrix`` on that group's rows."""

from __future__ import annotations

import itertools
import json
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

from confmat.accumulator import GroupedAccumulator
from confmat.counting.grouped import grouped_counts
from confmat.groups import by_group
from confmat.inputs.grouping import encode_groups

METRICS = ("accuracy", "recall", "precision", "f1", "balanced_accuracy")


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@st.composite
def chunked(draw):
    n = draw(st.integers(2, 80))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    k = draw(st.integers(2, 4))
    strings = draw(st.booleans())
    names = np.array(["ant", "bee", "cat", "dog"])
    y = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
    if strings:
        y, p = names[y], names[p]
    two = draw(st.booleans())
    groups = {"site": rng.choice(["north", "south", "east"], n)}
    if two:
        groups["age"] = rng.integers(0, 3, n) * 10
    w = rng.random(n) * 2 if draw(st.booleans()) else None
    n_cuts = draw(st.integers(0, 4))
    cuts = sorted({0, n, *rng.integers(1, n, n_cuts).tolist()})
    return y, p, groups, w, cuts


def _slice(groups, a, b):
    return {key: col[a:b] for key, col in groups.items()}


def _sklearn_stack(y, p, groups, w, keys, labels):
    enc = encode_groups(groups, len(y))
    out = []
    for i in range(len(keys)):
        m = enc.codes == i
        out.append(skm.confusion_matrix(y[m], p[m], labels=labels,
                                        sample_weight=None if w is None else w[m]))
    return np.array(out)


@settings(max_examples=40, deadline=None)
@given(chunked(), st.booleans())
def test_chunks_and_merge_equal_one_call(case, via_json):
    y, p, groups, w, cuts = case
    parts = []
    for a, b in itertools.pairwise(cuts):
        acc = GroupedAccumulator(pos_label=y[0])
        acc.update(y[a:b], p[a:b], _slice(groups, a, b),
                   sample_weight=None if w is None else w[a:b])
        parts.append(GroupedAccumulator.from_json(acc.to_json()) if via_json else acc)
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    ev = by_group(y, p, groups, sample_weight=w, pos_label=y[0])
    got = total.result()
    assert got.groups == ev.groups and got.names == ev.names and got.labels == ev.labels
    assert got.sizes.tolist() == ev.sizes.tolist()
    assert total.n_samples == len(y)
    np.testing.assert_allclose(total.stack, _sklearn_stack(y, p, groups, w, ev.groups,
                                                           ev.labels), rtol=1e-12, atol=1e-12)
    for m in METRICS:
        np.testing.assert_allclose(got.metric(m, zero_division=0), ev.metric(m, zero_division=0),
                                   rtol=1e-12, atol=1e-12)
    assert got.demographic_parity_difference() == pytest.approx(
        ev.demographic_parity_difference(), abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(chunked())
def test_sequential_updates_equal_sklearn(case):
    y, p, groups, w, cuts = case
    acc = GroupedAccumulator()
    for a, b in itertools.pairwise(cuts):
        acc.update(y[a:b], p[a:b], _slice(groups, a, b),
                   sample_weight=None if w is None else w[a:b])
    labels = sorted(set(y.tolist()) | set(p.tolist()))
    assert acc.labels == labels
    np.testing.assert_allclose(acc.stack, _sklearn_stack(y, p, groups, w, acc.groups, labels),
                               rtol=1e-12, atol=1e-12)
    assert acc.stack.dtype == (np.int64 if w is None else np.float64)


def test_fixed_labels_and_growing_groups():
    acc = GroupedAccumulator(["c", "b", "a"])
    acc.update(["a"], ["b"], ["x"])
    acc.update(["c", "c"], ["c", "a"], ["z", "y"])
    assert acc.groups == ["x", "y", "z"]
    assert acc.stack[0].tolist() == [[0, 0, 0], [0, 0, 0], [0, 1, 0]]  # order c, b, a
    assert acc.stack[1].tolist() == [[0, 0, 1], [0, 0, 0], [0, 0, 0]]
    with pytest.raises(ValueError, match=r"chunk 3 has labels outside the fixed labels"):
        acc.update(["d"], ["a"], ["x"])
    assert acc.n_samples == 3 and acc.n_updates == 2  # the bad chunk changed nothing


def test_errors_name_the_problem():
    acc = GroupedAccumulator()
    acc.update([0, 1], [0, 1], {"site": ["a", "b"]})
    with pytest.raises(ValueError, match=r"sensitive features \['sex'\].*\['site'\]"):
        acc.update([0], [0], {"sex": ["f"]})
    with pytest.raises(TypeError, match="group keys"):
        acc.update([0], [0], {"site": [3]})
    with pytest.raises(ValueError, match=r"chunk 2: groups has 1 entries"):
        acc.update([0, 1], [0, 1], {"site": ["a"]})
    with pytest.raises(TypeError, match="cannot be ordered"):
        acc.update(["x"], ["y"], {"site": ["a"]})
    assert acc.n_samples == 2 and acc.groups == ["a", "b"]
    with pytest.raises(ValueError, match="no samples"):
        GroupedAccumulator().result()
    with pytest.raises(TypeError, match="GroupedAccumulator"):
        acc.merge(object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="different fixed labels"):
        GroupedAccumulator([0, 1]).merge(GroupedAccumulator([1, 0]))
    with pytest.raises(TypeError, match="min_support"):
        GroupedAccumulator(min_support=1.5)  # type: ignore[arg-type]


def test_overflow_is_refused_not_wrapped():
    acc = GroupedAccumulator()
    acc.update([0], [0], ["a"])
    big = GroupedAccumulator.from_dict({**acc.to_dict(), "counts": [[[2**61, 0], [0, 2**61]]],
                                        "labels": [0, 1], "sizes": [2**62],
                                        "n_samples": 2**62})
    with pytest.raises(OverflowError, match="int64"):
        big.merge(big.copy())
    assert big.stack.tolist() == [[[2**61, 0], [0, 2**61]]]


def test_state_is_validated():
    acc = GroupedAccumulator(pos_label="yes")
    acc.update(["yes", "no"], ["yes", "yes"], {"site": ["a", "b"], "n": [1, 2]})
    state = json.loads(acc.to_json())
    assert state["groups"] == [["a", 1], ["b", 2]] and state["pos_label"] == "yes"
    back = GroupedAccumulator.from_dict(state)
    assert back.groups == [("a", 1), ("b", 2)] and back.pos_label == "yes"
    for bad, message in [
        ({"sizes": [1, 2]}, "'sizes' adds up to 3"),
        ({"groups": [["b", 2], ["a", 1]]}, "'groups' must be sorted"),
        ({"counts": [[[0, 0], [0, 1]]]}, "counts"),
        ({"names": "site"}, "'names' must be a list"),
        ({"schema": "confmat.accumulator"}, "schema"),
    ]:
        with pytest.raises((ValueError, TypeError), match=message):
            GroupedAccumulator.from_dict({**state, **bad})


def test_large_chunk_counted_by_the_kernel():
    # above NUMBA_MIN_SIZE the compiled kernel counts (or numpy without numba): same stack
    rng = np.random.default_rng(5)
    n = (1 << 20) + 17
    y = rng.integers(-2, 3, n)
    p = np.where(rng.random(n) < 0.8, y, rng.integers(-2, 3, n))
    g = rng.integers(0, 50, n).astype(np.int16)
    acc = GroupedAccumulator()
    acc.update(y[:1000], p[:1000], g[:1000])
    acc.update(y[1000:], p[1000:], g[1000:])
    ref = grouped_counts(g.astype(np.int64), 50, y, p, use_numba=False)
    assert acc.stack.tolist() == ref.stack.tolist()
    y[123456] = 900  # outside the range a sample of the column suggests
    a = grouped_counts(g, 50, y, p, use_numba=True)
    b = grouped_counts(g, 50, y, p, use_numba=False)
    assert a.labels == b.labels == [-2, -1, 0, 1, 2, 900]
    assert np.array_equal(a.stack, b.stack)
    assert np.array_equal(a.stack.sum(axis=0), skm.confusion_matrix(y, p, labels=a.labels))


def test_pos_label_outside_fixed_labels_is_refused_at_construction():
    """A positive class that none of the fixed labels is: refused when the accumulator is made
    (it was only refused by result(), after every chunk was counted), as by_group refuses it."""
    from confmat.groups import by_group

    with pytest.raises(ValueError, match=r"pos_label='c' is not one of the labels in labels "
                                         r"\['a', 'b'\]"):
        GroupedAccumulator(["a", "b"], pos_label="c")
    with pytest.raises(ValueError, match=r"pos_label='c'"):
        by_group(["a", "b"], ["a", "b"], ["g", "h"], labels=["a", "b"], pos_label="c")
    assert GroupedAccumulator(["a", "b"], pos_label="b").pos_label == "b"


def test_states_of_different_min_support_do_not_merge():
    a, b = GroupedAccumulator(min_support=10), GroupedAccumulator(min_support=20)
    a.update([0, 1], [0, 1], ["x", "y"])
    b.update([1, 0], [1, 1], ["y", "z"])
    before = a.result().sizes.tolist()
    with pytest.raises(ValueError, match="different min_support: 10 vs 20"):
        a.merge(b)
    with pytest.raises(ValueError, match="different min_support: 20 vs 10"):
        b + a
    assert a.result().sizes.tolist() == before  # a refused merge leaves the state as it was
    c = GroupedAccumulator(min_support=10)
    c.update([1, 0], [1, 1], ["y", "z"])
    assert (a + c).result().sizes.tolist() == [1, 2, 1]  # groups x, y, z counted by hand
