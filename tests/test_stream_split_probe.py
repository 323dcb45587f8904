"""Differential probe of streaming, merging, state JSON and Dask against one-shot counting.

Random data is split at random points into chunks (empty chunks, one-class chunks, a class
that first appears late, labels of the kinds int / str / bool / uint64 past ``2**63``, float
weights with zeros, weighted and unweighted chunks mixed), counted chunk by chunk, merged in
random trees and written to JSON and read back at random points. The result must equal a
one-shot count that confmat does not make:

* pandas ``groupby(...).sum()`` over the concatenated rows, and scikit-learn's
  ``confusion_matrix`` with ``sample_weight`` where its label handling reaches (not past
  ``2**63``);
* for score histograms, scikit-learn's ``roc_auc_score`` / ``average_precision_score`` on the
  *binned* scores (the bin index of each score, found with ``numpy.searchsorted`` on the edges
  ``lo + (hi - lo) * j / B`` documented in docs/curves.md, as tests/test_curves_probe.py
  forms them), and ``numpy.bincount`` of those bin indices for the bin counts.

Integer counts must be equal; sums of float weights within 1e-12 relative (the order of float
additions differs between a tree of merges and one pass).

Last, random mutations of valid JSON states (a field dropped or retyped, non-finite, negative
or fractional counts, versions, inconsistent sample counts) must each be refused with a
``ValueError`` / ``TypeError`` that names the field.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import random

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.metrics import average_precision_score, roc_auc_score
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from confmat import Accumulator, ScoreHistogram
from confmat.accumulator import GroupedAccumulator

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

#: the classes each label kind draws from, as numpy arrays of that kind
POOLS = {
    "int": np.array([-3, 0, 2, 7, 11], dtype=np.int64),
    "str": np.array(["a", "bb", "c", "dog", "é"]),
    "bool": np.array([False, True]),
    "uint64": np.array([3, 2**63 - 1, 2**63, 2**63 + 7, 2**64 - 1], dtype=np.uint64),
}
GROUP_POOLS = {
    "str": np.array(["north", "south", "east"]),
    "int": np.array([10, -1, 4], dtype=np.int64),
}


# ------------------------------------------------------------------ random streams
@st.composite
def streams(draw, weights=("none", "all", "mixed"), max_n=40):
    """Rows (t, p, w, g) and the cut points that split them into chunks."""
    kind = draw(st.sampled_from(sorted(POOLS)))
    pool = POOLS[kind]
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(0, max_n))
    k = draw(st.integers(1, len(pool)))
    t = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.6, t, rng.integers(0, k, n))
    if n and k > 1 and draw(st.booleans()):  # the last class first appears late
        late = int(n * 0.7)
        t[:late] = np.where(t[:late] == k - 1, 0, t[:late])
        p[:late] = np.where(p[:late] == k - 1, 0, p[:late])
    if draw(st.booleans()):  # rows sorted by class: chunks of one class
        order = np.argsort(t, kind="stable")
        t, p = t[order], p[order]
    mode = draw(st.sampled_from(weights))
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=6)))  # repeats: empty chunks
    bounds = [0, *cuts, n]
    chunks = list(itertools.pairwise(bounds))
    w = None
    weighted_chunk = [False] * len(chunks)
    if mode != "none":
        w = rng.random(n) * rng.choice([0.0, 1.0, 1e-3, 1e6], n)  # zeros among them
        weighted_chunk = [mode == "all" or bool(rng.integers(0, 2)) for _ in chunks]
        if not any(weighted_chunk):
            weighted_chunk[0] = True
    gkind = draw(st.sampled_from(sorted(GROUP_POOLS)))
    g = GROUP_POOLS[gkind][rng.integers(0, draw(st.integers(1, 3)), n)]
    return {"kind": kind, "t": pool[t], "p": pool[p], "w": w, "g": g, "chunks": chunks,
            "weighted_chunk": weighted_chunk, "seed": int(rng.integers(0, 2**31))}


def effective_weights(case):
    """Each row's weight as the stream counts it: 1 in an unweighted chunk."""
    n = len(case["t"])
    out = np.ones(n)
    if case["w"] is not None:
        for (a, b), weighted in zip(case["chunks"], case["weighted_chunk"], strict=True):
            if weighted:
                out[a:b] = case["w"][a:b]
    return out


def is_weighted(case):
    """Whether a chunk with samples came with weights (an empty chunk adds nothing, its
    ``sample_weight`` included)."""
    return any(w and b > a for (a, b), w in zip(case["chunks"], case["weighted_chunk"],
                                                 strict=True))


def py(values):
    """numpy values as the Python scalars confmat's labels are."""
    return [v.item() for v in values]


def oracle_table(t, p, w, labels=None):
    """The K x K table by a pandas groupby over all the rows (weights summed)."""
    seen = sorted(set(py(t)) | set(py(p)))
    labels = seen if labels is None else labels
    df = pd.DataFrame({"t": py(t), "p": py(p), "w": w})
    sums = df.groupby(["t", "p"], sort=False)["w"].sum()
    index = {v: i for i, v in enumerate(labels)}
    table = np.zeros((len(labels), len(labels)))
    for (a, b), v in sums.items():
        table[index[a], index[b]] += v
    return table, labels


