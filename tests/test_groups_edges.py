"""Edge cases of evaluation by group found by an adversarial probe: missing group keys named
with their row, feature names that collide, rows given where columns are expected, groups
whose weights are all zero, reference groups of another kind, and the bootstrap's memory.

Oracles: fairlearn 0.15 (Weerts et al. 2023) on the rows of the groups that carry weight,
scikit-learn on each group's masked rows, and counts worked by hand.
"""

from __future__ import annotations

import math
import tracemalloc
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

fairlearn_metrics = pytest.importorskip("fairlearn.metrics")
pd = pytest.importorskip("pandas")

from confmat.groups import by_group  # noqa: E402
from confmat.groups.disparity import resample_stack  # noqa: E402

NAMED = [
    "demographic_parity_difference", "demographic_parity_ratio",
    "equal_opportunity_difference", "equal_opportunity_ratio",
    "equalized_odds_difference", "equalized_odds_ratio",
]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


# ----------------------------------------------------------------------------- group keys
@pytest.mark.parametrize("groups, match", [
    (["a", None, "b", "b"], r"groups contains a missing group key \(None or NaN\) at position 1"),
    ([1.0, 2.0, float("nan"), 2.0],
     r"groups contains a missing group key \(None or NaN\) at position 2"),
    ({"sex": ["f", "m", "f", "m"], "age": [30, None, 40, 40]},
     r"groups\['age'\] contains a missing group key \(None or NaN\) at position 1"),
    ([["f", "m", "f", "m"], [1.0, 2.0, 2.0, float("nan")]],
     r"groups\['sensitive_feature_1'\] contains a missing group key .* at position 3"),
])
def test_a_missing_group_key_in_a_list_is_named_with_its_row(groups, match):
    y, p = [0, 1, 1, 0], [0, 1, 0, 0]
    # fairlearn refuses missing sensitive features too (the oracle of "an error")
    columns = isinstance(groups, list) and isinstance(groups[0], list)
    as_fairlearn = ({f"sensitive_feature_{j}": c for j, c in enumerate(groups)} if columns
                    else groups)  # fairlearn reads a list of lists as rows
    with pytest.raises(ValueError, match="missing values"):
        fairlearn_metrics.MetricFrame(metrics=skm.accuracy_score, y_true=y, y_pred=p,
                                      sensitive_features=as_fairlearn)
    with pytest.raises(ValueError, match=match):
        by_group(y, p, groups)


@pytest.mark.parametrize("make", [
    lambda a, b: pd.DataFrame({1: a, "1": b}),
    lambda a, b: {1: a, "1": b},
])
def test_feature_names_that_collide_as_text_are_refused(make):
    a, b = ["x", "x", "y", "y"], [5, 6, 5, 6]
    with pytest.raises(ValueError, match=r"groups names the feature '1' twice .*1.*'1'"):
        by_group([0, 1, 1, 0], [0, 1, 0, 0], make(a, b))


def test_rows_given_as_a_list_of_tuples_are_named_by_their_length():
    rows = [("a", 1), ("a", 2), ("b", 1), ("b", 2), ("a", 1), ("b", 2)]
    with pytest.raises(ValueError, match=r"groups\['sensitive_feature_0'\] has 2 entries but "
                                         r"y_true and y_pred have 6 samples.*2-D array"):
        by_group([0, 1] * 3, [0, 1] * 3, rows)


@pytest.mark.parametrize("keys, reference", [([0, 0, 1, 1], True), ([False, False, True, True], 1),
                                             ([0.0, 0.0, 1.0, 1.0], False)])
def test_a_reference_of_another_kind_is_not_a_group(keys, reference):
    ev = by_group([0, 1, 1, 0], [0, 1, 0, 0], keys)
    with pytest.raises(ValueError, match=r"reference .* is not one of the groups"):
        ev.difference("accuracy", method="to_group", reference=reference)


def test_a_reference_of_the_same_kind_is_found():
    ev = by_group([0, 1, 1, 0], [0, 1, 0, 0], [1, 1, 2, 2])
    # 1.0 == 1 is the same number (as for labels); numpy scalars are read as Python's
    acc = [skm.accuracy_score([0, 1], [0, 1]), skm.accuracy_score([1, 0], [0, 0])]
    for ref in (1, 1.0, np.int64(1)):
        assert ev.difference("accuracy", method="to_group", reference=ref) == abs(acc[1] - acc[0])


