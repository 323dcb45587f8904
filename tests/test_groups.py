"""Evaluation by group against fairlearn (MetricFrame and its disparity functions), scikit-learn
(per-group confusion matrices), statsmodels (Wilson intervals) and DeLong's variance worked by
hand from its placement values (DeLong et al. 1988)."""

from __future__ import annotations

import math
import warnings
from functools import partial

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

fairlearn_metrics = pytest.importorskip("fairlearn.metrics")
pd = pytest.importorskip("pandas")

from confmat.counting.grouped import grouped_counts  # noqa: E402
from confmat.groups import GroupedEvaluation, by_group  # noqa: E402
from confmat.groups.disparity import resample_stack  # noqa: E402
from confmat.inputs.grouping import encode_groups  # noqa: E402

MetricFrame = fairlearn_metrics.MetricFrame
TOL = 1e-12
DISPARITY_FUNCS = [
    "demographic_parity_difference", "demographic_parity_ratio",
    "equalized_odds_difference", "equalized_odds_ratio",
    "equal_opportunity_difference", "equal_opportunity_ratio",
]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


# ----------------------------------------------------------------------------- data
@st.composite
def binary_case(draw, n_features=None, strings=None, weighted=None, string_labels=None):
    n = draw(st.integers(4, 60))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n_features = draw(st.sampled_from([1, 2])) if n_features is None else n_features
    strings = draw(st.booleans()) if strings is None else strings
    feats = {}
    for j in range(n_features):
        k = draw(st.integers(1, 3))
        codes = rng.integers(0, k, n)
        feats[f"f{j}"] = (np.array(["north", "south", "east", "west"])[codes] if strings
                          else codes * 7 - 3)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]  # both classes occur (a pos_label must be one of the labels)
    p = np.where(rng.random(n) < draw(st.floats(0.5, 0.95)), y, 1 - y)
    s = np.round(np.where(y == 1, rng.random(n) + 0.3, rng.random(n)), 1)  # ties
    weighted = draw(st.booleans()) if weighted is None else weighted
    w = rng.random(n) * 3 + 0.01 if weighted else None
    string_labels = draw(st.booleans()) if string_labels is None else string_labels
    if string_labels:
        names = np.array(["benign", "malign"])
        y, p = names[y], names[p]
    return y, p, s, feats, w


def as_groups(feats):
    return feats["f0"] if len(feats) == 1 else feats


def pos_of(y):
    return "malign" if y.dtype.kind in "UO" else 1


def oracle_metrics(pos):
    return {
        "recall": partial(skm.recall_score, pos_label=pos, zero_division=0),
        "precision": partial(skm.precision_score, pos_label=pos, zero_division=0),
        "accuracy": skm.accuracy_score,
        "selection_rate": partial(fairlearn_metrics.selection_rate, pos_label=pos),
        "fpr": partial(fairlearn_metrics.false_positive_rate, pos_label=pos),
        "balanced_accuracy": skm.balanced_accuracy_score,
        "f1": partial(skm.f1_score, pos_label=pos, zero_division=0),
    }


def frame_at(mf_frame, ev):
    """fairlearn's by_group rows at confmat's groups (fairlearn also lists unseen
    intersections, as NaN rows)."""
    keys = ev.groups
    return mf_frame.loc[keys] if len(ev.names) == 1 else mf_frame.loc[pd.MultiIndex.from_tuples(keys)]


def sample_params(w, names):
    return None if w is None else {m: {"sample_weight": w} for m in names}


# ----------------------------------------------------------------------------- MetricFrame
@settings(max_examples=25, deadline=None)
@given(binary_case())
def test_metrics_match_metricframe(case):
    y, p, _, feats, w = case
    pos = pos_of(y)
    funcs = oracle_metrics(pos)
    mf = MetricFrame(metrics=funcs, y_true=y, y_pred=p, sensitive_features=as_groups(feats),
                     sample_params=sample_params(w, funcs))
    ev = by_group(y, p, as_groups(feats), sample_weight=w, pos_label=pos)
    ref = frame_at(mf.by_group, ev)
    for name in funcs:
        got = ev.metric(name, zero_division=0)
        np.testing.assert_allclose(got, ref[name].to_numpy(dtype=float), rtol=0, atol=TOL,
                                   err_msg=name)
        overall = ev.overall_metric(name, zero_division=0)
        assert abs(overall - float(mf.overall[name])) <= TOL, name


