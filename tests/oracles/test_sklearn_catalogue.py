"""Every registry metric that names a scikit-learn or imbalanced-learn counterpart, against that
library, on 500 random matrices per run (K from 2 to 8, with empty rows and columns, perfect
and constant classifiers). Each matrix is expanded into label vectors once and every library
function is called on them; confmat only sees the counts. To keep the run short, the
averaging mode and the parameters (beta, kappa weights, correction, adjusted, normalize,
alpha) cycle from one matrix to the next, so each combination meets about a hundred matrices.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from imblearn import metrics as imb

from confmat import ConfusionMatrix, list_metrics

N_MATRICES = 500
CHUNKS = 10
AVERAGES = (None, "micro", "macro", "weighted")


def _tables(seed: int = 11) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < N_MATRICES:
        kind = len(out) % 8
        k = int(rng.integers(2, 9))
        t = rng.integers(0, 12, (k, k))
        if kind == 1:
            t[rng.integers(k)] = 0
        elif kind == 2:
            t[:, rng.integers(k)] = 0
        elif kind == 3:
            t = np.diag(rng.integers(1, 15, k))
        elif kind == 4:
            t = np.zeros((k, k), dtype=np.int64)
            t[:, rng.integers(k)] = rng.integers(1, 12, k)
        elif kind == 5:
            t = t * (rng.random((k, k)) < 0.35)
        elif kind == 6:
            t = t + np.diag(rng.integers(20, 60, k))
        if t.sum() > 0:
            out.append(t.astype(np.int64))
    return out


TABLES = _tables()


def _vectors(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    k = t.shape[0]
    flat = t.ravel()
    return np.repeat(np.repeat(np.arange(k), k), flat), np.repeat(np.tile(np.arange(k), k), flat)


def _close(ours, theirs, what: str) -> None:
    ours = np.asarray(ours, dtype=np.float64)
    theirs = np.asarray(theirs, dtype=np.float64)
    np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12, equal_nan=True, err_msg=what)


# ---------------------------------------------------------------- the oracles, one per metric
def _avg(labels, salt: int = 0):
    """One averaging mode per matrix, cycling (keeps 500 matrices affordable)."""
    return AVERAGES[(len(labels) + _avg.counter + salt) % len(AVERAGES)]


_avg.counter = 0


def _prf(fn, name, **kw):
    def check(cm, yt, yp, labels):
        avg = _avg(labels)
        theirs = fn(yt, yp, labels=labels, average=avg, zero_division=0, **kw)
        _close(cm.metric(name, avg, zero_division=0, **kw), theirs, f"{name} {avg} {kw}")
    return check


def _cells(cm, yt, yp, labels):
    mcm = skm.multilabel_confusion_matrix(yt, yp, labels=labels)
    _close(cm.one_vs_rest(), mcm, "one_vs_rest")
    for name, (i, j) in {"tn": (0, 0), "fp": (0, 1), "fn": (1, 0), "tp": (1, 1)}.items():
        _close(cm.metric(name), mcm[:, i, j], name)


def _support(cm, yt, yp, labels):
    sup = skm.precision_recall_fscore_support(yt, yp, labels=labels, zero_division=0)[3]
    _close(cm.metric("support"), sup, "support")


def _recall(cm, yt, yp, labels):
    _prf(skm.recall_score, "recall")(cm, yt, yp, labels)
    avg = _avg(labels, 1)
    _close(cm.metric("sensitivity", avg, zero_division=0),
           imb.sensitivity_score(yt, yp, labels=labels, average=avg), f"sensitivity {avg}")


def _specificity(cm, yt, yp, labels):
    avg = _avg(labels, 2)
    _close(cm.metric("specificity", avg, zero_division=0),
           imb.specificity_score(yt, yp, labels=labels, average=avg), f"specificity {avg}")


def fbeta_values(cm, yt, yp, labels):
    beta = (0.5, 2.0, 3.7)[_avg.counter % 3]
    _prf(skm.fbeta_score, "fbeta", beta=beta)(cm, yt, yp, labels)


def _jaccard(cm, yt, yp, labels):
    avg = _avg(labels, 3)
    theirs = skm.jaccard_score(yt, yp, labels=labels, average=avg, zero_division=0)
    _close(cm.metric("jaccard", avg, zero_division=0), theirs, f"jaccard {avg}")


def _likelihood_ratios(cm, yt, yp, labels):
    if len(labels) != 2:
        return  # scikit-learn defines them for binary problems only
    plus, minus = skm.class_likelihood_ratios(yt, yp, labels=labels)
    ours_plus = cm.metric("lr_plus", pos_label=1, zero_division=np.nan)
    ours_minus = cm.metric("lr_minus", pos_label=1, zero_division=np.nan)
    if np.isfinite(plus):
        _close(ours_plus, plus, "lr_plus")
    if np.isfinite(minus):
        _close(ours_minus, minus, "lr_minus")


def _class_gmean(cm, yt, yp, labels):
    theirs = imb.geometric_mean_score(yt, yp, labels=labels, average=None)
    _close(cm.metric("class_gmean", zero_division=0), theirs, "class_gmean")


def _accuracy(cm, yt, yp, labels):
    _close(cm.metric("accuracy"), skm.accuracy_score(yt, yp), "accuracy")


def _balanced(cm, yt, yp, labels):
    for adjusted in ((False, True)[_avg.counter % 2],):
        theirs = skm.balanced_accuracy_score(yt, yp, adjusted=adjusted)
        ours = cm.metric("balanced_accuracy", adjusted=adjusted, zero_division=np.nan)
        if not np.isfinite(theirs):
            # one true class: chance is 1 and scikit-learn divides by 0 (nan or -inf)
            assert math.isnan(ours), ours
            continue
        _close(ours, theirs, f"bacc {adjusted}")


def _kappa(cm, yt, yp, labels):
    for w in ((None, "linear", "quadratic")[_avg.counter % 3],):
        theirs = skm.cohen_kappa_score(yt, yp, labels=labels, weights=w)
        _close(cm.metric("kappa", weights=w, zero_division=np.nan), theirs, f"kappa {w}")


def _mcc(cm, yt, yp, labels):
    _close(cm.metric("mcc"), skm.matthews_corrcoef(yt, yp), "mcc")


def _gmean(cm, yt, yp, labels):
    for corr in ((0.0, 0.001, 0.5)[_avg.counter % 3],):
        theirs = imb.geometric_mean_score(yt, yp, labels=labels, average="multiclass",
                                          correction=corr)
        _close(cm.metric("gmean", correction=corr, zero_division=0), theirs, f"gmean {corr}")


def _zero_one(cm, yt, yp, labels):
    for norm in ((True, False)[_avg.counter % 2],):
        _close(cm.metric("zero_one_loss", normalize=norm), skm.zero_one_loss(yt, yp,
               normalize=norm), f"zero_one_loss {norm}")


def _hamming(cm, yt, yp, labels):
    _close(cm.metric("hamming_loss"), skm.hamming_loss(yt, yp), "hamming_loss")


def _imbalanced_report(cm, yt, yp, labels):
    """classification_report_imbalanced's columns and its support-weighted 'avg_' row.

    The report is slow (about 25 ms), so it runs on every fifth matrix; each of its columns is
    also compared on all 500 matrices by the per-metric oracles (iba against PyCM's IBA)."""
    if _avg.counter % 5:
        return
    for alpha in ((0.1, 0.5)[_avg.counter % 2],):
        rep = imb.classification_report_imbalanced(yt, yp, labels=labels, alpha=alpha,
                                                   output_dict=True, zero_division=0)
        cols = {"pre": ("precision", {}), "rec": ("recall", {}), "spe": ("specificity", {}),
                "f1": ("f1", {}), "geo": ("class_gmean", {}),
                "iba": ("iba", {"alpha": alpha, "squared": True}), "sup": ("support", {})}
        for col, (name, kw) in cols.items():
            ours = cm.metric(name, zero_division=0, **kw)
            theirs = [rep[str(c)][col] for c in labels]
            _close(ours, theirs, f"report {col} alpha={alpha}")
            if col != "sup":
                _close(cm.metric(name, "weighted", zero_division=0, **kw), rep[f"avg_{col}"],
                       f"report avg_{col}")
    # iba on the G-mean itself (squared=False), through imbalanced-learn's decorator
    iba_gm = imb.make_index_balanced_accuracy(alpha=0.3, squared=False)(
        imb.geometric_mean_score)
    _close(cm.metric("iba", alpha=0.3, squared=False, zero_division=0),
           iba_gm(yt, yp, labels=labels, average=None), "iba squared=False")


def _ari(cm, yt, yp, labels):
    ours = cm.metric("ari", zero_division=np.nan)
    if not math.isnan(ours):
        _close(ours, skm.adjusted_rand_score(yt, yp), "ari")


ORACLES = {
    "tp": _cells, "fp": _cells, "fn": _cells, "tn": _cells, "support": _support,
    "recall": _recall, "specificity": _specificity, "precision": _prf(skm.precision_score,
                                                                      "precision"),
    "f1": _prf(skm.f1_score, "f1"), "fbeta": fbeta_values, "jaccard": _jaccard,
    "lr_plus": _likelihood_ratios, "lr_minus": _likelihood_ratios, "class_gmean": _class_gmean,
    "accuracy": _accuracy, "balanced_accuracy": _balanced, "kappa": _kappa, "mcc": _mcc,
    "gmean": _gmean, "zero_one_loss": _zero_one, "hamming_loss": _hamming,
    "iba": _imbalanced_report, "ari": _ari,
}


def test_every_sklearn_named_metric_has_an_oracle() -> None:
    named = {s.name for s in list_metrics() if s.sklearn}
    assert named, "the registry names no scikit-learn counterparts"
    missing = named - set(ORACLES)
    assert not missing, f"metrics naming a library function but not tested here: {missing}"
    assert set(ORACLES) <= {s.name for s in list_metrics()}


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_sklearn_and_imblearn_agree(chunk: int) -> None:
    size = N_MATRICES // CHUNKS
    checks = list(dict.fromkeys(ORACLES.values()))
    for idx in range(chunk * size, (chunk + 1) * size):
        t = TABLES[idx]
        cm = ConfusionMatrix(t)
        yt, yp = _vectors(t)
        labels = list(range(t.shape[0]))
        _avg.counter = idx  # deterministic cycling of averages and parameters
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for check in checks:
                check(cm, yt, yp, labels)


def test_adjusted_balanced_accuracy_by_hand() -> None:
    # recalls 3/4 and 1/2 -> BA = 0.625; chance 1/2 -> adjusted = (0.625 - 0.5) / 0.5
    cm = ConfusionMatrix([[3, 1], [2, 2]])
    assert cm.metric("balanced_accuracy", adjusted=True) == pytest.approx(0.25)


def test_iba_by_hand() -> None:
    # class 0 of [[3, 1], [2, 2]]: TPR 3/4, TNR 2/4; alpha 0.1: (1 + 0.1 * 0.25) * 3/8
    cm = ConfusionMatrix([[3, 1], [2, 2]])
    assert cm.metric("iba", alpha=0.1, pos_label=0) == pytest.approx(1.025 * 0.375)
    assert cm.metric("iba", alpha=0.1, squared=False, pos_label=0) == pytest.approx(
        1.025 * math.sqrt(0.375))
