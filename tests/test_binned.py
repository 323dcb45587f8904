"""ScoreHistogram: the binned, mergeable form.

Oracles: scikit-learn on the scores rounded down to their bin's lower edge (computed here with
``np.searchsorted``, independently of the histogram code), scikit-learn's exact AUC for the
error bound, and ConfusionMatrix.from_predictions at bin edges.
"""

from __future__ import annotations

import json
import warnings
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from sklearn import metrics as skm
from sklearn.preprocessing import label_binarize

import confmat
from confmat.binned import ScoreHistogram
from confmat.binned import binning as binned_binning


def quantize(s, bins, lo=0.0, hi=1.0):
    """Round each score down to its bin's lower edge, edges lo + (hi - lo) * j / bins."""
    edges = lo + (hi - lo) * (np.arange(bins + 1) / bins)
    j = np.searchsorted(edges, s, side="right") - 1
    return edges[np.clip(j, 0, bins - 1)]


@st.composite
def binary_data(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(2, 120))
    bins = draw(st.sampled_from([1, 2, 3, 7, 10, 100, 10_000]))
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[0], y[1] = 0, 1
    s = np.clip(rng.normal(0.4 + 0.2 * y, 0.25), 0, 1)
    if draw(st.booleans()):
        s = np.round(s, 1)  # many scores exactly on bin edges
    w = rng.random(n) * 2 if draw(st.booleans()) else None
    return y, s, w, bins


@settings(max_examples=40, deadline=None)
@given(binary_data())
def test_binned_equals_sklearn_on_quantized_scores(data):
    y, s, w, bins = data
    h = ScoreHistogram(bins=bins).update(y, s, sample_weight=w)
    q = quantize(s, bins)
    assert abs(h.roc_auc() - skm.roc_auc_score(y, q, sample_weight=w)) <= 1e-12
    assert abs(h.roc_auc(max_fpr=0.3) - skm.roc_auc_score(y, q, sample_weight=w, max_fpr=0.3)) <= 1e-12
    for g, e in zip(h.roc_curve(), skm.roc_curve(y, q, sample_weight=w), strict=True):
        assert_allclose(g, e, rtol=1e-12, atol=1e-14)
    for g, e in zip(h.precision_recall_curve(), skm.precision_recall_curve(y, q, sample_weight=w),
                    strict=True):
        assert_allclose(g, e, rtol=1e-12, atol=1e-14)
    assert abs(h.average_precision() - skm.average_precision_score(y, q, sample_weight=w)) <= 1e-12


@settings(max_examples=50, deadline=None)
@given(binary_data())
def test_binned_auc_within_stated_bound_of_exact(data):
    y, s, w, bins = data
    h = ScoreHistogram(bins=bins).update(y, s, sample_weight=w)
    exact = skm.roc_auc_score(y, s, sample_weight=w)
    bound = h.auc_error_bound()
    assert abs(exact - h.roc_auc()) <= bound + 1e-12
    # the bound is the share of same-bin positive/negative pairs, computed here by brute force
    q = quantize(s, bins)
    ww = np.ones_like(s) if w is None else w
    pos, neg = y == 1, y == 0
    same = (q[pos][:, None] == q[neg][None, :]) * ww[pos][:, None] * ww[neg][None, :]
    assert bound == pytest.approx(0.5 * same.sum() / (ww[pos].sum() * ww[neg].sum()), abs=1e-12)


def test_bound_is_tight_and_default_bins_are_accurate():
    # all positives just above all negatives inside one bin: exact AUC 1, binned 0.5
    h = ScoreHistogram(bins=10).update([0, 0, 1, 1], [0.51, 0.52, 0.53, 0.54])
    assert h.roc_auc() == 0.5 and h.auc_error_bound() == 0.5
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 50_000)
    s = 1 / (1 + np.exp(-rng.normal(1.2 * y - 0.6, 1.0, y.shape)))
    h = ScoreHistogram().update(y, s)
    exact = skm.roc_auc_score(y, s)
    assert h.auc_error_bound() < 1e-4  # about 1 / (2 * 10_000) for spread scores
    assert abs(h.roc_auc() - exact) <= h.auc_error_bound()


