"""Untrusted JSON state (issue #11 section 5): ``from_dict`` / ``from_json`` of
ConfusionMatrix, Accumulator and ScoreHistogram reject malformed input with an error that
names the field, and round-trip their own output exactly.

Oracles: hand-written states and the classes' own public constructors / ``update``; the
expected counts are the drawn values themselves.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from confmat import Accumulator, ConfusionMatrix, ScoreHistogram

OK_ERRORS = (ValueError, TypeError, OverflowError)


# ----------------------------------------------------------------------------- valid states
def cm_dict() -> dict[str, Any]:
    return ConfusionMatrix([[61, 2], [8, 58]], labels=["cat", "dog"]).to_dict()


def cm_weighted_dict() -> dict[str, Any]:
    return ConfusionMatrix([[6.5, 2.0], [0.25, 5.0]], labels=["cat", "dog"]).to_dict()


def cm_outside_dict() -> dict[str, Any]:
    return ConfusionMatrix.from_predictions([1, 2, 3, 3], [1, 3, 3, 2], labels=[1, 2]).to_dict()


def acc_dict(weighted: bool = False) -> dict[str, Any]:
    # the histogram's classes given (text labels found would name no positive class)
    acc = Accumulator(score_labels=["a", "b"])
    w = [0.5, 2.0, 1.0, 1.5] if weighted else None
    acc.update(["a", "b", "b", "a"], ["a", "b", "a", "a"], scores=[0.1, 0.8, 0.6, 0.3],
               sample_weight=w)
    return acc.to_dict()


def hist_dict() -> dict[str, Any]:
    h = ScoreHistogram(["x", "y", "z"], bins=5)
    h.update(["x", "y", "z", "x"], [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6],
                                     [0.5, 0.25, 0.25]])
    return h.to_dict()


CLASSES = {"ConfusionMatrix": ConfusionMatrix, "Accumulator": Accumulator,
           "ScoreHistogram": ScoreHistogram}
MAKERS = {"ConfusionMatrix": cm_dict, "Accumulator": acc_dict, "ScoreHistogram": hist_dict}
#: where each class keeps an integer count, and how errors show that element
COUNT_AT = {
    "ConfusionMatrix": (("counts", 1, 0), r"'counts'\[1\]\[0\]"),
    "Accumulator": (("counts", 1, 0), r"'counts'\[1\]\[0\]"),
    "ScoreHistogram": (("values", 0), r"'values'\[0\]"),
    "Accumulator.scores": (("scores", "values", 0), r"'scores'\['values'\]\[0\]"),
}


def with_value(d: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    d = copy.deepcopy(d)
    node = d
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return d


def without(d: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k != key}


def rejects(cls: Any, data: Any, exc: type[Exception], pattern: str) -> None:
    """from_dict and from_json (when the state is JSON) both raise ``exc`` naming the field."""
    with pytest.raises(exc, match=pattern) as info:
        cls.from_dict(data)
    assert f"{cls.__name__}.from_dict:" in str(info.value)
    try:
        text = json.dumps(data, allow_nan=False)
    except (ValueError, TypeError):  # NaN / inf: covered by the text tests below
        return
    with pytest.raises(exc, match=pattern) as info:
        cls.from_json(text)
    assert f"{cls.__name__}.from_json:" in str(info.value)


# ----------------------------------------------------------------------------- integer counts
BAD_INT_COUNTS = [
    (61.7, ValueError, r"must be a non-negative integer, got 61\.7"),
    (True, TypeError, r"must be a non-negative integer, got true \(a boolean\)"),
    (False, TypeError, r"got false \(a boolean\)"),
    ("3", TypeError, r"got '3' \(a string\)"),
    (None, TypeError, r"got null"),
    ([1], TypeError, r"got a list"),
    ({"n": 1}, TypeError, r"got an object"),
    (-1, ValueError, r"must be a non-negative integer, got -1"),
    (2**63, ValueError, r"below 2\*\*63, got 9223372036854775808"),
    (-(2**63) - 1, ValueError, r"got -9223372036854775809"),
    (float("nan"), ValueError, r"got nan"),
    (float("inf"), ValueError, r"got inf"),
]


@pytest.mark.parametrize("where", list(COUNT_AT))
@pytest.mark.parametrize(("value", "exc", "message"), BAD_INT_COUNTS)
def test_integer_count_rejected(where: str, value: Any, exc: type, message: str) -> None:
    cls = CLASSES[where.split(".")[0]]
    path, shown = COUNT_AT[where]
    data = with_value(MAKERS[where.split(".")[0]](), path, value)
    rejects(cls, data, exc, f"field {shown} {message}" if "must" in message
            else f"field {shown} .*{message}")


def test_fractional_count_is_not_truncated() -> None:
    """Issue #11: 61.7 used to load as 61."""
    with pytest.raises(ValueError, match=r"field 'counts'\[0\]\[0\] .* got 61\.7"):
        ConfusionMatrix.from_dict(with_value(cm_dict(), ("counts", 0, 0), 61.7))
    # an integral float is the same integer, exactly
    back = ConfusionMatrix.from_dict(with_value(cm_dict(), ("counts", 0, 0), 61.0))
    assert back.counts.dtype == np.int64 and back.counts[0, 0] == 61


