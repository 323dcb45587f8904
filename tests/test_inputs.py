"""Inputs of every kind reach the same counts: lists, tuples, numpy, pandas (also categorical
and with a non-default index), polars, pyarrow; int, float, str and bool labels.

Expected counts are tallied by hand in the test with ``collections.Counter`` (or taken from
scikit-learn where it accepts the input).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix

import confmat
from confmat import ConfusionMatrix

Y_TRUE = ["bus", "opel", "saab", "bus", "saab", "saab", "opel", "bus"]
Y_PRED = ["bus", "saab", "saab", "opel", "saab", "bus", "opel", "bus"]

CONTAINERS = {
    "list": list,
    "tuple": tuple,
    "numpy": np.array,
    "numpy_object": lambda v: np.array(v, dtype=object),
    "pandas": pd.Series,
    "pandas_categorical": lambda v: pd.Series(v, dtype="category"),
    "pandas_shuffled_index": lambda v: pd.Series(v, index=np.arange(len(v))[::-1] * 3),
    "polars": pl.Series,
    "pyarrow": pa.array,
    "pyarrow_chunked": lambda v: pa.chunked_array([v[:3], v[3:]]),
}


def by_hand(y_true, y_pred, labels):
    """Counts tallied pair by pair: rows = true label, columns = predicted label."""
    tally = Counter(zip(y_true, y_pred, strict=True))
    return np.array([[tally[(a, b)] for b in labels] for a in labels])


@pytest.mark.parametrize("container", list(CONTAINERS))
def test_string_labels_from_every_container(container):
    make = CONTAINERS[container]
    cm = ConfusionMatrix.from_predictions(make(Y_TRUE), make(Y_PRED))
    assert cm.labels == ["bus", "opel", "saab"]
    assert all(type(v) is str for v in cm.labels)
    np.testing.assert_array_equal(cm.counts, by_hand(Y_TRUE, Y_PRED, cm.labels))
    np.testing.assert_array_equal(cm.counts, confusion_matrix(Y_TRUE, Y_PRED))


@pytest.mark.parametrize("container", list(CONTAINERS))
@pytest.mark.parametrize(
    "values",
    [
        [3, 1, 2, 3, 3, 1, 2, 2],
        [-7, 10**12, 5, 5, -7, 0, 0, 10**12],
        [0.5, 2.25, -1.0, 0.5, 0.5, 2.25, -1.0, 7.0],
        [True, False, True, True, False, False, True, False],
    ],
    ids=["small_ints", "wide_ints", "floats", "bools"],
)
def test_number_and_bool_labels_from_every_container(container, values):
    make = CONTAINERS[container]
    y_pred = values[1:] + values[:1]
    cm = ConfusionMatrix.from_predictions(make(values), make(y_pred))
    expected_labels = sorted(set(values))
    assert cm.labels == expected_labels
    assert [type(v) for v in cm.labels] == [type(v) for v in expected_labels]
    np.testing.assert_array_equal(cm.counts, by_hand(values, y_pred, expected_labels))


def test_pandas_categorical_with_unused_categories_counts_observed_labels():
    """Unused categories are not classes (as in sklearn); pass labels= to keep them."""
    cats = ["bus", "opel", "saab", "van"]
    t = pd.Series(pd.Categorical(Y_TRUE, categories=cats))
    p = pd.Series(pd.Categorical(Y_PRED, categories=cats))
    assert ConfusionMatrix.from_predictions(t, p).labels == ["bus", "opel", "saab"]
    cm = ConfusionMatrix.from_predictions(t, p, labels=cats)
    assert cm.labels == cats
    assert cm.counts[3].tolist() == [0, 0, 0, 0] and cm.counts[:, 3].tolist() == [0, 0, 0, 0]


def test_polars_categorical_and_pyarrow_dictionary():
    t = pl.Series(Y_TRUE, dtype=pl.Categorical)
    p = pl.Series(Y_PRED, dtype=pl.Categorical)
    cm = ConfusionMatrix.from_predictions(t, p)
    assert cm.labels == ["bus", "opel", "saab"]
    np.testing.assert_array_equal(cm.counts, by_hand(Y_TRUE, Y_PRED, cm.labels))
    t = pa.array(Y_TRUE).dictionary_encode()
    p = pa.array(Y_PRED).dictionary_encode()
    cm2 = ConfusionMatrix.from_predictions(t, p)
    assert cm2 == cm


@pytest.mark.parametrize(
    "make",
    [
        lambda v: pd.Series(v, dtype="Int64"),
        lambda v: pl.Series(v, dtype=pl.Int64),
        lambda v: pa.array(v, type=pa.int64()),
        lambda v: pd.Series(v, dtype="string"),
    ],
    ids=["pandas_Int64", "polars", "pyarrow", "pandas_string"],
)
def test_missing_values_in_nullable_containers_are_refused(make):
    values = [1, None, 2] if "string" not in repr(make) else ["a", None, "b"]
    try:
        y = make(values)
    except (TypeError, pa.ArrowInvalid):  # pandas "string" refuses ints, etc.
        y = make(["a", None, "b"])
    with pytest.raises(ValueError, match=r"y_true.*(missing|NaN)"):
        ConfusionMatrix.from_predictions(y, y)


def test_int_and_float_labels_that_compare_equal_are_one_class():
    cm = ConfusionMatrix.from_predictions([1, 2, 2], [1.0, 2.0, 1.0])
    assert cm.labels == [1, 2]
    assert cm.counts.tolist() == [[1, 0], [1, 1]]


def test_numpy_scalar_labels_become_python_scalars():
    cm = ConfusionMatrix.from_predictions(np.array([1, 2]), np.array([2, 2]),
                                          labels=[np.int64(2), np.int64(1)])
    assert cm.labels == [2, 1] and all(type(v) is int for v in cm.labels)
    assert cm.counts.tolist() == [[1, 0], [1, 0]]


def test_labels_order_and_subset_follow_sklearn():
    """What counts where when ``labels`` is given (scikit-learn's semantics):

    * ``labels`` fixes the order of rows and columns: ``counts[i, j]`` counts samples whose
      true label is ``labels[i]`` and predicted label ``labels[j]``;
    * a listed class that never occurs gets an all-zero row and column;
    * samples whose true or predicted label is *not* listed are left out of ``counts`` (and
      reported by ``n_outside``), yet per-class metrics still see them: a sample with an
      unlisted true label predicted as ``labels[j]`` is a false positive for ``labels[j]``,
      and one with a listed true label predicted as an unlisted class is a false negative;
    * micro averages then sum TP/FP/FN over the listed classes only, so they no longer equal
      accuracy (the classification report prints "micro avg" instead of "accuracy").
    """
    y_true = ["bus", "opel", "saab", "van", "van", "bus"]
    y_pred = ["bus", "van", "saab", "bus", "van", "opel"]
    labels = ["saab", "bus", "car"]
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=labels)
    assert cm.labels == labels
    np.testing.assert_array_equal(cm.counts, confusion_matrix(y_true, y_pred, labels=labels))
    assert cm.counts.tolist() == [[1, 0, 0], [0, 1, 0], [0, 0, 0]]
    # outside: opel->van, van->bus, van->van, bus->opel (any sample touching an unlisted label)
    assert cm.n == 2 and cm.n_outside == 4
    # 'bus': TP 1 (bus->bus), FP 1 (van->bus, true label unlisted), FN 1 (bus->opel)
    assert cm.metric("tp").tolist() == [1, 1, 0]
    assert cm.metric("fp").tolist() == [0, 1, 0]
    assert cm.metric("fn").tolist() == [0, 1, 0]
    assert cm.metric("tn").tolist() == [5, 3, 6]
    # micro precision over listed classes: 2 / (2 + 1)
    assert cm.metric("precision", "micro") == pytest.approx(2 / 3)


def test_sample_weight_gives_float_counts():
    w = [0.5, 1.0, 2.0, 0.25, 1.5, 1.0, 3.0, 0.75]
    cm = ConfusionMatrix.from_predictions(Y_TRUE, Y_PRED, sample_weight=w)
    assert cm.counts.dtype == np.float64
    assert cm.is_weighted
    tally: Counter = Counter()
    for a, b, wt in zip(Y_TRUE, Y_PRED, w, strict=True):
        tally[(a, b)] += wt
    expected = [[tally[(a, b)] for b in cm.labels] for a in cm.labels]
    np.testing.assert_allclose(cm.counts, expected, rtol=1e-15)
    assert cm.n == pytest.approx(sum(w))
    # integer weights from numpy also give float counts (sums of weights)
    cm2 = ConfusionMatrix.from_predictions(Y_TRUE, Y_PRED, sample_weight=np.ones(8, dtype=int))
    assert cm2.counts.dtype == np.float64
    np.testing.assert_array_equal(cm2.counts, ConfusionMatrix.from_predictions(Y_TRUE, Y_PRED).counts)


@pytest.mark.parametrize("make", [list, np.array, pd.Series, pl.Series, pa.array])
def test_sample_weight_containers(make):
    w = [0.5, 1.0, 2.0, 0.25, 1.5, 1.0, 3.0, 0.75]
    cm = ConfusionMatrix.from_predictions(Y_TRUE, Y_PRED, sample_weight=make(w))
    np.testing.assert_allclose(cm.counts, confusion_matrix(Y_TRUE, Y_PRED, sample_weight=w))


def test_from_estimator_uses_predict():
    class Majority:
        def predict(self, X):
            return ["bus"] * len(X)

    X = np.zeros((len(Y_TRUE), 2))
    cm = ConfusionMatrix.from_estimator(Majority(), X, Y_TRUE)
    assert cm.labels == ["bus", "opel", "saab"]
    assert cm.counts[:, 0].tolist() == [3, 2, 3]


def test_vehicle_data_strings():
    """The UCI Vehicle classes (the data set of Yao et al. 2022) as strings, counted like sklearn."""
    path = "/work/shared/data/vehicle.csv"
    try:
        df = pd.read_csv(path)
    except FileNotFoundError:  # pragma: no cover - the shared data is optional
        pytest.skip("vehicle.csv is not available")
    y = df.iloc[:, -1].astype(str).str.strip()  # the last column holds the class name
    assert set(y) == {"bus", "opel", "saab", "van"}
    rng = np.random.default_rng(0)
    shuffled = y.sample(frac=1.0, random_state=1).to_numpy()
    pred = np.where(rng.random(len(y)) < 0.6, y.to_numpy(), shuffled)
    for container in (list, np.array, pd.Series, pl.Series, pa.array):
        cm = ConfusionMatrix.from_predictions(container(y.tolist()), container(list(pred)))
        np.testing.assert_array_equal(cm.counts, confusion_matrix(y.tolist(), list(pred)))
        assert cm.labels == sorted(set(y) | set(pred))


@pytest.mark.parametrize("container", list(CONTAINERS))
@settings(max_examples=10)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 30))
def test_containers_agree_on_random_inputs(container, seed, n):
    """Random string labels in every container, each container with its own examples (drawn
    as an argument, pandas and numpy_object got 2 of 100 examples under the CI profile, a
    third of the examples were one row, and pyarrow_chunked was one chunk): one to four
    classes, predictions right 60% of the time."""
    rng = np.random.default_rng(seed)
    names = rng.permutation(["bus", "opel", "saab", "van"])[: rng.integers(1, 5)]
    y_true = rng.choice(names, n).tolist()
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.choice(names, n)).tolist()
    make = CONTAINERS[container]  # pyarrow_chunked: two chunks, rows 0-2 and 3 on
    cm = ConfusionMatrix.from_predictions(make(y_true), make(y_pred))
    labels = sorted(set(y_true) | set(y_pred))
    assert cm.labels == labels
    np.testing.assert_array_equal(cm.counts, by_hand(y_true, y_pred, labels))


def test_hamming_loss_accepts_every_container():
    for make in (list, np.array, pd.Series, pl.Series, pa.array):
        assert confmat.hamming_loss(make(Y_TRUE), make(Y_PRED)) == pytest.approx(3 / 8)