def chunk_args(case, i):
    a, b = case["chunks"][i]
    w = case["w"][a:b] if case["weighted_chunk"][i] else None
    return case["t"][a:b], case["p"][a:b], w, case["g"][a:b]


def round_trip(obj, rnd):
    """The state through JSON text or a JSON-decoded dict, or the object itself."""
    how = rnd.choice(["json", "dict", "none"])
    cls = type(obj)
    if how == "json":
        return cls.from_json(obj.to_json())
    if how == "dict":
        return cls.from_dict(json.loads(json.dumps(obj.to_dict(), allow_nan=False)))
    return obj


def merge_tree(parts, rnd):
    """Merge ``parts`` pairwise in a random order and shape, through JSON now and then."""
    parts = list(parts)
    while len(parts) > 1:
        i, j = rnd.sample(range(len(parts)), 2)
        a, b = parts[i], parts[j]
        how = rnd.choice(["add", "merge", "sum"])
        if how == "add":
            out = a + b
        elif how == "merge":
            out = a.copy().merge(b)
        else:
            out = sum([a, b]) if isinstance(a, Accumulator) else a + b
        parts = [x for n, x in enumerate(parts) if n not in (i, j)] + [round_trip(out, rnd)]
    return parts[0]


def streamed_parts(case, cls, rnd, n_parts, **kwargs):
    """Chunks dealt at random to ``n_parts`` states, each updated chunk by chunk."""
    parts = [cls(**kwargs) for _ in range(n_parts)]
    for i in range(len(case["chunks"])):
        j = rnd.randrange(n_parts)
        t, p, w, g = chunk_args(case, i)
        if cls is GroupedAccumulator:
            parts[j].update(t, p, g, sample_weight=w)
        else:
            parts[j].update(t, p, sample_weight=w)
        parts[j] = round_trip(parts[j], rnd)
    return parts


def assert_table(got, expected, weighted):
    if weighted:
        assert got.dtype.kind == "f"
        assert_allclose(got, expected, rtol=1e-12, atol=0)
    else:
        assert got.dtype == np.int64
        assert_array_equal(got, expected.astype(np.int64))


def same_labels(got, expected):
    assert got == expected
    assert [type(v) for v in got] == [type(v) for v in expected]


# ------------------------------------------------------------------ 1. Accumulator
@SETTINGS
@given(streams(), st.integers(1, 4), st.integers(0, 2**32 - 1), st.booleans())
def test_accumulator_split_merged_and_serialised_equals_the_one_shot_count(case, n_parts, seed,
                                                                            fixed):
    rnd = random.Random(seed)
    w = effective_weights(case)
    weighted = is_weighted(case)
    labels = None
    if fixed:  # a permuted superset of the classes seen
        labels = py(POOLS[case["kind"]])
        rnd.shuffle(labels)
    parts = streamed_parts(case, Accumulator, rnd, n_parts, labels=labels)
    acc = merge_tree(parts, rnd)
    twin = merge_tree(parts[::-1], random.Random(seed + 1))  # another tree, other order
    n = len(case["t"])
    assert acc.n_samples == twin.n_samples == n
    assert acc.n_updates == len(case["chunks"])
    if n == 0 or not w.any():
        with pytest.raises(ValueError, match=r"no samples|non-zero weight"):
            acc.result()
        return
    expected, expected_labels = oracle_table(case["t"], case["p"], w, labels)
    for got in (acc, twin):
        same_labels(got.labels, expected_labels)
        assert_table(got.result().counts, expected, weighted)
    if case["kind"] != "uint64":  # scikit-learn's own check of labels stops at int64
        sk = sk_confusion_matrix(case["t"], case["p"], labels=np.array(expected_labels),
                                 sample_weight=w)
        assert_allclose(acc.result().counts, sk, rtol=1e-12, atol=0)


@SETTINGS
@given(streams(weights=("none",)), st.integers(0, 2**32 - 1))
def test_merging_is_commutative_and_associative_exactly_for_counts(case, seed):
    rnd = random.Random(seed)
    a, b, c = streamed_parts(case, Accumulator, rnd, 3)
    left = (a + b) + c
    right = a + (b + c)
    swapped = c + (b + a)
    in_place = a.copy().merge(b.copy().merge(c))
    for other in (right, swapped, in_place):
        same_labels(other.labels, left.labels)
        assert other.counts.dtype == left.counts.dtype == np.int64
        assert_array_equal(other.counts, left.counts)
        assert other.to_dict()["counts"] == left.to_dict()["counts"]
        assert other.n_samples == left.n_samples