def test_integers_are_exact_beyond_float_precision() -> None:
    big = 2**53 + 1  # float64 cannot hold it
    d = with_value(cm_dict(), ("counts", 0, 0), big)
    back = ConfusionMatrix.from_json(json.dumps(d))
    assert int(back.counts[0, 0]) == big
    assert back.to_dict()["counts"][0][0] == big
    top = with_value(cm_dict(), ("counts", 0, 0), 2**63 - 1)
    top["counts"] = [[2**63 - 1, 0], [0, 0]]
    assert int(ConfusionMatrix.from_dict(top).counts[0, 0]) == 2**63 - 1


@pytest.mark.parametrize("name", ["ConfusionMatrix", "Accumulator"])
def test_total_beyond_int64_rejected(name: str) -> None:
    d = MAKERS[name]()
    d["counts"] = [[2**62, 2**62], [0, 0]]
    if "n_samples" in d:  # a matrix has no such field (and refuses one it does not know)
        d["n_samples"] = 2**63
    rejects(CLASSES[name], d, ValueError, r"field 'counts' adds up to 9223372036854775808")


# ----------------------------------------------------------------------------- float counts
BAD_FLOAT_COUNTS = [
    (float("nan"), ValueError, r"must be a finite non-negative number, got nan"),
    (float("inf"), ValueError, r"must be a finite non-negative number, got inf"),
    (-0.5, ValueError, r"must be a finite non-negative number, got -0\.5"),
    (True, TypeError, r"must be a non-negative number, got true \(a boolean\)"),
    ("1.5", TypeError, r"got '1\.5' \(a string\)"),
    (None, TypeError, r"got null"),
    (2**1024, ValueError, r"must be a finite non-negative number"),
]


@pytest.mark.parametrize(("value", "exc", "message"), BAD_FLOAT_COUNTS)
@pytest.mark.parametrize("name", ["ConfusionMatrix", "Accumulator", "ScoreHistogram"])
def test_weighted_count_rejected(name: str, value: Any, exc: type, message: str) -> None:
    if name == "ConfusionMatrix":
        d, path, shown = cm_weighted_dict(), ("counts", 0, 1), r"'counts'\[0\]\[1\]"
    elif name == "Accumulator":
        d, path, shown = acc_dict(weighted=True), ("counts", 0, 1), r"'counts'\[0\]\[1\]"
    else:
        d = ScoreHistogram(bins=4).update([0, 1], [0.2, 0.7], sample_weight=[0.5, 2.5]).to_dict()
        path, shown = ("values", 1), r"'values'\[1\]"
    assert d["dtype"] == "float64"
    rejects(CLASSES[name], with_value(d, path, value), exc, f"field {shown} .*{message}")


def test_accumulator_nan_counts_rejected() -> None:
    """Issue #11: Accumulator.from_dict accepted NaN counts and result() was a NaN matrix."""
    for d in (acc_dict(weighted=True), acc_dict()):
        bad = with_value(d, ("counts", 0, 0), float("nan"))
        with pytest.raises(ValueError, match=r"Accumulator\.from_dict: field 'counts'\[0\]\[0\]"):
            Accumulator.from_dict(bad)