# ----------------------------------------------------------------------------- weights
@st.composite
def weighted_with_an_empty_group(draw):
    """Binary data in 2-4 groups, one of which holds samples whose weights are all zero."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n = draw(st.integers(8, 50))
    k = draw(st.integers(2, 4))
    # two rows at least per group: fairlearn itself fails on a single row left ("Feature
    # array has too many dimensions")
    g = np.r_[np.arange(k), np.arange(k), rng.integers(0, k, n - 2 * k)]
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    p = np.where(rng.random(n) < 0.7, y, 1 - y)
    w = rng.random(n) * 2 + 0.01
    empty = int(rng.integers(0, k))
    w[g == empty] = 0.0
    return y, p, g, w, empty


@settings(max_examples=40, deadline=None)
@given(weighted_with_an_empty_group(), st.sampled_from(["between_groups", "to_overall"]))
def test_a_group_without_weight_is_left_out_of_every_disparity(case, method):
    y, p, g, w, empty = case
    keep = g != empty  # the oracle: fairlearn on the rows of the groups that carry weight
    ev = by_group(y, p, g, sample_weight=w)
    for name in NAMED:
        for agg in (["worst_case", "mean"] if "odds" in name else [None]):
            kw = {} if agg is None else {"agg": agg}
            ref = getattr(fairlearn_metrics, name)(
                y[keep], p[keep], sensitive_features=g[keep], method=method,
                sample_weight=w[keep], **kw)
            got = getattr(ev, name)(method, **kw)
            assert (math.isnan(ref) and math.isnan(got)) or abs(got - ref) <= 1e-12, \
                (name, agg, got, ref)
    mf = fairlearn_metrics.MetricFrame(
        metrics=skm.accuracy_score, y_true=y[keep], y_pred=p[keep], sensitive_features=g[keep],
        sample_params={"sample_weight": w[keep]})
    for kind in ("difference", "ratio"):
        got = getattr(ev, kind)("accuracy", method=method)
        ref = float(getattr(mf, kind)(method=method))
        # both undefined (a ratio of 0 / 0 among the groups left) or equal
        assert (math.isnan(ref) and math.isnan(got)) or abs(got - ref) <= 1e-12, (kind, got, ref)


def test_a_group_without_weight_does_not_stop_the_bootstrap():
    y = np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 0, 0])
    p = np.array([0, 1, 0, 0, 1, 1, 1, 0, 0, 1, 1, 0])
    g = np.array(["a"] * 4 + ["b"] * 4 + ["c"] * 4)
    w = np.r_[np.ones(4), np.zeros(4), np.full(4, 2.0)]
    ev = by_group(y, p, g, sample_weight=w)
    keep = g != "b"
    ref = fairlearn_metrics.demographic_parity_difference(
        y[keep], p[keep], sensitive_features=g[keep], sample_weight=w[keep])
    ci = ev.demographic_parity_difference(ci=True, n_resamples=300, random_state=1)
    assert abs(ci.estimate - ref) <= 1e-12
    assert ci.low <= ci.estimate <= ci.high
    d = ev.difference("accuracy", ci=True, n_resamples=300, random_state=1)
    assert d.low <= d.estimate <= d.high


def test_weights_a_bootstrap_cannot_draw_are_named_as_sample_weight():
    y, p, g = [0, 1, 1, 0, 1, 0], [0, 1, 0, 0, 1, 1], ["a", "a", "a", "b", "b", "b"]
    ev = by_group(y, p, g, sample_weight=[1e-3] * 3 + [1.0] * 3)
    with pytest.raises(ValueError, match=r"sample_weight of group 'a'.*rounds to no case"):
        ev.difference("accuracy", ci=True, n_resamples=200, random_state=0)


# ----------------------------------------------------------------------------- bootstrap
def test_resampled_stacks_are_drawn_one_chunk_at_a_time():
    stack = np.array([[[30, 10], [5, 55]], [[12, 3], [8, 20]], [[7, 7], [7, 7]]])
    n, budget = 60_000, 12_000  # 1,000 resamples per chunk: 60 chunks
    chunk_bytes = budget * 8
    tracemalloc.start()
    try:
        drawn = 0
        for chunk in resample_stack(stack, n, np.random.default_rng(0), budget=budget):
            # each resample keeps every group's size (counted by hand from the stack)
            assert (chunk.sum(axis=(2, 3)) == [100, 43, 28]).all()
            drawn += chunk.shape[0]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert drawn == n
    assert peak < 10 * chunk_bytes, peak  # all chunks at once would take 60 times one


def test_intervals_per_group_skip_a_group_without_weight():
    y = np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1])
    p = np.array([0, 1, 0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 1, 0, 0, 1])
    g = np.array(["a"] * 6 + ["b"] * 4 + ["c"] * 6)
    w = np.r_[np.ones(6), np.zeros(4), np.full(6, 2.0)]
    ev = by_group(y, p, g, sample_weight=w, pos_label=1)
    ci = ev.ci("f1", method="percentile", n_resamples=300, random_state=0)
    assert ci.method == "percentile"
    assert np.isnan([ci.low[1], ci.high[1], ci.estimate[1]]).all()
    for i, key in ((0, "a"), (2, "c")):
        m = g == key
        f1 = skm.f1_score(y[m], p[m], sample_weight=w[m])
        assert abs(ci.estimate[i] - f1) <= 1e-12
        assert ci.low[i] <= f1 <= ci.high[i]
    tiny = by_group(y, p, g, sample_weight=np.r_[np.ones(6), np.full(4, 1e-3), np.ones(6)],
                    pos_label=1)
    with pytest.raises(ValueError, match=r"sample_weight of group 'b'.*rounds to no case"):
        tiny.ci("f1", method="percentile", n_resamples=300, random_state=0)


def test_the_pair_behind_a_tie_is_two_groups():
    # accuracy 2/4 in both groups (by hand): the comparison is a against b, never a with itself
    y, p = [0, 1, 1, 0, 0, 1, 1, 0], [0, 1, 0, 1, 1, 1, 0, 0]
    g = ["a"] * 4 + ["b"] * 4
    assert [skm.accuracy_score(y[:4], p[:4]), skm.accuracy_score(y[4:], p[4:])] == [0.5, 0.5]
    ev = by_group(y, p, g)
    (ci,) = ev.pair_intervals("accuracy", n_resamples=500, random_state=0)
    assert ci.metric.endswith(("a vs b", "b vs a")), ci.metric
    assert ci.estimate == 0.0 and ci.low < 0 < ci.high


# ----------------------------------------------------------------------------- one class
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0, 1, -1]),
       st.sampled_from(["between_groups", "to_overall"]))
def test_data_of_one_class_keep_the_binary_measures(seed, only, method):
    """y_true and y_pred of one class (no sample selected, say): the rates of the positive
    class are defined (fairlearn gives them); the table gains the positive class, empty."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 30))
    g = rng.integers(0, 3, n)
    y = p = np.full(n, only)
    w = rng.random(n) + 0.1 if rng.random() < 0.5 else None
    ev = by_group(y, p, g, sample_weight=w)  # 1 is the positive class, as for fairlearn
    for name in NAMED:
        for agg in (["worst_case", "mean"] if "odds" in name else [None]):
            kw = {} if agg is None else {"agg": agg}
            ref = getattr(fairlearn_metrics, name)(y, p, sensitive_features=g, method=method,
                                                   sample_weight=w, **kw)
            got = getattr(ev, name)(method, **kw)
            assert (math.isnan(ref) and math.isnan(got)) or abs(got - ref) <= 1e-12, \
                (name, agg, got, ref)
    assert ev.pos_label == 1 and 1 in ev.labels


