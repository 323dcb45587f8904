"""Adversarial differential probe of the scikit-learn drop-in (``confmat.sklearn``) and of
``confmat.multilabel``, with scikit-learn itself as the oracle.

``tests/test_sklearn_dropin.py`` compares the functions on random inputs of the common kinds;
this file reaches further with hypothesis: label vectors of every width and kind (int8 against
int64, uint8 near its top, large int64, negative, float, bool, str and object str, column
vectors, pandas columns), multilabel indicator matrices in every scipy.sparse format,
``labels=`` subsets, supersets, orders and absent labels, every ``pos_label`` of the targets'
kind (and one absent), every ``average``, weights with zeros, integers, floats and all ones,
every ``zero_division``, ``normalize``, ``adjusted``, kappa ``weights``, ``output_dict`` and
``digits``; the score functions with integer, boolean and float32 scores, few score levels
(ties) and every ``pos_label``. For each call it compares

* values, NaN-aware, to rtol 1e-12 (absolute 1e-12 near 0, where scikit-learn's own
  ``sum(w) - tp - fp - fn`` leaves rounding residue), text reports exactly;
* the kind of returned arrays (integer tables where scikit-learn returns integers, float32
  or integer thresholds where scikit-learn returns the scores' own type);
* warnings: the same set of warning classes (``UndefinedMetricWarning``, ``UserWarning``, ...),
  leaving out numpy's ``RuntimeWarning`` of scikit-learn's own 0 / 0 arithmetic (confmat does
  not divide by zero to obtain its NaN) and deprecation warnings;
* errors: confmat raises where scikit-learn raises, an exception of the same class, whose
  message names an argument.

The deliberate differences documented in docs/sklearn.md ("Differences") are left out of the
random inputs and tested on their own at the end: each must behave as documented there.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

skm = pytest.importorskip("sklearn.metrics")
sparse = pytest.importorskip("scipy.sparse")
from sklearn.exceptions import UndefinedMetricWarning  # noqa: E402

import confmat  # noqa: E402
import confmat.sklearn as cms  # noqa: E402

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

#: words an error message may use to name the argument it is about
ARGUMENT_WORDS = (
    "y_true", "y_pred", "y1", "y2", "labels", "label", "pos_label", "average", "sample_weight",
    "Sample weights", "zero_division", "beta", "normalize", "weights", "digits", "target_names",
    "replace_undefined_by", "samplewise", "adjusted", "targets", "output_dict", "warn_for",
    "y_score", "max_fpr", "multi_class", "format", "k ", "class",
)
IGNORED_WARNINGS = (RuntimeWarning, DeprecationWarning)


def call(func: Any, *args: Any, **kwargs: Any) -> tuple[Any, BaseException | None, set[str]]:
    """(result, exception, names of the warning classes emitted)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out, exc = func(*args, **kwargs), None
        except Exception as e:  # every exception is compared with the oracle's
            out, exc = None, e
    kinds = {w.category.__name__ for w in caught if not issubclass(w.category, IGNORED_WARNINGS)}
    return out, exc, kinds