# ------------------------------------------------------------------ 2. GroupedAccumulator
def oracle_stack(case, w, labels=None):
    t, p, g = py(case["t"]), py(case["p"]), py(case["g"])
    seen = sorted(set(t) | set(p))
    labels = seen if labels is None else labels
    keys = sorted(set(g))
    df = pd.DataFrame({"g": g, "t": t, "p": p, "w": w})
    stack = np.zeros((len(keys), len(labels), len(labels)))
    li = {v: i for i, v in enumerate(labels)}
    gi = {v: i for i, v in enumerate(keys)}
    for (gg, a, b), v in df.groupby(["g", "t", "p"], sort=False)["w"].sum().items():
        stack[gi[gg], li[a], li[b]] += v
    sizes = df.groupby("g").size()
    return stack, labels, keys, [int(sizes[k]) for k in keys]


@SETTINGS
@given(streams(), st.integers(1, 4), st.integers(0, 2**32 - 1), st.booleans())
def test_grouped_accumulator_split_merged_and_serialised_equals_pandas(case, n_parts, seed,
                                                                       fixed):
    rnd = random.Random(seed)
    w = effective_weights(case)
    labels = py(POOLS[case["kind"]]) if fixed else None
    parts = streamed_parts(case, GroupedAccumulator, rnd, n_parts, labels=labels)
    acc = merge_tree(parts, rnd)
    n = len(case["t"])
    assert acc.n_samples == n and acc.n_updates == len(case["chunks"])
    if n == 0:
        assert acc.groups == [] and acc.stack.shape[0] == 0
        return
    stack, exp_labels, keys, sizes = oracle_stack(case, w, labels)
    same_labels(acc.labels, exp_labels)
    same_labels(acc.groups, py(np.array(keys)) if keys else [])
    assert acc.sizes.tolist() == sizes
    assert_table(acc.stack, stack, is_weighted(case))


# ------------------------------------------------------------------ 3. Dask
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
dask = pytest.importorskip("dask")
from confmat import dask as cdask  # noqa: E402


@pytest.fixture(scope="module")
def synchronous():
    with dask.config.set(scheduler="synchronous"):
        yield


def dask_sizes(case):
    return tuple(b - a for a, b in case["chunks"])


def frame(case, w):
    """A Dask DataFrame whose partitions are the chunks (empty ones included)."""
    df = pd.DataFrame({"t": case["t"], "p": case["p"], "w": w, "g": case["g"]})
    parts = [df.iloc[a:b] for a, b in case["chunks"]]
    return dd.from_map(lambda part: part, parts, meta=df.iloc[:0],
                       divisions=[None] * (len(parts) + 1))


DASK_SETTINGS = settings(max_examples=25, deadline=None,
                         suppress_health_check=[HealthCheck.too_slow,
                                                HealthCheck.function_scoped_fixture])


@DASK_SETTINGS
@given(streams(weights=("none", "all")), st.booleans(), st.sampled_from([2, 3]))
def test_dask_confusion_matrix_on_random_partitions_equals_pandas(synchronous, case, as_frame,
                                                                  split_every):
    w = case["w"] if case["w"] is not None else np.ones(len(case["t"]))
    weighted = case["w"] is not None
    if as_frame:
        ddf = frame(case, w)
        cols = ddf["t"], ddf["p"], ddf["w"] if weighted else None
    else:
        sizes = dask_sizes(case)
        cols = (da.from_array(case["t"], chunks=(sizes,)), da.from_array(case["p"], chunks=(sizes,)),
                da.from_array(w, chunks=(sizes,)) if weighted else None)
    n = len(case["t"])
    acc = cdask.accumulate(cols[0], cols[1], sample_weight=cols[2], split_every=split_every,
                           allow_empty=True)
    assert acc.n_samples == n
    if n == 0 or not w.any():
        with pytest.raises(ValueError):
            cdask.confusion_matrix(cols[0], cols[1], sample_weight=cols[2])
        return
    expected, labels = oracle_table(case["t"], case["p"], w)
    cm = cdask.confusion_matrix(cols[0], cols[1], sample_weight=cols[2])
    same_labels(cm.labels, labels)
    assert_table(cm.counts, expected, weighted)


@DASK_SETTINGS
@given(streams(weights=("none", "all")), st.booleans(), st.booleans())
def test_dask_by_group_on_random_partitions_equals_pandas(synchronous, case, as_frame, fixed):
    n = len(case["t"])
    w = case["w"] if case["w"] is not None else np.ones(n)
    weighted = case["w"] is not None
    if as_frame:
        ddf = frame(case, w)
        args = ddf["t"], ddf["p"], ddf["g"], ddf["w"] if weighted else None
    else:
        sizes = (dask_sizes(case),)
        args = (da.from_array(case["t"], chunks=sizes), da.from_array(case["p"], chunks=sizes),
                da.from_array(case["g"], chunks=sizes),
                da.from_array(w, chunks=sizes) if weighted else None)
    fixed_labels = py(POOLS[case["kind"]])[::-1] if fixed else None  # a superset, reordered
    if n == 0 or not w.any():
        with pytest.raises(ValueError):
            cdask.by_group(*args[:3], sample_weight=args[3], labels=fixed_labels)
        return
    ev = cdask.by_group(*args[:3], sample_weight=args[3], labels=fixed_labels)
    stack, labels, keys, group_sizes = oracle_stack(case, w, fixed_labels)
    assert ev.groups == py(np.array(keys)) and ev.sizes.tolist() == group_sizes
    if len(labels) == 1 and len(ev.labels) == 2:  # one class seen: by_group's documented
        labels = ev.labels                       # rule adds the other one, empty
        stack, *_ = oracle_stack(case, w, labels)
    same_labels(ev.labels, labels)
    assert_table(ev.stack, stack, weighted)


