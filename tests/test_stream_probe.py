"""Streaming state probed adversarially: merges that are refused change nothing, no sample
misses its score, empty chunks add nothing, and JSON state keeps every rule it ran under.

Oracles: scikit-learn's ``confusion_matrix`` and ``collections.Counter`` over the Python
values of the concatenated stream; for the score histograms, bins worked by hand
(``floor(score * bins)`` for scores in [0, 1)).
"""

from __future__ import annotations

import itertools
import json
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from confmat import Accumulator
from confmat.binned import ScoreHistogram

POOL = ["ant", "bee", "cat", "dog"]


def hand_bins(y, s, bins, classes):
    """Per-class bin counts of scores in [0, 1): bin floor(s * bins), counted by Counter."""
    cells = Counter((c, int(v * bins)) for c, v in zip(y, s, strict=True))
    return [[cells.get((c, j), 0) for j in range(bins)] for c in classes]


# ------------------------------------------------------------------ merge
def test_refused_merge_leaves_the_accumulator_unchanged():
    a = Accumulator()
    a.update([0, 1], [0, 1], scores=[0.1, 0.9])
    b = Accumulator()
    b.update([0, 2], [0, 2])  # samples without scores, and a class a has not seen
    with pytest.raises(ValueError, match="without scores"):
        a.merge(b)
    assert a.labels == [0, 1]
    assert a.counts.tolist() == sk_confusion_matrix([0, 1], [0, 1]).tolist()
    assert a.n_samples == 2 and a.curves().n == 2
    c = Accumulator(bins=10)
    c.update([0, 1], [1, 1], scores=[0.3, 0.6])
    with pytest.raises(ValueError, match="different labels, bins or score_range"):
        a.merge(c)  # histograms of other bins: refused before anything is added
    assert a.counts.tolist() == [[1, 0], [0, 1]] and a.n_samples == 2 and a.n_updates == 1


def test_unscored_samples_never_join_a_score_tracking_state():
    unscored = Accumulator()
    unscored.update([0, 1], [0, 1])
    tracker = Accumulator(score_labels=[0, 1])  # a histogram, no samples yet
    with pytest.raises(ValueError, match="without scores"):
        tracker.merge(unscored)
    with pytest.raises(ValueError, match="without scores"):
        unscored.copy().merge(tracker)
    with pytest.raises(ValueError, match="without scores"):
        tracker + unscored
    required = Accumulator(scores=True)
    with pytest.raises(ValueError, match="without scores"):
        required.merge(unscored)
    assert tracker.n_samples == 0 and required.n_samples == 0 and unscored.n_samples == 2


def test_histogram_of_other_bins_does_not_enter_an_accumulator_of_its_own_bins():
    part = Accumulator(bins=20)
    part.update([0, 1], [0, 1], scores=[0.1, 0.9])
    total = Accumulator(bins=10)
    with pytest.raises(ValueError, match=r"bins, score_range \(20"):
        total.merge(part)
    assert total.n_samples == 0 and total.histogram is None
    same = Accumulator(bins=20)
    same.merge(part)
    assert same.curves().counts[:, 0, :].tolist() == hand_bins([0, 1], [0.1, 0.9], 20, [0, 1])


def test_merging_with_itself_doubles_everything():
    a = Accumulator(pos_label="y")  # text labels imply no positive class
    a.update(["x", "y", "y"], ["x", "x", "y"], scores=[0.2, 0.4, 0.8])
    a.merge(a)
    assert a.counts.tolist() == (2 * sk_confusion_matrix(["x", "y", "y"], ["x", "x", "y"])).tolist()
    assert a.curves().counts[:, 0, :].tolist() == hand_bins(
        ["x", "y", "y"] * 2, [0.2, 0.4, 0.8] * 2, 10_000, ["x", "y"])


# ------------------------------------------------------------------ empty chunks
@st.composite
def stream_with_empty_chunks(draw):
    n = draw(st.integers(1, 80))
    t = draw(st.lists(st.sampled_from(POOL), min_size=n, max_size=n))
    p = draw(st.lists(st.sampled_from(POOL), min_size=n, max_size=n))
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=8)))  # repeated cuts: empty chunks
    return t, p, [0, *cuts, n]