def test_chunks_merge_and_sum_equal_one_update():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 5000)
    s = rng.random(5000)
    w = rng.random(5000)
    whole = ScoreHistogram(bins=500).update(y, s)
    parts = [ScoreHistogram(bins=500).update(y[i:i + 700], s[i:i + 700]) for i in range(0, 5000, 700)]
    assert sum(parts) == whole
    assert parts[0].merge(*parts[1:]) == whole
    assert parts[0] + parts[1] == ScoreHistogram(bins=500).update(y[:1400], s[:1400])
    chained = ScoreHistogram(bins=500)
    for i in range(0, 5000, 1000):
        chained.update(y[i:i + 1000], s[i:i + 1000])
    assert chained == whole
    assert whole.counts.dtype == np.int64 and whole.n == 5000
    weighted = ScoreHistogram(bins=500).update(y, s, sample_weight=w)
    wparts = sum(ScoreHistogram(bins=500).update(y[i:i + 1000], s[i:i + 1000],
                                                 sample_weight=w[i:i + 1000])
                 for i in range(0, 5000, 1000))
    assert_allclose(wparts.counts, weighted.counts, rtol=1e-12)
    assert weighted.is_weighted
    mixed = parts[0] + ScoreHistogram(bins=500).update(y[:10], s[:10], sample_weight=w[:10])
    assert mixed.is_weighted
    with pytest.raises(ValueError, match="different labels, bins or score_range"):
        whole + ScoreHistogram(bins=10)
    with pytest.raises(TypeError, match="cannot merge ScoreHistogram and int"):
        whole.merge(3)


def test_numba_and_numpy_paths_agree(monkeypatch):
    rng = np.random.default_rng(2)
    y = rng.integers(0, 3, 3000)
    p = rng.dirichlet(np.ones(3), 3000)
    p[:50] = np.round(p[:50], 1)
    p[:50] /= p[:50].sum(1, keepdims=True)
    p[50] = [0.0, 0.0, 1.0]
    w = rng.random(3000)
    monkeypatch.setattr(binned_binning, "NUMBA_MIN_SIZE", 0)
    a = ScoreHistogram([0, 1, 2], bins=97).update(y, p)
    aw = ScoreHistogram([0, 1, 2], bins=97).update(y, p, sample_weight=w)
    monkeypatch.setattr(binned_binning, "NUMBA_MIN_SIZE", 1 << 60)
    b = ScoreHistogram([0, 1, 2], bins=97).update(y, p)
    bw = ScoreHistogram([0, 1, 2], bins=97).update(y, p, sample_weight=w)
    assert a == b
    assert_allclose(aw.counts, bw.counts, rtol=1e-12)
    # both agree with searchsorted-based binning done here
    edges = np.arange(98) / 97
    j = np.clip(np.searchsorted(edges, p[:, 1], side="right") - 1, 0, 96)
    assert_array_equal(a.counts[:, 1, :].sum(0), np.bincount(j, minlength=97))


def test_json_round_trip_and_versioning():
    rng = np.random.default_rng(3)
    h = ScoreHistogram(["cat", "dog", "emu"], bins=50, score_range=(0, 1))
    h.update(rng.choice(["cat", "dog", "emu"], 300), rng.dirichlet(np.ones(3), 300))
    text = json.dumps(h.to_dict())
    back = ScoreHistogram.from_dict(json.loads(text))
    assert back == h and back.labels == ["cat", "dog", "emu"]
    assert ScoreHistogram.from_json(h.to_json()) == h
    hw = ScoreHistogram(bins=20).update([0, 1], [0.2, 0.7], sample_weight=[0.5, 2.5])
    assert ScoreHistogram.from_dict(hw.to_dict()) == hw
    d = h.to_dict()
    assert d["schema"] == "confmat.score_histogram" and d["version"] == 1
    with pytest.raises(ValueError, match="unsupported schema version 3"):
        ScoreHistogram.from_dict({**d, "version": 3})
    with pytest.raises(ValueError, match="not a confmat score histogram"):
        ScoreHistogram.from_dict({**d, "schema": "other"})
    with pytest.raises(ValueError, match="missing the 'index' field"):
        ScoreHistogram.from_dict({k: v for k, v in d.items() if k != "index"})
    with pytest.raises(ValueError, match="non-negative"):
        ScoreHistogram.from_dict({**d, "values": [-1.0] * len(d["values"])})
    with pytest.raises(ValueError, match="shape"):
        ScoreHistogram.from_dict({**d, "shape": [1, 2, 3]})
    with pytest.raises(TypeError, match="data must be a mapping"):
        ScoreHistogram.from_dict("{}")