def test_float_counts_huge_total_rejected() -> None:
    d = cm_weighted_dict()
    d["counts"] = [[1e308, 1e308], [0.0, 0.0]]
    rejects(ConfusionMatrix, d, ValueError, r"field 'counts' adds up to more than the float64")


# ----------------------------------------------------------------------------- dtype
@pytest.mark.parametrize("name", ["ConfusionMatrix", "Accumulator", "ScoreHistogram"])
def test_dtype_must_be_known(name: str) -> None:
    rejects(CLASSES[name], {**MAKERS[name](), "dtype": "int32"}, ValueError,
            r"field 'dtype' must be one of \"int64\", \"float64\"; got 'int32'")
    rejects(CLASSES[name], {**MAKERS[name](), "dtype": None}, ValueError, r"field 'dtype'")


def test_declared_dtype_is_obeyed() -> None:
    # weighted data declared as int64 is an error, not a truncation
    d = {**cm_weighted_dict(), "dtype": "int64"}
    rejects(ConfusionMatrix, d, ValueError, r"field 'counts'\[0\]\[0\] must be a non-negative "
            r"integer, got 6\.5")
    # integers declared float64 are weights
    back = ConfusionMatrix.from_dict({**cm_dict(), "dtype": "float64"})
    assert back.is_weighted and back.counts.tolist() == [[61.0, 2.0], [8.0, 58.0]]
    # no dtype: integers stay integers, any float makes the table weighted
    assert ConfusionMatrix.from_dict(without(cm_dict(), "dtype")).counts.dtype == np.int64
    assert ConfusionMatrix.from_dict(without(cm_weighted_dict(), "dtype")).is_weighted


# ----------------------------------------------------------------------------- shapes
@pytest.mark.parametrize("name", ["ConfusionMatrix", "Accumulator"])
def test_table_shape_rejected(name: str) -> None:
    cls, d = CLASSES[name], MAKERS[name]()
    total = {"n_samples": 3} if "n_samples" in d else {}  # a matrix has no such field
    rejects(cls, {**d, "counts": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], **total},
            ValueError, r"field 'counts' must have shape \(2, 2\) \(K x K for the 2 labels\), "
            r"got \(3, 3\)")
    rejects(cls, {**d, "counts": [[1, 0], [0]]}, ValueError,
            r"field 'counts'\[1\] has 1 entries but 'counts'\[0\] has 2")
    rejects(cls, {**d, "counts": 5}, TypeError, r"field 'counts' must be a list .*got 5")
    rejects(cls, {**d, "counts": [[1, 0], 3]}, TypeError, r"field 'counts'\[1\] must be a list")
    rejects(cls, {**d, "counts": "[[1, 0], [0, 1]]"}, TypeError, r"field 'counts' must be a list")


def test_outside_table_checked() -> None:
    d = cm_outside_dict()
    assert ConfusionMatrix.from_dict(d).n_outside == 3
    rejects(ConfusionMatrix, with_value(d, ("outside", 0, 0), 5), ValueError,
            r"the 'outside' table does not match 'counts'")
    rejects(ConfusionMatrix, {**d, "outside": [[1, 0], [0, 0]]}, ValueError,
            r"field 'outside' must have shape \(3, 3\)")
    rejects(ConfusionMatrix, with_value(d, ("outside", 2, 1), 0.5), ValueError,
            r"field 'outside'\[2\]\[1\] must be a non-negative integer, got 0\.5")


def test_orientation_checked() -> None:
    rejects(ConfusionMatrix, {**cm_dict(), "orientation": "sideways"}, ValueError,
            r"field 'orientation' must be one of \"true_rows\", \"pred_rows\"")
    back = ConfusionMatrix.from_dict({**cm_dict(), "orientation": "pred_rows"})
    assert back.counts.tolist() == [[61, 8], [2, 58]]


# ----------------------------------------------------------------------------- labels
BAD_LABELS = [
    (["cat", "cat"], ValueError, r"field 'labels' contains duplicates: \['cat'\]"),
    (["cat", 1], TypeError, r"field 'labels' mixes label kinds \['number', 'string'\]"),
    ([True, 1], TypeError, r"field 'labels' mixes label kinds \['boolean', 'number'\]"),
    (["cat", None], TypeError, r"field 'labels'\[1\] must be a string, number or boolean, got null"),
    (["cat", {"a": 1}], TypeError, r"field 'labels'\[1\] .* got an object"),
    ([1.0, float("nan")], ValueError, r"field 'labels'\[1\] must be finite, got nan"),
    ("catdog", TypeError, r"field 'labels' must be a list of labels, got 'catdog' \(a string\)"),
]