@settings(max_examples=25, deadline=None)
@given(binary_case(string_labels=False))
def test_roc_auc_matches_metricframe(case):
    y, _, s, feats, w = case

    def auc(yt, ys, sample_weight=None):
        if np.unique(yt).size < 2:
            return np.nan
        return skm.roc_auc_score(yt, ys, sample_weight=sample_weight)

    def ap(yt, ys, sample_weight=None):
        return skm.average_precision_score(yt, ys, sample_weight=sample_weight)

    funcs = {"roc_auc": auc, "average_precision": ap}
    mf = MetricFrame(metrics=funcs, y_true=y, y_pred=s, sensitive_features=as_groups(feats),
                     sample_params=sample_params(w, funcs))
    ev = by_group(y, y, as_groups(feats), scores=s, sample_weight=w)
    ref = frame_at(mf.by_group, ev)
    for name in funcs:
        np.testing.assert_allclose(ev.metric(name), ref[name].to_numpy(dtype=float), rtol=0,
                                   atol=TOL, err_msg=name)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_multiclass_averages_match_metricframe(seed, weighted):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(10, 80))
    y = rng.choice(["bus", "opel", "saab", "van"], n)
    p = np.where(rng.random(n) < 0.6, y, rng.choice(["bus", "opel", "saab", "van"], n))
    g = rng.integers(0, 3, n)
    w = rng.random(n) if weighted else None
    book = sorted(set(y) | set(p))  # every group is evaluated on the same classes
    funcs = {f"{m}_{a}": partial(getattr(skm, f"{m}_score"), average=a, zero_division=0,
                                 labels=book)
             for m in ("recall", "precision", "f1") for a in ("macro", "weighted", "micro")}
    funcs["accuracy"] = skm.accuracy_score
    mf = MetricFrame(metrics=funcs, y_true=y, y_pred=p, sensitive_features=g,
                     sample_params=sample_params(w, funcs))
    ev = by_group(y, p, g, sample_weight=w)
    ref = frame_at(mf.by_group, ev)
    for name in funcs:
        metric, _, average = name.partition("_")
        got = ev.metric(metric, average or None, zero_division=0)
        np.testing.assert_allclose(got, ref[name].to_numpy(dtype=float), rtol=0, atol=TOL,
                                   err_msg=name)


# ----------------------------------------------------------------------------- disparities
@settings(max_examples=20, deadline=None)
@given(binary_case(), st.sampled_from(["between_groups", "to_overall"]))
def test_disparity_functions_match_fairlearn(case, method):
    y, p, _, feats, w = case
    pos = pos_of(y)
    if pos != 1:  # fairlearn's rate functions take pos_label only through MetricFrame
        y, p = (y == pos).astype(int), (p == pos).astype(int)
    ev = by_group(y, p, as_groups(feats), sample_weight=w)
    for name in DISPARITY_FUNCS:
        aggs = ["worst_case", "mean"] if "odds" in name else [None]
        for agg in aggs:
            kw = {} if agg is None else {"agg": agg}
            ref = getattr(fairlearn_metrics, name)(
                y, p, sensitive_features=as_groups(feats), method=method, sample_weight=w, **kw)
            got = getattr(ev, name)(method, **kw)
            assert (math.isnan(ref) and math.isnan(got)) or abs(got - ref) <= TOL, (name, agg)


@settings(max_examples=15, deadline=None)
@given(binary_case(string_labels=False), st.sampled_from(["difference", "ratio"]))
def test_generic_disparities_match_metricframe(case, kind):
    y, p, _, feats, w = case
    funcs = oracle_metrics(1)
    mf = MetricFrame(metrics=funcs, y_true=y, y_pred=p, sensitive_features=as_groups(feats),
                     sample_params=sample_params(w, funcs))
    ev = by_group(y, p, as_groups(feats), sample_weight=w, pos_label=1)
    for method in ("between_groups", "to_overall"):
        ref = getattr(mf, kind)(method=method)
        for name in funcs:
            got = getattr(ev, kind)(name, method=method, zero_division=0)
            r = float(ref[name])
            assert (math.isnan(r) and math.isnan(got)) or abs(got - r) <= TOL, (name, method)


