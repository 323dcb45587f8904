"""Streaming rules a probe found broken: the positive-class rule of score histograms in
equality and merges, ``pos_label`` beside more than two labels, empty chunks by group, the
classes (values and Python types) after any chunking, and Dask errors that name the partition
only.

Oracles: the one-shot computation on the concatenated data (``ConfusionMatrix
.from_predictions`` and ``confmat.by_group`` on the concatenation), scikit-learn's
``confusion_matrix`` and ``roc_auc_score``, ``collections.Counter`` over the rows, and bins
worked by hand (``floor(score * bins)`` for scores in [0, 1)).
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix as sk_confusion_matrix
from sklearn.metrics import roc_auc_score

from confmat import Accumulator, ConfusionMatrix
from confmat.accumulator import GroupedAccumulator
from confmat.binned import ScoreHistogram
from confmat.inputs.columns import check_label_pair


def hand_bins(y, s, bins, classes):
    """Per-class bin counts of scores in [0, 1): bin floor(s * bins), counted by Counter."""
    cells = Counter((c, int(v * bins)) for c, v in zip(y, s, strict=True))
    return [[cells.get((c, j), 0) for j in range(bins)] for c in classes]


# ------------------------------------------------------------------ 1. the positive-class rule
# Three histograms over the labels [0, 1] that read a chunk differently: labels given (the
# class 1 scores, anything else is refused), the door's rule without pos_label (y_true in
# {0, 1}, {-1, 1} or {False, True}), and pos_label=1 (every class but 1 is negative).
RULES = {
    "labels given": lambda: ScoreHistogram([0, 1], bins=4),
    "door, no pos_label": lambda: ScoreHistogram(bins=4),
    "door, pos_label=1": lambda: ScoreHistogram(bins=4, pos_label=1),
}


@pytest.mark.parametrize(("a", "b"), list(itertools.combinations(RULES, 2)))
@pytest.mark.parametrize("filled", [False, True])
def test_histograms_of_other_positive_class_rules_differ_and_do_not_merge(a, b, filled):
    ha, hb = RULES[a](), RULES[b]()
    assert ha.labels == hb.labels == [0, 1]  # the labels alone cannot tell them apart
    if filled:  # the same samples, so the same counts: only the rule differs
        ha.update([0, 1, 1], [0.1, 0.6, 0.9])
        hb.update([0, 1, 1], [0.1, 0.6, 0.9])
        assert ha.counts.tolist() == hb.counts.tolist()
    assert ha != hb and hb != ha
    assert ha.positive_rule != hb.positive_rule
    for merge in (lambda: ha.merge(hb), lambda: ha + hb, lambda: hb + ha, lambda: sum([ha, hb])):
        with pytest.raises(ValueError, match="positive-class rules") as err:
            merge()
        assert ha.positive_rule in str(err.value) and hb.positive_rule in str(err.value)


@pytest.mark.parametrize("rule", list(RULES))
def test_same_rule_compares_equal_merges_and_survives_json(rule):
    ha = RULES[rule]().update([0, 1], [0.1, 0.9])
    hb = RULES[rule]().update([1, 1], [0.3, 0.6])
    assert ha == RULES[rule]().update([0, 1], [0.1, 0.9])
    assert ScoreHistogram.from_json(ha.to_json()) == ha
    merged = ha + ScoreHistogram.from_json(hb.to_json())
    assert merged.positive_rule == ha.positive_rule
    assert merged.counts[:, 0, :].tolist() == hand_bins([0, 1, 1, 1], [0.1, 0.9, 0.3, 0.6], 4,
                                                        [0, 1])


def test_given_labels_with_pos_label_is_the_rule_of_the_labels():
    """With labels given, the positive class is ``labels[1]`` whatever reordered them: a
    histogram made with ``pos_label`` equal to that class reads every chunk the same way."""
    ordered = ScoreHistogram(["no", "yes"], bins=4)
    named = ScoreHistogram(["yes", "no"], bins=4, pos_label="yes")
    assert named.labels == ordered.labels == ["no", "yes"]
    assert named == ordered and (named + ordered).n == 0
    other = ScoreHistogram(["no", "yes"], bins=4, pos_label="no")
    assert other != ordered
    with pytest.raises(ValueError, match="different labels"):
        other + ordered


def test_positive_rule_of_two_string_rules():
    sick = ScoreHistogram(bins=4, pos_label="sick")
    assert sick.positive_rule != ScoreHistogram(["not sick", "sick"], bins=4).positive_rule
    with pytest.raises(ValueError, match="positive-class rules"):
        sick.merge(ScoreHistogram(["not sick", "sick"], bins=4))


# ------------------------------------------------------------------ 2. pos_label beside many labels
@pytest.mark.parametrize(("labels", "pos"), [([0, 1, 2], 1), (["a", "b", "c"], "a"),
                                             (["a", "b", "c"], "z")])
def test_pos_label_with_more_than_two_labels_is_refused(labels, pos):
    with pytest.raises(ValueError, match=r"pos_label=.* binary .* labels \[.*\] name 3 classes"):
        ScoreHistogram(labels, bins=4, pos_label=pos)


def test_pos_label_with_more_than_two_labels_in_json_is_refused():
    d = ScoreHistogram([0, 1, 2], bins=2).to_dict()
    d.update(version=2, pos_label=1)
    with pytest.raises(ValueError, match=r"pos_label=1 .* labels \[0, 1, 2\]"):
        ScoreHistogram.from_dict(d)


# ------------------------------------------------------------------ 3. empty chunks by group
def test_check_label_pair_takes_empty_columns_only_when_asked():
    t, p = check_label_pair([], [], empty_ok=True)
    assert len(t) == len(p) == 0
    with pytest.raises(ValueError, match="empty; at least one sample"):
        check_label_pair([], [])
    with pytest.raises(ValueError, match="different lengths: 0 and 1"):
        check_label_pair([], [1], empty_ok=True)


def _stack_by_counter(rows, keys, labels, weights=None):
    cells = Counter()
    for i, (g, t, p) in enumerate(rows):
        cells[(g, t, p)] += 1 if weights is None else weights[i]
    return [[[cells.get((g, t, p), 0) for p in labels] for t in labels] for g in keys]


def test_grouped_accumulator_takes_an_empty_chunk():
    acc = GroupedAccumulator()
    acc.update([], [], [])
    assert acc.n_updates == 1 and acc.n_samples == 0 and acc.labels == [] and acc.groups == []
    acc.update(["a", "b", "b"], ["a", "a", "b"], ["x", "y", "y"])
    acc.update(np.array([], dtype=object), np.array([], dtype=object), np.array([], dtype=object),
               sample_weight=[])
    with pytest.raises(ValueError, match="sensitive features"):  # checked, if empty
        acc.update([], [], {"site": []})
    rows = [("x", "a", "a"), ("y", "b", "a"), ("y", "b", "b")]
    assert acc.labels == ["a", "b"] and acc.groups == ["x", "y"]
    assert acc.stack.tolist() == _stack_by_counter(rows, ["x", "y"], ["a", "b"])
    assert acc.n_samples == 3 and acc.n_updates == 3 and acc.sizes.tolist() == [1, 2]
    fixed = GroupedAccumulator(["a", "b", "c"])
    fixed.update([], [], [])
    assert fixed.labels == ["a", "b", "c"] and fixed.stack.shape == (0, 3, 3)
    with pytest.raises(ValueError, match="seen no samples"):
        fixed.result()


def test_an_empty_grouped_chunk_still_has_its_arguments_checked():
    acc = GroupedAccumulator()
    with pytest.raises(ValueError, match=r"^chunk 1: groups has 1 entries"):
        acc.update([], [], ["x"])
    with pytest.raises(ValueError, match=r"^chunk 1: sample_weight has 1 entries but there are 0"):
        acc.update([], [], [], sample_weight=[1.0])
    with pytest.raises(ValueError, match=r"^chunk 1: y_true and y_pred have different lengths"):
        acc.update([], [1], [])
    assert acc.n_updates == 0


@st.composite
def grouped_stream(draw):
    n = draw(st.integers(1, 60))
    rows = draw(st.lists(st.tuples(st.sampled_from(["x", "y", "z"]), st.sampled_from([0, 1, 2]),
                                   st.sampled_from([0, 1, 2])), min_size=n, max_size=n))
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=8)))  # repeats: empty chunks
    return rows, [0, *cuts, n]


@settings(max_examples=60, deadline=None)
@given(grouped_stream(), st.booleans())
def test_grouped_chunks_with_empty_ones_equal_the_rows_counted(case, through_json):
    rows, bounds = case
    acc = GroupedAccumulator()
    for a, b in itertools.pairwise(bounds):
        part = rows[a:b]
        acc.update(np.array([r[1] for r in part], dtype=np.int64),
                   np.array([r[2] for r in part], dtype=np.int64), [r[0] for r in part])
        if through_json:
            acc = GroupedAccumulator.from_json(acc.to_json())
    keys = sorted({r[0] for r in rows})
    labels = sorted({r[1] for r in rows} | {r[2] for r in rows})
    assert acc.groups == keys and acc.labels == labels
    assert acc.stack.tolist() == _stack_by_counter(rows, keys, labels)
    assert acc.n_samples == len(rows) and acc.n_updates == len(bounds) - 1


def test_empty_chunks_of_engine_columns():
    pd = pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    for empty in (pd.Series([], dtype="category"), pa.array([], type=pa.string()),
                  pa.chunked_array([], type=pa.dictionary(pa.int32(), pa.string()))):
        acc = Accumulator()
        acc.update(empty, empty)
        acc.update(["a", "b"], ["b", "b"])
        g = GroupedAccumulator()
        g.update(empty, empty, [])
        g.update(["a", "b"], ["b", "b"], ["x", "x"])
        assert acc.counts.tolist() == sk_confusion_matrix(["a", "b"], ["b", "b"]).tolist()
        assert g.stack.tolist() == [acc.counts.tolist()] and acc.n_updates == g.n_updates == 2


def test_update_grouped_takes_engine_columns_and_empty_ones():
    pd = pytest.importorskip("pandas")
    acc = Accumulator()
    acc.update_grouped(pd.Series([], dtype="category"), pd.Series([], dtype="category"), [])
    acc.update_grouped(pd.Series(["b", "a", "b"], dtype="category"),
                       pd.Series(["a", "a", "b"], dtype="category"), [2, 5, 1])
    expected = sk_confusion_matrix(["b"] * 2 + ["a"] * 5 + ["b"], ["a"] * 7 + ["b"])
    assert acc.labels == ["a", "b"] and acc.counts.tolist() == expected.tolist()
    assert acc.n_updates == 2 and acc.n_samples == 8


# ------------------------------------------------------------------ 4. classes after any chunking
def _one_shot(t_chunks, p_chunks):
    """The one-shot oracle: ConfusionMatrix.from_predictions on the Python concatenation."""
    t = [v for c in t_chunks for v in c]
    p = [v for c in p_chunks for v in c]
    return ConfusionMatrix.from_predictions(t, p)


def _typed(labels):
    return [(type(v).__name__, v) for v in labels]


def test_int_chunks_then_float_chunks_give_the_one_shot_classes():
    acc = Accumulator()
    acc.update([1, 2], [1, 2])
    acc.update([1.5], [1.5])
    cm = _one_shot([[1, 2], [1.5]], [[1, 2], [1.5]])
    assert _typed(cm.labels) == _typed([1.0, 1.5, 2.0])
    assert _typed(acc.labels) == _typed(cm.labels)
    assert _typed(acc.result().labels) == _typed(cm.labels)
    back = Accumulator()
    back.update([1.0, 2.0], [1.0, 2.0])
    back.update([3], [3])
    assert _typed(back.labels) == _typed([1.0, 2.0, 3.0])


def test_int_true_labels_and_float_predictions_in_one_call():
    """numpy's promotion of the two label vectors (``np.union1d``, as scikit-learn's
    ``confusion_matrix`` takes the union of its labels) gives the floats ``[1.0, 1.5, 2.0]``
    here, and so does every chunking of the stream; the one-shot gave ``[1, 1.5, 2]``."""
    cm = ConfusionMatrix.from_predictions([1, 2], [1.5, 2.0])
    assert _typed(cm.labels) == _typed(np.union1d([1, 2], [1.5, 2.0]).tolist())
    pairs = Counter(zip([1, 2], [1.5, 2.0], strict=True))
    assert cm.counts.tolist() == [[pairs[(a, b)] for b in cm.labels] for a in cm.labels]


NUMBER_KINDS = {
    "int": st.integers(-3, 3),
    "float": st.sampled_from([-1.5, 0.0, 0.5, 1.0, 2.0, 2.5]),
    "bool": st.booleans(),
    "int32": st.integers(-3, 3).map(np.int32),
    "uint64": st.sampled_from([0, 1, 2**63 + 5, 2**64 - 1]).map(np.uint64),
}


@st.composite
def mixed_chunks(draw, kinds):
    n_chunks = draw(st.integers(1, 5))
    t_chunks, p_chunks = [], []
    for _ in range(n_chunks):
        n = draw(st.integers(0, 6))
        kt, kp = draw(st.sampled_from(kinds)), draw(st.sampled_from(kinds))
        t_chunks.append(draw(st.lists(NUMBER_KINDS[kt], min_size=n, max_size=n)))
        p_chunks.append(draw(st.lists(NUMBER_KINDS[kp], min_size=n, max_size=n)))
    return t_chunks, p_chunks


def _as_chunk(values):
    """A chunk as an array of its own kind (numpy scalars keep their dtype)."""
    if values and isinstance(values[0], np.generic):
        return np.array(values, dtype=type(values[0]))
    return list(values)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([("int", "float"), ("int", "bool"), ("int32", "uint64"),
                        ("int", "float", "int32")]).flatmap(mixed_chunks),
       st.booleans())
def test_classes_after_any_chunking_equal_the_one_shot(case, through_json):
    t_chunks, p_chunks = case
    if not any(t_chunks):
        return
    try:
        cm = _one_shot(t_chunks, p_chunks)
    except TypeError:  # kinds the one-shot refuses (booleans beside numbers)
        acc = Accumulator()
        with pytest.raises(TypeError):
            for t, p in zip(t_chunks, p_chunks, strict=True):
                acc.update(_as_chunk(t), _as_chunk(p))
        return
    acc = Accumulator()
    for t, p in zip(t_chunks, p_chunks, strict=True):
        acc.update(_as_chunk(t), _as_chunk(p))
        if through_json:
            acc = Accumulator.from_json(acc.to_json())
    assert _typed(acc.labels) == _typed(cm.labels)
    assert _typed(acc.result().labels) == _typed(cm.labels)
    assert acc.counts.tolist() == cm.counts.tolist()
    # merged from one accumulator per chunk, in reverse order, gives the same classes
    parts = []
    for t, p in zip(t_chunks, p_chunks, strict=True):
        part = Accumulator()
        part.update(_as_chunk(t), _as_chunk(p))
        parts.append(part)
    total = sum(reversed(parts))
    assert _typed(total.labels) == _typed(cm.labels)
    assert total.counts.tolist() == cm.counts.tolist()
    # the same by group: one group, its table that of the one-shot
    g = GroupedAccumulator()
    for t, p in zip(t_chunks, p_chunks, strict=True):
        g.update(_as_chunk(t), _as_chunk(p), ["all"] * len(t))
    assert _typed(g.labels) == _typed(cm.labels)
    assert g.stack.tolist() == [cm.counts.tolist()]


# ------------------------------------------------------------------ 5. Dask partitions
@pytest.fixture
def synchronous_dask():
    dask = pytest.importorskip("dask")
    pytest.importorskip("dask.array")
    with dask.config.set(scheduler="synchronous"):
        yield


def test_dask_errors_name_the_partition_only(synchronous_dask):
    import dask.array as da

    from confmat import dask as cdask

    bad = da.from_array(np.array([0.0, 1.0, np.nan, 1.0]), chunks=2)
    with pytest.raises(ValueError, match=r"^partition 1: y_true contains NaN at position 0"):
        ConfusionMatrix.from_predictions(bad, da.zeros(4, chunks=2))
    y = da.from_array(np.array([0, 1, 0, 1]), chunks=2)
    s = da.from_array(np.array([0.2, 0.7, 1.5, 0.4]), chunks=2)
    with pytest.raises(ValueError, match=r"^partition 1: .*outside score_range") as err:
        cdask.accumulate(y, y, scores=s, score_labels=[0, 1])
    assert "chunk" not in str(err.value)
    g = da.from_array(np.array(["a", "b", None, "b"], dtype=object), chunks=2)
    with pytest.raises(ValueError, match=r"^partition 1: ") as err:
        cdask.by_group(y, y, g)
    assert "chunk" not in str(err.value)


def test_dask_partitions_that_cannot_be_merged_are_named(synchronous_dask):
    import dask.array as da

    from confmat import dask as cdask

    y = da.from_array(np.array([0, 1, "a", "b"], dtype=object), chunks=2)
    with pytest.raises(TypeError, match=r"^partitions 0 to 1: ") as err:
        cdask.accumulate(y, y)
    assert "chunk" not in str(err.value)
    many = da.from_array(np.array([0, 1, 2, 3, "a", "b", "c", "d"], dtype=object), chunks=2)
    with pytest.raises(TypeError, match=r"^partitions 0 to 3: ") as err:
        cdask.accumulate(many, many, split_every=2)  # the root merge holds all four
    g = da.from_array(np.array(["x"] * 8), chunks=2)
    with pytest.raises(TypeError, match=r"^partitions 0 to 3: ") as err:
        cdask.by_group(many, many, g, split_every=2)
    assert "chunk" not in str(err.value)


def test_dask_update_of_an_accumulator_still_names_its_chunk(synchronous_dask):
    import dask.array as da

    acc = Accumulator(labels=[0, 1])
    acc.update([0], [0])
    with pytest.raises(ValueError, match=r"^chunk 2 has label 7 not in the fixed labels"):
        acc.update(da.from_array(np.array([0, 7]), chunks=1), da.from_array(np.array([0, 1]), chunks=1))
    bad = da.from_array(np.array([0.0, 1.0, np.nan]), chunks=2)
    with pytest.raises(ValueError, match=r"^chunk 2: partition 1: y_true contains NaN at position 0"):
        acc.update(bad, da.zeros(3, chunks=2))
    with pytest.raises(ValueError, match=r"^file 3: partition 1: y_true contains NaN"):
        acc.update(bad, da.zeros(3, chunks=2), chunk_name="file 3")
    assert acc.n_updates == 1 and acc.counts.tolist() == [[1, 0], [0, 0]]


def test_a_chunk_may_be_named_by_the_caller():
    acc = Accumulator(labels=[0, 1])
    with pytest.raises(ValueError, match=r"^rows 1\.\.3 has label 7 not in the fixed labels"):
        acc.update([0, 7, 1], [0, 1, 1], chunk_name="rows 1..3")
    with pytest.raises(ValueError, match=r"^file b\.csv: y_true contains a missing label"):
        Accumulator().update([np.nan], [1.0], chunk_name="file b.csv")
    g = GroupedAccumulator()
    with pytest.raises(ValueError, match=r"^part 9: groups has 1 entries"):
        g.update([0, 1], [0, 1], ["x"], chunk_name="part 9")
    with pytest.raises(TypeError, match="chunk_name must be a string"):
        acc.update([0], [0], chunk_name=3)


# ------------------------------------------------------------------ scores still agree
def test_streamed_scores_of_float_labels_after_int_labels():
    acc = Accumulator(bins=10)
    acc.update([0, 1], [0, 1], scores=[0.15, 0.85])
    acc.update([0.0, 1.0, 1.0], [0.0, 0.0, 1.0], scores=[0.35, 0.45, 0.95])
    t, s = [0, 1, 0, 1, 1], [0.15, 0.85, 0.35, 0.45, 0.95]
    assert _typed(acc.labels) == _typed(acc.curves().labels) == _typed([0.0, 1.0])
    ints, floats = Accumulator(bins=10), Accumulator(bins=10)
    ints.update([0, 1], [0, 1], scores=[0.15, 0.85])
    floats.update([0.0, 1.0], [0.0, 1.0], scores=[0.35, 0.45])
    for both in (ints + floats, floats + ints):
        assert _typed(both.labels) == _typed(both.curves().labels) == _typed([0.0, 1.0])
        assert both.curves().counts[:, 0, :].tolist() == hand_bins(
            [0, 1, 0, 1], [0.15, 0.85, 0.35, 0.45], 10, [0, 1])
        back = Accumulator.from_json(both.to_json())
        assert _typed(back.curves().labels) == _typed([0.0, 1.0])
    assert acc.curves().roc_auc() == pytest.approx(roc_auc_score(t, s), abs=1e-12)
    assert acc.curves().counts[:, 0, :].tolist() == hand_bins(t, s, 10, [0, 1])


# ------------------------------------------------------------------ 6. found on the way
def test_a_boolean_histogram_is_not_a_histogram_of_0_and_1():
    """``[False, True] == [0, 1]`` in Python: the labels alone let the two compare equal and
    merge."""
    flags = ScoreHistogram(bins=4, pos_label=True).update([False, True], [0.1, 0.9])
    numbers = ScoreHistogram(bins=4).update([0, 1], [0.1, 0.9])
    assert flags.counts.tolist() == numbers.counts.tolist()
    assert flags != numbers
    with pytest.raises(ValueError, match=r"different labels, bins or score_range"):
        flags + numbers
    assert ScoreHistogram([False, True], bins=4) != ScoreHistogram([0, 1], bins=4)


def test_accumulator_state_refuses_a_histogram_made_without_labels():
    import json

    acc = Accumulator(bins=4)
    acc.update([0, 1], [0, 1], scores=[0.1, 0.9])
    d = json.loads(acc.to_json())
    d["scores"] = ScoreHistogram(bins=4).update([0, 1], [0.1, 0.9]).to_dict()
    with pytest.raises(ValueError, match=r"field 'scores' is a histogram made without labels"):
        Accumulator.from_dict(d)


def test_grouped_accumulators_of_different_pos_label_do_not_merge():
    a, b = GroupedAccumulator(pos_label=1), GroupedAccumulator(pos_label=0)
    a.update([0, 1], [0, 1], ["x", "y"])
    b.update([0, 1], [1, 1], ["x", "y"])
    with pytest.raises(ValueError, match=r"different pos_label: 1 vs 0"):
        a.merge(b)
    assert a.n_samples == 2 and a.stack.tolist() == [[[1, 0], [0, 0]], [[0, 0], [0, 1]]]
    with pytest.raises(ValueError, match=r"different pos_label: True vs 1"):
        GroupedAccumulator(pos_label=True).merge(GroupedAccumulator(pos_label=1))
    undeclared = GroupedAccumulator()
    undeclared.merge(b)  # a state that declared none takes the other's
    assert undeclared.pos_label == 0
    assert (GroupedAccumulator(pos_label=0) + b).pos_label == 0


def test_arrow_string_chunks_with_scores():
    pa = pytest.importorskip("pyarrow")
    acc = Accumulator(bins=10, pos_label="yes")  # text labels imply no positive class
    acc.update(pa.array(["no", "yes", "yes"]), pa.array(["no", "no", "yes"]),
               scores=[0.15, 0.45, 0.85])
    acc.update(pa.chunked_array([["yes"], ["no"]]), pa.chunked_array([["yes"], ["yes"]]),
               scores=[0.95, 0.55])
    t = ["no", "yes", "yes", "yes", "no"]
    s = [0.15, 0.45, 0.85, 0.95, 0.55]
    assert acc.counts.tolist() == sk_confusion_matrix(t, ["no", "no", "yes", "yes", "yes"]).tolist()
    assert acc.curves().counts[:, 0, :].tolist() == hand_bins(t, s, 10, ["no", "yes"])
    assert acc.curves().roc_auc() == pytest.approx(
        roc_auc_score([v == "yes" for v in t], s), abs=1e-12)


def test_integers_past_2_53_beside_floats_keep_values_and_counts():
    """The documented limit: the one-shot promotes each column on its own (``y_true``'s
    ``0`` becomes ``0.0`` in a float column, ``y_pred``'s huge integer keeps an object
    column), which a stream cannot see; the classes' values and the counts still agree."""
    big = 2**63 + 5
    cm = _one_shot([[-1.5], [0]], [[-1.5], [big]])
    acc = Accumulator()
    acc.update([-1.5], [-1.5])
    acc.update(np.array([0], dtype=np.uint64), np.array([big], dtype=np.uint64))
    assert acc.labels == cm.labels == [-1.5, 0, big]
    assert type(acc.labels[2]) is int and acc.labels[2] == big  # exact, never rounded
    pairs = Counter([(-1.5, -1.5), (0, big)])
    assert acc.counts.tolist() == [[pairs[(a, b)] for b in cm.labels] for a in cm.labels]
    assert acc.counts.tolist() == cm.counts.tolist()


@pytest.mark.parametrize("rng, message", [
    ((1.0, 0.0), r"score_range must be finite with lo < hi"),
    ((0.0, float("inf")), r"score_range must be finite with lo < hi"),
    ((-1e308, 1e308), r"score_range=\(-1e\+308, 1e\+308\) is too wide for float64"),
    ((0.0, 1e-310), r"score_range=\(0.0, 1e-310\) is too narrow for 10000 bins"),
])
def test_an_accumulator_refuses_a_score_range_at_construction(rng, message):
    # before, the range was taken as given and refused (or not) only at the first scored chunk
    with pytest.raises(ValueError, match=message):
        Accumulator(score_range=rng)
    for not_numbers in ("01", ("0", "1"), (False, True)):
        with pytest.raises(TypeError, match=r"score_range must be two numbers"):
            Accumulator(score_range=not_numbers)
