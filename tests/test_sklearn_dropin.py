"""Differential tests: every function of confmat.sklearn against scikit-learn itself.

scikit-learn is the oracle: on random inputs of every kind it accepts (binary, multiclass and
string labels, column vectors, multilabel indicator matrices dense and sparse, weights with
zeros, label lists that select, reorder or add absent classes, every ``average`` and
``zero_division``), confmat.sklearn must return the same values, raise an exception of the same
class when scikit-learn raises, and emit scikit-learn's ``UndefinedMetricWarning`` exactly when
scikit-learn does.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

skm = pytest.importorskip("sklearn.metrics")
sparse = pytest.importorskip("scipy.sparse")
from sklearn.exceptions import UndefinedMetricWarning  # noqa: E402

import confmat.sklearn as cms  # noqa: E402

N = 100
SETTINGS = settings(max_examples=N, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def call(func: Any, *args: Any, **kwargs: Any) -> tuple[Any, BaseException | None, bool]:
    """(result, exception, whether an UndefinedMetricWarning was emitted)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out, exc = func(*args, **kwargs), None
        except (ValueError, TypeError, ZeroDivisionError, NotImplementedError) as e:
            out, exc = None, e
    undefined = any(issubclass(w.category, UndefinedMetricWarning) for w in caught)
    return out, exc, undefined


