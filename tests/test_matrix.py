"""ConfusionMatrix operations: merging, equality, views (normalize, accuracy matrix, binary,
one-vs-rest), relabelling, pooling classes, serialisation and orientation.

Oracles: scikit-learn on the same (or concatenated, or relabelled) label vectors, and counts
worked by hand in the test.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix, multilabel_confusion_matrix

from confmat import ConfusionMatrix
from conftest import N_EXAMPLES, Case, cases, count_tables, quiet

# sklearn warns when only one label occurs; that case is part of what is being tested
pytestmark = pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")

VEHICLE = np.array([[50, 2, 3, 1], [4, 30, 12, 2], [1, 15, 33, 0], [0, 1, 2, 44]])
NAMES = ["bus", "opel", "saab", "van"]


# ----------------------------------------------------------------------------- merging
@settings(max_examples=N_EXAMPLES)
@given(cases(("int", "str", "bool")), st.data())
def test_sum_of_parts_equals_count_of_whole(case: Case, data) -> None:
    """Counting chunks and adding the matrices gives the count of the concatenation."""
    n = len(case.y_true)
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=3)))
    bounds = [0, *cuts, n]
    labels = case.labels if case.labels is not None else case.seen
    w = case.sample_weight
    parts = []
    for a, b in itertools.pairwise(bounds):
        if b > a and (w is None or any(x > 0 for x in w[a:b])):
            parts.append(ConfusionMatrix.from_predictions(
                case.y_true[a:b], case.y_pred[a:b], labels=labels,
                sample_weight=None if w is None else w[a:b], strict_labels=False,
            ))  # a part may hold none of the classes named
    whole = ConfusionMatrix.from_predictions(case.y_true, case.y_pred, labels=labels,
                                             sample_weight=w, strict_labels=False)
    total = sum(parts)
    assert total.labels == whole.labels
    np.testing.assert_allclose(total.counts, whole.counts, rtol=1e-12)
    assert total.n_outside == pytest.approx(whole.n_outside)
    np.testing.assert_allclose(
        total.counts,
        confusion_matrix(case.y_true, case.y_pred, labels=labels, sample_weight=w)
        if set(labels) & set(case.y_true) else whole.counts,
        rtol=1e-12,
    )
    assert parts[0].merge(*parts[1:]) == total


def test_add_chunks_with_and_without_outside_samples():
    """Chunks counted with the same labels add up even if only some had outside samples."""
    a = ConfusionMatrix.from_predictions([1, 2, 3], [1, 3, 3], labels=[1, 2])
    b = ConfusionMatrix.from_predictions([1, 2], [2, 2], labels=[1, 2])
    assert a.n_outside == 2 and b.n_outside == 0
    for total in (a + b, b + a, sum([b, a])):
        assert total.counts.tolist() == [[1, 1], [0, 1]]
        assert total.n_outside == 2
        assert total == ConfusionMatrix.from_predictions([1, 2, 3, 1, 2], [1, 3, 3, 2, 2],
                                                         labels=[1, 2])
        assert total.metric("fn").tolist() == [1, 1]


def test_add_and_sum():
    a = ConfusionMatrix([[1, 2], [3, 4]], labels=["x", "y"])
    b = ConfusionMatrix([[10, 0], [0, 10]], labels=["x", "y"])
    assert (a + b).counts.tolist() == [[11, 2], [3, 14]]
    assert sum([a, b, a]).counts.tolist() == [[12, 4], [6, 18]]
    assert a + b == b + a
    assert a.counts.tolist() == [[1, 2], [3, 4]]  # operands unchanged


# ----------------------------------------------------------------------------- equality
def test_equality():
    a = ConfusionMatrix([[1, 2], [3, 4]], labels=["x", "y"])
    assert a == ConfusionMatrix(np.array([[1, 2], [3, 4]]), labels=["x", "y"])
    assert a != ConfusionMatrix([[1, 2], [3, 5]], labels=["x", "y"])
    assert a != ConfusionMatrix([[1, 2], [3, 4]], labels=["y", "x"])
    assert a != ConfusionMatrix([[1, 2], [3, 4]])
    assert a != [[1, 2], [3, 4]]
    with pytest.raises(TypeError):
        hash(a)


def test_counts_are_read_only():
    cm = ConfusionMatrix([[1, 2], [3, 4]])
    with pytest.raises(ValueError):
        cm.counts[0, 0] = 7
    source = np.array([[1, 2], [3, 4]])
    cm = ConfusionMatrix(source)
    source[0, 0] = 100
    assert cm.counts[0, 0] == 1  # the matrix does not alias the caller's array


def test_basic_properties():
    cm = ConfusionMatrix.from_predictions(["a", "b", "c", "a"], ["a", "c", "c", "b"],
                                          labels=["a", "b"])
    assert cm.labels == ["a", "b"]
    assert cm.n_classes == 2
    # a->a and a->b are inside; b->c and c->c touch the unlisted class c
    assert cm.n == 2 and cm.n_outside == 2
    assert not cm.is_weighted
    assert ConfusionMatrix([[1.5, 0], [0, 1]]).is_weighted


# ----------------------------------------------------------------------------- views
@settings(max_examples=N_EXAMPLES)
@given(count_tables(1, 6))
def test_normalize_and_accuracy_matrix_vs_sklearn(table) -> None:
    i, j = np.indices(table.shape)
    t, p = np.repeat(i.ravel(), table.ravel()), np.repeat(j.ravel(), table.ravel())
    cm = ConfusionMatrix(table)
    labels = list(range(table.shape[0]))
    for how in ("true", "pred", "all"):
        expected = confusion_matrix(t, p, labels=labels, normalize=how)
        np.testing.assert_allclose(cm.normalize(how), expected, rtol=1e-12)
    np.testing.assert_allclose(
        cm.accuracy_matrix(), 100 * confusion_matrix(t, p, labels=labels, normalize="true")
    )


def test_accuracy_matrix_by_hand():
    cm = ConfusionMatrix([[3, 1], [0, 0]])
    assert cm.accuracy_matrix().tolist() == [[75.0, 25.0], [0.0, 0.0]]


@settings(max_examples=N_EXAMPLES)
@given(cases(("int", "str", "bool")))
def test_one_vs_rest_and_binary_vs_sklearn(case: Case) -> None:
    # multilabel_confusion_matrix accepts any labels, so the matrix is not strict either
    cm = ConfusionMatrix.from_predictions(case.y_true, case.y_pred, labels=case.labels,
                                          sample_weight=case.sample_weight, strict_labels=False)
    expected = quiet(multilabel_confusion_matrix, case.y_true, case.y_pred, labels=cm.labels,
                     sample_weight=case.sample_weight)
    np.testing.assert_allclose(cm.one_vs_rest(), expected, rtol=1e-12, atol=1e-12)
    for idx, label in enumerate(cm.labels):
        (tn, fp), (fn, tp) = expected[idx]
        b = cm.binary(label, rest_label=("rest",))
        assert b.labels == [label, ("rest",)]
        np.testing.assert_allclose(b.counts, [[tp, fn], [fp, tn]], rtol=1e-12, atol=1e-12)
        for name in ("recall", "precision", "f1", "specificity"):
            ours = quiet(b.metric, name, pos_label=label, zero_division="nan")
            per_class = quiet(cm.metric, name, zero_division="nan")[idx]
            assert ours == pytest.approx(per_class, rel=1e-12, nan_ok=True), name


def test_binary_layout_positive_first():
    cm = ConfusionMatrix(VEHICLE, labels=NAMES)
    b = cm.binary("saab")
    tp = 33
    fn = 1 + 15 + 0
    fp = 3 + 12 + 2
    tn = VEHICLE.sum() - tp - fn - fp
    assert b.counts.tolist() == [[tp, fn], [fp, tn]]
    assert b.labels == ["saab", "rest"]


# ----------------------------------------------------------------------------- relabel / pool
def test_relabel_mapping_and_list():
    cm = ConfusionMatrix(VEHICLE)
    named = cm.relabel(NAMES)
    assert named.labels == NAMES
    np.testing.assert_array_equal(named.counts, VEHICLE)
    partial = named.relabel({"opel": "Opel", "saab": "Saab"})
    assert partial.labels == ["bus", "Opel", "Saab", "van"]
    np.testing.assert_array_equal(partial.metric("recall"), named.metric("recall"))


def test_merge_classes_pools_rows_and_columns_by_hand():
    cm = ConfusionMatrix(VEHICLE, labels=NAMES)
    car = cm.merge_classes({"car": ["opel", "saab"]})
    assert car.labels == ["bus", "car", "van"]
    expected = [
        [50, 2 + 3, 1],
        [4 + 1, 30 + 12 + 15 + 33, 2 + 0],
        [0, 1 + 2, 44],
    ]
    assert car.counts.tolist() == expected
    assert car.n == cm.n


@settings(max_examples=N_EXAMPLES)
@given(cases(("int", "str"), labels="none", weights=False), st.data())
def test_merge_classes_equals_counting_mapped_labels(case: Case, data) -> None:
    """Pooling classes equals relabelling the samples first and counting with sklearn. The
    pooled class stands where its first member (in label order) stood."""
    seen = case.seen
    members = data.draw(st.lists(st.sampled_from(seen), min_size=1, unique=True))
    cm = ConfusionMatrix.from_predictions(case.y_true, case.y_pred)
    pooled = cm.merge_classes({"POOLED": members})
    mapped = ["POOLED" if v in members else str(v) for v in seen]
    order = list(dict.fromkeys(mapped))
    assert pooled.labels == ["POOLED" if v in members else v for v in seen
                             if v not in members or v == next(m for m in seen if m in members)]
    to_name = lambda v: "POOLED" if v in members else str(v)  # noqa: E731
    expected = confusion_matrix([to_name(v) for v in case.y_true],
                                [to_name(v) for v in case.y_pred], labels=order)
    np.testing.assert_array_equal(pooled.counts, expected)


def test_merge_classes_keeps_outside_margin():
    cm = ConfusionMatrix.from_predictions(["a", "b", "c", "d"], ["b", "a", "d", "c"],
                                          labels=["a", "b", "c"])
    assert cm.n_outside == 2
    pooled = cm.merge_classes({"ab": ["a", "b"]})
    assert pooled.labels == ["ab", "c"]
    assert pooled.counts.tolist() == [[2, 0], [0, 0]]
    assert pooled.n_outside == 2
    assert pooled.metric("fp").tolist() == [0, 1]  # d -> c is still a false positive for c


# ----------------------------------------------------------------------------- serialisation
@settings(max_examples=N_EXAMPLES)
@given(cases(("int", "str", "bool", "float")))
def test_json_round_trip(case: Case) -> None:
    cm = ConfusionMatrix.from_predictions(case.y_true, case.y_pred, labels=case.labels,
                                          sample_weight=case.sample_weight, strict_labels=False)
    text = cm.to_json()
    data = json.loads(text)
    assert data["schema"] == "confmat.confusion_matrix" and data["version"] == 1
    assert data["counts"] == cm.counts.tolist()
    back = ConfusionMatrix.from_json(text)
    assert back == cm
    assert back.labels == cm.labels and [type(v) for v in back.labels] == [
        type(v) for v in cm.labels
    ]
    assert back.n_outside == cm.n_outside
    assert back.counts.dtype == cm.counts.dtype
    assert ConfusionMatrix.from_dict(cm.to_dict()) == cm
    np.testing.assert_array_equal(back.metric("fp"), cm.metric("fp"))


def test_to_dict_with_outside_margin_by_hand():
    cm = ConfusionMatrix.from_predictions([1, 2, 3, 3], [1, 3, 3, 2], labels=[1, 2])
    d = cm.to_dict()
    assert d["labels"] == [1, 2]
    assert d["counts"] == [[1, 0], [0, 0]]
    assert d["outside"] == [[1, 0, 0], [0, 0, 1], [0, 1, 1]]
    assert d["dtype"] == "int64"
    assert ConfusionMatrix.from_dict(d).n_outside == 3


def test_tuple_labels_round_trip():
    cm = ConfusionMatrix([[1, 2], [3, 4]], labels=[("a", 1), ("b", 2)])
    back = ConfusionMatrix.from_json(cm.to_json())
    assert back.labels == [("a", 1), ("b", 2)]
    assert back == cm


# ----------------------------------------------------------------------------- orientation
@settings(max_examples=N_EXAMPLES // 2)
@given(count_tables(1, 6))
def test_pred_rows_is_the_transpose(table) -> None:
    a = ConfusionMatrix(table, orientation="pred_rows")
    b = ConfusionMatrix(table.T)
    assert a == b
    i, j = np.indices(table.shape)
    # rows of the given table are predictions: true labels are column indices
    t = np.repeat(j.ravel(), table.ravel())
    p = np.repeat(i.ravel(), table.ravel())
    np.testing.assert_array_equal(a.counts, confusion_matrix(t, p, labels=range(table.shape[0])))


# ----------------------------------------------------------------------------- metrics() / text
def test_metrics_dict_covers_the_registry():
    import confmat

    cm = ConfusionMatrix(VEHICLE, labels=NAMES)
    everything = cm.metrics()
    assert set(everything) == {s.name for s in confmat.list_metrics()}
    macro = cm.metrics(["recall", "accuracy"], average="macro")
    assert macro["recall"] == pytest.approx(np.mean(np.diag(VEHICLE) / VEHICLE.sum(axis=1)))
    assert macro["accuracy"] == pytest.approx(np.trace(VEHICLE) / VEHICLE.sum())


def test_text_forms_name_the_layout():
    cm = ConfusionMatrix(VEHICLE, labels=NAMES)
    text = str(cm)
    assert text.splitlines()[0].startswith("true \\ pred")
    assert all(name in text for name in NAMES)
    assert "ConfusionMatrix(labels=['bus', 'opel', 'saab', 'van'], n=200)" in repr(cm)
    assert "saab" in cm._repr_html_()


def test_true_negatives_of_weighted_counts_are_never_negative():
    """TN = N - TP - FN - FP in floating point can round below 0 where it is exactly 0."""
    cm = ConfusionMatrix.from_predictions([-3, -3, -3, 0], [-3, -3, 0, -3],
                                          sample_weight=[0.0, 0.0, 1.0, 1.5861051423386617e-241])
    assert (cm.one_vs_rest() >= 0).all()
    assert cm.binary(-3).counts.tolist() == [[0.0, 1.0], [1.5861051423386617e-241, 0.0]]