def test_data_of_one_class_take_the_given_positive_class():
    y = p = ["no"] * 6
    g = ["a", "a", "b", "b", "b", "c"]
    ev = by_group(y, p, g, pos_label="yes")
    assert ev.labels == ["no", "yes"]
    mf = fairlearn_metrics.MetricFrame(
        metrics={"sel": lambda a, b: fairlearn_metrics.selection_rate(a, b, pos_label="yes"),
                 "tpr": lambda a, b: fairlearn_metrics.true_positive_rate(a, b, pos_label="yes")},
        y_true=y, y_pred=p, sensitive_features=g)
    np.testing.assert_array_equal(ev.metric("selection_rate"), mf.by_group["sel"].to_numpy())
    np.testing.assert_array_equal(ev.metric("recall", zero_division=0),
                                  mf.by_group["tpr"].to_numpy())
    # two classes seen: a pos_label among neither is still a mistake, named
    with pytest.raises(ValueError, match="pos_label='yes' is not one of the labels"):
        by_group(["no", "maybe"], ["no", "no"], ["a", "b"], pos_label="yes")


@pytest.mark.parametrize("name", NAMED)
def test_the_named_measures_name_the_methods_they_take(name):
    y, p, g = [0, 1, 1, 0], [0, 1, 0, 1], ["a", "a", "b", "b"]
    with pytest.raises(ValueError, match="to_group"):  # fairlearn refuses it too
        getattr(fairlearn_metrics, name)(y, p, sensitive_features=g, method="to_group")
    match = r"method must be 'between_groups' or 'to_overall', got 'to_group'"
    with pytest.raises(ValueError, match=match):
        getattr(by_group(y, p, g), name)("to_group")
    import confmat.groups as cg
    with pytest.raises(ValueError, match=match):
        getattr(cg, name)(y, p, sensitive_features=g, method="to_group")