@settings(max_examples=100, deadline=None)
@given(stream_with_empty_chunks(), st.booleans())
def test_empty_chunks_add_nothing(case, through_json):
    t, p, bounds = case
    acc = Accumulator()
    for a, b in itertools.pairwise(bounds):
        acc.update(np.array(t[a:b], dtype=object), np.array(p[a:b], dtype=object))
        if through_json:
            acc = Accumulator.from_json(acc.to_json())
    classes = sorted(set(t) | set(p))
    pairs = Counter(zip(t, p, strict=True))
    assert acc.labels == classes
    assert acc.counts.tolist() == [[pairs[(i, j)] for j in classes] for i in classes]
    assert acc.n_samples == len(t) and acc.n_updates == len(bounds) - 1


def test_empty_chunks_with_scores_weights_and_groups():
    acc = Accumulator(labels=[0, 1])
    acc.update([], [], scores=[], sample_weight=[])
    acc.update([0, 1, 1], [0, 1, 0], scores=[0.15, 0.85, 0.45], sample_weight=[1.0, 2.0, 0.5])
    acc.update(np.array([], dtype=np.int64), np.array([], dtype=np.int64), scores=np.zeros(0))
    np.testing.assert_allclose(
        acc.counts, sk_confusion_matrix([0, 1, 1], [0, 1, 0], sample_weight=[1.0, 2.0, 0.5]))
    assert acc.n_samples == 3 and acc.n_updates == 3
    with pytest.raises(ValueError, match="chunk 4 has no samples but 2 rows of scores"):
        acc.update([], [], scores=[0.1, 0.2])
    with pytest.raises(ValueError, match="sample_weight has 1 entries but there are 0"):
        acc.update([], [], scores=[], sample_weight=[1.0])
    g = Accumulator()
    g.update_grouped([], [], [])
    g.update_grouped(["a", "b"], ["a", "a"], [3, 2])
    assert g.counts.tolist() == [[3, 0], [2, 0]] and g.n_samples == 5
    only_empty = Accumulator()
    only_empty.update([], [])
    with pytest.raises(ValueError, match="seen no samples"):
        only_empty.result()


def test_update_grouped_refuses_weight_on_a_pair_of_no_samples():
    acc = Accumulator()
    with pytest.raises(ValueError, match=r"pair 1 has weight 5\.0 but a count of 0"):
        acc.update_grouped([0, 1], [0, 1], [2, 0], weights=[1.0, 5.0])
    assert acc.n_samples == 0
    acc.update_grouped([0, 1], [0, 1], [2, 1], weights=[1.5, 0.0])  # zero weights are fine
    assert acc.counts.tolist() == [[1.5, 0.0], [0.0, 0.0]]


def test_multiclass_score_columns_before_every_class_was_seen():
    acc = Accumulator()
    with pytest.raises(ValueError, match=r"scores has 3 columns .* seen so far are \['a'\]"):
        acc.update(["a", "a"], ["a", "a"], scores=[[0.8, 0.1, 0.1], [0.2, 0.7, 0.1]])
    with pytest.raises(ValueError, match=r"3 columns .* \['a', 'b'\]"):
        acc.update(["a", "b"], ["a", "b"], scores=[[0.8, 0.1, 0.1], [0.2, 0.7, 0.1]])
    fixed = Accumulator(labels=["a", "b", "c"])
    fixed.update(["a", "b"], ["a", "b"], scores=[[0.8, 0.1, 0.1], [0.2, 0.7, 0.1]])
    assert fixed.curves().labels == ["a", "b", "c"]


# ------------------------------------------------------------------ JSON state
DOOR_CASES = [
    # (pos_label, first chunk, later chunk, the positive labels)
    (None, [-1, 1, 1], [-1, -1], {1}),
    ("sick", ["healthy", "sick"], ["flu", "sick", "healthy"], {"sick"}),
    (0, [0, 1, 2], [2, 2], {0}),
    (True, [False, True], [False], {True}),
]


@pytest.mark.parametrize(("pos_label", "first", "later", "positive"), DOOR_CASES)
def test_histogram_json_keeps_the_positive_class_rule(pos_label, first, later, positive):
    bins = 10
    s1 = [0.05 + 0.3 * i for i in range(len(first))]
    s2 = [0.55 + 0.1 * i for i in range(len(later))]
    h = ScoreHistogram(bins=bins, pos_label=pos_label).update(first, s1)
    back = ScoreHistogram.from_json(h.to_json())
    back.update(later, s2)  # refused before: the rule of a histogram without labels was lost
    y = [v in positive for v in first + later]
    assert back.counts[:, 0, :].tolist() == hand_bins(y, s1 + s2, bins, [False, True])
    assert back.labels == h.labels and back.pos_label == h.pos_label


