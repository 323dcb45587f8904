"""Merging states where one side has fixed labels: the fixed labels hold whichever side holds
them, so any order of merges (a tree of merges, as Dask builds one) gives the same state.

Oracle: scikit-learn's ``confusion_matrix(..., labels=fixed)`` on the concatenated chunks (and,
per group, on each group's rows).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

from confmat import Accumulator, GroupedAccumulator

CLASSES = ["d", "a", "c", "b"]  # a fixed order that is not the sorted one


@st.composite
def _streams(draw):
    """Chunks of labels drawn from CLASSES, each for an accumulator with or without fixed
    labels (at least one fixed), and a merge order."""
    n_parts = draw(st.integers(2, 5))
    parts = []
    for _ in range(n_parts):
        n = draw(st.integers(1, 12))
        t = draw(st.lists(st.sampled_from(CLASSES), min_size=n, max_size=n))
        p = draw(st.lists(st.sampled_from(CLASSES), min_size=n, max_size=n))
        g = draw(st.lists(st.sampled_from(["x", "y", "z"]), min_size=n, max_size=n))
        parts.append((t, p, g, draw(st.booleans())))
    fixed_at = draw(st.integers(0, n_parts - 1))
    parts[fixed_at] = (*parts[fixed_at][:3], True)
    order = draw(st.permutations(range(n_parts)))
    return parts, list(order), draw(st.integers(0, 2**32 - 1))


def _tree_merge(states, seed):
    """Merge the states pairwise in a random tree (each merge in a random direction)."""
    rng = random.Random(seed)
    states = list(states)
    while len(states) > 1:
        i = rng.randrange(len(states) - 1)
        a, b = states[i], states[i + 1]
        merged = (a + b) if rng.random() < 0.5 else b.copy().merge(a)
        states[i:i + 2] = [merged]
    return states[0]


@settings(max_examples=60, deadline=None)
@given(_streams())
def test_accumulator_merges_in_any_order_keep_the_fixed_labels(stream):
    parts, order, seed = stream
    states = []
    for t, p, _, fixed in (parts[i] for i in order):
        acc = Accumulator(CLASSES if fixed else None)
        acc.update(t, p)
        states.append(acc)
    merged = _tree_merge(states, seed)
    all_t = [v for t, _, _, _ in parts for v in t]
    all_p = [v for _, p, _, _ in parts for v in p]
    assert merged.labels == CLASSES
    assert merged.labels_fixed
    assert merged.n_samples == len(all_t)
    np.testing.assert_array_equal(merged.result().counts,
                                  skm.confusion_matrix(all_t, all_p, labels=CLASSES))


@settings(max_examples=40, deadline=None)
@given(_streams())
def test_grouped_accumulator_merges_in_any_order_keep_the_fixed_labels(stream):
    parts, order, seed = stream
    states = []
    for t, p, g, fixed in (parts[i] for i in order):
        acc = GroupedAccumulator(CLASSES if fixed else None)
        acc.update(t, p, g)
        states.append(acc)
    merged = _tree_merge(states, seed)
    all_t = np.array([v for t, _, _, _ in parts for v in t])
    all_p = np.array([v for _, p, _, _ in parts for v in p])
    all_g = np.array([v for _, _, g, _ in parts for v in g])
    assert merged.labels == CLASSES
    assert merged.labels_fixed
    assert merged.groups == sorted(set(all_g.tolist()))
    stack = merged.counts().stack
    for k, group in enumerate(merged.groups):
        rows = all_g == group
        np.testing.assert_array_equal(
            stack[k], skm.confusion_matrix(all_t[rows], all_p[rows], labels=CLASSES))


@pytest.mark.parametrize("cls", [Accumulator, GroupedAccumulator])
def test_a_label_outside_the_other_sides_fixed_labels_is_refused_both_ways(cls):
    fixed, free = cls(["b", "a"]), cls()
    args = ([["a"], ["b"], ["x"]], [["a", "z"], ["a", "a"], ["x", "x"]])
    if cls is Accumulator:
        args = tuple(a[:2] for a in args)
    fixed.update(*args[0])
    free.update(*args[1])
    before = (free.labels, free.labels_fixed, free.n_samples)
    with pytest.raises(ValueError, match=r"'z'|outside the fixed labels \['b', 'a'\]"):
        free.merge(fixed)
    assert (free.labels, free.labels_fixed, free.n_samples) == before  # refused: unchanged
    with pytest.raises(ValueError, match=r"'z'|outside the fixed labels \['b', 'a'\]"):
        fixed.merge(free)
    assert (fixed.labels, fixed.labels_fixed, fixed.n_samples) == (["b", "a"], True, 1)