def same(ours: Any, theirs: Any, rtol: float = 1e-9, atol: float = 1e-12) -> None:
    """Equal values (NaN equal to NaN), recursively through tuples, lists and dicts."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and list(ours) == list(theirs)
        for key in theirs:
            same(ours[key], theirs[key], rtol, atol)
    elif isinstance(theirs, tuple | list):
        assert isinstance(ours, tuple | list) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs, strict=True):
            same(a, b, rtol, atol)
    elif isinstance(theirs, str):
        assert ours == theirs
    elif theirs is None:
        assert ours is None
    else:
        a, b = np.asarray(ours, dtype=np.float64), np.asarray(theirs, dtype=np.float64)
        assert a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True)


def check(name: str, *args: Any, warn: bool = True, **kwargs: Any) -> None:
    """Call scikit-learn's and confmat's ``name`` alike and compare everything."""
    theirs, their_exc, their_warn = call(getattr(skm, name), *args, **kwargs)
    ours, our_exc, our_warn = call(getattr(cms, name), *args, **kwargs)
    if their_exc is not None:
        assert our_exc is not None, f"{name}: scikit-learn raised {their_exc!r}, confmat returned"
        assert isinstance(their_exc, type(our_exc)) or isinstance(our_exc, type(their_exc)), (
            f"{name}: {their_exc!r} vs {our_exc!r}")
        return
    assert our_exc is None, f"{name}: confmat raised {our_exc!r}, scikit-learn returned {theirs!r}"
    same(ours, theirs)
    if warn:
        assert our_warn == their_warn, f"{name}: UndefinedMetricWarning {our_warn} vs {their_warn}"


# ----------------------------------------------------------------------------- strategies
# "bool-int": boolean truths against 0 / 1 predictions (True == 1 in scikit-learn)
KINDS = ("int", "str", "bool", "bool-int", "float", "column")


@st.composite
def label_pairs(draw: Any) -> dict[str, Any]:
    kind = draw(st.sampled_from(KINDS))
    k = 2 if kind.startswith("bool") else draw(st.integers(1, 5))
    n = draw(st.integers(1, 25))
    codes = st.lists(st.integers(0, k - 1), min_size=n, max_size=n)
    t, p = np.array(draw(codes)), np.array(draw(codes))
    names = {"int": lambda c: c * 2 - 1, "str": lambda c: np.array(list("abcdef"))[c],
             "bool": lambda c: c.astype(bool), "bool-int": lambda c: c.astype(bool),
             "float": lambda c: c.astype(np.float64), "column": lambda c: c.reshape(-1, 1)}[kind]
    weights = draw(st.one_of(st.none(), st.lists(
        st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0]), min_size=n, max_size=n).filter(any)))
    labels = None
    if kind in ("int", "str") and draw(st.booleans()):
        pool = [names(np.array([c]))[0].item() for c in range(k + 1)]  # one absent class
        labels = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=k + 1, unique=True))
    elif kind in ("int", "bool", "bool-int") and draw(st.booleans()):
        # booleans for numbers and numbers for booleans: scikit-learn matches True == 1
        pool = draw(st.sampled_from([[True, False], [1, 0]]))
        labels = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=2, unique=True))
    y_pred = p.astype(np.int64) if kind == "bool-int" else names(p)
    return {"y_true": names(t), "y_pred": y_pred, "sample_weight": weights,
            "labels": labels, "kind": kind, "classes": k}


@st.composite
def indicator_pairs(draw: Any) -> dict[str, Any]:
    n = draw(st.integers(1, 15))
    m = draw(st.integers(2, 5))
    cells = st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m), min_size=n, max_size=n)
    t, p = np.array(draw(cells)), np.array(draw(cells))
    if draw(st.booleans()):
        t, p = sparse.csr_matrix(t), sparse.csr_matrix(p)
    weights = draw(st.one_of(st.none(), st.lists(
        st.sampled_from([0.0, 0.5, 1.0, 2.0]), min_size=n, max_size=n).filter(any)))
    labels = draw(st.one_of(st.none(), st.lists(st.integers(0, m - 1), min_size=1,
                                                max_size=m, unique=True)))
    return {"y_true": t, "y_pred": p, "sample_weight": weights, "labels": labels}


ZERO_DIVISION = st.sampled_from(["warn", 0.0, 1.0, np.nan])
AVERAGES = st.sampled_from([None, "binary", "micro", "macro", "weighted", "samples"])
BETAS = st.sampled_from([0.0, 0.5, 1.0, 2.0, math.inf])


def _kw(case: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: case[k] for k in names if case.get(k) is not None}


# ------------------------------------------------------------------------- label scores
@SETTINGS
@given(st.one_of(label_pairs(), indicator_pairs()), AVERAGES, ZERO_DIVISION, BETAS,
       st.sampled_from([None, 1, "a", True]))
def test_set_wise_scores(case, average, zero_division, beta, pos_label):
    t, p = case["y_true"], case["y_pred"]
    kw = _kw(case, "labels", "sample_weight")
    if pos_label is not None:
        kw["pos_label"] = pos_label
    if (isinstance(pos_label, str) and average == "binary" and t.ndim == 1
            and t.dtype.kind != "U" and np.unique(np.r_[t, p]).size == 1):
        # docs/sklearn.md, "Text labels= or pos_label= for numeric targets": a documented
        # refusal where scikit-learn turns the text into a number or scores an absent class
        for name in ("precision_score", "recall_score", "f1_score"):
            with pytest.raises(ValueError, match="Mix of label input types"):
                getattr(cms, name)(t, p, average=average, zero_division=zero_division, **kw)
        return
    for name in ("precision_score", "recall_score", "f1_score"):
        check(name, t, p, average=average, zero_division=zero_division, **kw)
    check("fbeta_score", t, p, beta=beta, average=average, zero_division=zero_division, **kw)
    check("precision_recall_fscore_support", t, p, beta=beta, average=average,
          zero_division=zero_division, **kw)
    jaccard_zd = 0.0 if isinstance(zero_division, float) and math.isnan(zero_division) else zero_division
    check("jaccard_score", t, p, average=average, zero_division=jaccard_zd, **kw)


@SETTINGS
@given(st.one_of(label_pairs(), indicator_pairs()), st.booleans())
def test_accuracy_and_losses(case, normalize):
    t, p = case["y_true"], case["y_pred"]
    kw = _kw(case, "sample_weight")
    check("accuracy_score", t, p, normalize=normalize, **kw)
    check("zero_one_loss", t, p, normalize=normalize, **kw)
    check("hamming_loss", t, p, **kw)


@SETTINGS
@given(st.one_of(label_pairs(), indicator_pairs()), st.booleans())
def test_tables(case, samplewise):
    t, p = case["y_true"], case["y_pred"]
    kw = _kw(case, "sample_weight", "labels")
    check("multilabel_confusion_matrix", t, p, samplewise=samplewise, **kw)
    for normalize in (None, "true", "pred", "all"):
        check("confusion_matrix", t, p, normalize=normalize, warn=False, **kw)


@SETTINGS
@given(label_pairs(), st.booleans(), st.sampled_from([None, "linear", "quadratic"]),
       st.sampled_from([np.nan, 0.0, -1.0]),
       st.sampled_from([np.nan, 1.0, {"LR+": 2.0, "LR-": 0.5}]))
def test_agreement(case, adjusted, weights, undefined, lr_fill):
    t, p = case["y_true"], case["y_pred"]
    kw = _kw(case, "sample_weight")
    check("matthews_corrcoef", t, p, **kw)
    check("balanced_accuracy_score", t, p, adjusted=adjusted, **kw)
    check("cohen_kappa_score", t, p, weights=weights, replace_undefined_by=undefined,
          **_kw(case, "sample_weight", "labels"))
    check("class_likelihood_ratios", t, p, replace_undefined_by=lr_fill, **kw)


@SETTINGS
@given(st.one_of(label_pairs(), indicator_pairs()), ZERO_DIVISION, st.integers(0, 4),
       st.booleans())
def test_classification_report(case, zero_division, digits, output_dict):
    t, p = case["y_true"], case["y_pred"]
    kw = _kw(case, "sample_weight", "labels")
    check("classification_report", t, p, zero_division=zero_division, digits=digits,
          output_dict=output_dict, **kw)


# ------------------------------------------------------------------------ ranking scores
@st.composite
def binary_scores(draw: Any) -> dict[str, Any]:
    n = draw(st.integers(1, 30))
    kind = draw(st.sampled_from(["01", "pm1", "str", "multi"]))
    codes = np.array(draw(st.lists(st.integers(0, 2 if kind == "multi" else 1),
                                   min_size=n, max_size=n)))
    y = {"01": codes, "pm1": codes * 2 - 1, "str": np.array(["no", "yes", "x"])[codes],
         "multi": codes}[kind]
    levels = draw(st.sampled_from([3, 10, 1000]))  # few levels: many ties
    score = np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n))) / levels
    weights = draw(st.one_of(st.none(), st.lists(
        st.sampled_from([0.0, 0.5, 1.0, 2.0]), min_size=n, max_size=n).filter(any)))
    pos_label = {"01": None, "pm1": draw(st.sampled_from([None, 1, -1])),
                 "str": draw(st.sampled_from([None, "yes", "no"])),
                 "multi": draw(st.sampled_from([None, 2]))}[kind]
    return {"y_true": y, "y_score": score, "sample_weight": weights, "pos_label": pos_label}


@SETTINGS
@given(binary_scores(), st.booleans())
def test_binary_curves(case, drop):
    y, s = case["y_true"], case["y_score"]
    kw = _kw(case, "sample_weight", "pos_label")
    check("roc_curve", y, s, drop_intermediate=drop, **kw)
    check("precision_recall_curve", y, s, drop_intermediate=drop, **kw)
    check("det_curve", y, s, drop_intermediate=drop, **kw)
    check("confusion_matrix_at_thresholds", y, s, **kw)
    ap_kw = _kw(case, "sample_weight")
    if case["pos_label"] is not None:
        ap_kw["pos_label"] = case["pos_label"]
    check("average_precision_score", y, s, **ap_kw)


@SETTINGS
@given(binary_scores(), st.sampled_from([None, 0.3, 1.0]))
def test_binary_auc(case, max_fpr):
    y, s = case["y_true"], case["y_score"]
    check("roc_auc_score", y, s, max_fpr=max_fpr, **_kw(case, "sample_weight"))
    fpr, tpr, _ = skm.roc_curve(y, s, pos_label=case["pos_label"]) if len(set(y.tolist())) == 2 \
        and case["pos_label"] is not None else (np.array([0.0, 1.0]), np.array([0.0, 1.0]), None)
    check("auc", fpr, tpr)


@st.composite
def class_scores(draw: Any) -> dict[str, Any]:
    k = draw(st.integers(3, 5))
    n = draw(st.integers(k, 30))
    codes = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    raw = np.array(draw(st.lists(st.integers(1, 6), min_size=n * k, max_size=n * k)),
                   dtype=np.float64).reshape(n, k)
    prob = raw / raw.sum(axis=1, keepdims=True)
    weights = draw(st.one_of(st.none(), st.lists(
        st.sampled_from([0.5, 1.0, 2.0]), min_size=n, max_size=n)))
    return {"y_true": codes, "y_score": prob, "sample_weight": weights, "k": k}


@SETTINGS
@given(class_scores(), st.sampled_from(["ovr", "ovo"]),
       st.sampled_from([None, "micro", "macro", "weighted"]), st.integers(1, 4))
def test_multiclass_scores(case, multi_class, average, top):
    y, s = case["y_true"], case["y_score"]
    kw = _kw(case, "sample_weight")
    check("roc_auc_score", y, s, multi_class=multi_class, average=average, **kw)
    check("roc_auc_score", y, s, multi_class=multi_class, average=average,
          labels=list(range(case["k"])))
    check("average_precision_score", y, s, average=average, **kw)
    check("top_k_accuracy_score", y, s, k=top, labels=list(range(case["k"])), **kw)
    check("top_k_accuracy_score", y, s, k=top, normalize=False, **kw)


@SETTINGS
@given(indicator_pairs(), st.sampled_from([None, "micro", "macro", "weighted", "samples"]))
def test_multilabel_scores(case, average):
    t = case["y_true"]
    t = t.toarray() if hasattr(t, "toarray") else t
    rng = np.random.default_rng(t.size)
    s = rng.integers(0, 5, size=t.shape) / 4
    kw = _kw(case, "sample_weight")
    check("roc_auc_score", t, s, average=average, **kw)
    check("average_precision_score", t, s, average=average, **kw)


# --------------------------------------------------------------------- bad input alike
BAD_INPUTS = [
    ("f1_score", ([0, 1], [0, 1, 1]), {}),
    ("f1_score", ([0, 1, 2], [0, 1, 2]), {}),
    ("f1_score", ([0, 1], [0, 1]), {"average": "bogus"}),
    ("f1_score", ([0.1, 0.5], [0, 1]), {}),
    ("f1_score", ([[0, 1], [1, 0]], [0, 1]), {}),
    ("f1_score", (["a", "b"], [0, 1]), {"average": "macro"}),
    ("accuracy_score", ([b"a", b"b"], [b"a", b"b"]), {}),
    ("confusion_matrix", ([0, 1], [0, 1]), {"labels": []}),
    ("confusion_matrix", ([0, 1], [0, 1]), {"labels": [5]}),
    ("confusion_matrix", ([[0, 1], [1, 0]], [[0, 1], [1, 0]]), {}),
    ("multilabel_confusion_matrix", ([0, 1], [0, 1]), {"samplewise": True}),
    ("multilabel_confusion_matrix", ([[0, 1], [1, 0]], [[0, 1], [1, 0]]), {"labels": [3]}),
    ("roc_auc_score", ([0, 1, 2], [[0.2, 0.8, 0.0]] * 3), {}),
    ("roc_auc_score", ([0, 1], [0.2, 0.8]), {"max_fpr": 2.0}),
    ("roc_curve", (["a", "b"], [0.1, 0.9]), {}),
    ("roc_curve", ([0, 1], [0.1, np.nan]), {}),
    ("auc", ([0, 1, 0.5], [0, 1, 1]), {}),
    ("auc", ([0], [0]), {}),
    ("top_k_accuracy_score", ([0, 1, 2], [0.1, 0.2, 0.3]), {}),
    ("class_likelihood_ratios", ([0, 1, 2], [0, 1, 2]), {}),
    ("cohen_kappa_score", ([0, 1], [0, 1]), {"labels": [5]}),
    ("det_curve", ([1, 1], [0.1, 0.2]), {}),
    ("average_precision_score", ([0, 1], [0.1, 0.2]), {"pos_label": 2}),
]


@pytest.mark.parametrize(("name", "args", "kwargs"), BAD_INPUTS)
def test_bad_input_alike(name, args, kwargs):
    _, their_exc, _ = call(getattr(skm, name), *args, **kwargs)
    assert their_exc is not None  # the oracle refuses it
    check(name, *args, **kwargs)


def test_undefined_warning_is_scikit_learns():
    with pytest.warns(UndefinedMetricWarning, match="ill-defined"):
        cms.precision_score([0, 1], [0, 0])
    with pytest.warns(UndefinedMetricWarning, match="No positive samples"):
        cms.roc_curve([0, 0], [0.1, 0.2])


def test_scikit_learn_not_imported_to_compute():
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import confmat.sklearn as m\n"
        "m.f1_score([0, 1, 1], [0, 1, 0]); m.roc_auc_score([0, 1, 1], [0.1, 0.8, 0.3])\n"
        "m.classification_report([0, 1], [0, 1]); m.confusion_matrix([0, 1], [1, 1])\n"
        "print(any(k == 'sklearn' or k.startswith('sklearn.') for k in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_integer_weights_are_summed_exactly_beyond_float_precision():
    # 2**61 + 1 is not representable in float64; two of them sum to 2**62 + 2 (worked by hand)
    w = np.full(3, 2**61 + 1, dtype=np.int64)
    cm = cms.confusion_matrix([0, 1, 1], [0, 1, 1], sample_weight=w)
    assert cm.dtype == np.int64
    assert cm.tolist() == [[2**61 + 1, 0], [0, 2**62 + 2]]
    # the same exact path with string labels, a reordering labels= list and an off-diagonal cell
    w = np.full(3, 2**60 + 3, dtype=np.int64)
    cm = cms.confusion_matrix(["a", "b", "b"], ["a", "b", "a"], sample_weight=w, labels=["b", "a"])
    assert cm.tolist() == [[2**60 + 3, 2**60 + 3], [0, 2**60 + 3]]


def test_integer_weights_beyond_int64_are_an_error_not_a_wraparound():
    w = np.full(3, np.iinfo(np.int64).max, dtype=np.int64)
    with pytest.raises(ValueError, match="sample_weight: the weighted counts exceed the int64"):
        cms.confusion_matrix([0, 1, 1], [0, 1, 1], sample_weight=w)
