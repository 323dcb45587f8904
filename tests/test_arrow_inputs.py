"""Engine-held label columns (pyarrow, polars, pandas Arrow / categorical dtypes) count exactly
like plain Python lists do in scikit-learn, with the label semantics of issue #11:

* Arrow / polars / pandas columns of every flavour: strings (string, large_string, string_view,
  long strings that do not fit in a view, sliced arrays, random chunking), dictionaries (unused
  entries, a different dictionary per column, int and string values), polars String /
  Categorical / Enum / integers of every width / Boolean, pandas ``string[pyarrow]``,
  ``ArrowDtype`` and ``category`` (unused categories);
* the whole uint64 range, next to small ints and int8, without float promotion; bools;
* "NA", "null", "NaN" and "" are class names, a null is an error naming its column and row;
* ``labels=`` naming no class of ``y_true`` is an error, as in scikit-learn.

Expected tables come from ``sklearn.metrics.confusion_matrix`` on plain Python lists built from
the same values (or are tallied by hand with ``collections.Counter``).
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix

from confmat import ConfusionMatrix
from confmat.counting.kernels import confusion_counts

# sklearn warns when only one label occurs; that case is part of what is being tested
pytestmark = pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")

WORDS = [
    "bus", "opel", "saab", "van", "", "NA", "null", "NaN", "None", "nan", "a",
    "twelve_bytes", "thirteen_byte", "a considerably longer class name",
    "a considerably longer class nam3", "ünïcödé", "日本語のラベル", "x\x00y",
]


def by_hand(y_true, y_pred, labels, weights=None):
    tally: Counter = Counter()
    for i, pair in enumerate(zip(y_true, y_pred, strict=True)):
        tally[pair] += 1 if weights is None else weights[i]
    return np.array([[tally[(a, b)] for b in labels] for a in labels])


def chunked(values, cuts, typ=None):
    bounds = [0, *sorted(set(cuts)), len(values)]
    parts = [values[a:b] for a, b in pairwise(bounds)]
    return pa.chunked_array([pa.array(part, type=typ) for part in parts], type=typ)


def dictionary(values, extra, index_type=None):
    """A dictionary array whose dictionary also holds unused entries (``extra``), shuffled."""
    index_type = index_type or pa.int32()
    entries = list(dict.fromkeys([*extra, *values]))
    entries = entries[::-1]
    pos = {v: i for i, v in enumerate(entries)}
    return pa.DictionaryArray.from_arrays(pa.array([pos[v] for v in values], type=index_type),
                                          pa.array(entries))


# containers for string labels: name -> builder(values, data) (data draws chunking etc.)
STRING_CONTAINERS = {
    "list": lambda v, d: list(v),
    "numpy_object": lambda v, d: np.array(v, dtype=object),
    "pa_string": lambda v, d: pa.array(v, type=pa.string()),
    "pa_large_string": lambda v, d: pa.array(v, type=pa.large_string()),
    "pa_string_view": lambda v, d: pa.array(v, type=pa.string_view()),
    "pa_sliced": lambda v, d: pa.array(["pad", *v, "pad"], type=d.draw(
        st.sampled_from([pa.string(), pa.large_string(), pa.string_view()]))).slice(1, len(v)),
    "pa_chunked": lambda v, d: chunked(v, d.draw(st.lists(st.integers(0, len(v)), max_size=4)),
                                       d.draw(st.sampled_from([pa.string(), pa.string_view()]))),
    "pa_dictionary": lambda v, d: dictionary(v, d.draw(st.lists(st.sampled_from(WORDS),
                                                                max_size=4)),
                                             d.draw(st.sampled_from([pa.int8(), pa.int32(),
                                                                     pa.uint16(), pa.int64()]))),
    "pa_dictionary_chunked": lambda v, d: pa.chunked_array(
        [dictionary(v[: len(v) // 2], ["unused"]), dictionary(v[len(v) // 2 :], ["other"])]),
    "polars_string": lambda v, d: pl.Series(v, dtype=pl.String),
    "polars_categorical": lambda v, d: pl.Series(v, dtype=pl.Categorical),
    "polars_enum": lambda v, d: pl.Series(v, dtype=pl.Enum(sorted(set(v) | {"unused"}))),
    "polars_frame_column": lambda v, d: pl.DataFrame({"y": v})["y"],
    "polars_concat": lambda v, d: pl.concat([pl.Series(v[:1]), pl.Series(v[1:])],
                                            rechunk=False),
    "pandas_string_pyarrow": lambda v, d: pd.Series(v, dtype="string[pyarrow]"),
    "pandas_arrow_dtype": lambda v, d: pd.Series(v, dtype=pd.ArrowDtype(pa.string())),
    "pandas_str": lambda v, d: pd.Series(v, dtype="str"),
    "pandas_category": lambda v, d: pd.Series(pd.Categorical(
        v, categories=sorted(set(v) | {"unused"}))),
    "pandas_object": lambda v, d: pd.Series(v, dtype=object),
}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=40),
    st.sampled_from(sorted(STRING_CONTAINERS)),
    st.sampled_from(sorted(STRING_CONTAINERS)),
    st.booleans(),
    st.data(),
)
def test_string_columns_count_like_sklearn(y_true, make_t, make_p, use_numba, data):
    y_pred = data.draw(st.lists(st.sampled_from(WORDS), min_size=len(y_true),
                                max_size=len(y_true)))
    t = STRING_CONTAINERS[make_t](y_true, data)
    p = STRING_CONTAINERS[make_p](y_pred, data)
    labels = None
    if data.draw(st.booleans()):
        labels = data.draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6, unique=True))
    weights = None
    if data.draw(st.booleans()):
        weights = [float(x) for x in data.draw(st.lists(st.integers(0, 4), min_size=len(y_true),
                                                        max_size=len(y_true)))]
        weights[0] += 1.0
    if labels is not None and not set(labels) & set(y_true):
        with pytest.raises(ValueError, match=r"labels names no class that occurs in y_true"):
            confusion_counts(t, p, labels=labels, sample_weight=weights, use_numba=use_numba)
        return
    table, out_labels, _ = confusion_counts(t, p, labels=labels, sample_weight=weights,
                                            use_numba=use_numba)
    expected_labels = labels if labels is not None else sorted(set(y_true) | set(y_pred))
    assert out_labels == expected_labels
    assert all(type(v) is str for v in out_labels)
    k = len(expected_labels)
    expected = confusion_matrix(y_true, y_pred, labels=expected_labels, sample_weight=weights)
    np.testing.assert_array_equal(table[:k, :k], expected)
    assert table.sum() == (len(y_true) if weights is None else sum(weights))


INT_TYPES = [pa.int8(), pa.int16(), pa.int32(), pa.int64(),
             pa.uint8(), pa.uint16(), pa.uint32(), pa.uint64()]
POLARS_INTS = [pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16, pl.UInt32, pl.UInt64]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(0, 120), min_size=1, max_size=40),
    st.sampled_from(["pa", "pa_chunked", "pa_dictionary", "polars", "pandas_arrow",
                     "pandas_category", "numpy"]),
    st.booleans(),
    st.data(),
)
def test_integer_columns_count_like_sklearn(y_true, kind, use_numba, data):
    y_pred = data.draw(st.lists(st.integers(0, 120), min_size=len(y_true), max_size=len(y_true)))
    width = data.draw(st.integers(0, 7))

    def make(v):
        if kind == "pa":
            return pa.array(v, type=INT_TYPES[width])
        if kind == "pa_chunked":
            return chunked(v, data.draw(st.lists(st.integers(0, len(v)), max_size=3)),
                           INT_TYPES[width])
        if kind == "pa_dictionary":
            return pa.array(v, type=INT_TYPES[width]).dictionary_encode()
        if kind == "polars":
            return pl.Series(v, dtype=POLARS_INTS[width])
        if kind == "pandas_arrow":
            return pd.Series(v, dtype=pd.ArrowDtype(INT_TYPES[width]))
        if kind == "pandas_category":
            return pd.Series(pd.Categorical(v, categories=sorted(set(v) | {999})))
        return np.array(v, dtype=INT_TYPES[width].to_pandas_dtype())

    weights = None
    if data.draw(st.booleans()):
        weights = np.array(data.draw(st.lists(st.integers(0, 3), min_size=len(y_true),
                                              max_size=len(y_true))), dtype=float)
        weights[-1] += 1
    table, labels, _ = confusion_counts(make(y_true), make(y_pred), sample_weight=weights,
                                        use_numba=use_numba)
    assert labels == sorted(set(y_true) | set(y_pred))
    assert all(type(v) is int for v in labels)
    np.testing.assert_array_equal(
        table, confusion_matrix(y_true, y_pred, labels=labels, sample_weight=weights))


def test_polars_dataframe_columns_and_every_polars_int_width():
    rng = np.random.default_rng(0)
    t = rng.integers(0, 5, 200)
    p = np.where(rng.random(200) < 0.6, t, rng.integers(0, 5, 200))
    expected = confusion_matrix(t.tolist(), p.tolist())
    for dtype in POLARS_INTS:
        df = pl.DataFrame({"t": t, "p": p}).with_columns(pl.all().cast(dtype))
        cm = ConfusionMatrix.from_predictions(df["t"], df["p"])
        assert cm.labels == [0, 1, 2, 3, 4]
        np.testing.assert_array_equal(cm.counts, expected)


@pytest.mark.parametrize("use_numba", [True, False])
def test_uint64_near_the_top_next_to_small_ints_and_int8(use_numba):
    top = 2**64 - 1
    y_true = np.array([top, top - 1, 3, top, 0, top - 1], dtype=np.uint64)
    y_pred = np.array([3, -1, 3, 0, -128, 3], dtype=np.int8)
    table, labels, _ = confusion_counts(y_true, y_pred, use_numba=use_numba)
    t_list = [int(v) for v in y_true]
    p_list = [int(v) for v in y_pred]
    assert labels == sorted(set(t_list) | set(p_list))
    assert labels[-2:] == [top - 1, top] and all(type(v) is int for v in labels)
    np.testing.assert_array_equal(table, by_hand(t_list, p_list, labels))
    # the same labels from lists (numpy would turn [2**64 - 1, 3] into float64) and Arrow
    cm = ConfusionMatrix.from_predictions(t_list, t_list[::-1])
    assert cm.labels == sorted(set(t_list))
    np.testing.assert_array_equal(cm.counts, by_hand(t_list, t_list[::-1], cm.labels))
    cm2 = ConfusionMatrix.from_predictions(pa.array(t_list, type=pa.uint64()),
                                           pl.Series(t_list[::-1], dtype=pl.UInt64))
    assert cm2 == cm


@pytest.mark.parametrize("use_numba", [True, False])
def test_uint64_in_a_narrow_range_at_the_top_is_counted_directly(use_numba):
    top = 2**64 - 1
    t = np.array([top, top - 2, top - 1, top] * 3, dtype=np.uint64)
    p = np.array([top - 2, top - 2, top, top] * 3, dtype=np.uint64)
    table, labels, _ = confusion_counts(t, p, use_numba=use_numba)
    assert labels == [top - 2, top - 1, top]
    np.testing.assert_array_equal(table, by_hand([int(v) for v in t], [int(v) for v in p],
                                                 labels))
    # next to negative int64 labels: two labels 2**64 apart never share a cell
    t2 = np.array([top, 5, top], dtype=np.uint64)
    p2 = np.array([-1, 5, -1], dtype=np.int64)
    table, labels, _ = confusion_counts(t2, p2, use_numba=use_numba)
    assert labels == [-1, 5, top]
    assert table.tolist() == [[0, 0, 0], [0, 1, 0], [2, 0, 0]]


def test_lists_of_huge_ints_keep_every_label():
    big = [2**63, 2**63 + 1, 2**64 - 1, 2**64 - 2]
    cm = ConfusionMatrix.from_predictions(big, big[::-1])
    assert cm.labels == sorted(big)
    mixed = [-(2**63), 2**64 - 1, 7]
    cm = ConfusionMatrix.from_predictions(mixed, mixed)
    assert cm.labels == sorted(mixed) and cm.counts.trace() == 3
    with_float = [2**60 + 1, 0.5, 2**60]
    cm = ConfusionMatrix.from_predictions(with_float, with_float)
    assert cm.labels == [0.5, 2**60, 2**60 + 1]


@pytest.mark.parametrize(
    "make",
    [
        np.array,
        lambda v: pa.array(v, type=pa.bool_()),
        lambda v: pl.Series(v, dtype=pl.Boolean),
        lambda v: pd.Series(v, dtype="boolean"),
        lambda v: pd.Series(v, dtype=pd.ArrowDtype(pa.bool_())),
        list,
    ],
    ids=["numpy", "pyarrow", "polars", "pandas_boolean", "pandas_arrow", "list"],
)
@pytest.mark.parametrize("use_numba", [True, False])
def test_bools_are_their_own_kind(make, use_numba):
    y_true = [True, False, True, True, False]
    y_pred = [True, True, False, True, False]
    table, labels, _ = confusion_counts(make(y_true), make(y_pred), use_numba=use_numba)
    assert labels == [False, True] and all(type(v) is bool for v in labels)
    np.testing.assert_array_equal(table, confusion_matrix(y_true, y_pred))
    with pytest.raises(TypeError, match="mix"):
        confusion_counts(make(y_true), [1, 0, 1, 1, 0], use_numba=use_numba)
    with pytest.raises(TypeError, match="labels"):
        confusion_counts(make(y_true), make(y_pred), labels=[0, 1], use_numba=use_numba)


NA_LIKE = ["NA", "null", "NaN", "", "None", "nan", "N/A"]


@pytest.mark.parametrize(
    "make",
    [list, lambda v: np.array(v, dtype=object), np.array, pa.array,
     lambda v: pa.array(v).dictionary_encode(), pl.Series,
     lambda v: pl.Series(v, dtype=pl.Categorical), lambda v: pd.Series(v, dtype=object),
     lambda v: pd.Series(v, dtype="str"), lambda v: pd.Series(v, dtype="category")],
    ids=["list", "numpy_object", "numpy_unicode", "pyarrow", "pa_dictionary", "polars",
         "polars_categorical", "pandas_object", "pandas_str", "pandas_category"],
)
@pytest.mark.parametrize("use_numba", [True, False])
def test_na_like_strings_are_class_names(make, use_numba):
    y_true = [*NA_LIKE, "x"]
    y_pred = [*NA_LIKE[::-1], "NA"]
    table, labels, _ = confusion_counts(make(y_true), make(y_pred), use_numba=use_numba)
    assert labels == sorted(set(y_true) | set(y_pred))
    np.testing.assert_array_equal(table, confusion_matrix(y_true, y_pred, labels=labels))


@pytest.mark.parametrize(
    ("make", "position"),
    [
        (lambda v: pa.array(v), 3),
        (lambda v: pa.array(v, type=pa.string_view()), 3),
        (lambda v: pa.chunked_array([pa.array(v[:2]), pa.array(v[2:])]), 3),
        (lambda v: pa.array(v).dictionary_encode(), 3),
        (lambda v: pl.Series(v), 3),
        (lambda v: pl.Series(v, dtype=pl.Categorical), 3),
        (lambda v: pd.Series(v, dtype="string[pyarrow]"), 3),
        (lambda v: pd.Series(v, dtype=pd.ArrowDtype(pa.string())), 3),
        (lambda v: pd.Series(v, dtype="category"), 3),
        (lambda v: pd.Series(v, dtype="str"), 3),
    ],
    ids=["pa", "pa_view", "pa_chunked", "pa_dictionary", "polars", "polars_categorical",
         "pandas_string_pyarrow", "pandas_arrow_dtype", "pandas_category", "pandas_str"],
)
def test_nulls_are_errors_naming_the_column_and_position(make, position):
    values = ["a", "b", "a", None, "b"]
    clean = ["a", "b", "a", "a", "b"]
    with pytest.raises(ValueError, match=rf"y_true contains a missing label.*position {position}"):
        ConfusionMatrix.from_predictions(make(values), clean)
    with pytest.raises(ValueError, match=rf"y_pred contains a missing label.*position {position}"):
        ConfusionMatrix.from_predictions(clean, make(values))


def test_null_integers_and_null_dictionary_values_are_errors():
    with pytest.raises(ValueError, match=r"y_true contains a missing label.*position 1"):
        ConfusionMatrix.from_predictions(pa.array([1, None, 2]), [1, 2, 2])
    with pytest.raises(ValueError, match=r"y_pred contains a missing label.*position 2"):
        ConfusionMatrix.from_predictions([1, 2, 2], pl.Series([1, 2, None]))
    # a dictionary whose *value* is null, referenced by row 2
    arr = pa.DictionaryArray.from_arrays(pa.array([0, 1, 2, 0]), pa.array(["a", "b", None]))
    with pytest.raises(ValueError, match=r"y_true contains a missing label.*position 2"):
        ConfusionMatrix.from_predictions(arr, ["a", "a", "a", "a"])
    # ... but an unused null entry is no label at all
    arr = pa.DictionaryArray.from_arrays(pa.array([0, 1, 1, 0]), pa.array(["a", "b", None]))
    assert ConfusionMatrix.from_predictions(arr, ["a", "a", "b", "b"]).labels == ["a", "b"]


@pytest.mark.parametrize(
    "make", [list, np.array, pa.array, pl.Series, lambda v: pd.Series(v, dtype="category")],
    ids=["list", "numpy", "pyarrow", "polars", "pandas_category"],
)
def test_labels_naming_no_class_of_y_true_is_an_error(make):
    y_true = ["cat", "dog", "cat"]
    y_pred = ["cat", "eel", "eel"]
    with pytest.raises(ValueError, match="At least one label specified must be in y_true"):
        confusion_matrix(y_true, y_pred, labels=["eel", "fox"])  # scikit-learn's rule
    with pytest.raises(ValueError, match=r"labels names no class.*y_true.*\['cat', 'dog'\]"):
        ConfusionMatrix.from_predictions(make(y_true), make(y_pred), labels=["eel", "fox"])
    # one listed class of y_true is enough, as in scikit-learn
    cm = ConfusionMatrix.from_predictions(make(y_true), make(y_pred), labels=["dog", "eel"])
    np.testing.assert_array_equal(
        cm.counts, confusion_matrix(y_true, y_pred, labels=["dog", "eel"]))
    # the metric functions mirroring precision_recall_fscore_support may opt out
    table, labels, _ = confusion_counts(make(y_true), make(y_pred), labels=["eel", "fox"],
                                        strict_labels=False)
    assert labels == ["eel", "fox"] and table[:2, :2].tolist() == [[0, 0], [0, 0]]


@pytest.mark.parametrize("use_numba", [True, False])
def test_many_distinct_long_strings_grow_the_hash_table(use_numba):
    """Thousands of classes (the hash table grows several times), long strings that share
    their length and first bytes (only the bytes tell them apart)."""
    rng = np.random.default_rng(3)
    names = [f"class number {i:05d} with a long name" for i in range(3000)]
    t = [names[i] for i in rng.integers(0, 3000, 20_000)]
    p = [names[i] for i in rng.integers(0, 3000, 20_000)]
    for make in (pa.array, lambda v: pa.array(v, type=pa.large_string()), pl.Series):
        table, labels, _ = confusion_counts(make(t), make(p), use_numba=use_numba)
        assert labels == sorted(set(t) | set(p))
        index = {v: i for i, v in enumerate(labels)}
        expected = np.zeros((len(labels), len(labels)), dtype=np.int64)
        np.add.at(expected, ([index[v] for v in t], [index[v] for v in p]), 1)
        np.testing.assert_array_equal(table, expected)


def test_binary_columns_give_bytes_labels():
    t = pa.array([b"a", b"b\x00", b"a"], type=pa.binary())
    p = pa.array([b"b\x00", b"b\x00", b"a"], type=pa.binary_view())
    for use_numba in (True, False):
        table, labels, _ = confusion_counts(t, p, use_numba=use_numba)
        assert labels == [b"a", b"b\x00"]
        assert table.tolist() == [[1, 1], [0, 1]]


def test_arrow_and_numpy_columns_mix():
    y_true = ["b", "a", "c", "a"]
    y_pred = ["a", "a", "c", "b"]
    expected = confusion_matrix(y_true, y_pred)
    for t, p in [(pa.array(y_true), np.array(y_pred, dtype=object)),
                 (pl.Series(y_true, dtype=pl.Categorical), y_pred),
                 (pd.Series(y_true, dtype="category"), pa.array(y_pred).dictionary_encode())]:
        np.testing.assert_array_equal(ConfusionMatrix.from_predictions(t, p).counts, expected)
    with pytest.raises(TypeError, match="mix"):
        ConfusionMatrix.from_predictions(pa.array(y_true), pa.array([1, 2, 3, 4]))


def test_large_arrow_string_columns_take_the_compiled_path():
    """Above NUMBA_MIN_SIZE the default path factorises Arrow strings with the kernels (both
    columns at once); it agrees with pyarrow's own dictionary_encode path."""
    from confmat.counting.kernels import NUMBA_MIN_SIZE

    rng = np.random.default_rng(5)
    names = np.array(["bus", "opel", "saab", "van", "a much longer label than twelve bytes"])
    n = NUMBA_MIN_SIZE + 1234
    ti = rng.integers(0, 5, n)
    pi = np.where(rng.random(n) < 0.7, ti, rng.integers(0, 5, n))
    df = pl.DataFrame({"t": names[ti], "p": names[pi]})
    fast, labels, _ = confusion_counts(df["t"], df["p"])
    slow, labels2, _ = confusion_counts(df["t"], df["p"], use_numba=False)
    assert labels == labels2 == sorted(names.tolist())
    np.testing.assert_array_equal(fast, slow)
    order = np.argsort(names)
    rank = np.empty(5, dtype=np.int64)
    rank[order] = np.arange(5)
    expected = np.bincount(rank[ti] * 5 + rank[pi], minlength=25).reshape(5, 5)
    np.testing.assert_array_equal(fast, expected)