@pytest.mark.parametrize(("labels", "exc", "message"), BAD_LABELS)
@pytest.mark.parametrize("name", ["ConfusionMatrix", "Accumulator", "ScoreHistogram"])
def test_labels_rejected(name: str, labels: Any, exc: type, message: str) -> None:
    rejects(CLASSES[name], {**MAKERS[name](), "labels": labels}, exc, message)


def test_duplicate_labels_numbers() -> None:
    rejects(ConfusionMatrix, {**cm_dict(), "labels": [1, 1.0]}, ValueError,
            r"field 'labels' contains duplicates: \[1\.0\]")


def test_label_counts_rejected() -> None:
    rejects(ConfusionMatrix, {**cm_dict(), "labels": []}, ValueError,
            r"field 'labels' must name at least 1 class, got 0")
    rejects(ScoreHistogram, {**hist_dict(), "labels": ["x"]}, ValueError,
            r"field 'labels' must name at least 2 classes, got 1")
    rejects(Accumulator, {**acc_dict(), "labels": [], "labels_fixed": True}, ValueError,
            r"field 'labels' must name at least 1 class")


@pytest.mark.parametrize("name", ["Accumulator", "ScoreHistogram"])
def test_labels_beyond_one_numpy_integer_type_stay_exact(name: str) -> None:
    """-1 and 2**63 share no numpy integer type; the labels stay exact Python ints (a float
    conversion would make 2**63 + 1 equal 2**63)."""
    d = {**MAKERS[name](), "labels": [-1, 2**63, 2**63 + 1]}
    if name == "Accumulator":
        d.update(labels_fixed=True, counts=[[0] * 3] * 3, n_samples=0, scores=None)
    obj = CLASSES[name].from_dict(d)
    assert obj.labels == [-1, 2**63, 2**63 + 1]
    assert [type(v) for v in obj.labels] == [int, int, int]


def test_nested_histogram_labels_named() -> None:
    d = with_value(acc_dict(), ("scores", "labels"), ["a", "a"])
    rejects(Accumulator, d, ValueError, r"field 'scores'\['labels'\] contains duplicates")


def test_tuple_labels_only_for_the_matrix() -> None:
    cm = ConfusionMatrix([[1, 2], [3, 4]], labels=[("a", 1), ("b", 2)])
    assert ConfusionMatrix.from_json(cm.to_json()).labels == [("a", 1), ("b", 2)]
    rejects(ConfusionMatrix, {**cm.to_dict(), "labels": [["a", None], ["b", 2]]}, TypeError,
            r"field 'labels'\[0\]\[1\] must be a string, number or boolean, got null")
    rejects(Accumulator, {**acc_dict(), "labels": [["a"], ["b"]]}, TypeError,
            r"field 'labels'\[0\] must be a string, number or boolean, got a list")


def test_writer_refuses_what_the_reader_would() -> None:
    with pytest.raises(TypeError, match=r"ConfusionMatrix\.to_dict: field 'labels'\[0\] .* null"):
        ConfusionMatrix([[1, 0], [0, 1]], labels=[None, 1]).to_dict()
    with pytest.raises(TypeError, match=r"ConfusionMatrix\.to_dict: field 'labels' mixes"):
        ConfusionMatrix([[1, 0], [0, 1]], labels=[1, "a"]).to_dict()


# ----------------------------------------------------------------------------- Accumulator fields
@pytest.mark.parametrize("weighted", [False, True])
def test_n_samples_rejected(weighted: bool) -> None:
    d = acc_dict(weighted)
    rejects(Accumulator, {**d, "n_samples": -1}, ValueError,
            r"field 'n_samples' must be an integer >= 0, got -1")
    rejects(Accumulator, {**d, "n_samples": 3.5}, ValueError,
            r"field 'n_samples' must be an integer, got 3\.5")
    rejects(Accumulator, {**d, "n_samples": True}, TypeError,
            r"field 'n_samples' must be an integer, got true \(a boolean\)")
    rejects(Accumulator, {**d, "n_samples": "4"}, TypeError, r"field 'n_samples' must be an integer")
    rejects(Accumulator, without(d, "n_samples"), ValueError,
            r"data is missing the 'n_samples' field")