def test_histogram_json_versions():
    plain = ScoreHistogram([0, 1], bins=4).update([0, 1], [0.1, 0.9]).to_dict()
    assert plain["version"] == 1  # older readers read it as before
    ruled = ScoreHistogram(bins=4, pos_label="sick").to_dict()
    assert ruled["version"] == 2 and ruled["labels_given"] is False
    assert ruled["pos_label"] == "sick"
    old = {k: v for k, v in plain.items() if k not in ("labels_given", "pos_label")}
    assert ScoreHistogram.from_dict(old).labels == [0, 1]
    with pytest.raises(ValueError, match=r"field 'labels' is \['a', 'sick'\] but 'labels_given'"):
        ScoreHistogram.from_dict({**ruled, "labels": ["a", "sick"]})
    with pytest.raises(ValueError, match="field 'labels_given' must be one of"):
        ScoreHistogram.from_dict({**ruled, "labels_given": "no"})
    with pytest.raises(TypeError, match="field 'pos_label' must be a string"):
        ScoreHistogram.from_dict({**ruled, "pos_label": {"x": 1}})


def _scored_state():
    acc = Accumulator(bins=10)
    acc.update([0, 1, 1], [0, 1, 0], scores=[0.15, 0.85, 0.45])
    return acc.to_dict()


def test_accumulator_state_whose_scores_disagree_with_its_counts_is_refused():
    d = _scored_state()
    assert Accumulator.from_dict(d).curves().n == 3
    extra = json.loads(json.dumps(d))
    extra["scores"]["values"] = [v * 5 for v in extra["scores"]["values"]]
    with pytest.raises(ValueError, match="field 'scores' holds 5 samples of the true class 0"):
        Accumulator.from_dict(extra)
    missing = json.loads(json.dumps(d))
    missing["scores"]["index"] = missing["scores"]["index"][:1]
    missing["scores"]["values"] = missing["scores"]["values"][:1]
    with pytest.raises(ValueError, match="holds 0 samples of the true class 1 but 'counts' holds 2"):
        Accumulator.from_dict(missing)
    other_bins = json.loads(json.dumps(d))
    other_bins["bins"] = 20
    with pytest.raises(ValueError, match="field 'scores' has bins, score_range"):
        Accumulator.from_dict(other_bins)


# ------------------------------------------------------------------ ScoreHistogram.update_grouped
def test_histogram_update_grouped_never_wraps_or_truncates():
    h = ScoreHistogram(bins=4)
    with pytest.raises(OverflowError, match="exceeds 2\\*\\*63 - 1"):
        h.update_grouped([0], [0], np.array([2**63], dtype=np.uint64))
    h.update_grouped([0, 1], [0, 1], np.array([2**62, 2**62 - 1], dtype=np.int64))
    with pytest.raises(OverflowError, match="would exceed 2\\*\\*63 - 1"):
        h.update_grouped([1], [3], [1 << 40])
    assert int(h.counts.sum(dtype=object)) == 2**63 - 1
    with pytest.raises(ValueError, match="y_true must hold whole numbers"):
        h.update_grouped([0.7], [0], [1])
    with pytest.raises(ValueError, match="bin_index must hold whole numbers"):
        h.update_grouped([0], [1.5], [1])
    with pytest.raises(TypeError, match="bin_index must hold integer codes"):
        h.update_grouped([0], [True], [1])
    g = ScoreHistogram(bins=4).update_grouped([0.0, 1.0], [3.0, 2], [2, 5])
    assert g.counts[:, 0, :].tolist() == [[0, 0, 0, 2], [0, 0, 5, 0]]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["flu", "healthy", "sick"]), st.integers(0, 19)),
             min_size=2, max_size=80),
    st.sampled_from([("sick", str), (1, int), (0, int)]),
    st.integers(1, 4),
)
def test_histogram_without_labels_scores_only_pos_label_as_positive(rows, pos, n_chunks):
    """Chunks of three or more classes: every class but pos_label is negative (before, the
    codes of the sorted classes were used as they were, so 'flu' counted as positive and a
    third numeric class fell outside the two rows)."""
    from sklearn.metrics import roc_auc_score

    pos_label, kind = pos
    names = {"flu": 0, "healthy": 2, "sick": 1} if kind is int else None
    y, s = [], []
    h = ScoreHistogram(bins=20, pos_label=pos_label)
    for part in np.array_split(np.arange(len(rows)), n_chunks):
        # a chunk of two or more classes must hold pos_label (documented): give it one
        chunk = [(pos_label, 7)] + [(names[c] if names else c, j) for c, j in
                                    (rows[i] for i in part.tolist())]
        yc = [c for c, _ in chunk]
        sc = [(j + 0.5) / 20 for _, j in chunk]  # bin centres: binned AUC is the exact one
        h.update(yc, sc)
        y += yc
        s += sc
    positive = [v == pos_label for v in y]
    assert h.counts[:, 0, :].tolist() == hand_bins(positive, s, 20, [False, True])
    if 0 < sum(positive) < len(y):
        assert h.roc_auc() == pytest.approx(roc_auc_score(positive, s), abs=1e-12)