@settings(max_examples=30, deadline=None)
@given(binary_case(n_features=1, string_labels=False))
def test_to_group_against_the_reference_by_hand(case):
    y, p, _, feats, w = case
    ev = by_group(y, p, feats["f0"], sample_weight=w, pos_label=1)
    ref_key = ev.groups[-1]
    m = feats["f0"] == ref_key
    values = {g: skm.accuracy_score(y[feats["f0"] == g], p[feats["f0"] == g],
                                    sample_weight=None if w is None else w[feats["f0"] == g])
              for g in ev.groups}
    r = skm.accuracy_score(y[m], p[m], sample_weight=None if w is None else w[m])
    diff = max(abs(v - r) for v in values.values())
    assert abs(ev.difference("accuracy", method="to_group", reference=ref_key) - diff) <= TOL
    ratios = [v / r if v / r <= 1 else r / v for v in values.values() if r > 0 and v > 0]
    if r > 0 and all(v > 0 for v in values.values()):
        got = ev.ratio("accuracy", method="to_group", reference=ref_key)
        assert abs(got - min(ratios)) <= TOL


# ----------------------------------------------------------------------------- counting
@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["int", "neg", "str", "bool", "float", "u64"]),
       st.booleans(), st.booleans(), st.booleans())
def test_stack_matches_a_count_by_hand(seed, kind, weighted, numba, subset):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 120))
    pools = {"int": [0, 1, 2, 5], "neg": [-40, -3, 7], "str": ["a", "b", "zz"],
             "bool": [False, True], "float": [0.5, 2.0, 3.0],
             "u64": [np.uint64(2**64 - 1), np.uint64(2**64 - 5), np.uint64(3)]}
    pool = np.array(pools[kind])
    t, p = pool[rng.integers(0, len(pool), n)], pool[rng.integers(0, len(pool), n)]
    g = rng.integers(0, 4, n)
    w = rng.random(n) if weighted else None
    labels = None
    seen = sorted(set(t.tolist()) | set(p.tolist()))
    if subset and len(seen) > 1:
        labels = [seen[-1], seen[0]]
        if not set(labels) & set(t.tolist()):
            labels = None
    codes = encode_groups(g, n)
    gc = grouped_counts(codes.codes, codes.n_groups, t, p, labels=labels, sample_weight=w,
                        use_numba=numba)
    book = seen if labels is None else labels
    assert gc.labels == book
    k = len(book)
    index = {v: i for i, v in enumerate(book)}
    ref = np.zeros((codes.n_groups, k + 1, k + 1))  # counted by hand; the last row: outside
    for key, a, b, ww in zip(g.tolist(), t.tolist(), p.tolist(),
                             np.ones(n) if w is None else w, strict=True):
        ref[codes.keys.index(key), index.get(a, k), index.get(b, k)] += ww
    m = k + 1 if gc.has_other else k
    assert gc.has_other == bool(ref[:, k, :].any() or ref[:, :, k].any())
    np.testing.assert_allclose(gc.stack, ref[:, :m, :m], rtol=0, atol=1e-12)
    assert gc.sizes.tolist() == [int((g == key).sum()) for key in codes.keys]
    assert gc.stack.dtype.kind == ("f" if weighted else "i")


def test_groups_from_dataframes_dicts_lists_and_2d_arrays_agree():
    rng = np.random.default_rng(3)
    n = 50
    a, b = rng.choice(["x", "y"], n), rng.integers(0, 3, n)
    y, p = rng.integers(0, 2, n), rng.integers(0, 2, n)
    ref = by_group(y, p, {"a": a, "b": b})
    for groups in (pd.DataFrame({"a": a, "b": b}), [a, b], (list(a), list(b))):
        ev = by_group(y, p, groups)
        assert ev.groups == ref.groups
        np.testing.assert_array_equal(ev.stack, ref.stack)
    assert ref.names == ["a", "b"]
    assert by_group(y, p, np.column_stack([b, b * 2])).groups == [(v, 2 * v) for v in range(3)]
    pl = pytest.importorskip("polars")
    ev = by_group(y, p, pl.DataFrame({"a": a, "b": b}))
    assert ev.groups == ref.groups and np.array_equal(ev.stack, ref.stack)
    one = by_group(y, p, pd.Series(a, name="site"))
    assert one.names == ["site"] and one.groups == ["x", "y"]