def test_n_samples_inconsistent() -> None:
    d = acc_dict()
    assert d["n_samples"] == 4
    rejects(Accumulator, {**d, "n_samples": 5}, ValueError,
            r"field 'n_samples' is 5 but the unweighted 'counts' add up to 4")
    rejects(Accumulator, {**acc_dict(True), "n_samples": 0}, ValueError,
            r"field 'n_samples' is 0 but 'counts' holds weights")
    empty = Accumulator().to_dict()
    rejects(Accumulator, {**empty, "n_samples": 2}, ValueError, r"field 'n_samples' is 2")


def test_accumulator_fields_rejected() -> None:
    d = acc_dict()
    rejects(Accumulator, {**d, "labels": ["b", "a"], "counts": [[1, 0], [1, 2]]}, ValueError,
            r"field 'labels' must be sorted when 'labels_fixed' is false")
    rejects(Accumulator, {**d, "labels_fixed": 1}, ValueError, r"field 'labels_fixed' must be one of")
    rejects(Accumulator, {**d, "track_scores": "yes"}, ValueError, r"field 'track_scores'")
    rejects(Accumulator, {**d, "track_scores": False}, ValueError,
            r"field 'scores' holds a histogram but 'track_scores' is false")
    rejects(Accumulator, {**d, "bins": 0}, ValueError, r"field 'bins' must be an integer >= 1")
    rejects(Accumulator, {**d, "n_updates": -2}, ValueError, r"field 'n_updates'")
    rejects(Accumulator, {**d, "score_range": [1.0, 0.0]}, ValueError,
            r"field 'score_range' must have lo < hi")
    rejects(Accumulator, {**d, "scores": [1, 2]}, TypeError,
            r"field 'scores' must be a mapping")
    rejects(Accumulator, with_value(d, ("scores", "schema"), "x"), ValueError,
            r"field 'scores' is not a confmat score histogram: field 'scores'\['schema'\]")


def test_accumulator_histogram_consistent_with_labels() -> None:
    d = acc_dict()
    d["scores"]["labels"] = ["a", "q"]
    rejects(Accumulator, d, ValueError,
            r"field 'scores' has samples of the classes \['q'\], which are not in 'labels'")


# ----------------------------------------------------------------------------- ScoreHistogram fields
def test_histogram_fields_rejected() -> None:
    d = hist_dict()
    h = ScoreHistogram
    rejects(h, {**d, "shape": [3, 3, 6]}, ValueError,
            r"field 'shape' is \[3, 3, 6\] but the 3 labels and 5 bins make \[3, 3, 5\]")
    rejects(h, {**d, "shape": [3, 3]}, ValueError, r"field 'shape' must have shape \(3\)")
    rejects(h, with_value(d, ("index", 0), 45), ValueError,
            r"field 'index'\[0\] is 45, beyond the 45 cells")
    rejects(h, with_value(d, ("index", 1), d["index"][0]), ValueError, r"field 'index' repeats a cell")
    rejects(h, {**d, "values": d["values"][:-1]}, ValueError,
            r"field 'values' must have shape \(\d+\) \(one value per entry of 'index'\)")
    rejects(h, {**d, "score_range": [0.0, float("nan")]}, ValueError,
            r"field 'score_range'\[1\] must be finite, got nan")
    rejects(h, {**d, "score_range": [0, "1"]}, TypeError, r"field 'score_range'\[1\] must be a number")
    rejects(h, {**d, "score_range": 1}, TypeError, r"field 'score_range' must be a list \[lo, hi\]")
    rejects(h, {**d, "bins": 2.5}, ValueError, r"field 'bins' must be an integer, got 2\.5")
    rejects(h, {**d, "bins": 2**40}, ValueError, r"field 'bins' gives a histogram of 3 x 3 x")
    rejects(h, without(d, "index"), ValueError, r"data is missing the 'index' field")


