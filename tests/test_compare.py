"""confmat.compare: the model table with intervals, pairwise tests with Holm, errors."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    accuracy_score,
    cohen_kappa_score,
    f1_score,
    matthews_corrcoef,
    roc_auc_score,
)
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.multitest import multipletests

import confmat
from confmat import ConfusionMatrix

# Kneusel (2021), Table 11-5 (MNIST 3 vs 5: TP, TN, FP, FN with 5 positive) and Table 11-6
BOOK = {
    "Nearest Centroid": (760, 909, 101, 132),
    "3-NN": (878, 994, 16, 14),
    "Naive Bayes": (612, 976, 34, 280),
    "RF 500": (884, 1003, 7, 8),
    "LinearSVM": (853, 986, 24, 39),
}
BOOK_11_6 = {  # F1, MCC, kappa as printed
    "Nearest Centroid": (0.8671, 0.7540, 0.7535),
    "3-NN": (0.9832, 0.9683, 0.9683),
    "Naive Bayes": (0.7958, 0.6875, 0.6631),
    "RF 500": (0.9916, 0.9842, 0.9842),
    "LinearSVM": (0.9644, 0.9335, 0.9334),
}


def _book_models():
    return {
        name: ConfusionMatrix([[tp, fn], [fp, tn]], labels=["5", "3"])
        for name, (tp, tn, fp, fn) in BOOK.items()
    }


def test_book_tables_11_5_and_11_6_with_intervals():
    res = confmat.compare(_book_models(), metrics=["mcc", "f1", "kappa"], pos_label="5",
                          n_resamples=1000, random_state=0)
    assert res.models == ["RF 500", "3-NN", "LinearSVM", "Nearest Centroid", "Naive Bayes"]
    for name, (f1, mcc, kappa) in BOOK_11_6.items():
        row = res.intervals[name]
        assert row["f1"].estimate == pytest.approx(f1, abs=5e-5)
        assert row["mcc"].estimate == pytest.approx(mcc, abs=5e-5)
        assert row["kappa"].estimate == pytest.approx(kappa, abs=5e-5)
        for m in ("mcc", "f1", "kappa"):
            assert row[m].low < row[m].estimate < row[m].high
    assert res.pairwise == []
    assert any("pairwise tests need per-sample predictions" in n for n in res.notes)
    frame = res.to_frame()
    assert list(frame.index) == res.models
    assert frame.shape == (5, 9)
    assert frame[("mcc", "estimate")].is_monotonic_decreasing
    json.dumps(res.to_dict())
    assert "RF 500" in str(res)


def test_models_evaluated_on_different_truth_are_refused():
    models = _book_models()
    models["odd"] = ConfusionMatrix([[800, 90], [10, 1002]], labels=["5", "3"])
    with pytest.raises(ValueError, match="different y_true"):
        confmat.compare(models, metrics=["accuracy"])
    y = np.array(["5"] * 892 + ["3"] * 1010)
    with pytest.raises(ValueError, match="different y_true"):
        confmat.compare({"m": y, "cm": models["odd"]}, y, metrics=["accuracy"],
                        n_resamples=200)


def _three_models(seed=0, n=400):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    models = {
        "strong": np.where(rng.random(n) < 0.9, y, rng.integers(0, 3, n)),
        "medium": np.where(rng.random(n) < 0.75, y, rng.integers(0, 3, n)),
        "weak": np.where(rng.random(n) < 0.55, y, rng.integers(0, 3, n)),
    }
    return y, models


def test_pairwise_mcnemar_with_holm():
    y, models = _three_models()
    res = confmat.compare(models, y, metrics=["accuracy", "mcc"], n_resamples=500,
                          random_state=0)
    assert res.models == ["strong", "medium", "weak"]
    assert len(res.pairwise) == 3
    raw = []
    for r in res.pairwise:
        a, b = models[r["model_a"]], models[r["model_b"]]
        ra, rb = a == y, b == y
        table = [[np.sum(ra & rb), np.sum(ra & ~rb)], [np.sum(~ra & rb), np.sum(~ra & ~rb)]]
        ref = sm_mcnemar(table, exact=False, correction=True)
        assert r["pvalue"] == pytest.approx(ref.pvalue, rel=1e-9)
        assert r["difference"] == pytest.approx(accuracy_score(y, a) - accuracy_score(y, b))
        raw.append(r["pvalue"])
    adjusted = multipletests(raw, method="holm")[1]
    assert [r["pvalue_adjusted"] for r in res.pairwise] == pytest.approx(list(adjusted))
    assert all(r["significant"] for r in res.pairwise)
    for name in models:
        assert res.intervals[name]["mcc"].estimate == pytest.approx(
            matthews_corrcoef(y, models[name]))
    assert res.pairwise_frame().shape[0] == 3


def test_pairwise_bootstrap_for_other_metrics_and_ranking_lower_is_better():
    y, models = _three_models(seed=1, n=300)
    res = confmat.compare(models, y, metrics=["error_rate", "f1"], test_metric="f1",
                          n_resamples=400, random_state=0)
    assert res.test_metric == "f1"
    assert all(r["method"] == "paired bootstrap" for r in res.pairwise)
    assert all(r["low"] <= r["difference"] <= r["high"] for r in res.pairwise)
    err = confmat.compare(models, y, metrics=["error_rate"], n_resamples=400, random_state=0)
    assert err.models == ["strong", "medium", "weak"]  # lowest error first


def test_score_models_delong_and_argmax_probabilities():
    rng = np.random.default_rng(5)
    n = 300
    y = rng.integers(0, 2, n)
    sa = y + rng.normal(0, 0.8, n)
    sb = y + rng.normal(0, 1.5, n)
    res = confmat.compare({"a": sa, "b": sb}, y, metrics=["roc_auc", "accuracy"],
                          n_resamples=500, random_state=0)
    assert res.intervals["a"]["roc_auc"].estimate == pytest.approx(roc_auc_score(y, sa))
    assert res.intervals["b"]["accuracy"].estimate == pytest.approx(
        accuracy_score(y, (sb >= 0.5).astype(int)))
    (pair,) = res.pairwise
    assert pair["method"] == "delong" and pair["pvalue"] < 0.05
    proba = np.column_stack([1 - sa / 3, sa / 3])
    res2 = confmat.compare({"p": proba, "q": {"pred": (sb > 0.5).astype(int), "score": sb}}, y,
                           metrics=["accuracy", "average_precision"], n_resamples=300,
                           random_state=0)
    assert res2.intervals["p"]["accuracy"].estimate == pytest.approx(
        accuracy_score(y, proba.argmax(1)))


def test_reproducible():
    y, models = _three_models(seed=2, n=200)
    a = confmat.compare(models, y, metrics=["mcc"], n_resamples=300, random_state=4).to_dict()
    b = confmat.compare(models, y, metrics=["mcc"], n_resamples=300, random_state=4).to_dict()
    assert a == b


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"level": 1.5}, ValueError, "level"),
        ({"level": 0}, ValueError, "level"),
        ({"n_resamples": 20}, ValueError, "n_resamples"),
        ({"metrics": ["acuracy"]}, ValueError, "unknown metric"),
        ({"metrics": ["accuracy", "acc"]}, ValueError, "duplicates"),
        ({"metrics": ["accuracy"], "test_metric": "mcc"}, ValueError, "test_metric"),
        ({"metrics": []}, ValueError, "at least one"),
    ],
)
def test_argument_errors(kwargs, exc, match):
    y, models = _three_models(seed=3, n=100)
    kwargs = {"metrics": ["accuracy"], "n_resamples": 200, **kwargs}
    with pytest.raises(exc, match=match):
        confmat.compare(models, y, **kwargs)


def test_input_errors():
    y, models = _three_models(seed=3, n=100)
    models["short"] = models["weak"][:-3]
    with pytest.raises(ValueError, match="'short' has 97 predictions"):
        confmat.compare(models, y, n_resamples=200)
    with pytest.raises(ValueError, match="y_true is needed"):
        confmat.compare({"a": [0, 1]}, None)
    with pytest.raises(TypeError, match="non-empty mapping"):
        confmat.compare({}, y)
    with pytest.raises(ValueError, match="needs binary scores"):
        confmat.compare({"a": models["weak"]}, y, metrics=["roc_auc"], n_resamples=200)


# ------------------------------------------------------------------ labels= in a comparison
# The rule (as scikit-learn: accuracy_score has no labels=, precision_recall_fscore_support
# selects classes but counts every sample): labels= selects the classes of per-class metrics;
# overall metrics and McNemar use every sample and every class.
_Y3 = [0, 1, 2, 1, 0, 2, 1, 1, 0, 2, 2, 1]
_A3 = [0, 1, 1, 1, 2, 2, 1, 0, 0, 2, 0, 1]
_B3 = [1, 1, 2, 0, 0, 2, 1, 1, 2, 2, 1, 2]


@pytest.mark.filterwarnings("ignore::UserWarning")
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_labels_select_classes_of_per_class_metrics_only(data):
    n = data.draw(st.integers(8, 30), label="n")
    cls = st.integers(0, 3)
    y = np.array(data.draw(st.lists(cls, min_size=n, max_size=n), label="y"))
    a = np.array(data.draw(st.lists(cls, min_size=n, max_size=n), label="a"))
    b = np.array(data.draw(st.lists(cls, min_size=n, max_size=n), label="b"))
    y[:2] = [0, 1]  # two classes at least (kappa of a one-class table is 0 / 0)
    seen = sorted(set(y.tolist()))
    labels = data.draw(st.lists(st.sampled_from(seen), min_size=1, max_size=len(seen),
                                unique=True), label="labels")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = confmat.compare({"a": a, "b": b}, y, ["accuracy", "kappa", "f1"], labels=labels,
                              n_resamples=100, random_state=0)
        for name, p in (("a", a), ("b", b)):
            iv = cmp.intervals[name]
            assert iv["accuracy"].estimate == pytest.approx(accuracy_score(y, p), abs=1e-12)
            want_kappa = cohen_kappa_score(y, p)
            got_kappa = iv["kappa"].estimate
            assert got_kappa == pytest.approx(want_kappa, abs=1e-12)
            assert iv["f1"].estimate == pytest.approx(
                f1_score(y, p, labels=labels, average="macro", zero_division=0.0), abs=1e-12)
    # McNemar on every sample: the discordant pairs counted by hand
    row = cmp.pairwise[0]
    right_a, right_b = a == y, b == y
    b_, c_ = int(np.sum(right_a & ~right_b)), int(np.sum(~right_a & right_b))
    diff = (b_ - c_) / n
    assert row["difference"] == pytest.approx(diff if cmp.models[0] == "a" else -diff,
                                              abs=1e-12)
    if b_ + c_:
        # confmat's default (docs/inference.md): the exact binomial test below 25 discordant
        # pairs, else chi-squared with Edwards' continuity correction (hypothesis found b + c =
        # 25 at n = 28, where the exact oracle alone did not apply)
        table = [[0, b_], [c_, 0]]
        ref = sm_mcnemar(table, exact=b_ + c_ < 25, correction=True).pvalue
        assert row["pvalue"] == pytest.approx(ref, rel=1e-9)


def test_labels_subset_accuracy_mcnemar_and_paired_bootstrap_agree():
    # before: accuracy on labels=[1]'s block (3/3 for a) while McNemar used every sample, and
    # supports were read from the block, so this comparison raised "different y_true"
    cmp = confmat.compare({"a": _A3, "b": _B3}, _Y3, ["accuracy", "mcc", "f1"], labels=[1],
                          n_resamples=200, random_state=0)
    for name, p in (("a", _A3), ("b", _B3)):
        assert cmp.intervals[name]["accuracy"].estimate == accuracy_score(_Y3, p)
        assert cmp.intervals[name]["mcc"].estimate == pytest.approx(matthews_corrcoef(_Y3, p))
        assert cmp.intervals[name]["f1"].estimate == pytest.approx(
            f1_score(_Y3, p, labels=[1], average="macro"))
    # an overall test metric by paired bootstrap: the difference of scikit-learn's values
    by_mcc = confmat.compare({"a": _A3, "b": _B3}, _Y3, ["mcc"], labels=[1],
                             n_resamples=200, random_state=0)
    r = by_mcc.pairwise[0]
    want = {"a": matthews_corrcoef(_Y3, _A3), "b": matthews_corrcoef(_Y3, _B3)}
    assert r["difference"] == pytest.approx(want[r["model_a"]] - want[r["model_b"]])
    # a per-class test metric: the classes of labels=
    by_f1 = confmat.compare({"a": _A3, "b": _B3}, _Y3, ["f1"], labels=[1],
                            n_resamples=200, random_state=0)
    r = by_f1.pairwise[0]
    want = {k: f1_score(_Y3, p, labels=[1], average="macro") for k, p in
            (("a", _A3), ("b", _B3))}
    assert r["difference"] == pytest.approx(want[r["model_a"]] - want[r["model_b"]])


def test_labels_matrix_counted_on_a_subset_cannot_give_overall_metrics():
    sub = ConfusionMatrix.from_predictions(_Y3, _A3, labels=[0, 1])
    with pytest.raises(ValueError, match=r"model 'a' is a ConfusionMatrix counted on a subset"
                                         r".*'accuracy' of a comparison uses every sample"):
        confmat.compare({"a": sub}, _Y3, ["accuracy"], n_resamples=200)
    # per-class metrics of such a matrix are what scikit-learn's labels= gives
    cmp = confmat.compare({"a": sub}, _Y3, ["f1"], n_resamples=200, random_state=0)
    assert cmp.intervals["a"]["f1"].estimate == pytest.approx(
        f1_score(_Y3, _A3, labels=[0, 1], average="macro"))


def test_labels_subset_with_binary_scores():
    # labels=[1] selects the class of the per-class metrics; the scores stay binary (they
    # were refused: "1-D scores, which need a binary y_true")
    y = [0, 1, 1, 0, 1, 0, 1, 1]
    a = np.array([.1, .8, .7, .3, .6, .2, .4, .9])
    b = np.array([.2, .6, .8, .4, .3, .1, .7, .6])
    cmp = confmat.compare({"a": a, "b": b}, y, ["accuracy", "f1", "roc_auc"], labels=[1],
                          n_resamples=200, random_state=0)
    for name, s in (("a", a), ("b", b)):
        pred = (s >= 0.5).astype(int)
        assert cmp.intervals[name]["accuracy"].estimate == accuracy_score(y, pred)
        assert cmp.intervals[name]["f1"].estimate == pytest.approx(
            f1_score(y, pred, labels=[1], average="macro"))
        assert cmp.intervals[name]["roc_auc"].estimate == pytest.approx(roc_auc_score(y, s))


def test_matrices_with_a_predicted_only_class_share_the_truth() -> None:
    """Model a predicts a class no sample holds (3): its matrix has one more class, of support
    0, than b's. Same truth, so they compare (accuracy by scikit-learn); a real difference of
    supports is still refused."""
    y, a, b = [0, 1, 1, 0, 1, 0], [0, 1, 3, 0, 1, 0], [0, 1, 1, 1, 1, 0]
    cms = {"a": ConfusionMatrix.from_predictions(y, a),
           "b": ConfusionMatrix.from_predictions(y, b)}
    res = confmat.compare(cms, metrics=["accuracy"])
    assert [res.intervals[m]["accuracy"].estimate for m in "ab"] == pytest.approx(
        [accuracy_score(y, a), accuracy_score(y, b)], abs=1e-12)
    other = ConfusionMatrix.from_predictions([0, 1, 1, 1, 1, 0], b)
    with pytest.raises(ValueError, match=r"models 'a' and 'c' were evaluated on different y_true"):
        confmat.compare({"a": cms["a"], "c": other}, metrics=["accuracy"])


# ------------------------------------------------------------ predictions beside scores
STRAY_Y = ["ham", "spam", "ham", "spam", "ham", "spam", "ham", "spam"]
STRAY_S = [0.1, 0.9, 0.4, 0.8, 0.2, 0.7, 0.3, 0.35]


def test_a_stray_prediction_beside_a_models_scores_is_refused():
    """The label 'eggs' is no class of y_true and has no score: by_group and the command
    line refuse it beside scores. compare silently makes model b a three-class table beside
    the binary scores of 'spam'."""
    b = ["ham", "spam", "eggs", "spam", "ham", "spam", "ham", "spam"]
    with pytest.raises(ValueError, match=r"'b'.*holds label 'eggs' \(first at position 2"):
        confmat.compare({"a": {"pred": STRAY_Y, "score": STRAY_S},
                         "b": {"pred": b, "score": STRAY_S}}, STRAY_Y, ["accuracy", "roc_auc"],
                        pos_label="spam", n_resamples=200, random_state=0)


def test_a_class_never_predicted_beside_scores_is_compared():
    """The legitimate case of the same rule: 'spam' never predicted by model b (accuracy and
    ROC AUC by scikit-learn)."""
    b = ["ham"] * len(STRAY_Y)
    cmp = confmat.compare({"a": {"pred": STRAY_Y, "score": STRAY_S},
                           "b": {"pred": b, "score": STRAY_S}}, STRAY_Y, ["accuracy", "roc_auc"],
                          pos_label="spam", n_resamples=200, random_state=0)
    assert cmp.intervals["b"]["accuracy"].estimate == accuracy_score(STRAY_Y, b)
    assert cmp.intervals["b"]["roc_auc"].estimate == pytest.approx(
        roc_auc_score(np.array(STRAY_Y) == "spam", STRAY_S))


def test_the_positive_class_beside_a_truth_of_one_class_is_compared():
    """A truth of 0 only beside the scores of the class 1 that the default rule implies: the
    models' predicted 1s have their score column (accuracy by scikit-learn); a predicted 2
    has none and is refused, naming the model."""
    y = np.zeros(6, dtype=int)
    a, b = np.array([0, 1, 0, 1, 0, 0]), np.array([0, 0, 0, 1, 1, 1])
    sa, sb = np.array([.1, .8, .3, .6, .2, .4]), np.array([.2, .3, .1, .9, .7, .6])
    cmp = confmat.compare({"a": {"pred": a, "score": sa}, "b": {"pred": b, "score": sb}}, y,
                          ["accuracy"], n_resamples=200, random_state=0)
    assert [cmp.intervals[m]["accuracy"].estimate for m in "ab"] == pytest.approx(
        [accuracy_score(y, a), accuracy_score(y, b)])
    with pytest.raises(ValueError, match=r"^models\['b'\]\['pred'\] holds label 2 \(first at "
                                         r"position 3.*nor the positive class 1; the scores "
                                         r"\(models\['b'\]\['score'\]\)"):
        confmat.compare({"a": {"pred": a, "score": sa},
                         "b": {"pred": np.where(b == 1, 2, 0), "score": sb}}, y, ["accuracy"],
                        n_resamples=200, random_state=0)


def test_a_stray_prediction_beside_a_score_matrix_is_refused():
    """Columns of a score matrix that cover every predicted class leave nothing to check
    (accuracy by scikit-learn); a predicted label with no column is refused."""
    y = np.array([0, 1, 2, 0, 1, 2, 0, 1])
    s = np.array([[.7, .2, .1], [.1, .6, .3], [.2, .2, .6], [.3, .5, .2],
                  [.6, .3, .1], [.2, .3, .5], [.1, .8, .1], [.5, .4, .1]])
    p = s.argmax(axis=1)
    cmp = confmat.compare({"a": {"pred": p, "score": s}}, y, ["accuracy"], n_resamples=200,
                          random_state=0)
    assert cmp.intervals["a"]["accuracy"].estimate == pytest.approx(accuracy_score(y, p))
    with pytest.raises(ValueError, match=r"models\['a'\]\['pred'\] holds label 5 \(first at "
                                         r"position 0"):
        confmat.compare({"a": {"pred": np.where(p == 0, 5, p), "score": s}}, y, ["accuracy"],
                        n_resamples=200, random_state=0)
