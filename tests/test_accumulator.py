"""Accumulator: chunked results equal the one-shot in-memory computation, whatever the chunking."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from confmat import Accumulator, ConfusionMatrix

POOLS = {
    "int": [-3, 0, 1, 2, 5, 7, 40, 2000],  # 2000 forces the factorising path of the kernel
    "str": ["bus", "car", "opel", "saab", "van"],
    "bool": [False, True],
    "float": [-2.0, 0.0, 1.0, 3.0],  # integral: scikit-learn rejects "continuous"
}
METRICS = ["accuracy", "balanced_accuracy", "recall", "precision", "f1", "mcc", "kappa"]


@st.composite
def chunked(draw, weights: bool = False):
    kind = draw(st.sampled_from(sorted(POOLS)))
    pool = POOLS[kind]
    n = draw(st.integers(1, 120))
    t = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    p = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    cuts = sorted(draw(st.lists(st.integers(1, n), max_size=6)))
    bounds = [0, *cuts, n]
    w = None
    if weights:
        w = draw(
            st.lists(
                st.floats(0, 10, allow_nan=False, allow_infinity=False), min_size=n, max_size=n
            )
        )
        w[0] = w[0] + 1.0  # at least one non-zero weight overall
    return t, p, w, bounds


def _slices(bounds):
    return [(a, b) for a, b in itertools.pairwise(bounds) if b > a]


def _metrics_close(a: ConfusionMatrix, b: ConfusionMatrix) -> None:
    for name in METRICS:
        np.testing.assert_allclose(
            a.metric(name, zero_division=0.0), b.metric(name, zero_division=0.0), rtol=0, atol=1e-12
        )


@settings(max_examples=150)
@given(chunked())
def test_chunked_equals_one_shot(case):
    t, p, _, bounds = case
    acc = Accumulator()
    for a, b in _slices(bounds):
        acc.update(np.asarray(t[a:b]), np.asarray(p[a:b]))
    got = acc.result()
    want = ConfusionMatrix.from_predictions(t, p)
    assert got.labels == want.labels
    assert got.counts.dtype == np.int64
    np.testing.assert_array_equal(got.counts, want.counts)
    assert got.n == len(t)
    # an independent oracle for the table itself
    np.testing.assert_array_equal(got.counts, sk_confusion_matrix(t, p, labels=want.labels))
    _metrics_close(got, want)


@settings(max_examples=100)
@given(chunked(weights=True))
def test_weighted_chunks_equal_one_shot(case):
    t, p, w, bounds = case
    acc = Accumulator()
    for a, b in _slices(bounds):
        acc.update(t[a:b], p[a:b], sample_weight=w[a:b])
    got = acc.result()
    want = ConfusionMatrix.from_predictions(t, p, sample_weight=w)
    assert got.labels == want.labels and got.is_weighted
    np.testing.assert_allclose(got.counts, want.counts, rtol=1e-12, atol=1e-9)
    _metrics_close(got, want)


@settings(max_examples=80)
@given(chunked(), st.integers(0, 2**32 - 1))
def test_merge_of_split_streams_equals_one_shot(case, seed):
    t, p, _, bounds = case
    rng = np.random.default_rng(seed)
    accs = [Accumulator() for _ in range(3)]
    for a, b in _slices(bounds):
        accs[rng.integers(3)].update(t[a:b], p[a:b])
    # round-trip some states through JSON, as between processes
    accs = [Accumulator.from_json(a.to_json()) if i % 2 else a for i, a in enumerate(accs)]
    total = accs[0]
    for other in accs[1:]:
        total = total + other
    want = ConfusionMatrix.from_predictions(t, p).counts
    np.testing.assert_array_equal(total.result().counts, want)
    counted = [a.n_samples for a in accs]
    summed = sum(accs)  # starts from 0; the parts are left as they were
    np.testing.assert_array_equal(summed.result().counts, want)
    assert [a.n_samples for a in accs] == counted and summed is not accs[0]


@settings(max_examples=60)
@given(chunked())
def test_fixed_labels_equal_one_shot_with_labels(case):
    t, p, _, bounds = case
    labels = sorted(set(t) | set(p), reverse=True)  # a different order than sorted
    acc = Accumulator(labels=labels)
    for a, b in _slices(bounds):
        acc.update(t[a:b], p[a:b])
    want = ConfusionMatrix.from_predictions(t, p, labels=labels)
    assert acc.result() == want


def test_unknown_label_with_fixed_labels_names_label_and_chunk():
    acc = Accumulator(labels=["cat", "dog"])
    acc.update(["cat", "dog"], ["dog", "dog"])
    with pytest.raises(ValueError, match=r"chunk 2 .*'bird'.*fixed labels"):
        acc.update(["cat", "bird"], ["cat", "cat"])
    # the failed chunk left the state untouched
    assert acc.n_samples == 2
    np.testing.assert_array_equal(acc.result().counts, [[0, 1], [0, 1]])


def test_new_labels_grow_the_table_in_sorted_order():
    acc = Accumulator()
    acc.update([5, 5], [5, 1])
    acc.update([0, 9], [9, 0])
    cm = acc.result()
    assert cm.labels == [0, 1, 5, 9]
    np.testing.assert_array_equal(
        cm.counts, sk_confusion_matrix([5, 5, 0, 9], [5, 1, 9, 0], labels=[0, 1, 5, 9])
    )


def test_mixing_label_kinds_across_chunks_is_a_type_error():
    acc = Accumulator()
    acc.update([1, 2], [1, 2])
    with pytest.raises(TypeError, match="chunk 2"):
        acc.update(["a"], ["b"])


def test_state_json_is_versioned_and_plain():
    acc = Accumulator()
    acc.update(["a", "b"], ["b", "b"], sample_weight=[0.5, 2.0])
    d = json.loads(acc.to_json())
    assert d["schema"] == "confmat.accumulator" and d["version"] == 1
    back = Accumulator.from_dict(d)
    assert back.result() == acc.result()
    d["version"] = 99
    with pytest.raises(ValueError, match="version"):
        Accumulator.from_dict(d)
    with pytest.raises(ValueError, match="schema"):
        Accumulator.from_dict({"schema": "other"})


def test_zero_weight_chunk_is_fine_when_the_stream_has_weight():
    acc = Accumulator()
    acc.update([0, 1], [1, 1], sample_weight=[0.0, 0.0])
    acc.update([1], [0], sample_weight=[2.0])
    want = ConfusionMatrix.from_predictions([0, 1, 1], [1, 1, 0], sample_weight=[0.0, 0.0, 2.0])
    assert acc.result() == want
    empty = Accumulator()
    empty.update([0], [0], sample_weight=[0.0])
    with pytest.raises(ValueError, match="non-zero"):
        empty.result()


def test_bad_inputs_raise_named_errors():
    acc = Accumulator()
    with pytest.raises(ValueError, match="no samples"):
        acc.result()
    with pytest.raises(ValueError, match="different lengths"):
        acc.update([1, 2], [1])
    with pytest.raises(ValueError, match="sample_weight"):
        acc.update([1, 2], [1, 2], sample_weight=[1.0, -1.0])
    with pytest.raises(TypeError, match="merge"):
        acc.merge(ConfusionMatrix([[1]]))
    with pytest.raises(ValueError, match="bins"):
        Accumulator(bins=0)
    a, b = Accumulator(labels=[0, 1]), Accumulator(labels=[1, 0])
    with pytest.raises(ValueError, match="different fixed labels"):
        a.merge(b)


@settings(max_examples=60)
@given(chunked(weights=True))
def test_update_grouped_equals_one_shot(case):
    """Pre-aggregated (true, pred, count) rows, as from SQL GROUP BY, give the same matrix."""
    import pandas as pd

    t, p, w, _ = case
    df = pd.DataFrame({"t": t, "p": p, "w": w})
    grouped = df.groupby(["t", "p"], sort=False).agg(n=("w", "size"), w=("w", "sum")).reset_index()
    acc = Accumulator()
    half = len(grouped) // 2  # two groups of rows, as from two partitions
    for part in (grouped.iloc[:half], grouped.iloc[half:]):
        if len(part):
            acc.update_grouped(part["t"].tolist(), part["p"].tolist(), part["n"].to_numpy())
    want = ConfusionMatrix.from_predictions(t, p)
    assert acc.result() == want and acc.n_samples == len(t)
    accw = Accumulator()
    accw.update_grouped(grouped["t"].tolist(), grouped["p"].tolist(), grouped["n"], weights=grouped["w"])
    np.testing.assert_allclose(
        accw.result().counts, ConfusionMatrix.from_predictions(t, p, sample_weight=w).counts,
        rtol=1e-12, atol=1e-9,
    )


def test_update_grouped_bad_counts():
    acc = Accumulator()
    with pytest.raises(ValueError, match="non-negative"):
        acc.update_grouped([0], [1], [-1])
    with pytest.raises(ValueError, match="whole numbers"):
        acc.update_grouped([0], [1], [1.5])
    with pytest.raises(ValueError, match="counts has 1 entries"):
        acc.update_grouped([0, 1], [1, 1], [1])


@settings(max_examples=40)
@given(
    n=st.integers(4, 300),
    k=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    n_cuts=st.integers(0, 5),
    weighted=st.booleans(),
)
def test_scores_chunked_equal_one_shot_histogram(n, k, seed, n_cuts, weighted):
    """Chunked score histograms equal the one-shot ScoreHistogram and its curves."""
    from confmat.binned import ScoreHistogram

    rng = np.random.default_rng(seed)
    t = rng.integers(0, k, n)
    t[:k] = np.arange(k)
    if k == 2:
        s = rng.random(n)
    else:
        s = rng.dirichlet(np.ones(k), n)
    p = rng.integers(0, k, n)
    w = rng.random(n) + 0.01 if weighted else None
    bounds = [0, *sorted(rng.integers(1, n, n_cuts).tolist()), n]
    acc = Accumulator(labels=list(range(k)), bins=64)
    for a, b in _slices(bounds):
        acc.update(t[a:b], p[a:b], scores=s[a:b], sample_weight=None if w is None else w[a:b])
    want = ScoreHistogram(list(range(k)), bins=64).update(t, s, sample_weight=w)
    got = acc.curves()
    if weighted:
        np.testing.assert_allclose(got.counts, want.counts, rtol=1e-12, atol=1e-12)
    else:
        assert got == want
        assert abs(got.roc_auc() - want.roc_auc()) <= 1e-12
    back = Accumulator.from_json(acc.to_json())
    np.testing.assert_array_equal(back.curves().counts, got.counts)


def test_scores_rules():
    acc = Accumulator()
    acc.update([0, 1, 1], [0, 1, 0], scores=[0.1, 0.9, 0.4])
    with pytest.raises(ValueError, match="chunk 2 has no scores"):
        acc.update([0], [0])
    with pytest.raises(ValueError, match=r"chunk 2: .*label 2 not in labels"):
        acc.update([2], [2], scores=[0.5])
    with pytest.raises(ValueError, match=r"chunk 2: .*outside score_range"):
        acc.update([0, 1], [0, 1], scores=[0.5, 1.5])
    assert acc.n_samples == 3 and acc.curves().n == 3  # rejected chunks left no trace
    late = Accumulator()
    late.update([0], [1])
    with pytest.raises(ValueError, match="earlier chunks had none"):
        late.update([0], [1], scores=[0.3])
    one = Accumulator()
    with pytest.raises(ValueError, match="at least two classes"):
        one.update([1, 1], [1, 1], scores=[0.2, 0.3])
    with pytest.raises(ValueError, match="scores=False"):
        Accumulator(scores=False).update([0, 1], [0, 1], scores=[0.1, 0.2])
    with pytest.raises(ValueError, match="no scores were accumulated"):
        Accumulator().curves()