def test_overall_and_matrices_are_the_sums():
    rng = np.random.default_rng(5)
    n = 200
    y, p, g = rng.integers(0, 3, n), rng.integers(0, 3, n), rng.choice(["u", "v", "w"], n)
    ev = by_group(y, p, g)
    np.testing.assert_array_equal(ev.overall.counts, skm.confusion_matrix(y, p))
    for key, cm in ev.matrices.items():
        np.testing.assert_array_equal(cm.counts, skm.confusion_matrix(y[g == key], p[g == key],
                                                                      labels=[0, 1, 2]))


def test_small_groups_are_flagged_never_dropped():
    y = [0, 1] * 20 + [1, 0, 1]
    g = ["big"] * 40 + ["tiny"] * 3
    ev = by_group(y, y, g, min_support=10)
    frame = ev.to_frame(["accuracy"])
    assert frame.index.tolist() == ["big", "tiny"]
    assert frame["size"].tolist() == [40, 3]
    assert frame["small"].tolist() == [False, True]
    assert frame["accuracy"].tolist() == [1.0, 1.0]


# ----------------------------------------------------------------------------- intervals
@settings(max_examples=20, deadline=None)
@given(binary_case(n_features=1, weighted=False, string_labels=False))
def test_wilson_per_group_matches_statsmodels(case):
    from statsmodels.stats.proportion import proportion_confint

    y, p, _, feats, _ = case
    g = feats["f0"]
    ev = by_group(y, p, g, pos_label=1)
    ci = ev.ci("accuracy")
    rec = ev.ci("recall")
    assert ci.method == "wilson" and rec.method == "wilson"
    for i, key in enumerate(ev.groups):
        m = g == key
        lo, hi = proportion_confint(int((y[m] == p[m]).sum()), int(m.sum()), method="wilson")
        assert abs(ci.low[i] - lo) <= 1e-12 and abs(ci.high[i] - hi) <= 1e-12
        npos = int((y[m] == 1).sum())
        if npos:
            lo, hi = proportion_confint(int(((y[m] == 1) & (p[m] == 1)).sum()), npos,
                                        method="wilson")
            assert abs(rec.low[i] - lo) <= 1e-12 and abs(rec.high[i] - hi) <= 1e-12


def _delong_by_hand(pos, score, level):
    x, yv = score[pos], score[~pos]
    psi = (x[:, None] > yv[None, :]) + 0.5 * (x[:, None] == yv[None, :])
    auc = psi.mean()
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    var = v10.var(ddof=1) / x.size + v01.var(ddof=1) / yv.size
    from scipy.stats import norm

    half = norm.ppf(0.5 + level / 2) * math.sqrt(var)
    return auc, max(0.0, auc - half), min(1.0, auc + half)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_delong_per_group_by_hand(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 90))
    g = rng.permutation(np.arange(n) % 3)
    y = rng.integers(0, 2, n)
    for key in range(3):  # at least two samples of each class in every group
        idx = np.flatnonzero(g == key)
        y[idx[:4]] = [0, 0, 1, 1]
    s = np.round(rng.random(n) + 0.4 * y, 2)
    ev = by_group(y, y, g, scores=s)
    ci = ev.ci("roc_auc", level=0.9)
    assert ci.method == "delong"
    for i, key in enumerate(ev.groups):
        m = g == key
        pos = y[m] == 1
        auc, lo, hi = _delong_by_hand(pos, s[m], 0.9)
        assert abs(ci.estimate[i] - auc) <= 1e-12
        assert abs(ci.low[i] - lo) <= 1e-9 and abs(ci.high[i] - hi) <= 1e-9


def test_resampling_keeps_every_group_size():
    stack = np.array([[[5, 2], [1, 9]], [[1, 0], [0, 2]], [[40, 3], [7, 11]]])
    chunks = list(resample_stack(stack, 300, np.random.default_rng(0), budget=200))
    assert sum(c.shape[0] for c in chunks) == 300 and len(chunks) > 1
    for c in chunks:
        assert (c.sum(axis=(2, 3)) == stack.sum(axis=(1, 2))).all()