def test_a_series_is_named_as_the_same_column_of_a_dataframe():
    y, p, keys = [0, 1, 1, 0], [0, 1, 0, 0], ["x", "x", "y", "y"]
    for name in (5, "site", 2.5):
        frame = by_group(y, p, pd.DataFrame({name: keys}))
        series = by_group(y, p, pd.Series(keys, name=name))
        assert series.names == frame.names == [str(name)]
        assert series.to_frame(["accuracy"]).index.name == str(name)
    assert by_group(y, p, pd.Series(keys)).names == ["sensitive_feature_0"]


@pytest.mark.parametrize("keys", [
    np.array([2**64 - 1, 2**64 - 5, 2**64 - 1, 2**64 - 5, 2**63 + 1, 2**64 - 1], dtype=np.uint64),
    np.array([2**63 + 3, 2**63 + 1, 2**63 + 3, 2**63 + 1, 2**63 + 1, 2**63 + 3], dtype=np.uint64),
    np.array([-2**63, -2**63 + 7, -2**63, 2**63 - 1, -2**63 + 7, -2**63], dtype=np.int64),
    np.array([-128, 127, -128, 0, 127, 127], dtype=np.int8),
    np.array([0, 255, 0, 3, 255, 3], dtype=np.uint8),
])
def test_integer_keys_of_every_width_are_their_own_groups(keys):
    y = np.array([0, 1, 1, 0, 1, 0])
    p = np.array([0, 1, 0, 0, 0, 1])
    ev = by_group(y, p, keys)
    distinct = sorted({int(k) for k in keys.tolist()})
    assert ev.groups == distinct and all(type(k) is int for k in ev.groups)
    assert ev.sizes.tolist() == [int((keys == k).sum()) for k in distinct]
    ref = [skm.accuracy_score(y[keys == k], p[keys == k]) for k in distinct]
    assert ev.metric("accuracy").tolist() == ref


def test_scores_of_a_group_without_weight_are_undefined():
    y = np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 0, 0])
    s = np.array([.1, .8, .3, .4, .9, .2, .6, .7, .5, .35, .45, .15])
    g = np.array(["a"] * 4 + ["b"] * 4 + ["c"] * 4)
    w = np.r_[np.ones(4), np.zeros(4), np.full(4, 2.0)]
    ev = by_group(y, y, g, sample_weight=w, scores=s)
    with pytest.raises(ValueError, match="non-zero"):  # scikit-learn: no value for group b
        skm.average_precision_score(y[g == "b"], s[g == "b"], sample_weight=w[g == "b"])
    ref = {k: skm.average_precision_score(y[g == k], s[g == k], sample_weight=w[g == k])
           for k in ("a", "c")}
    ap = ev.metric("average_precision")
    assert np.isnan(ap[1]) and ap[[0, 2]].tolist() == [ref["a"], ref["c"]]
    assert abs(ev.difference("average_precision") - abs(ref["a"] - ref["c"])) <= 1e-12
    ci = ev.ci("average_precision", n_resamples=200, random_state=0)
    assert np.isnan([ci.low[1], ci.high[1]]).all() and not np.isnan(ci.low[[0, 2]]).any()
    d = ev.difference("average_precision", ci=True, n_resamples=200, random_state=0)
    assert d.low <= d.estimate <= d.high


@pytest.mark.parametrize("make", [list, np.array, pd.Series])
def test_a_boolean_feature_that_is_true_everywhere_is_one_group(make):
    y, p = np.array([0, 1, 1, 0]), np.array([0, 1, 0, 1])
    flag = make([True] * 4)
    mf = fairlearn_metrics.MetricFrame(metrics=skm.accuracy_score, y_true=y, y_pred=p,
                                       sensitive_features=pd.Series([True] * 4))
    ev = by_group(y, p, flag)
    assert ev.groups == [True] and ev.sizes.tolist() == [4]
    assert ev.metric("accuracy").tolist() == mf.by_group.tolist()
    ev2 = by_group(y, p, {"flag": flag, "site": ["a", "b", "b", "b"]})
    assert ev2.groups == [(True, "a"), (True, "b")] and ev2.sizes.tolist() == [1, 3]
    assert ev2.metric("accuracy").tolist() == [skm.accuracy_score(y[:1], p[:1]),
                                               skm.accuracy_score(y[1:], p[1:])]