def test_histogram_merge_never_wraps():
    big = ScoreHistogram(bins=2).update_grouped([0], [0], [2**62])
    with pytest.raises(OverflowError, match=r"ScoreHistogram\.merge: the merged counts"):
        big + big
    with pytest.raises(OverflowError, match=r"ScoreHistogram\.merge"):
        ScoreHistogram.from_json(big.to_json()).merge(big)
    assert (big + ScoreHistogram(bins=2).update([1], [0.75])).counts[:, 0, :].tolist() == [
        [2**62, 0], [0, 1]]


# ------------------------------------------------------------------ confmat.io streams
@pytest.mark.parametrize("batch_rows", [1, 3, 7, 1000])
def test_streamed_scores_do_not_depend_on_batch_rows(tmp_path, batch_rows):
    """A file sorted by label: the first batches hold one class. Before, a binary .npz with
    one score column, or three score columns, failed unless the first batch held every
    class."""
    from confmat import io

    rng = np.random.default_rng(5)
    t = np.repeat([0, 1, 2], [6, 5, 4])
    p = rng.integers(0, 3, t.size)
    probs = rng.dirichlet(np.ones(3), t.size)
    binary = t > 0
    s = (rng.integers(0, 10, t.size) + 0.5) / 10
    np.savez(tmp_path / "bin.npz", y=binary, yhat=p > 0, s=s)
    cm, rep = io.evaluate_file(tmp_path / "bin.npz", "y", "yhat", score_cols="s", bins=10,
                               batch_rows=batch_rows)
    assert cm.counts.tolist() == sk_confusion_matrix(binary, p > 0).tolist()
    assert rep.curves.counts[:, 0, :].tolist() == hand_bins(binary, s, 10, [False, True])
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = np.array(["ant", "bee", "cat"])
    pq.write_table(pa.table({"y": names[t], "yhat": names[p], "a": probs[:, 0],
                             "b": probs[:, 1], "c": probs[:, 2]}), tmp_path / "multi.parquet")
    cm, rep = io.evaluate_file(tmp_path / "multi.parquet", "y", "yhat",
                               score_cols=["a", "b", "c"], bins=10, batch_rows=batch_rows)
    assert cm.labels == ["ant", "bee", "cat"]
    assert cm.counts.tolist() == sk_confusion_matrix(names[t], names[p]).tolist()
    for j in range(3):  # column j scores class j: bins of that column by hand
        expected = hand_bins(names[t], probs[:, j], 10, ["ant", "bee", "cat"])
        assert rep.curves.counts[:, j, :].tolist() == expected


def test_streamed_score_columns_that_do_not_fit_the_labels(tmp_path):
    from confmat import io

    t = np.array([0, 0, 1, 1, 2, 2])
    np.savez(tmp_path / "three.npz", y=t, yhat=t, s=np.linspace(0.1, 0.9, 6))
    with pytest.raises(ValueError, match=r"1 score column \['s'\] but the labels are \[0, 1, 2\]; "
                                         r"give one score column per class"):
        io.evaluate_file(tmp_path / "three.npz", "y", "yhat", score_cols="s", batch_rows=2)
    np.savez(tmp_path / "two.npz", y=t % 2, yhat=t % 2, a=np.full(6, 0.2), b=np.full(6, 0.3),
             c=np.full(6, 0.5))
    with pytest.raises(ValueError, match=r"3 score columns .* but the labels are \[0, 1\]"):
        io.evaluate_file(tmp_path / "two.npz", "y", "yhat", score_cols=["a", "b", "c"])