def test_disparity_interval_is_seeded_and_holds_the_estimate():
    rng = np.random.default_rng(11)
    n = 400
    y, g = rng.integers(0, 2, n), rng.choice(["a", "b", "c"], n)
    p = np.where(rng.random(n) < np.where(g == "a", 0.9, 0.7), y, 1 - y)
    ev = by_group(y, p, g)
    a = ev.equalized_odds_difference(ci=True, random_state=3, n_resamples=500)
    b = ev.equalized_odds_difference(ci=True, random_state=3, n_resamples=500)
    assert (a.low, a.high) == (b.low, b.high)
    assert a.estimate == ev.equalized_odds_difference()
    assert a.low <= a.estimate <= a.high and a.method == "percentile"
    d = ev.difference("accuracy", ci=True, random_state=0, n_resamples=500)
    assert d.low < d.estimate < d.high


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize("groups, match", [
    (["a", "b"], "groups has 2 entries but y_true and y_pred have 3"),
    ({"sex": ["f", "m", "f"], "age": [1, 2]}, r"groups\['age'\] has 2 entries"),
    # a group key is not a class label: the messages say what the value is
    (["a", None, "b"], "groups contains a missing group key .*group keys must be defined"),
    ([1.0, float("nan"), 2.0], "groups contains a missing group key"),
    (np.array([1.0, np.nan, 2.0]), "groups contains NaN at position 1; group keys must be"),
    (np.array(["a", None] + ["b"] * 5000, dtype=object),
     r"groups contains a missing group key \(None or NaN\) at position 1"),
    ({}, "groups is an empty dict"),
])
def test_bad_groups_are_named(groups, match):
    n = 3 if len(groups) < 10 else len(groups)
    with pytest.raises(ValueError, match=match):
        by_group(([0, 1, 1] * n)[:n], ([0, 1, 0] * n)[:n], groups)


def test_groups_of_mixed_kinds_are_named_as_group_keys():
    with pytest.raises(TypeError, match=r"groups\['age'\] mixes group key types .*"
                                        r"\['number', 'string'\]"):
        by_group([0, 1, 1], [0, 1, 0], {"sex": ["f", "m", "f"], "age": [1, "2", 3]})


def test_bad_arguments_are_named():
    y, p, g = [0, 1, 1, 0], [0, 1, 0, 0], ["a", "a", "b", "b"]
    with pytest.raises(TypeError, match="groups must be an array-like"):
        by_group(y, p, None)
    with pytest.raises(TypeError, match="single string"):
        by_group(y, p, "abab")
    with pytest.raises(ValueError, match="y_true and scores have different lengths"):
        by_group(y, p, g, scores=[0.1, 0.2])
    with pytest.raises(ValueError, match="sample_weight has 3 entries"):
        by_group(y, p, g, sample_weight=[1, 1, 1])
    with pytest.raises(ValueError, match="pos_label=7 is not one of the labels"):
        by_group(y, p, g, pos_label=7)
    with pytest.raises(ValueError, match="pos_label is not specified"):
        by_group(["u", "v", "v", "u"], ["u", "v", "u", "u"], g).demographic_parity_difference()
    with pytest.raises(ValueError, match="min_support must be non-negative"):
        by_group(y, p, g, min_support=-1)
    ev = by_group(y, p, g)
    assert isinstance(ev, GroupedEvaluation)
    with pytest.raises(ValueError, match="method must be one of"):
        ev.difference("accuracy", method="pairwise")
    with pytest.raises(ValueError, match="needs reference="):
        ev.difference("accuracy", method="to_group")
    with pytest.raises(ValueError, match="reference 'z' is not one of the groups"):
        ev.ratio("accuracy", method="to_group", reference="z")
    with pytest.raises(ValueError, match="per-class metric: give pos_label"):
        ev.difference("recall")
    with pytest.raises(ValueError, match="need scores"):
        ev.metric("roc_auc")
    with pytest.raises(ValueError, match="agg must be one of"):
        ev.equalized_odds_ratio(agg="max")
    with pytest.raises(ValueError, match="pos_label applies to per-class metrics"):
        ev.metric("accuracy", pos_label=1)