def test_a_grouped_chunk_of_zero_weights_is_accepted_like_a_plain_one():
    # a stream's chunk may weigh nothing (Accumulator takes it); the stream as a whole is
    # checked at result()
    acc = GroupedAccumulator()
    acc.update([0, 1], [0, 1], ["a", "b"], sample_weight=[0.0, 0.0])
    acc.update([1], [1], ["b"], sample_weight=[2.5])
    assert acc.stack.tolist() == [[[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 2.5]]]
    assert acc.sizes.tolist() == [1, 2]
    only_zeros = GroupedAccumulator()
    only_zeros.update([0], [0], ["a"], sample_weight=[0.0])
    with pytest.raises(ValueError, match="non-zero weight"):
        only_zeros.result()


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.int8, bool])
def test_an_empty_grouped_chunk_of_integer_or_boolean_keys_adds_nothing(dtype):
    acc = GroupedAccumulator()
    acc.update(np.array([], dtype=np.int64), np.array([], dtype=np.int64),
               np.array([], dtype=dtype))
    acc.update([1, 0], [1, 1], np.array([1, 0], dtype=dtype))
    assert acc.stack.tolist() == [[[0, 1], [0, 0]], [[0, 0], [0, 1]]]
    assert acc.n_updates == 2 and acc.n_samples == 2


# ------------------------------------------------------------------ 4. score histograms
def documented_edges(lo, hi, bins):
    e = lo + (hi - lo) * (np.arange(bins + 1) / bins)
    e[-1] = hi
    return e


def bin_index(s, lo, hi, bins):
    """The bin of each score: [e_j, e_j+1), the last bin closed (docs/curves.md)."""
    return np.minimum(np.searchsorted(documented_edges(lo, hi, bins), s, side="right") - 1,
                      bins - 1)


def binned_counts(s, w, case):
    """Sums of weights per bin (``numpy.bincount``; ``numpy.histogram`` adds weights by
    differences of a cumulative sum, which loses small weights beside large ones)."""
    return np.bincount(bin_index(s, *case["score_range"], case["bins"]), weights=w,
                       minlength=case["bins"])


@st.composite
def scored_streams(draw):
    case = draw(streams(weights=("none", "all"), max_n=60))
    rng = np.random.default_rng(case["seed"])
    n = len(case["t"])
    bins = draw(st.sampled_from([1, 3, 10, 100]))
    lo, hi = draw(st.sampled_from([(0.0, 1.0), (-2.0, 5.0), (0.1, 0.3)]))
    edges = documented_edges(lo, hi, bins)
    pool = np.concatenate([edges, np.nextafter(edges, -np.inf)[1:],
                           lo + (hi - lo) * rng.random(20)])
    s = rng.choice(pool, n)
    case.update(s=s, bins=bins, score_range=(lo, hi))
    return case


def oracle_auc_ap(y, s, w, case):
    binned = bin_index(s, *case["score_range"], case["bins"])
    return (roc_auc_score(y, binned, sample_weight=w),
            average_precision_score(y, binned, sample_weight=w))