def test_sweep_at_edges_is_exact():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 2000)
    s = np.round(rng.random(2000), 3)
    h = ScoreHistogram().update(y, s)
    th = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]  # Kneusel (2021)'s table: all bin edges
    sweep = h.threshold_sweep(thresholds=th)
    exact = confmat.threshold_sweep(y, s, thresholds=th)
    assert_array_equal(sweep.tables, exact.tables)
    for t in th:
        cm = confmat.ConfusionMatrix.from_predictions(y, (s >= t).astype(int), labels=[0, 1])
        assert_array_equal(sweep.at(t).counts, cm.counts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_allclose(sweep.metric("mcc"), exact.metric("mcc"), rtol=1e-12)
    default = h.threshold_sweep()
    assert_array_equal(default.thresholds, np.unique(quantize(s, 10_000))[::-1])
    assert sweep.at(1.5).counts.tolist() == [[np.sum(y == 0), 0], [np.sum(y == 1), 0]]
    with pytest.raises(ValueError, match="not a bin edge"):
        h.threshold_sweep(thresholds=[0.12345])
    with pytest.raises(ValueError, match="not a bin edge"):
        sweep.at(1.0)  # the top edge closes the last bin: scores equal to 1.0 are not separable


def _probabilities(seed, n, k):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    logits = rng.normal(size=(n, k)) + 1.5 * np.eye(k)[y]
    p = np.exp(logits)
    return y, p / p.sum(1, keepdims=True), rng.random(n)


@pytest.mark.parametrize("seed", range(5))
def test_multiclass_histogram_against_sklearn_on_quantized(seed):
    k = 3 + seed % 3
    bins = [5, 50, 1000][seed % 3]
    y, p, w = _probabilities(seed, 400, k)
    weight = w if seed % 2 else None
    h = ScoreHistogram(list(range(k)), bins=bins).update(y, p, sample_weight=weight)
    q = quantize(p, bins)
    per_class = np.array([skm.roc_auc_score(y == c, q[:, c], sample_weight=weight)
                          for c in range(k)])
    assert_allclose(h.roc_auc(average=None), per_class, atol=1e-12)
    assert h.roc_auc() == pytest.approx(per_class.mean(), abs=1e-12)
    ind = label_binarize(y, classes=list(range(k)))
    support = (ind * (1 if weight is None else weight[:, None])).sum(0)
    assert h.roc_auc(average="weighted") == pytest.approx(np.average(per_class, weights=support),
                                                          abs=1e-12)
    sw = None if weight is None else np.repeat(weight, k)
    assert h.roc_auc(average="micro") == pytest.approx(
        skm.roc_auc_score(ind.ravel(), q.ravel(), sample_weight=sw), abs=1e-12)
    assert h.roc_auc(pos_label=1) == pytest.approx(per_class[1], abs=1e-12)
    ap = [skm.average_precision_score(y == c, q[:, c], sample_weight=weight) for c in range(k)]
    assert h.average_precision() == pytest.approx(np.mean(ap), abs=1e-12)
    assert h.average_precision(average="micro") == pytest.approx(
        skm.average_precision_score(ind.ravel(), q.ravel(), sample_weight=sw), abs=1e-12)
    if weight is None:
        pairs, prev = [], []
        for a, b in combinations(range(k), 2):
            m = (y == a) | (y == b)
            pairs.append((skm.roc_auc_score(y[m] == a, q[m, a]) +
                          skm.roc_auc_score(y[m] == b, q[m, b])) / 2)
            prev.append(m.mean())
        assert h.roc_auc(multi_class="ovo") == pytest.approx(np.mean(pairs), abs=1e-12)
        assert h.roc_auc(multi_class="ovo", average="weighted") == pytest.approx(
            np.average(pairs, weights=prev), abs=1e-12)
        exact = skm.roc_auc_score(y, p, multi_class="ovr")
        assert abs(h.roc_auc() - exact) <= h.auc_error_bound() + 1e-12
    else:
        with pytest.raises(ValueError, match="not supported for multi_class='ovo'"):
            h.roc_auc(multi_class="ovo")
    sweep = h.threshold_sweep(pos_label=2, thresholds=[0.6, 0.2])
    for i, t in enumerate([0.6, 0.2]):
        cm = confmat.ConfusionMatrix.from_predictions(
            (y == 2).astype(int), (p[:, 2] >= t).astype(int), labels=[0, 1], sample_weight=weight)
        assert_allclose(sweep.tables[i], cm.counts, rtol=1e-12)


def test_binary_histogram_inputs():
    h = ScoreHistogram(["neg", "pos"], bins=10)
    h.update(np.array(["neg", "pos", "pos"]), np.array([[0.9, 0.1], [0.2, 0.8], [0.4, 0.6]]))
    assert h.counts[:, 0, :].sum(axis=1).tolist() == [1, 2]
    assert h.roc_auc() == 1.0
    assert h.roc_auc(pos_label="pos") == 1.0
    hb = ScoreHistogram(bins=4).update(np.array([True, False]), [0.9, 0.1])
    assert hb.roc_auc() == 1.0
    h2 = ScoreHistogram(bins=10, score_range=(-5, 5)).update([0, 1], [-4.5, 5.0])
    assert h2.counts[1, 0, 9] == 1 and h2.counts[0, 0, 0] == 1
    assert "ScoreHistogram(labels=[0, 1]" in repr(h2)


def test_histogram_bad_input():
    h = ScoreHistogram(bins=10)
    with pytest.raises(ValueError, match=r"y_score has a score 1.5 outside score_range=\(0.0, 1.0\) at row 1"):
        h.update([0, 1], [0.5, 1.5])
    with pytest.raises(ValueError, match="y_score contains NaN at position 0"):
        h.update([0, 1], [np.nan, 0.5])
    with pytest.raises(ValueError, match="y_score contains an infinite value"):
        h.update([0, 1], [0.1, -np.inf])
    with pytest.raises(ValueError, match="y_true and y_score have different lengths: 2 and 3"):
        h.update([0, 1], [0.1, 0.2, 0.3])
    # without labels the door decides the positive class: {0, 2} needs pos_label
    with pytest.raises(ValueError, match=r"y_true takes values \[0, 2\] and pos_label is not"):
        h.update([0, 2], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"y_true contains label 2 not in labels \[0, 1\]"):
        ScoreHistogram([0, 1], bins=10).update([0, 2], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"pos_label='c' is not one of the labels in labels"):
        ScoreHistogram(["a", "b"], pos_label="c")
    with pytest.raises(ValueError, match="y_true contains label 'x'"):
        ScoreHistogram(["a", "b"]).update(["a", "x"], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"^y_score has 3 columns but the labels are \[0, 1\]"):
        h.update([0, 1], np.ones((2, 3)) / 3)
    with pytest.raises(ValueError, match=r"y_score must be 1-D, got an array of shape \(2, 1, 1\)"):
        h.update([0, 1], np.ones((2, 1, 1)))
    h3 = ScoreHistogram([0, 1, 2], bins=10)
    with pytest.raises(ValueError, match=r"y_score must be 2-D \(n_samples, n_classes\), got "
                                         r"shape \(2,\)"):
        h3.update([0, 1], [0.1, 0.2])
    with pytest.raises(ValueError, match="rows must be probabilities summing to 1"):
        h3.update([0, 1], [[0.5, 0.5, 0.5], [0.2, 0.2, 0.6]])
    with pytest.raises(ValueError, match="sample_weight"):
        h.update([0, 1], [0.1, 0.2], sample_weight=[1, -1])
    with pytest.raises(ValueError, match="pos_label is required"):
        h3.roc_curve()
    with pytest.raises(ValueError, match="pos_label=7 is not one of the labels"):
        h3.roc_auc(pos_label=7)
    with pytest.raises(ValueError, match=r"pos_label must be 1 \(labels\[1\]"):
        h.roc_curve(pos_label=0)
    with pytest.raises(ValueError, match="bins must be a positive integer"):
        ScoreHistogram(bins=0)
    with pytest.raises(ValueError, match="score_range must be finite with lo < hi"):
        ScoreHistogram(score_range=(1, 0))
    with pytest.raises(ValueError, match="at least two classes"):
        ScoreHistogram([1])
    with pytest.raises(ValueError, match="labels contains duplicates"):
        ScoreHistogram([1, 1])
    # AUC undefined with one class: NaN and a warning, as the exact form
    h.update([0, 0], [0.1, 0.2])
    with pytest.warns(confmat.UndefinedMetricWarning, match="Only one class"):
        assert np.isnan(h.roc_auc())


@pytest.mark.parametrize("k", [2, 3])
def test_in_place_counting_of_stream_chunks_and_rollback(k, monkeypatch):
    numba = pytest.importorskip("numba")
    rng = np.random.default_rng(4)
    n = 200_000
    y = rng.integers(0, k, n)
    s = rng.random(n) if k == 2 else rng.dirichlet(np.ones(k), n)
    labels = list(range(k))
    parallel = ScoreHistogram(labels, bins=500).update(y, s)  # every thread: temporaries
    old = numba.get_num_threads()
    numba.set_num_threads(1)

    def no_temporaries(*args, **kwargs):
        raise AssertionError("a one-thread unweighted chunk must be counted in place")

    monkeypatch.setattr(ScoreHistogram, "_bin", no_temporaries)
    try:
        h = ScoreHistogram(labels, bins=500).update(y[:100_000], s[:100_000])
        h.update(y[100_000:], s[100_000:])
        np.testing.assert_array_equal(h.counts, parallel.counts)
        assert h.counts.dtype == np.int64
        if k == 2:  # independently: numpy's histogram of each class's scores
            for c in (0, 1):
                want, _ = np.histogram(s[y == c], bins=500, range=(0.0, 1.0))
                np.testing.assert_array_equal(h.counts[c, 0], want)
        before = h.counts.copy()
        bad = s[:100_000].copy()
        bad[77_777] = 1.5 if k == 2 else bad[77_777] * 0 + np.r_[1.5, -0.5, 0.0][:k]
        with pytest.raises(ValueError, match="outside score_range"):
            h.update(y[:100_000], bad)
        np.testing.assert_array_equal(h.counts, before)  # the rejected chunk was taken back
    finally:
        numba.set_num_threads(old)


def _paths():
    """Each way a binary unweighted chunk can be binned: numpy, the parallel kernel, and (one
    numba thread) the in-place kernel."""
    numba = binned_binning.numba_module()
    yield "numpy"
    if numba is None:
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(binned_binning, "NUMBA_MIN_SIZE", 0)
        yield "kernel"
        old = numba.get_num_threads()
        numba.set_num_threads(1)
        try:
            yield "in place"
        finally:
            numba.set_num_threads(old)


@pytest.mark.parametrize(("bad", "message"), [
    ({5: np.nan}, "y_score contains NaN at position 5; scores must be finite"),
    ({5: -np.inf}, "y_score contains an infinite value at position 5"),
    ({3: 1.5, 5: np.nan}, "y_score contains NaN at position 5"),  # finiteness is checked first
    ({3: 1.5, 5: 2.0}, r"y_score has a score 1.5 outside score_range=\(0.0, 1.0\) at row 3"),
    ({3: -0.0001}, r"y_score has a score -0.0001 outside score_range=\(0.0, 1.0\) at row 3"),
])
def test_bad_scores_give_the_doors_message_on_every_path(bad, message):
    """The bin lookup rejects NaN, infinite and out-of-range scores in its one pass; the error
    is the one the separate checks gave, and the histogram is left as it was."""
    rng = np.random.default_rng(9)
    y = rng.integers(0, 2, 20)
    s = rng.random(20)
    for row, value in bad.items():
        s[row] = value
    for path in _paths():
        h = ScoreHistogram(bins=10).update([0, 1], [0.2, 0.7])
        before = h.counts.copy()
        with pytest.raises(ValueError, match=message):
            h.update(y, s)
        assert_array_equal(h.counts, before, err_msg=path)
        with pytest.raises(ValueError, match=message):  # a list goes through the same door
            h.update(y.tolist(), s.tolist())
    w = np.ones(20)
    w[0] = -1.0
    if not np.isfinite(s).all():  # weighted: scores are checked before the weights
        with pytest.raises(ValueError, match=message):
            ScoreHistogram(bins=10).update(y, s, sample_weight=w)


@pytest.mark.parametrize("pos_label", [None, 0, 1, 4, True, "p"])
@pytest.mark.parametrize("classes", [[0, 1], [0], [1], [-1, 1], [-1], [False, True], [True],
                                     [3, 4]])
def test_binary_door_codes_equal_a_histogram_per_class(classes, pos_label):
    """Whatever the labels of a chunk, the histogram holds numpy's histogram of the positive
    class's scores in row 1 and of every other class's in row 0 (or the door's error)."""
    rng = np.random.default_rng(len(classes))
    y = np.array(classes)[rng.integers(0, len(classes), 3000)]
    s = rng.random(3000)
    found = sorted(set(y.tolist()))
    if pos_label is None:
        pos = True if found in ([False], [True], [False, True]) else 1
        ok = set(found) <= {0, 1} or set(found) <= {-1, 1}
    else:
        pos = pos_label
        # a boolean is not the class 1, nor 1 the class True (labels of two kinds never mix),
        # also in a chunk of one class that lacks the positive class
        def kind(v):
            return "bool" if isinstance(v, bool) else "string" if isinstance(v, str) else "number"
        same_kind = kind(pos) == kind(found[0])
        ok = same_kind and (len(found) < 2 or pos in found)
    for _ in _paths():
        h = ScoreHistogram(bins=50, pos_label=pos_label)
        if not ok:
            with pytest.raises(ValueError, match="pos_label"):
                h.update(y, s)
            continue
        h.update(y, s)
        positive = y == pos
        for row, mask in ((1, positive), (0, ~positive)):
            want, _ = np.histogram(s[mask], bins=50, range=(0.0, 1.0))
            assert_array_equal(h.counts[row, 0], want)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 40))