@pytest.mark.parametrize("use_numba", [True, False])
def test_object_arrays_with_equal_strings_in_distinct_objects(use_numba):
    """An object array is factorised by the identity of its elements: equal strings held by
    different objects are one label, a None is an error at its position, and more distinct
    objects than the compiled table takes fall back to pandas.factorize."""
    t = np.array(["".join(["ca", "t"]) for _ in range(6)] + ["dog"] * 2, dtype=object)
    p = np.array(["cat", "dog"] * 4, dtype=object)
    assert t[0] is not t[1]
    table, labels, _ = confusion_counts(t, p, use_numba=use_numba)
    assert labels == ["cat", "dog"]
    np.testing.assert_array_equal(table, confusion_matrix(t.tolist(), p.tolist()))
    bad = t.copy()
    bad[5] = None
    with pytest.raises(ValueError, match=r"y_pred contains a missing label.*position 5"):
        confusion_counts(p, bad, use_numba=use_numba)
    fresh = np.array([f"label {i % 70_000}" for i in range(140_000)], dtype=object)
    table, labels, _ = confusion_counts(fresh, fresh, use_numba=use_numba, strict_labels=False,
                                        labels=["label 1", "label 2"])
    assert table[:2, :2].tolist() == [[2, 0], [0, 2]]