@SETTINGS
@given(scored_streams(), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_histogram_on_random_splits_gives_sklearn_auc_and_ap_of_the_binned_scores(case, n_parts,
                                                                                  seed):
    rnd = random.Random(seed)
    pool = py(POOLS[case["kind"]])
    neg, pos = pool[0], pool[1]  # two classes of the kind; the rows' classes map onto them
    y = np.array([pos if v == pool[1] else neg for v in py(case["t"])],
                 dtype=POOLS[case["kind"]].dtype)
    w = case["w"]
    kw = {"bins": case["bins"], "score_range": case["score_range"]}
    parts = [ScoreHistogram([neg, pos], **kw) for _ in range(n_parts)]
    for a, b in case["chunks"]:
        j = rnd.randrange(n_parts)
        parts[j].update(y[a:b], case["s"][a:b], sample_weight=None if w is None else w[a:b])
        parts[j] = round_trip(parts[j], rnd)
    h = merge_tree(parts, rnd)
    yy = np.array([v == pos for v in py(y)], dtype=int)
    ww = np.ones(len(y)) if w is None else w
    for c in (0, 1):  # the bin counts are numpy.histogram's on the documented edges
        expected = binned_counts(case["s"][yy == c], ww[yy == c], case)
        assert_table(h.counts[c, 0], expected, is_weighted(case))
    both = (ww[yy == 1].sum() > 0) and (ww[yy == 0].sum() > 0)
    if not both:
        return
    auc, ap = oracle_auc_ap(yy, case["s"], w, case)
    assert h.roc_auc() == pytest.approx(auc, rel=1e-12, abs=1e-15)
    assert h.average_precision() == pytest.approx(ap, rel=1e-12, abs=1e-15)


@SETTINGS
@given(scored_streams(), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_accumulator_scores_on_random_splits_give_sklearn_auc_of_the_binned_scores(case, n_parts,
                                                                                   seed):
    # binary labels given: the score column is the one of labels[1]
    rnd = random.Random(seed)
    pool = py(POOLS[case["kind"]])
    neg, pos = pool[0], pool[-1]
    first = case["t"][0].item() if len(case["t"]) else None
    y = np.array([pos if v == first else neg for v in py(case["t"])],
                 dtype=POOLS[case["kind"]].dtype)
    w = case["w"]
    kw = {"bins": case["bins"], "score_range": case["score_range"], "score_labels": [neg, pos]}
    parts = [Accumulator([neg, pos], **kw) for _ in range(n_parts)]
    for a, b in case["chunks"]:
        j = rnd.randrange(n_parts)
        parts[j].update(y[a:b], y[a:b], scores=case["s"][a:b],
                        sample_weight=None if w is None else w[a:b])
        parts[j] = round_trip(parts[j], rnd)
    acc = merge_tree(parts, rnd)
    yy = np.array([v == pos for v in py(y)], dtype=int)
    ww = np.ones(len(y)) if w is None else w
    if not ((ww[yy == 1].sum() > 0) and (ww[yy == 0].sum() > 0)):
        return
    auc, ap = oracle_auc_ap(yy, case["s"], w, case)
    assert acc.curves().roc_auc() == pytest.approx(auc, rel=1e-12, abs=1e-15)
    assert acc.curves().average_precision() == pytest.approx(ap, rel=1e-12, abs=1e-15)


@DASK_SETTINGS
@given(scored_streams())
def test_dask_score_histogram_on_random_partitions_equals_sklearn(synchronous, case):
    n = len(case["t"])
    if n == 0:
        return
    y = (case["t"] == case["t"][0]).astype(np.int64)  # classes 0 / 1 of the rows
    w = case["w"]
    sizes = (dask_sizes(case),)
    h = cdask.score_histogram(
        da.from_array(y, chunks=sizes), da.from_array(case["s"], chunks=sizes),
        labels=[0, 1], sample_weight=None if w is None else da.from_array(w, chunks=sizes),
        bins=case["bins"], score_range=case["score_range"])
    ww = np.ones(n) if w is None else w
    for c in (0, 1):
        expected = binned_counts(case["s"][y == c], ww[y == c], case)
        assert_table(h.counts[c, 0], expected, is_weighted(case))
    if ww[y == 1].sum() > 0 and ww[y == 0].sum() > 0:
        auc, ap = oracle_auc_ap(y, case["s"], w, case)
        assert h.roc_auc() == pytest.approx(auc, rel=1e-12, abs=1e-15)
        assert h.average_precision() == pytest.approx(ap, rel=1e-12, abs=1e-15)


# ------------------------------------------------------------------ 5. mutated JSON states
def valid_states(case):
    """Valid states of every kind from one stream (the stream needs one sample)."""
    acc = Accumulator()
    sacc = Accumulator(scores=True, score_labels=[False, True], bins=4)
    gacc = GroupedAccumulator()
    h = ScoreHistogram(["x", "y", "z"], bins=3)
    door = ScoreHistogram(bins=4, pos_label=True)  # the door's rule: schema version 2
    rng = np.random.default_rng(case["seed"])
    for i in range(len(case["chunks"])):
        t, p, cw, g = chunk_args(case, i)
        acc.update(t, p, sample_weight=cw)
        gacc.update(t, p, g, sample_weight=cw)
        yb = rng.integers(0, 2, len(t)).astype(bool)
        sacc.update(yb, yb, scores=rng.random(len(t)), sample_weight=cw)
        door.update(yb, rng.random(len(t)), sample_weight=cw)
        h.update(rng.choice(["x", "y", "z"], len(t)), rng.dirichlet([1, 1, 1], len(t)),
                 sample_weight=cw)
    return {"Accumulator": (Accumulator, acc.to_dict()),
            "Accumulator+scores": (Accumulator, sacc.to_dict()),
            "GroupedAccumulator": (GroupedAccumulator, gacc.to_dict()),
            "ScoreHistogram": (ScoreHistogram, h.to_dict()),
            "ScoreHistogram, pos_label": (ScoreHistogram, door.to_dict())}


def _cells(node, path=()):
    """Paths of the numbers inside a (nested) list."""
    if isinstance(node, list):
        out = []
        for i, v in enumerate(node):
            out += _cells(v, (*path, i))
        return out
    return [path]


def _set(d, path, value):
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value


#: (field, why, mutation) -> None when it does not apply to the state; every mutation yields
#: a state that must be refused with an error naming ``field``
def _mutations(d, rnd):
    out = []
    hist = "values" in d
    counts = "values" if hist else "counts"
    weighted = d["dtype"] == "float64"
    cells = _cells(d[counts])
    # every field the writer writes is read back: one dropped is refused (docs/scaling.md,
    # "State"), except 'labels_given' / 'pos_label' of a histogram of version 1, which
    # predates them
    for field in d:
        if not (hist and d["version"] == 1 and field in ("labels_given", "pos_label")):
            out.append((field, "dropped", lambda x, f=field: x.pop(f)))
    for v in (0, 99, "1", 1.5, True, None):  # 2: the newest version of a histogram
        out.append(("version", f"version {v!r}", lambda x, v=v: x.__setitem__("version", v)))
    out.append(("schema", "other schema", lambda x: x.__setitem__("schema", "confmat.other")))
    if cells and cells[0]:
        path = (counts, *rnd.choice(cells))
        bad = [math.inf, -math.inf, -1, "3", True, None, [1]]
        if not weighted:
            bad += [0.5, 2.25]
        else:
            bad += [-0.5]
        for v in bad:
            out.append((counts, f"cell {v!r}", lambda x, p=path, v=v: _set(x, p, v)))
        if not hist:
            for v in (math.nan,):  # only a dict can hold it (JSON text cannot)
                out.append((counts, "cell nan", lambda x, p=path, v=v: _set(x, p, v)))
    out.append((counts, "a string", lambda x: x.__setitem__(counts, "[[1]]")))
    if not hist and d["counts"]:
        out.append(("counts", "a row dropped", lambda x: x["counts"].pop()))
        out.append(("counts", "a row twice", lambda x: x["counts"].append(list(x["counts"][-1]))))
    if len(d["labels"]) >= 1:
        out.append(("labels", "a label twice",
                    lambda x: x["labels"].append(x["labels"][0])))
        out.append(("labels", "a label that is a list",
                    lambda x: _set(x, ("labels", 0), [1])))
        out.append(("labels", "not a list", lambda x: x.__setitem__("labels", "abc")))
    if not hist and len(set(map(json.dumps, d["labels"]))) >= 2 and not d["labels_fixed"]:
        out.append(("labels", "unsorted", lambda x: x["labels"].reverse()))
    if not hist:
        out.append(("n_samples", "negative", lambda x: x.__setitem__("n_samples", -1)))
        out.append(("n_samples", "fractional",
                    lambda x: x.__setitem__("n_samples", x["n_samples"] + 0.5)))
        out.append(("n_samples", "a string", lambda x: x.__setitem__("n_samples", "7")))
        if not weighted:
            out.append(("n_samples", "one more",
                        lambda x: x.__setitem__("n_samples", x["n_samples"] + 1)))
    if d.get("groups"):
        out.append(("sizes", "one more", lambda x: _set(x, ("sizes", 0), x["sizes"][0] + 1)))
        out.append(("groups", "a group twice", lambda x: x["groups"].append(x["groups"][0])))
    if hist and d["values"]:
        out.append(("index", "out of range",
                    lambda x: _set(x, ("index", 0), math.prod(x["shape"]))))
        out.append(("index", "negative", lambda x: _set(x, ("index", 0), -1)))
        out.append(("values", "one value too many", lambda x: x["values"].append(1)))
    if not hist and d.get("track_scores") and d["n_samples"]:
        out.append(("scores", "null while samples were scored",
                    lambda x: x.__setitem__("scores", None)))
    if d.get("scores") and d["scores"]["values"]:
        # every scored sample is in both the table and the histogram: a histogram whose
        # class totals differ from the table's rows is refused, weighted or not
        top = int(np.argmax(d["scores"]["values"]))  # a quarter of its class at least
        out.append(("scores", "the largest histogram cell doubled",
                    lambda x: _set(x, ("scores", "values", top),
                                   x["scores"]["values"][top] * 2)))
    if d.get("scores"):
        out.append(("scores", "bins of another histogram",
                    lambda x: x["scores"].__setitem__("bins", x["scores"]["bins"] + 1)))
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(streams(max_n=12), st.integers(0, 2**32 - 1))
def test_mutated_states_are_refused_naming_the_field(case, seed):
    if len(case["t"]) == 0:
        return
    rnd = random.Random(seed)
    for state_name, (cls, d) in valid_states(case).items():
        assert cls.from_dict(copy.deepcopy(d)).to_dict() == d  # the unmutated state loads
        for field, why, mutate in _mutations(d, rnd):
            bad = copy.deepcopy(d)
            mutate(bad)
            loads = [lambda b=bad, c=cls: c.from_dict(b)]
            try:
                text = json.dumps(bad, allow_nan=False)
            except ValueError:
                text = None
            if text is not None:
                loads.append(lambda t=text, c=cls: c.from_json(t))
            for load in loads:
                try:
                    load()
                except (ValueError, TypeError) as exc:
                    assert field in str(exc), (state_name, field, why, str(exc))
                else:
                    raise AssertionError(f"{state_name}: {why} of field {field!r} was accepted")


@pytest.mark.parametrize("cls", [Accumulator, GroupedAccumulator, ScoreHistogram])
def test_json_text_with_a_field_twice_is_refused_naming_it(cls):
    # json.loads keeps the last of two equal keys: the state read would depend on which
    # copy a writer put last (RFC 8259: names within an object should be unique)
    obj = cls()
    text = obj.to_json()
    assert text.endswith("}")
    twice = text[:-1] + ', "schema": ' + json.dumps(obj.to_dict()["schema"]) + "}"
    with pytest.raises(ValueError, match=r"'schema'.*more than once|more than once.*'schema'"):
        cls.from_json(twice)
    nested = Accumulator(scores=True)
    nested.update([0, 1], [0, 1], scores=[0.2, 0.8])
    text = nested.to_json()
    inner = text.replace('"bins": 10000, "score_range"', '"bins": 3, "bins": 10000, "score_range"',
                         2)
    assert inner.count('"bins": 3') == 2
    with pytest.raises(ValueError, match=r"'bins'.*more than once"):
        Accumulator.from_json(inner)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=3),
    max_leaves=6,
)


