"""``log_loss`` and ``brier_score_loss`` of ``confmat.sklearn``, and ``Calibration.log_loss``.

Oracles: scikit-learn 1.9's own ``log_loss`` / ``brier_score_loss`` (differential, with
hypothesis: binary and multi-class, 1-D and 2-D probabilities, text labels with ``labels=``,
sample weights, probabilities of exactly 0 and 1 where the clipping acts), and hand-worked
formulas (``-log(eps)`` of a clipped probability with :mod:`math`). Errors: the same class as
scikit-learn's, and a message naming the argument.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

skm = pytest.importorskip("sklearn.metrics")

import confmat.sklearn as cms  # noqa: E402
from confmat.curves.calibration import calibration  # noqa: E402

NAMES = ["ant", "bee", "cat", "dog", "eel"]

#: a probability: often exactly 0 or 1 (where the clipping acts), else anything in [0, 1]
PROB = st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 1.0))


def _quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


def _same(ours: float, theirs: float) -> None:
    assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-12)


@st.composite
def binary_problems(draw):
    n = draw(st.integers(2, 25))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    y[:2] = [0, 1]  # both classes: a vector of probabilities needs them (or labels=)
    p = draw(st.lists(PROB, min_size=n, max_size=n))
    w = draw(st.none() | st.lists(st.floats(0.0, 10.0), min_size=n, max_size=n)
             .filter(lambda v: any(x > 0 for x in v)))
    text = draw(st.booleans())
    labels = [NAMES[v] for v in y] if text else y
    return labels, np.array(p), w, text


@settings(max_examples=150, deadline=None)
@given(binary_problems(), st.booleans())
def test_binary_vector_against_sklearn(problem, normalize):
    y, p, w, text = problem
    _same(cms.log_loss(y, p, sample_weight=w, normalize=normalize),
          skm.log_loss(y, p, sample_weight=w, normalize=normalize))
    pos = "bee" if text else None
    for half in ("auto", True, False):
        _same(cms.brier_score_loss(y, p, sample_weight=w, pos_label=pos, scale_by_half=half),
              skm.brier_score_loss(y, p, sample_weight=w, pos_label=pos, scale_by_half=half))
    # the two columns (1 - p, p) are the same problem
    two = np.column_stack((1 - p, p))
    _same(cms.log_loss(y, two, sample_weight=w), skm.log_loss(y, two, sample_weight=w))
    _same(_quiet(cms.brier_score_loss, y, two, sample_weight=w),
          _quiet(skm.brier_score_loss, y, two, sample_weight=w))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([1.0, 2.0, -1.0, 5.0]), min_size=1, max_size=12),
       st.data())
def test_brier_positive_class_of_numbers_against_sklearn(y, data):
    # numbers outside {0, 1} / {-1, 1} score the greater class, as scikit-learn documents;
    # a single class scores as scikit-learn's rule says (1 positive, others the greater)
    if len(set(y)) > 2:
        y = [v if v in (y[0], y[-1]) else y[0] for v in y]
    p = data.draw(st.lists(PROB, min_size=len(y), max_size=len(y)))
    pos = data.draw(st.sampled_from([None, *sorted(set(y)), 7.0]))
    _same(cms.brier_score_loss(y, p, pos_label=pos), skm.brier_score_loss(y, p, pos_label=pos))


@st.composite
def multiclass_problems(draw):
    k = draw(st.integers(3, 5))
    n = draw(st.integers(1, 25))
    codes = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    rows = []
    for _ in range(n):
        if draw(st.booleans()):  # a one-hot row: probabilities of exactly 0 and 1
            j = draw(st.integers(0, k - 1))
            rows.append([1.0 if i == j else 0.0 for i in range(k)])
        else:
            raw = draw(st.lists(st.floats(0.0, 1.0), min_size=k, max_size=k)
                       .filter(lambda v: sum(v) > 1e-3))
            rows.append([v / sum(raw) for v in raw])
    w = draw(st.none() | st.lists(st.floats(0.0, 10.0), min_size=n, max_size=n)
             .filter(lambda v: any(x > 0 for x in v)))
    text = draw(st.booleans())
    book = NAMES[:k] if text else list(range(10, 10 + k))
    y = [book[c] for c in codes]
    return y, np.array(rows), w, book


@settings(max_examples=150, deadline=None)
@given(multiclass_problems(), st.booleans())
def test_multiclass_against_sklearn(problem, normalize):
    y, p, w, book = problem
    # labels= names every column, so classes absent from y_true keep theirs
    _same(cms.log_loss(y, p, sample_weight=w, normalize=normalize, labels=book),
          skm.log_loss(y, p, sample_weight=w, normalize=normalize, labels=book))
    for half in ("auto", True, False):
        _same(cms.brier_score_loss(y, p, sample_weight=w, labels=book, scale_by_half=half),
              skm.brier_score_loss(y, p, sample_weight=w, labels=book, scale_by_half=half))
    if len(set(y)) == p.shape[1]:
        _same(cms.log_loss(y, p, sample_weight=w), skm.log_loss(y, p, sample_weight=w))
    # a one-hot y_true is the same problem
    onehot = (np.array([book.index(v) for v in y])[:, None] == np.arange(len(book))).astype(int)
    _same(cms.brier_score_loss(onehot, p, sample_weight=w),
          skm.brier_score_loss(onehot, p, sample_weight=w))


def test_unsorted_labels_warn_and_follow_the_sorted_order_as_sklearn():
    y = ["eggs", "spam", "ham"]
    p = [[0.8, 0.1, 0.1], [0.1, 0.2, 0.7], [0.3, 0.6, 0.1]]
    for func in (cms.log_loss, cms.brier_score_loss):
        with pytest.warns(UserWarning, match=r"Pass the ordered labels=\['eggs', 'ham', 'spam'\]"):
            ours = func(y, p, labels=["spam", "eggs", "ham"])
        theirs = _quiet(getattr(skm, func.__name__), y, p, labels=["spam", "eggs", "ham"])
        _same(ours, theirs)


def test_rows_not_summing_to_one_warn_as_sklearn():
    y, p = [0, 1, 1], [[0.2, 0.7], [0.6, 0.3], [0.4, 0.7]]
    with pytest.warns(UserWarning, match="The y_prob values do not sum to one"):
        ours = cms.log_loss(y, p)
    _same(ours, _quiet(skm.log_loss, y, p))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_clipping_eps_is_that_of_the_probabilities_float_type(dtype):
    # each sample gives its true class probability 0: clipped to eps, the loss is -log(eps)
    eps = float(np.finfo(dtype).eps)
    loss = cms.log_loss(np.array([0, 1]), np.array([1, 0], dtype=dtype))
    assert loss == pytest.approx(-math.log(eps), rel=1e-12)
    # certainty on the right class costs -log(1 - eps), about eps
    assert cms.log_loss([0, 1], np.array([0, 1], dtype=dtype)) == pytest.approx(
        -math.log1p(-eps), rel=1e-9)


def test_y_pred_is_the_deprecated_name_of_y_proba():
    y, p = [0, 1, 1], [0.2, 0.7, 0.6]
    with pytest.warns(FutureWarning, match="`y_pred` was renamed to `y_proba`"):
        ours = cms.log_loss(y, y_pred=p)
    _same(ours, skm.log_loss(y, p))
    with pytest.raises(ValueError, match="Cannot use both `y_pred` and `y_proba`"):
        cms.log_loss(y, p, y_pred=p)


BAD = [
    # (function, args, kwargs, what our message names)
    ("log_loss", ([0, 1], np.zeros((2, 2, 2))), {}, "y_proba"),
    ("log_loss", ([0, 1], [0.2, np.nan]), {}, "y_proba"),
    ("log_loss", ([0, 1], [[0.5, 0.5], [np.nan, 1.0]]), {}, "y_proba"),
    ("log_loss", ([0, 1], [0.2, 1.5]), {}, "y_proba"),
    ("brier_score_loss", ([0, 1], [-0.2, 0.5]), {}, "y_proba"),
    ("brier_score_loss", ([0, 1, 2], [[0.5, 0.5, 0], [0, 1, np.inf], [0, 0, 1]]), {},
     "y_proba"),
    ("log_loss", (["a", "b", "c"], np.eye(3)), {"labels": ["a", "c", "d"]}, "labels"),
    ("log_loss", ([0, 1, 2], [[0.5, 0.5]] * 3), {}, "labels"),
    ("brier_score_loss", (["a", "b", "c"], np.eye(4)[:3]), {"labels": ["a", "b", "c"]},
     "labels"),
    ("log_loss", ([1, 1], [[0.5, 0.5]] * 2), {}, "labels"),
    ("brier_score_loss", ([0, 1, 2], [0.2, 0.5, 0.7]), {}, "y_true"),
    ("brier_score_loss", (["a", "b"], [0.2, 0.5]), {}, "pos_label"),
    ("log_loss", ([0, 1, 0], [0.2, 0.5]), {}, "y_proba, y_true"),
    ("brier_score_loss", ([0, 1], [0.2, 0.5]), {"sample_weight": [1.0]},
     "y_proba, y_true, sample_weight"),
    ("log_loss", ([0, 1], [0.2, 0.5]), {"sample_weight": [1.0, np.nan]}, "sample_weight"),
]


@pytest.mark.parametrize(("name", "args", "kwargs", "named"), BAD,
                         ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_errors_are_sklearns_class_and_name_the_argument(name, args, kwargs, named):
    with pytest.raises(ValueError) as theirs:
        _quiet(getattr(skm, name), *args, **kwargs)
    with pytest.raises(type(theirs.value)) as ours:
        _quiet(getattr(cms, name), *args, **kwargs)
    assert named in str(ours.value)


REFUSED = [
    # where confmat refuses what scikit-learn computes (docs/sklearn.md, "Differences")
    (([[1, 1], [0, 1]], [[0.5, 0.5], [0.2, 0.8]]), {}, ValueError, "y_true must be one-hot"),
    (([[1, 0], [0, 1]], [[0.5, 0.5], [0.2, 0.8]]), {"labels": [0, 1]}, ValueError,
     "labels must be None"),
    ((["a", "b"], [[0.5, 0.5], [0.2, 0.8]]), {"labels": [0, 1]}, TypeError, "labels"),
    (([0, 1], [0.2, 0.5]), {"sample_weight": [1.0, -1.0]}, ValueError, "sample_weight"),
]


@pytest.mark.parametrize(("args", "kwargs", "exc", "match"), REFUSED)
@pytest.mark.parametrize("name", ["log_loss", "brier_score_loss"])
def test_confmat_refuses_with_a_message_naming_the_argument(name, args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        _quiet(getattr(cms, name), *args, **kwargs)


def test_sparse_probabilities_are_refused_as_in_sklearn():
    sparse = pytest.importorskip("scipy.sparse")
    p = sparse.csr_matrix(np.array([[0.5, 0.5], [0.2, 0.8]]))
    with pytest.raises(TypeError):
        skm.log_loss([0, 1], p)
    with pytest.raises(TypeError, match="y_proba"):
        cms.log_loss([0, 1], p)


@settings(max_examples=60, deadline=None)
@given(binary_problems())
def test_calibration_log_loss_binary_against_sklearn(problem):
    y, p, w, text = problem
    pos = "bee" if text else 1
    cal = calibration(y, p, pos_label=pos, sample_weight=w, n_bins=3)
    _same(cal.log_loss, skm.log_loss(y, p, sample_weight=w))
    assert cal.to_dict()["log_loss"] == cal.log_loss


@settings(max_examples=60, deadline=None)
@given(multiclass_problems())
def test_calibration_log_loss_multiclass_against_sklearn(problem):
    y, p, w, book = problem
    # calibration's columns follow labels= in the given order: reversed here, so scikit-learn
    # (sorted order) gets the columns reversed back
    cal = calibration(y, p[:, ::-1], labels=book[::-1], sample_weight=w, n_bins=3)
    _same(cal.log_loss, skm.log_loss(y, p, sample_weight=w, labels=book))