# ----------------------------------------------------------------------------- envelope
@pytest.mark.parametrize("name", list(CLASSES))
def test_envelope_rejected(name: str) -> None:
    cls, d = CLASSES[name], MAKERS[name]()
    rejects(cls, [d], TypeError, r"data must be a mapping .*got list")
    rejects(cls, {**d, "schema": "pycm"}, ValueError,
            r"data is not a confmat .*: field 'schema' must be 'confmat\.\w+', got 'pycm' ")
    rejects(cls, without(d, "schema"), ValueError, r"field 'schema' must be .* got null")
    # histograms and accumulators: version 2 keeps pos_label
    newest = 2 if name in ("ScoreHistogram", "Accumulator") else 1
    rejects(cls, {**d, "version": newest + 1}, ValueError,
            rf"unsupported schema version {newest + 1} .*\(field 'version'\): it was written "
            rf"by a newer confmat; this one reads version(s 1 to)? {newest}, upgrade confmat")
    rejects(cls, {**d, "version": 0}, ValueError, r"unsupported schema version 0 .* start at 1")
    rejects(cls, {**d, "version": "1"}, TypeError, r"field 'version' must be an integer, got '1'")
    rejects(cls, {**d, "version": True}, TypeError, r"field 'version' must be an integer, got true")
    rejects(cls, without(d, "version"), ValueError, r"data is missing the 'version' field")
    rejects(cls, without(d, "labels"), ValueError, r"data is missing the 'labels' field")


# ----------------------------------------------------------------------------- text
@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400", "-1e999"])
@pytest.mark.parametrize("name", list(CLASSES))
def test_non_finite_json_literals_rejected(name: str, literal: str) -> None:
    cls = CLASSES[name]
    path, _ = COUNT_AT[name]
    text = json.dumps(with_value(MAKERS[name](), path, "@@"))
    text = text.replace('"@@"', literal)
    with pytest.raises(ValueError, match=rf"{name}\.from_json: text contains "
                       rf"{re.escape(literal)}, which is not a finite number"):
        cls.from_json(text)


@pytest.mark.parametrize("name", list(CLASSES))
def test_bad_json_text_rejected(name: str) -> None:
    cls = CLASSES[name]
    with pytest.raises(ValueError, match=rf"{name}\.from_json: text is not valid JSON"):
        cls.from_json("{not json")
    with pytest.raises(ValueError, match=rf"{name}\.from_json: text is not valid JSON"):
        cls.from_json(b"\xff\xfe{")
    with pytest.raises(ValueError, match=rf"{name}\.from_json: text is nested too deeply"):
        cls.from_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(TypeError, match=rf"{name}\.from_json: text must be a JSON string"):
        cls.from_json(MAKERS[name]())
    with pytest.raises(TypeError, match=rf"{name}\.from_json: data must be a mapping"):
        cls.from_json("[1, 2]")


# ----------------------------------------------------------------------------- round trips
LABEL_POOLS = {
    "str": st.text(min_size=0, max_size=6),
    "int": st.integers(-(2**70), 2**70),
    "float": st.floats(allow_nan=False, allow_infinity=False),
    "bool": st.booleans(),
}
INT_COUNTS = st.one_of(st.integers(0, 1000), st.integers(0, 2**58),
                       st.sampled_from([2**53 + 1, 2**58 - 1]))
FLOAT_COUNTS = st.one_of(st.floats(0, 1e6), st.floats(0, 1e250), st.just(0.1), st.just(5e-324))


@st.composite
def label_lists(draw: Any, min_size: int = 1, max_size: int = 5) -> list[Any]:
    kind = draw(st.sampled_from(sorted(LABEL_POOLS)))
    if kind == "bool":
        max_size = min(max_size, 2)
    return draw(st.lists(LABEL_POOLS[kind], min_size=min_size, max_size=max_size,
                         unique_by=lambda v: v))


def assert_same_labels(a: list[Any], b: list[Any]) -> None:
    assert a == b and [type(v) for v in a] == [type(v) for v in b]