def _paths(node, prefix=()):
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(streams(max_n=10), st.data())
def test_randomly_mutated_states_load_consistently_or_raise_value_or_type_error(case, data):
    # random retyped, dropped and duplicated elements anywhere in the state, nested
    # histograms included: the reader raises ValueError / TypeError (never another
    # exception), or what it read is a valid state it writes back unchanged
    if len(case["t"]) == 0:
        return
    states = valid_states(case)
    state_name = data.draw(st.sampled_from(sorted(states)))
    cls, d = states[state_name]
    d = copy.deepcopy(d)
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.sampled_from(_paths(d)))
        parent = d
        for k in where[:-1]:
            parent = parent[k]
        action = data.draw(st.sampled_from(["replace", "drop", "duplicate"]))
        if action == "drop":
            del parent[where[-1]]
        elif action == "duplicate" and isinstance(parent, list):
            parent.insert(where[-1], copy.deepcopy(parent[where[-1]]))
        else:
            parent[where[-1]] = data.draw(JSON_VALUES)
        if not _paths(d):
            break
    for load in (lambda: cls.from_dict(d), lambda: cls.from_json(json.dumps(d))):
        try:
            obj = load()
        except (ValueError, TypeError):
            continue
        assert cls.from_dict(obj.to_dict()).to_dict() == obj.to_dict()
        json.dumps(obj.to_dict(), allow_nan=False)
        if hasattr(obj, "result"):
            try:
                obj.result()
            except ValueError as exc:  # a state without samples or weight
                assert "no samples" in str(exc) or "non-zero weight" in str(exc)