def same(ours: Any, theirs: Any, where: str) -> None:
    """Equal values (NaN equal to NaN; integer arrays where scikit-learn's are integers)."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and list(ours) == list(theirs), where
        for key in theirs:
            same(ours[key], theirs[key], f"{where}[{key!r}]")
    elif isinstance(theirs, tuple | list):
        assert isinstance(ours, tuple | list) and len(ours) == len(theirs), where
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            same(a, b, f"{where}[{i}]")
    elif isinstance(theirs, str):
        assert ours == theirs, f"{where}:\n{theirs}\n{ours}"
    elif theirs is None:
        assert ours is None, where
    else:
        a, b = np.asarray(ours), np.asarray(theirs)
        assert a.shape == b.shape, f"{where}: shape {a.shape} vs {b.shape}"
        if isinstance(theirs, np.ndarray) and b.dtype.kind in "biuf":  # same kind of array
            group = {"b": "b", "i": "iu", "u": "iu", "f": "f"}[b.dtype.kind]
            assert a.dtype.kind in group, f"{where}: dtype {a.dtype}, scikit-learn's {b.dtype}"
            if b.dtype.kind == "f":
                assert a.dtype.itemsize == b.dtype.itemsize, f"{where}: {a.dtype} vs {b.dtype}"
        elif b.dtype.kind in "iu":
            assert a.dtype.kind in "iu", f"{where}: dtype {a.dtype}, scikit-learn's {b.dtype}"
        np.testing.assert_allclose(a.astype(np.float64), b.astype(np.float64), rtol=1e-12,
                                   atol=1e-12, equal_nan=True, err_msg=where)


def compare(func: Any, oracle: Any, *args: Any, **kwargs: Any) -> None:
    """Call confmat's ``func`` and scikit-learn's ``oracle`` alike and compare everything."""
    where = f"{getattr(func, '__name__', func)}({kwargs})"
    theirs, their_exc, their_warn = call(oracle, *args, **kwargs)
    ours, our_exc, our_warn = call(func, *args, **kwargs)
    if their_exc is not None:
        assert our_exc is not None, f"{where}: scikit-learn raised {their_exc!r}, confmat {ours!r}"
        assert isinstance(our_exc, type(their_exc)) or isinstance(their_exc, type(our_exc)), (
            f"{where}: {their_exc!r} vs {our_exc!r}")
        assert any(w in str(our_exc) for w in ARGUMENT_WORDS), f"{where}: {our_exc!r}"
        return
    assert our_exc is None, f"{where}: confmat raised {our_exc!r}, scikit-learn {theirs!r}"
    same(ours, theirs, where)
    assert our_warn == their_warn, f"{where}: warnings {our_warn} vs {their_warn}"


def dense_if_stored_zeros(y: Any) -> Any:
    """A sparse matrix holding explicitly stored zeros, as a dense array; anything else as is.

    scikit-learn counts a stored zero of a sparse indicator matrix as a 1 (it counts stored
    entries), so its answer for such a matrix differs from its answer for the same matrix
    dense; confmat reads the values (documented in docs/sklearn.md). The oracle is
    scikit-learn on the dense matrix.
    """
    if sparse.issparse(y) and np.any(sparse.csr_matrix(y).data == 0):
        return y.toarray()
    return y


def check(name: str, *args: Any, **kwargs: Any) -> None:
    oracle_args = [dense_if_stored_zeros(a) for a in args]
    theirs = getattr(skm, name)

    def oracle(*_: Any, **kw: Any) -> Any:
        return theirs(*oracle_args, **kw)

    compare(getattr(cms, name), oracle, *args, **kwargs)


# ----------------------------------------------------------------------------- strategies
LABEL_KINDS = ("int", "int8-int64", "uint8", "int64-big", "negative", "float", "bool",
               "bool-int", "str", "object", "column", "pandas", "int-float", "float-int",
               "bool-float", "object-int")


def _namer(kind: str) -> Any:
    """Codes 0, 1, ... -> labels of ``kind`` (one more code than classes: an absent label)."""
    letters = np.array(list("abcdefg"))
    return {
        "int": lambda c: np.asarray(c, dtype=np.int64),
        "int8-int64": lambda c: np.asarray(c, dtype=np.int8),
        "uint8": lambda c: np.asarray(c, dtype=np.uint8) + np.uint8(250),
        "int64-big": lambda c: np.asarray(c, dtype=np.int64) + 2**40,
        "negative": lambda c: np.asarray(c, dtype=np.int64) * 2 - 1,
        "float": lambda c: np.asarray(c, dtype=np.float64) + 1.0,
        "bool": lambda c: np.asarray(c) > 0,
        "bool-int": lambda c: np.asarray(c) > 0,
        "str": lambda c: letters[np.asarray(c)],
        "object": lambda c: letters[np.asarray(c)].astype(object),
        "column": lambda c: np.asarray(c, dtype=np.int64),
        "pandas": lambda c: np.asarray(c, dtype=np.int64),
        "int-float": lambda c: np.asarray(c, dtype=np.int64),
        "float-int": lambda c: np.asarray(c, dtype=np.float64),
        "bool-float": lambda c: np.asarray(c) > 0,
        "object-int": lambda c: np.asarray(c, dtype=np.int64).astype(object),  # 'unknown'
    }[kind]


def _py(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


WEIGHTS = st.one_of(
    st.none(),
    st.just("ones"),
    st.just("int"),
    st.just("zeros-and-floats"),
    st.just("uniform"),
)


def _weights(draw: Any, how: Any, n: int) -> Any:
    if how is None:
        return None
    if how == "ones":
        return np.ones(n, dtype=np.int64)
    if how == "int":
        return np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n).filter(any)))
    if how == "zeros-and-floats":
        return np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.5]), min_size=n,
                                      max_size=n).filter(any)))
    return np.array(draw(st.lists(st.floats(0.01, 1.0), min_size=n, max_size=n)))


@st.composite
def label_vectors(draw: Any) -> dict[str, Any]:
    kind = draw(st.sampled_from(LABEL_KINDS))
    k = 2 if kind.startswith("bool") else draw(st.integers(1, 4))
    n = draw(st.integers(1, 14))
    codes = st.lists(st.integers(0, k - 1), min_size=n, max_size=n)
    t, p = np.array(draw(codes)), np.array(draw(codes))
    name = _namer(kind)
    y_true, y_pred = name(t), name(p)
    if kind == "int8-int64":
        y_pred = y_pred.astype(np.int64)  # mixed widths
    elif kind == "bool-int":
        y_pred = p.astype(np.int64)  # True == 1, as scikit-learn compares
    elif kind in ("int-float", "bool-float"):
        y_pred = p.astype(np.float64)  # 1 == 1.0
    elif kind == "float-int":
        y_pred = p.astype(np.int64)
    elif kind == "column":
        y_true, y_pred = y_true.reshape(-1, 1), y_pred.reshape(-1, 1)
    elif kind == "pandas":
        pd = pytest.importorskip("pandas")
        y_true, y_pred = pd.Series(y_true), pd.Series(y_pred)
    universe = [_py(v) for v in name(np.arange(k + 1 if k < 2 or not kind.startswith("bool")
                                               else k))]
    labels = None
    if draw(st.booleans()):  # subsets, supersets (an absent label), any order; no duplicates
        labels = draw(st.lists(st.sampled_from(universe), min_size=1, max_size=len(universe),
                               unique=True))
    pos_label = draw(st.sampled_from([*universe, 1]))  # 1: scikit-learn's default
    return {"y_true": y_true, "y_pred": y_pred, "labels": labels, "pos_label": pos_label,
            "sample_weight": _weights(draw, draw(WEIGHTS), n), "kind": kind}


SPARSE_FORMATS = ("csr", "csc", "coo", "lil", "dok", "bsr")


@st.composite
def indicators(draw: Any) -> dict[str, Any]:
    n = draw(st.integers(1, 8))
    m = draw(st.integers(2, 4))
    cells = st.lists(st.lists(st.integers(0, 1), min_size=m, max_size=m), min_size=n, max_size=n)
    t, p = np.array(draw(cells)), np.array(draw(cells))
    kind = draw(st.sampled_from(("int", "bool", "float", "int8", "list", *SPARSE_FORMATS)))
    if kind == "bool":
        t, p = t.astype(bool), p.astype(bool)
    elif kind == "float":
        t, p = t.astype(np.float64), p.astype(np.float64)
    elif kind == "int8":
        t, p = t.astype(np.int8), p.astype(np.int8)
    elif kind == "list":
        t, p = t.tolist(), p.tolist()
    elif kind in SPARSE_FORMATS:
        t, p = sparse.csr_matrix(t).asformat(kind), sparse.csr_matrix(p).asformat(kind)
    labels = draw(st.one_of(st.none(), st.lists(st.integers(0, m - 1), min_size=1, max_size=m,
                                                unique=True)))
    return {"y_true": t, "y_pred": p, "labels": labels, "pos_label": draw(st.sampled_from([1, 0])),
            "sample_weight": _weights(draw, draw(WEIGHTS), n), "kind": "indicator-" + kind}


TARGETS = st.one_of(label_vectors(), label_vectors(), indicators())
ZERO_DIVISION = st.sampled_from(["warn", 0, 1, 0.0, 1.0, np.nan])
AVERAGES = st.sampled_from([None, "binary", "micro", "macro", "weighted", "samples"])


def _kw(case: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: case[k] for k in names if case.get(k) is not None}


# ------------------------------------------------------------------------------ the probe
@SETTINGS
@given(TARGETS, AVERAGES, ZERO_DIVISION, st.sampled_from([0.0, 0.5, 1.0, 2.0, math.inf]))
def test_set_wise_scores(case, average, zero_division, beta):
    t, p = case["y_true"], case["y_pred"]
    kw = _kw(case, "labels", "sample_weight", "pos_label")
    for name in ("precision_score", "recall_score", "f1_score", "jaccard_score"):
        check(name, t, p, average=average, zero_division=zero_division, **kw)
    check("fbeta_score", t, p, beta=beta, average=average, zero_division=zero_division, **kw)
    check("precision_recall_fscore_support", t, p, beta=beta, average=average,
          zero_division=zero_division, **kw)


@SETTINGS
@given(TARGETS, st.sampled_from([None, "true", "pred", "all"]), st.booleans())
def test_tables(case, normalize, samplewise):
    t, p = case["y_true"], case["y_pred"]
    kw = _kw(case, "labels", "sample_weight")
    check("confusion_matrix", t, p, normalize=normalize, **kw)
    check("multilabel_confusion_matrix", t, p, samplewise=samplewise, **kw)


@SETTINGS
@given(TARGETS, st.booleans())
def test_accuracy_and_losses(case, flag):
    t, p = case["y_true"], case["y_pred"]
    kw = _kw(case, "sample_weight")
    check("accuracy_score", t, p, normalize=flag, **kw)
    check("zero_one_loss", t, p, normalize=flag, **kw)
    check("hamming_loss", t, p, **kw)
    check("balanced_accuracy_score", t, p, adjusted=flag, **kw)
    check("matthews_corrcoef", t, p, **kw)


@SETTINGS
@given(TARGETS, st.sampled_from([None, "linear", "quadratic"]),
       st.sampled_from([np.nan, 0.0, -1.0, 0.5]),
       st.sampled_from([np.nan, 1.0, {"LR+": 2.0, "LR-": 0.5}, {"LR+": np.inf, "LR-": 0.0}]))
def test_agreement_and_ratios(case, weights, undefined, lr_fill):
    t, p = case["y_true"], case["y_pred"]
    kw = _kw(case, "labels", "sample_weight")
    check("cohen_kappa_score", t, p, weights=weights, replace_undefined_by=undefined, **kw)
    check("class_likelihood_ratios", t, p, replace_undefined_by=lr_fill, **kw)


@SETTINGS
@given(TARGETS, ZERO_DIVISION, st.integers(0, 5), st.booleans(), st.booleans())
def test_classification_report(case, zero_division, digits, output_dict, names):
    t, p = case["y_true"], case["y_pred"]
    kw = _kw(case, "labels", "sample_weight")
    if names:
        n_names = len(case["labels"]) if case["labels"] is not None else 2
        kw["target_names"] = [f"class {i}" for i in range(n_names)]
    check("classification_report", t, p, zero_division=zero_division, digits=digits,
          output_dict=output_dict, **kw)


@SETTINGS
@given(st.one_of(label_vectors(), indicators()))
def test_confmat_multilabel_against_scikit_learn(case):
    """confmat's own ``multilabel_confusion_matrix`` and ``hamming_loss`` (not the drop-in):
    the same numbers as scikit-learn (their own dtype policy: int64 counts, float64 sums)."""
    t, p = case["y_true"], case["y_pred"]
    if case["kind"] in ("bool-int", "bool-float", "column", "object-int"):
        return  # confmat's own door refuses booleans with numbers and (n, 1) column vectors,
        # and reads an object array of numbers as numbers (scikit-learn: type 'unknown')
    kw = _kw(case, "labels", "sample_weight")
    theirs, their_exc, _ = call(skm.multilabel_confusion_matrix, dense_if_stored_zeros(t),
                                dense_if_stored_zeros(p), **kw)
    ours, our_exc, _ = call(confmat.multilabel_confusion_matrix, t, p, **kw)
    assert (our_exc is None) == (their_exc is None), (their_exc, our_exc)
    if their_exc is None:
        np.testing.assert_allclose(np.asarray(ours, dtype=np.float64), theirs.astype(np.float64),
                                   rtol=1e-12, atol=1e-12)
    kw = _kw(case, "sample_weight")
    theirs, their_exc, _ = call(skm.hamming_loss, dense_if_stored_zeros(t),
                                dense_if_stored_zeros(p), **kw)
    ours, our_exc, _ = call(confmat.hamming_loss, t, p, **kw)
    assert (our_exc is None) == (their_exc is None), (their_exc, our_exc)
    if their_exc is None:
        assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-12)


@SETTINGS
@given(indicators(), ZERO_DIVISION)
def test_samplewise_metrics(case, zero_division):
    """``average='samples'`` and per-sample tables against scikit-learn."""
    t, p = case["y_true"], case["y_pred"]
    kw = _kw(case, "labels", "sample_weight")
    check("multilabel_confusion_matrix", t, p, samplewise=True, **kw)
    for name in ("precision_score", "recall_score", "f1_score", "jaccard_score"):
        check(name, t, p, average="samples", zero_division=zero_division, **kw)
    check("precision_recall_fscore_support", t, p, average="samples", beta=0.5,
          zero_division=zero_division, **kw)


# --------------------------------------------------- disagreements the probe found (fixed)
def test_jaccard_refuses_nan_zero_division_as_scikit_learn_does():
    # scikit-learn 1.9's jaccard_score accepts 'warn', 0 and 1 only
    with pytest.raises(ValueError):
        skm.jaccard_score([0, 1], [0, 1], zero_division=np.nan)
    with pytest.raises(ValueError, match="zero_division"):
        cms.jaccard_score([0, 1], [0, 1], zero_division=np.nan)
    check("jaccard_score", [0, 0], [0, 0], zero_division=1.0)


def test_matthews_warns_of_a_single_label_as_scikit_learn_does():
    for func in (skm.matthews_corrcoef, cms.matthews_corrcoef):
        with pytest.warns(UserWarning, match="single label"):
            assert func([2, 2], [2, 2]) == 0.0  # by hand: no variance, 0 by convention


def test_integer_weights_keep_integer_multilabel_counts():
    # scikit-learn's per-sample counts times integer weights stay integers ...
    t, p, w = np.array([[0, 1], [1, 1]]), np.array([[1, 1], [0, 1]]), np.array([2, 3])
    ours = cms.multilabel_confusion_matrix(t, p, sample_weight=w, samplewise=True)
    theirs = skm.multilabel_confusion_matrix(t, p, sample_weight=w, samplewise=True)
    assert ours.dtype.kind == theirs.dtype.kind == "i"
    assert ours.tolist() == theirs.tolist() == [[[0, 2], [0, 2]], [[0, 0], [3, 3]]]  # by hand
    # ... and so are its column sums when the chosen columns hold no 1 at all
    t, p = np.array([[0, 0, 1], [0, 1, 1]]), np.array([[0, 0, 1], [0, 0, 1]])
    check("multilabel_confusion_matrix", t, p, sample_weight=w, labels=[0])
    check("classification_report", t, p, sample_weight=w, labels=[0])  # support "0", not "0.0"
    check("classification_report", sparse.coo_matrix(t), sparse.coo_matrix(p),
          sample_weight=w, labels=[0], output_dict=True)


def test_float_weight_supports_are_summed_in_sample_order():
    # the class-0 support differs from a table's row sum in its last digit (2.4663715251900533
    # against ...538); scikit-learn adds the weights in sample order and prints them in full
    t, p = [0, 1, 0, 0, 0, 1, 0, 1], [1, 0, 0, 1, 1, 1, 1, 0]
    w = [0.6122551270271076, 0.1510361149903564, 0.9458946935092409, 0.1656400917148526,
         0.5862254603418322, 0.3854837006259376, 0.15635615259702018, 0.047631514346377024]
    check("classification_report", t, p, sample_weight=w)
    check("classification_report", t, p, sample_weight=w, labels=[1, 0, 2], digits=4)
    check("precision_recall_fscore_support", t, p, sample_weight=w)


@pytest.mark.parametrize(("args", "kwargs", "named"), [
    (([1], [1]), {}, "y_true"),  # one class, no labels: no 2 x 2 table
    (([0, 1], [1, 1]), {"labels": [1]}, "labels"),
    (([0, 1], [1, 1]), {"labels": [3, 0, 1, 2]}, "labels"),
])
def test_class_likelihood_ratios_needs_two_classes(args, kwargs, named):
    # scikit-learn fails too (a ValueError from unpacking its table); confmat says why
    with pytest.raises(ValueError):
        skm.class_likelihood_ratios(*args, **kwargs)
    with pytest.raises(ValueError, match=named):
        cms.class_likelihood_ratios(*args, **kwargs)


# ------------------------------------------------------- documented deliberate differences
DOC = Path(__file__).resolve().parents[1] / "docs" / "sklearn.md"


def _documented(*phrases: str) -> None:
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    for phrase in phrases:
        assert phrase in text, f"docs/sklearn.md does not say {phrase!r}"


@pytest.mark.parametrize("name", ["confusion_matrix", "cohen_kappa_score",
                                  "class_likelihood_ratios"])
def test_repeated_labels_are_refused_as_documented(name):
    _documented("**Repeated labels in `labels=`**", "are a `ValueError` naming `labels`")
    t, p = [0, 1, 0, 1], [0, 1, 1, 1]
    call_sk = getattr(skm, name)(t, p, labels=[1, 1, 0] if name != "class_likelihood_ratios"
                                 else [1, 1])
    assert call_sk is not None  # scikit-learn returns something
    with pytest.raises(ValueError, match="labels"):
        getattr(cms, name)(t, p, labels=[1, 1, 0] if name != "class_likelihood_ratios"
                           else [1, 1])
    # the set-wise scores repeat the label's values, as scikit-learn does
    check("precision_score", t, p, labels=[1, 1, 0], average=None)
    check("multilabel_confusion_matrix", t, p, labels=[1, 1, 0])


@pytest.mark.parametrize("pos_label", ["0", "a"])
def test_text_pos_label_for_numeric_targets_is_refused_as_documented(pos_label):
    _documented("**Text `labels=` or `pos_label=` for numeric targets.**",
                "So is a text `pos_label` with `average='binary'` when the targets hold a "
                "single class")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        assert skm.f1_score([0, 0], [0, 0], pos_label=pos_label) in (0.0, 1.0)
    with pytest.raises(ValueError, match=r"Mix of label input types .* pos_label"):
        cms.f1_score([0, 0], [0, 0], pos_label=pos_label)
    check("f1_score", [0, 1], [0, 0], pos_label=pos_label)  # two classes: both refuse


def test_pos_label_none_is_a_value_error_as_documented():
    _documented("**`pos_label=None` with `average='binary'`** is a `ValueError` naming "
                "`pos_label`")
    with pytest.raises(TypeError):  # scikit-learn sorts None among the labels
        skm.precision_score([0, 0], [0, 0], pos_label=None)
    with pytest.raises(ValueError):
        skm.precision_score([0, 1], [0, 0], pos_label=None)
    for t in ([0, 0], [0, 1]):
        with pytest.raises(ValueError, match="pos_label=None"):
            cms.precision_score(t, [0, 0], pos_label=None)
    check("precision_score", [0, 1], [0, 0], pos_label=None, average="macro")  # ignored there


def test_negative_weights_are_refused_as_documented():
    _documented("negative, NaN or infinite weights, and weights that are all zero, are refused "
                "with a `ValueError`")
    assert skm.accuracy_score([0, 1], [0, 1], sample_weight=[2, -1]) == 1.0
    with pytest.raises(ValueError, match="sample_weight"):
        cms.accuracy_score([0, 1], [0, 1], sample_weight=[2, -1])
    # all-zero weights: where scikit-learn divides by zero, confmat's door refuses them
    y, prob = [1], [[0.2, 0.4, 0.4]]
    with pytest.raises(ZeroDivisionError):
        skm.top_k_accuracy_score(y, prob, k=1, labels=[0, 1, 2], sample_weight=[0])
    with pytest.raises(ValueError, match="Sample weights"):
        cms.top_k_accuracy_score(y, prob, k=1, labels=[0, 1, 2], sample_weight=[0])


def test_stored_zeros_of_sparse_indicators_are_zeros_as_documented():
    _documented("**Explicit zeros stored in a sparse indicator matrix**")
    dense = np.array([[1, 0, 0], [0, 1, 0]])
    stored = sparse.csr_matrix(dense)
    stored.data[0] = 0  # an explicitly stored zero where the dense matrix now has 0
    dense[0, 0] = 0
    # scikit-learn counts the stored zero as a 1: its sparse and dense answers differ
    assert not np.array_equal(skm.multilabel_confusion_matrix(stored, stored),
                              skm.multilabel_confusion_matrix(dense, dense))
    for name in ("multilabel_confusion_matrix", "f1_score", "hamming_loss", "accuracy_score"):
        kw = {"average": "micro"} if name == "f1_score" else {}
        same(getattr(cms, name)(stored, stored, **kw), getattr(skm, name)(dense, dense, **kw),
             name)


BAD_ARGUMENTS = [
    ("precision_score", {"pos_label": np.array(1)}),
    ("f1_score", {"pos_label": [1]}),
    ("jaccard_score", {"pos_label": {"a": 1}, "average": "macro"}),
    ("accuracy_score", {"sample_weight": 2.0}),
    ("confusion_matrix", {"sample_weight": 2.0}),
    ("classification_report", {"sample_weight": "ab"}),
    ("matthews_corrcoef", {"sample_weight": np.ones((4, 1))}),
]


@pytest.mark.parametrize(("name", "kwargs"), BAD_ARGUMENTS)
def test_bad_arguments_are_refused_alike_and_named(name, kwargs):
    t, p = [0, 1, 1, 0], [0, 1, 0, 0]
    with pytest.raises((ValueError, TypeError)):  # the oracle refuses it
        getattr(skm, name)(t, p, **kwargs)
    check(name, t, p, **kwargs)  # confmat too, an error of that class naming the argument


ML_T, ML_P = np.array([[0, 1], [1, 1]]), np.array([[1, 1], [0, 1]])
PARAMETERS = [  # (name, args, kwargs): scikit-learn's parameter checks and edges, alike
    ("accuracy_score", ([0, 1], [0, 1]), {"normalize": 0}),
    ("zero_one_loss", ([0, 1], [0, 1]), {"normalize": None}),
    ("accuracy_score", ([0, 1], [0, 1]), {"normalize": np.bool_(False)}),
    ("balanced_accuracy_score", ([0, 1], [0, 1]), {"adjusted": 1}),
    ("classification_report", ([0, 1], [0, 1]), {"output_dict": None}),
    ("multilabel_confusion_matrix", (ML_T, ML_P), {"samplewise": 0}),
    ("precision_recall_fscore_support", ([0, 1], [0, 1]), {"warn_for": None}),
    ("precision_recall_fscore_support", ([0, 0, 1], [0, 0, 0]),
     {"warn_for": ["recall"], "average": "macro"}),
    ("classification_report", ([0, 1], [0, 1]), {"target_names": "ab"}),
    ("classification_report", ([0, 1], [0, 1]), {"target_names": 2}),
    ("precision_score", ([0, 1], [0, 1]), {"zero_division": "nan"}),
    ("classification_report", ([0, 1], [0, 1]), {"zero_division": "0"}),
    ("cohen_kappa_score", ([0, 0], [0, 0]), {"replace_undefined_by": np.float32(0.5)}),
    ("cohen_kappa_score", ([0, 0], [0, 0]), {"replace_undefined_by": np.float64(-1.0)}),
    ("classification_report", ([0, 1, 1], [0, 1, 0]), {"labels": []}),  # no row: both refuse
    ("classification_report", ([0, 1, 1], [0, 1, 0]), {"labels": [], "output_dict": True}),
    ("classification_report", (ML_T, ML_P), {"labels": [], "output_dict": True}),
    ("precision_recall_fscore_support", (ML_T, ML_P), {"labels": [], "average": "samples"}),
    ("multilabel_confusion_matrix", (ML_T, ML_P), {"labels": [], "samplewise": True}),
]


@pytest.mark.parametrize(("name", "args", "kwargs"), PARAMETERS)
def test_parameters_alike(name, args, kwargs):
    check(name, *args, **kwargs)


@pytest.mark.parametrize(("name", "kwargs"), [
    ("f1_score", {"zero_division": True}),
    ("precision_score", {"zero_division": False}),
    ("fbeta_score", {"beta": True}),
])
def test_booleans_for_numbers_are_refused_as_documented(name, kwargs):
    _documented("**Booleans for numbers.**", "`zero_division=True` or `beta=True`")
    t, p = [0, 1, 1], [0, 1, 0]
    assert getattr(skm, name)(t, p, **kwargs) >= 0  # scikit-learn reads True as 1
    parameter = next(iter(kwargs))
    with pytest.raises(ValueError, match=parameter):
        getattr(cms, name)(t, p, **kwargs)


# --------------------------------------------------------------- score curves and areas
@st.composite
def binary_scores(draw: Any) -> dict[str, Any]:
    n = draw(st.integers(1, 14))
    kind = draw(st.sampled_from(["01", "pm1", "str", "bool", "float", "int8", "column", "three"]))
    codes = np.array(draw(st.lists(st.integers(0, 2 if kind == "three" else 1), min_size=n,
                                   max_size=n)))
    y = {"01": codes, "pm1": codes * 2 - 1, "str": np.array(["neg", "pos", "x"])[codes],
         "bool": codes > 0, "float": codes.astype(np.float64), "int8": codes.astype(np.int8),
         "column": codes.reshape(-1, 1), "three": codes}[kind]
    levels = draw(st.sampled_from([2, 5, 1000]))  # few levels: many ties
    raw = np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n)))
    score = draw(st.sampled_from(["float64", "float32", "int"]))
    s = raw if score == "int" else (raw / levels).astype(score)
    pos_label = draw(st.sampled_from([None, 1, 0, -1, "pos", "neg", True, 2]))
    return {"y_true": y, "y_score": s, "pos_label": pos_label,
            "sample_weight": _weights(draw, draw(WEIGHTS), n)}


@SETTINGS
@given(binary_scores(), st.booleans(), st.sampled_from([None, 0.3, 1.0]))
def test_binary_score_functions(case, drop, max_fpr):
    y, s = case["y_true"], case["y_score"]
    kw = _kw(case, "sample_weight", "pos_label")
    check("roc_curve", y, s, drop_intermediate=drop, **kw)
    check("precision_recall_curve", y, s, drop_intermediate=drop, **kw)
    check("det_curve", y, s, drop_intermediate=drop, **kw)
    check("confusion_matrix_at_thresholds", y, s, **kw)
    check("average_precision_score", y, s, **kw)
    check("roc_auc_score", y, s, max_fpr=max_fpr, **_kw(case, "sample_weight"))


@SETTINGS
@given(st.integers(3, 4), st.integers(1, 14), st.data())
def test_multiclass_score_functions(k, n, data):
    y = np.array(data.draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    raw = np.array(data.draw(st.lists(st.integers(1, 5), min_size=n * k, max_size=n * k)),
                   dtype=np.float64).reshape(n, k)
    prob = raw / raw.sum(axis=1, keepdims=True)
    kw = {}
    weights = _weights(data.draw, data.draw(WEIGHTS), n)
    if weights is not None:
        kw["sample_weight"] = weights
    labels = data.draw(st.one_of(st.none(), st.permutations(list(range(k)))))
    if labels is not None:
        kw["labels"] = list(labels)
    check("roc_auc_score", y, prob, multi_class=data.draw(st.sampled_from(["ovr", "ovo"])),
          average=data.draw(st.sampled_from([None, "macro", "weighted", "micro"])), **kw)
    check("top_k_accuracy_score", y, prob, k=data.draw(st.integers(1, k)),
          normalize=data.draw(st.booleans()), **kw)


def test_partial_auc_without_negative_weight_names_the_arguments():
    # zero weights leave no negative sample: scikit-learn's partial curve has one point
    args, kw = ([0, 1, 0], [0.1, 0.2, 0.3]), {"sample_weight": [0, 1, 0], "max_fpr": 0.3}
    with pytest.raises(ValueError, match="At least 2 points"):
        skm.roc_auc_score(*args, **kw)
    with pytest.raises(ValueError, match="sample_weight"):
        cms.roc_auc_score(*args, **kw)


@pytest.mark.parametrize(("y_true", "y_pred"), [
    ([0, 1, 1], [0.0, 1.0, 1.0]),  # every class first seen as an integer: "0", "1"
    ([0.0, 1.0, 1.0], [0, 1, 1]),  # first seen as floats: "0.0", "1.0"
    ([0, 1, 1], [0.0, 1.0, 2.0]),  # y_pred brings the float 2.0: every name a float
    ([False, True, True], [0.0, 1.0, 1.0]),  # first seen as booleans: "False", "True"
    ([False, False], [0.0, 1.0]),  # 1.0 first seen as a float
    ([True, True], [0, 1]),  # 0 first seen as an integer
])
def test_report_names_classes_by_their_first_type(y_true, y_pred):
    t, p = np.array(y_true), np.array(y_pred)
    check("classification_report", t, p, output_dict=True)
    check("classification_report", t, p)


def test_unsupported_targets_name_the_arguments():
    t = np.array([1, 2, 3], dtype=object)  # numbers in an object array: type 'unknown'
    check("confusion_matrix", t, t)
    with pytest.raises(ValueError, match=r"unknown is not supported .*y_true"):
        cms.f1_score(t, t, average="macro")