@settings(max_examples=200)
@given(label_lists(), st.booleans(), st.data())
def test_matrix_round_trip(labels: list[Any], weighted: bool, data: Any) -> None:
    k = len(labels)
    values = data.draw(st.lists(FLOAT_COUNTS if weighted else INT_COUNTS, min_size=k * k,
                                max_size=k * k))
    cm = ConfusionMatrix(np.array(values, dtype=np.float64 if weighted else np.int64)
                         .reshape(k, k), labels=labels)
    back = ConfusionMatrix.from_json(cm.to_json())
    assert back == cm and back.counts.dtype == cm.counts.dtype
    assert_same_labels(back.labels, cm.labels)
    assert back.to_dict() == cm.to_dict()
    assert back.counts.ravel().tolist() == values  # exact, 2**53 + 1 included


@settings(max_examples=100)
@given(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=30), st.data())
def test_matrix_round_trip_with_outside_margin(y_true: list[str], data: Any) -> None:
    y_pred = data.draw(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=len(y_true),
                                max_size=len(y_true)))
    labels = data.draw(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=3,
                                unique=True))
    w = data.draw(st.none() | st.lists(st.floats(0.01, 10), min_size=len(y_true),
                                       max_size=len(y_true)))
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, labels=labels, sample_weight=w,
                                          strict_labels=False)
    back = ConfusionMatrix.from_json(cm.to_json())
    assert back == cm and back.n_outside == cm.n_outside
    assert back.to_dict() == cm.to_dict()


@settings(max_examples=100)
@given(label_lists(min_size=2, max_size=4), st.booleans(), st.booleans(), st.booleans(),
       st.data())
def test_accumulator_round_trip(labels: list[Any], weighted: bool, with_scores: bool,
                                fixed: bool, data: Any) -> None:
    k = len(labels)
    # one score column of two labels: its class named (labels found name none unless they
    # are {0, 1}, {-1, 1}, {False, True}), and kept through JSON
    pos = data.draw(st.sampled_from(labels)) if with_scores and k == 2 else None
    acc = Accumulator(labels if fixed else None, scores=with_scores, bins=7,
                      score_range=(0.0, 1.0), pos_label=pos)
    for chunk in range(data.draw(st.integers(0, 3))):
        n = data.draw(st.integers(1, 12))
        codes = st.lists(st.integers(0, k - 1), min_size=n, max_size=n)
        t = [labels[i] for i in data.draw(codes)]
        p = [labels[i] for i in data.draw(codes)]
        if chunk == 0 and with_scores and not fixed:  # the histogram's classes: all labels
            t, p, n = labels + t, labels + p, n + k
        w = data.draw(st.lists(st.floats(0.01, 100), min_size=n, max_size=n)) if weighted else None
        s = None
        if with_scores:
            raw = np.array(data.draw(st.lists(st.floats(0.01, 1), min_size=n * k,
                                              max_size=n * k))).reshape(n, k)
            s = raw / raw.sum(axis=1, keepdims=True)
            if k == 2:
                s = np.clip(s[:, 1], 0.0, 1.0)
            else:
                s[:, -1] = 1.0 - s[:, :-1].sum(axis=1)
                s = np.clip(s, 0.0, 1.0)
        acc.update(t, p, scores=s, sample_weight=w)
    text = acc.to_json()
    back = Accumulator.from_json(text)
    assert back.to_json() == text
    assert back.counts.dtype == acc.counts.dtype
    np.testing.assert_array_equal(back.counts, acc.counts)
    assert_same_labels(back.labels, acc.labels)
    assert back.n_samples == acc.n_samples and back.labels_fixed == acc.labels_fixed
    assert back.pos_label == acc.pos_label
    if with_scores and acc.n_samples:
        assert back.curves() == acc.curves()
    if acc.n_samples and (not weighted or acc.counts.any()):
        assert back.result() == acc.result()