def test_weighted_sweep_keeps_small_weights_beside_huge_ones(seed, n):
    # scores at bin centres, so ``score >= lower edge`` is exactly ``bin >= j``; weights over
    # many orders of magnitude: FN and TN must be the sums of their own cells (as scikit-learn
    # counts them), not totals minus TP / FP, which lose the small ones
    rng = np.random.default_rng(seed)
    bins = 10
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    j = rng.integers(0, bins, n)
    s = (j + 0.5) / bins
    w = 10.0 ** rng.uniform(-300, 200, n)
    sw = ScoreHistogram(bins=bins).update(y, s, sample_weight=w).threshold_sweep()
    for t, tn, fp, fn, tp in zip(sw.thresholds, sw.tn, sw.fp, sw.fn, sw.tp, strict=True):
        ref = skm.confusion_matrix(y, (s >= t).astype(int), labels=[0, 1], sample_weight=w)
        assert_allclose([tn, fp, fn, tp], ref.ravel(), rtol=1e-12, atol=0)


def test_weighted_sweep_by_hand():
    h = ScoreHistogram(bins=10).update([0, 0, 0, 1], [0.95, 0.15, 0.05, 0.55],
                                       sample_weight=[1e200, 1.0, 3.0, 1.0])
    sw = h.threshold_sweep()
    # below 0.5: the negatives of weights 1 and 3 (TN 4, not 1e200 + 4 - 1e200 = 0)
    assert sw.thresholds.tolist() == [0.9, 0.5, 0.1, 0.0]
    assert sw.tn.tolist() == [4.0, 4.0, 3.0, 0.0] and sw.fn.tolist() == [1.0, 0.0, 0.0, 0.0]