@pytest.mark.parametrize(("labels", "y"), [
    ([False, True], [0, 1]),
    ([0, 1], [False, True]),
    ([False, True], np.array([1, 0], dtype=np.uint8)),
    ([0, 1, 2], [True, False]),
])
def test_histogram_labels_and_y_true_of_other_kinds(labels, y):
    """True == 1 in Python: before, integers were counted on the classes False / True (and
    booleans on 0 / 1), a mix that ConfusionMatrix and Accumulator refuse."""
    k = len(labels)
    scores = [0.2, 0.8] if k == 2 else [[0.2, 0.4, 0.4], [0.6, 0.2, 0.2]]
    with pytest.raises(TypeError, match=r"the labels and y_true mixes label types .*'bool', "
                                        r"'number'"):
        ScoreHistogram(labels, bins=4).update(y, scores)


def test_a_bad_chunk_is_named_by_its_number():
    acc = Accumulator()
    acc.update([1.0, 2.0], [1.0, 2.0])
    with pytest.raises(ValueError, match=r"^chunk 2: y_true contains .*NaN"):
        acc.update([np.nan], [1.0])
    with pytest.raises(ValueError, match=r"^chunk 2: y_true and y_pred have different lengths"):
        acc.update([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match=r"^chunk 2: sample_weight"):
        acc.update([1.0], [1.0], sample_weight=[-1.0])
    with pytest.raises(ValueError, match=r"^chunk 2: counts has 1 entries but there are 2"):
        acc.update_grouped([1.0, 2.0], [1.0, 2.0], [3])
    assert acc.counts.tolist() == [[1, 0], [0, 1]] and acc.n_updates == 1


# ------------------------------------------------------------------ the whole state machine
@st.composite
def scored_stream(draw):
    n = draw(st.integers(1, 60))
    rows = draw(st.lists(st.tuples(st.sampled_from(["no", "yes"]), st.sampled_from(["no", "yes"]),
                                   st.integers(0, 9)), min_size=n, max_size=n))
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=6)))
    weighted = draw(st.lists(st.booleans(), min_size=len(cuts) + 1, max_size=len(cuts) + 1))
    return rows, [0, *cuts, n], weighted


@settings(max_examples=80, deadline=None)
@given(scored_stream(), st.randoms(use_true_random=False))
def test_scored_chunks_merged_through_json_equal_the_one_shot(case, rnd):
    """Random chunks (empty ones too), weights in some chunks only, each chunk its own
    accumulator, merged in a random order with ``merge`` / ``+`` through JSON: the table
    equals scikit-learn's on all the rows and the histogram the bins counted by hand."""
    rows, bounds, weighted = case
    weight_of = [0.5 + (i % 3) for i in range(len(rows))]
    parts, w_all = [], []
    for (a, b), use_w in zip(itertools.pairwise(bounds), weighted, strict=True):
        acc = Accumulator(["no", "yes"], bins=10)
        w = weight_of[a:b] if use_w else None
        acc.update([r[0] for r in rows[a:b]], [r[1] for r in rows[a:b]],
                   scores=[(r[2] + 0.5) / 10 for r in rows[a:b]], sample_weight=w)
        w_all += w if use_w else [1.0] * (b - a)
        parts.append(Accumulator.from_json(acc.to_json()))
    rnd.shuffle(parts)
    total = parts[0]
    for part in parts[1:]:
        total = total + part if rnd.random() < 0.5 else total.merge(part)
    total = Accumulator.from_json(total.to_json())
    t, p = [r[0] for r in rows], [r[1] for r in rows]
    any_w = any(u and b > a for (a, b), u in zip(itertools.pairwise(bounds), weighted,
                                                  strict=True))
    expected = sk_confusion_matrix(t, p, labels=["no", "yes"],
                                   sample_weight=w_all if any_w else None)
    np.testing.assert_allclose(total.counts, expected, rtol=1e-12, atol=0)
    assert total.n_samples == len(rows)
    cells = Counter()
    for r, w in zip(rows, w_all, strict=True):
        cells[(r[0], r[2])] += w if any_w else 1
    by_hand = [[cells.get((c, j), 0) for j in range(10)] for c in ["no", "yes"]]
    np.testing.assert_allclose(total.curves().counts[:, 0, :], by_hand, rtol=1e-12, atol=0)