@settings(max_examples=150)
@given(label_lists(min_size=2, max_size=4), st.integers(1, 12), st.booleans(), st.data())
def test_histogram_round_trip(labels: list[Any], bins: int, weighted: bool, data: Any) -> None:
    lo = data.draw(st.floats(-1e6, 1e6))
    hi = data.draw(st.floats(lo, 2e6).filter(lambda v: v > lo))
    try:
        h = ScoreHistogram(labels, bins=bins, score_range=(lo, hi))
    except ValueError as exc:  # bins float64 cannot form (inputs.scores.check_score_range)
        assert "too narrow" in str(exc)
        return
    shape = h.counts.shape
    size = int(np.prod(shape))
    values = data.draw(st.lists(FLOAT_COUNTS if weighted else INT_COUNTS | st.just(0),
                                min_size=size, max_size=size))
    if not weighted and sum(values) > 2**63 - 1:
        # a histogram holds no such total (update and merge raise OverflowError), and its
        # JSON reader refuses one (test_histogram_total_past_int64_is_refused)
        values = [v // size for v in values]
    h.counts = np.array(values, dtype=np.float64 if weighted else np.int64).reshape(shape)
    back = ScoreHistogram.from_json(h.to_json())
    assert back == h and back.counts.dtype == h.counts.dtype
    assert_same_labels(back.labels, h.labels)
    assert back.counts.ravel().tolist() == h.counts.ravel().tolist()


# ----------------------------------------------------------------------------- fuzz
JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5000),
    st.sampled_from([2**63, 2**63 - 1, 2**53 + 1, -(2**63) - 1, 2**64, 10**30]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
    st.sampled_from(["confmat.confusion_matrix", "confmat.accumulator", "confmat.score_histogram",
                     "int64", "float64", "true_rows", "pred_rows"]),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=3),
    max_leaves=8,
)

FUZZ_SEEDS = {
    "ConfusionMatrix": [cm_dict, cm_weighted_dict, cm_outside_dict],
    "Accumulator": [acc_dict, lambda: acc_dict(True), lambda: Accumulator().to_dict()],
    "ScoreHistogram": [hist_dict,
                       lambda: ScoreHistogram(bins=3).update([0, 1], [0.2, 0.7],
                                                             sample_weight=[1.5, 2.0]).to_dict()],
}


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths(v, (*prefix, i))
    return out


@st.composite
def mutated(draw: Any, name: str) -> dict[str, Any]:
    d = draw(st.sampled_from(FUZZ_SEEDS[name]))()
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(paths(d)))
        parent = d
        for k in where[:-1]:
            parent = parent[k]
        action = draw(st.sampled_from(["replace", "replace", "drop"]))
        if action == "drop":
            del parent[where[-1]]
        else:
            parent[where[-1]] = draw(JSON_VALUES)
        if not paths(d):
            break
    return d


def check_fuzzed(cls: Any, d: dict[str, Any]) -> None:
    for load in (lambda: cls.from_dict(d), lambda: cls.from_json(json.dumps(d))):
        try:
            obj = load()
        except OK_ERRORS:
            continue
        again = cls.from_dict(obj.to_dict())  # what loaded is valid state
        assert again.to_dict() == obj.to_dict()
        assert json.dumps(obj.to_dict(), allow_nan=False)


@pytest.mark.parametrize("name", list(CLASSES))
@settings(max_examples=300)
@given(data=st.data())
def test_fuzzed_state_loads_or_raises_cleanly(name: str, data: Any) -> None:
    check_fuzzed(CLASSES[name], data.draw(mutated(name)))


@pytest.mark.parametrize("name", list(CLASSES))
def test_fuzz_mutations_reach_both_outcomes(name: str) -> None:
    """The mutations yield states that load and states that are refused (else the fuzz test
    above could pass without exercising either path)."""
    cls = CLASSES[name]

    def loads(d: dict[str, Any]) -> bool:
        try:
            cls.from_dict(d)
        except OK_ERRORS:
            return False
        return True

    seeds = [json.dumps(f()) for f in FUZZ_SEEDS[name]]
    find(mutated(name), lambda d: loads(d) and json.dumps(d) not in seeds)
    find(mutated(name), lambda d: not loads(d))


def test_histogram_total_past_int64_is_refused() -> None:
    h = ScoreHistogram([0, 1], bins=2)
    c = np.zeros(h.counts.shape, dtype=np.int64)
    c.flat[0] = c.flat[1] = 2**62  # each fits, the total is 2**63
    h.counts = c
    with pytest.raises(ValueError, match=r"adds up to 9223372036854775808, beyond the int64"):
        ScoreHistogram.from_json(h.to_json())
    c.flat[1] = 2**62 - 1  # 2**63 - 1: the largest total
    h.counts = c
    assert ScoreHistogram.from_json(h.to_json()) == h