@DASK_SETTINGS
@given(streams(weights=("none", "mixed")), st.integers(0, 2**32 - 1))
def test_a_stream_of_numpy_and_dask_chunks_equals_pandas(synchronous, case, seed):
    # Accumulator.update takes a Dask chunk (counted on its cluster, partitions of random
    # sizes, empty ones included) beside in-memory ones
    rnd = random.Random(seed)
    acc = Accumulator()
    for i in range(len(case["chunks"])):
        t, p, w, _ = chunk_args(case, i)
        if rnd.random() < 0.5 and len(t):
            cuts = sorted(rnd.randint(0, len(t)) for _ in range(rnd.randint(0, 3)))
            sizes = (tuple(b - a for a, b in zip([0, *cuts], [*cuts, len(t)], strict=True)),)
            t, p = da.from_array(t, chunks=sizes), da.from_array(p, chunks=sizes)
            w = None if w is None else da.from_array(w, chunks=sizes)
        acc.update(t, p, sample_weight=w)
        acc = round_trip(acc, rnd)
    w = effective_weights(case)
    assert acc.n_samples == len(case["t"]) and acc.n_updates == len(case["chunks"])
    if len(case["t"]) == 0 or not w.any():
        return
    expected, labels = oracle_table(case["t"], case["p"], w)
    same_labels(acc.labels, labels)
    assert_table(acc.result().counts, expected, is_weighted(case))