@st.composite
def feature_columns(draw):
    """1-3 features of any key kind, constant columns and extreme integers included."""
    n = draw(st.integers(1, 40))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    pools = {
        "bool": np.array([False, True]), "int8": np.array([-128, 0, 127], dtype=np.int8),
        "uint64": np.array([0, 2**63, 2**64 - 1], dtype=np.uint64),
        "int64": np.array([-2**63, -1, 2**63 - 1]), "near": np.array([2**64 - 3, 2**64 - 2],
                                                                     dtype=np.uint64),
        "float": np.array([-0.5, 0.0, 2.5]), "str": np.array(["", "b", "ab"]),
    }
    feats = {}
    for j in range(draw(st.integers(1, 3))):
        pool = pools[draw(st.sampled_from(sorted(pools)))]
        k = draw(st.integers(1, len(pool)))  # k = 1: one key everywhere (True, 2**64 - 1...)
        chosen = pool[rng.permutation(len(pool))[:k]]
        feats[f"f{j}"] = chosen[rng.integers(0, k, n)]
    return feats, n


@settings(max_examples=150, deadline=None)
@given(feature_columns())
def test_groups_match_a_pandas_groupby(case):
    feats, n = case
    y = np.arange(n) % 2
    p = (np.arange(n) // 2) % 2
    groups = feats["f0"] if len(feats) == 1 else feats
    ev = by_group(y, p, groups)
    frame = pd.DataFrame({k: pd.Series(v, dtype=object) for k, v in feats.items()})
    frame["hit"] = y == p
    ref = frame.groupby(list(feats), sort=True)["hit"].agg(["size", "mean"])
    assert ev.groups == ref.index.tolist()
    assert ev.sizes.tolist() == ref["size"].tolist()
    np.testing.assert_array_equal(ev.metric("accuracy"), ref["mean"].to_numpy(dtype=float))


def test_a_stream_of_one_class_keeps_the_binary_measures():
    from confmat.accumulator import GroupedAccumulator

    y = p = np.zeros(9, dtype=int)
    g = np.array(["a", "b", "c"] * 3)
    acc = GroupedAccumulator()
    for sl in (slice(0, 4), slice(4, 9)):
        acc.update(y[sl], p[sl], g[sl])
    ev = acc.result()
    assert ev.labels == [0, 1]
    for name in NAMED:
        ref = getattr(fairlearn_metrics, name)(y, p, sensitive_features=g)
        got = getattr(ev, name)()
        assert (math.isnan(ref) and math.isnan(got)) or got == ref, name


def test_a_pos_label_outside_the_given_labels_names_labels():
    y, p, g = [0, 1, 2, 0], [0, 1, 1, 2], ["a", "a", "b", "b"]
    with pytest.raises(ValueError, match=r"pos_label=2 is not one of the labels in labels \[0, 1\]"):
        by_group(y, p, g, labels=[0, 1], pos_label=2)
    with pytest.raises(ValueError, match=r"pos_label=5 is not one of the labels in y_true and "
                                         r"y_pred \[0, 1, 2\]"):
        by_group(y, p, g, pos_label=5)


def test_counts_from_elsewhere_name_each_group_once():
    from confmat.counting.grouped import GroupedCounts
    from confmat.groups.api import evaluation_from_counts

    stack = np.array([[[2, 0], [1, 1]], [[1, 1], [0, 2]]])
    gc = GroupedCounts(stack, [0, 1], False, stack.sum(axis=(1, 2)))
    with pytest.raises(ValueError, match=r"groups: the key 'A' names tables 0 and 1"):
        evaluation_from_counts(gc, ["A", "A"], ["site"])
    with pytest.raises(ValueError, match=r"names tables 0 and 1"):
        evaluation_from_counts(gc, [("A", 1), ["A", 1]], ["site", "age"])
    ev = evaluation_from_counts(gc, ["A", "B"], ["site"], pos_label=1)
    # recall by hand: group A 1 / (1 + 1), group B 2 / (0 + 2)
    assert ev.metric("recall").tolist() == [0.5, 1.0]


def test_every_lookup_words_an_unknown_metric_alike():
    ev = by_group([0, 1, 1, 0], [0, 1, 0, 1], ["a", "a", "b", "b"], pos_label=1)
    for call in (ev.metric, ev.overall_metric, ev.ci):
        with pytest.raises(ValueError, match=r"unknown metric 'recal'; did you mean 'recall'"):
            call("recal")
    assert ev.overall_metric("selection_rate") == 0.5  # fairlearn's name: 2 of 4 predicted 1
    assert ev.ci("selection_rate").estimate.tolist() == [0.5, 0.5]