def test_copy_and_plus_keep_labels_that_json_cannot_hold():
    """Dates are labels (and group keys) the accumulators take but JSON cannot hold: ``copy``
    and ``+`` went through JSON and refused them."""
    from confmat.accumulator.by_group import GroupedAccumulator

    day = np.array(["2020-01-01", "2020-01-02", "2020-01-02"], dtype="datetime64[D]")
    a = Accumulator()
    a.update(day, day[::-1])
    both = a + a
    expected = 2 * sk_confusion_matrix(day.astype(str), day[::-1].astype(str))
    assert both.counts.tolist() == expected.tolist() and len(both.labels) == 2
    twin = a.copy()
    twin.update(day[:1], day[:1])
    assert a.n_samples == 3 and twin.n_samples == 4
    g = GroupedAccumulator()
    g.update([0, 1, 1], [0, 1, 0], day)
    assert (g + g).sizes.tolist() == [2, 4]


def test_a_chunk_of_zero_weights_with_scores_is_accepted():
    """The docs: a chunk whose weights are all zero is accepted (the stream must weigh
    something). With scores it was refused by the histogram."""
    acc = Accumulator()
    acc.update([0, 1], [0, 1], scores=[0.15, 0.85], sample_weight=[0, 0])
    acc.update([0, 1, 1], [0, 1, 0], scores=[0.15, 0.85, 0.45], sample_weight=[1.0, 2.0, 0.5])
    np.testing.assert_allclose(acc.counts, sk_confusion_matrix(
        [0, 1, 0, 1, 1], [0, 1, 0, 1, 0], sample_weight=[0, 0, 1.0, 2.0, 0.5]))
    np.testing.assert_allclose(acc.curves().counts[:, 0, :].sum(axis=1), [1.0, 2.5])
    back = Accumulator.from_json(acc.to_json())
    assert back.is_weighted and back.curves() == acc.curves()
    h = ScoreHistogram(bins=4).update([0, 1], [0.1, 0.9], sample_weight=[0.0, 0.0])
    assert h.is_weighted and h.n == 0
    unweighted = Accumulator(bins=4)
    unweighted.update([0, 1], [0, 1], scores=[0.1, 0.9])
    d = json.loads(unweighted.to_json())
    d["scores"] = h.update([0, 1], [0.1, 0.9], sample_weight=[1.0, 1.0]).to_dict()
    with pytest.raises(ValueError, match="field 'scores' has dtype float64 but 'counts' has int64"):
        Accumulator.from_dict(d)


def test_the_labels_hint_only_where_labels_are_the_matter():
    acc = Accumulator()
    with pytest.raises(ValueError, match=r"NaN at position 0; scores must be finite$"):
        acc.update([0, 1], [0, 1], scores=[np.nan, 0.2])
    acc.update([0, 1], [0, 1], scores=[0.1, 0.2])
    with pytest.raises(ValueError, match=r"not in labels \[0, 1\] \(pass labels= to fix"):
        acc.update([2], [2], scores=[0.3])


def test_an_empty_dask_chunk_adds_nothing_like_an_empty_array():
    da = pytest.importorskip("dask.array")
    import dask

    none = np.array([], dtype=np.int64)
    with dask.config.set(scheduler="synchronous"):
        acc = Accumulator()
        acc.update(da.from_array(none, chunks=5), da.from_array(none, chunks=5))
        acc.update([0, 1, 1], [0, 1, 0])
        acc.update(da.from_array(none), da.from_array(none))
        assert acc.counts.tolist() == sk_confusion_matrix([0, 1, 1], [0, 1, 0]).tolist()
        assert acc.n_samples == 3 and acc.n_updates == 3
        scored = Accumulator()
        scored.update(da.from_array(none), da.from_array(none),
                      scores=da.from_array(np.array([], dtype=float)))
        scored.update([0, 1], [0, 1], scores=[0.15, 0.85])
        assert scored.curves().counts[:, 0, :].tolist() == hand_bins(
            [0, 1], [0.15, 0.85], 10_000, [0, 1])