@DASK_SETTINGS
@given(scored_streams())
def test_dask_frame_score_histogram_with_its_labels_found_equals_sklearn(synchronous, case):
    # labels not given: found by a first pass over the partitions (empty ones included)
    n = len(case["t"])
    w = case["w"] if case["w"] is not None else np.ones(n)
    df = pd.DataFrame({"t": case["t"], "s": case["s"], "w": w})
    parts = [df.iloc[a:b] for a, b in case["chunks"]]
    ddf = dd.from_map(lambda part: part, parts, meta=df.iloc[:0],
                      divisions=[None] * (len(parts) + 1))
    weights = ddf["w"] if case["w"] is not None else None
    classes = sorted(set(py(case["t"])))
    if len(classes) < 2:
        with pytest.raises(ValueError):
            cdask.score_histogram(ddf["t"], ddf["s"], sample_weight=weights, bins=case["bins"],
                                  score_range=case["score_range"])
        return
    if len(classes) > 2:
        return  # binary scores; multiclass needs one column per class
    # the class of the one column named (labels found other than {0, 1}, {-1, 1},
    # {False, True} imply none)
    h = cdask.score_histogram(ddf["t"], ddf["s"], sample_weight=weights, bins=case["bins"],
                              score_range=case["score_range"], pos_label=classes[1])
    same_labels(h.labels, classes)
    y = np.array([v == classes[1] for v in py(case["t"])], dtype=int)
    for c in (0, 1):
        assert_table(h.counts[c, 0], binned_counts(case["s"][y == c], w[y == c], case),
                     case["w"] is not None)
    if w[y == 1].sum() > 0 and w[y == 0].sum() > 0:
        auc, ap = oracle_auc_ap(y, case["s"], case["w"], case)
        assert h.roc_auc() == pytest.approx(auc, rel=1e-12, abs=1e-15)
        assert h.average_precision() == pytest.approx(ap, rel=1e-12, abs=1e-15)


@SETTINGS
@given(streams(), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_grouped_accumulator_of_two_features_equals_pandas(case, n_parts, seed):
    # the groups are the (site, level) pairs: a dict of two columns per chunk, keys tuples
    rnd = random.Random(seed)
    n = len(case["t"])
    level = np.random.default_rng(case["seed"]).integers(0, 2, n).astype(bool)
    parts = [GroupedAccumulator() for _ in range(n_parts)]
    for i, (a, b) in enumerate(case["chunks"]):
        t, p, w, g = chunk_args(case, i)
        j = rnd.randrange(n_parts)
        parts[j].update(t, p, {"site": g, "level": level[a:b]}, sample_weight=w)
        parts[j] = round_trip(parts[j], rnd)
    acc = merge_tree(parts, rnd)
    if n == 0:
        assert acc.groups == [] and acc.n_samples == 0
        return
    w = effective_weights(case)
    df = pd.DataFrame({"site": py(case["g"]), "level": level.tolist(), "t": py(case["t"]),
                       "p": py(case["p"]), "w": w})
    keys = sorted(set(zip(df["site"], df["level"], strict=True)))
    labels = sorted(set(df["t"]) | set(df["p"]))
    stack = np.zeros((len(keys), len(labels), len(labels)))
    gi = {k: i for i, k in enumerate(keys)}
    li = {v: i for i, v in enumerate(labels)}
    for (s, lv, a, b), v in df.groupby(["site", "level", "t", "p"])["w"].sum().items():
        stack[gi[(s, bool(lv))], li[a], li[b]] += v
    assert acc.names == ["site", "level"]
    assert acc.groups == keys
    assert acc.sizes.tolist() == [int(v) for v in df.groupby(["site", "level"]).size()]
    assert_table(acc.stack, stack, is_weighted(case))


@SETTINGS
@given(streams(weights=("none", "mixed"), max_n=50), st.integers(1, 3), st.integers(0, 2**32 - 1),
       st.sampled_from([1, 4, 50]))
def test_multiclass_score_columns_on_random_splits_equal_bincount(case, n_parts, seed, bins):
    # one score column per fixed class; each class's histogram of each column is the
    # bincount of the bin indices of its rows (weights summed)
    rnd = random.Random(seed)
    labels = py(POOLS[case["kind"]])
    k = len(labels)
    rng = np.random.default_rng(case["seed"])
    n = len(case["t"])
    s = rng.dirichlet(np.ones(k), n)  # rows of probabilities (the multiclass rule)
    one_hot = rng.random(n) < 0.2  # 1.0 falls in the closed last bin
    s[one_hot] = np.eye(k)[rng.integers(0, k, one_hot.sum())]
    parts = [Accumulator(labels, scores=True, bins=bins) for _ in range(n_parts)]
    for i, (a, b) in enumerate(case["chunks"]):
        t, p, w, _ = chunk_args(case, i)
        j = rnd.randrange(n_parts)
        parts[j].update(t, p, scores=s[a:b] if k > 2 else s[a:b, 1], sample_weight=w)
        parts[j] = round_trip(parts[j], rnd)
    acc = merge_tree(parts, rnd)
    if n == 0:
        return
    h = acc.curves()
    w = effective_weights(case)
    assert h.labels == labels
    truth = py(case["t"])
    binned = {"score_range": (0.0, 1.0), "bins": bins}
    for c, v in enumerate(labels):
        rows = np.array([x == v for x in truth], dtype=bool)
        for col in range(h.counts.shape[1]):
            score = s[rows, col if k > 2 else 1]
            assert_table(h.counts[c, col], binned_counts(score, w[rows], binned),
                         is_weighted(case))
