"""Sources of several files whose column types differ (issue #11: no label shifted, no kind of
value silently changed).

DuckDB reads the files of a multi-file source with the first file's types unless asked to
unify them: a later file's float label 1.5 was rounded into the integer 2, text "01" was cast
to the integer 1, booleans to 0 / 1. confmat unifies integer widths (and float widths)
exactly and refuses any other mix of kinds in a column it reads.

Oracles: pyarrow's read of each file on its own (Parquet), Python's ``csv`` and ``json``
modules (text formats); counts by ``collections.Counter`` over Python values.
"""

from __future__ import annotations

import csv
import json
import os
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("duckdb")

import confmat.io as cio  # noqa: E402

INT_TYPES = {
    "int8": (pa.int8(), -(2**7), 2**7 - 1),
    "int16": (pa.int16(), -(2**15), 2**15 - 1),
    "int32": (pa.int32(), -(2**31), 2**31 - 1),
    "int64": (pa.int64(), -(2**63), 2**63 - 1),
    "uint8": (pa.uint8(), 0, 2**8 - 1),
    "uint16": (pa.uint16(), 0, 2**16 - 1),
    "uint32": (pa.uint32(), 0, 2**32 - 1),
    "uint64": (pa.uint64(), 0, 2**64 - 1),
}
#: values a label may take; each file uses those its type can hold
POOL = [0, 1, 2, 3, 100, 127, -1, -128, 255, 40_000, -40_000, 2**31 - 1, -(2**31), 2**32 - 1,
        2**53 + 1, 2**63 - 1, -(2**63), 2**63, 2**64 - 2, 2**64 - 1]


def _oracle(columns: list[dict[str, list]]) -> tuple[list, np.ndarray]:
    """Labels (sorted union) and the table, counted over Python values."""
    pairs = Counter()
    for cols in columns:
        pairs.update(zip(cols["y"], cols["p"], strict=True))
    labels = sorted({v for pair in pairs for v in pair})
    index = {v: i for i, v in enumerate(labels)}
    table = np.zeros((len(labels), len(labels)), dtype=np.int64)
    for (t, p), n in pairs.items():
        table[index[t], index[p]] += n
    return labels, table


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_integer_widths_unified_exactly(tmp_path_factory, data):
    """Files whose label columns have different integer types (signed, unsigned, 8 to 64
    bits) count every label exactly, as pyarrow reads each file."""
    root = tmp_path_factory.mktemp("ints")
    n_files = data.draw(st.integers(2, 4), label="files")
    read_back = []
    for i in range(n_files):
        name = data.draw(st.sampled_from(sorted(INT_TYPES)), label=f"type{i}")
        typ, lo, hi = INT_TYPES[name]
        fits = [v for v in POOL if lo <= v <= hi]
        n = data.draw(st.integers(1, 30), label=f"rows{i}")
        y = data.draw(st.lists(st.sampled_from(fits), min_size=n, max_size=n), label=f"y{i}")
        p = data.draw(st.lists(st.sampled_from(fits), min_size=n, max_size=n), label=f"p{i}")
        path = os.path.join(root, f"part{i}.parquet")
        pq.write_table(pa.table({"y": pa.array(y, typ), "p": pa.array(p, typ)}), path)
        back = pq.read_table(path)
        read_back.append({"y": back["y"].to_pylist(), "p": back["p"].to_pylist()})
    labels, table = _oracle(read_back)
    cm, rep = cio.evaluate_file(str(root), "y", "p")
    assert [int(v) for v in cm.labels] == labels
    assert np.array_equal(cm.counts, table)
    assert rep.rows_read == sum(len(c["y"]) for c in read_back)


def test_streaming_unified_integers(tmp_path):
    """Several score columns stream the files (not a GROUP BY); with int8 labels in one file
    and int64 in the other the stream is the unified relation's, counted exactly."""
    rng = np.random.default_rng(5)
    read_back = []
    for i, typ in enumerate((pa.int8(), pa.int64())):
        n = 200
        y = rng.integers(0, 3, n)
        p = rng.integers(0, 3, n)
        s = rng.dirichlet(np.ones(3), n)
        path = tmp_path / f"part{i}.parquet"
        pq.write_table(pa.table({"y": pa.array(y, typ), "p": pa.array(p, typ),
                                 "s0": s[:, 0], "s1": s[:, 1], "s2": s[:, 2]}), path)
        back = pq.read_table(path)
        read_back.append({"y": back["y"].to_pylist(), "p": back["p"].to_pylist()})
    labels, table = _oracle(read_back)
    cm, rep = cio.evaluate_file(str(tmp_path), "y", "p", score_cols=["s0", "s1", "s2"],
                                labels=[0, 1, 2])
    assert cm.labels == labels
    assert np.array_equal(cm.counts, table)
    # every row reached the score histograms: per true class and score column, its rows
    per_class = Counter(v for cols in read_back for v in cols["y"])
    hist = rep.curves
    for c, label in enumerate(hist.labels):
        assert hist.counts[c].sum(axis=-1).tolist() == [per_class[label]] * 3
    assert rep.rows_read == 400


def test_float_widths_unified(tmp_path):
    """float32 scores in one file and float64 in another: read as doubles (float32 widens
    exactly), the label counts as pyarrow reads them."""
    rows = []
    for i, typ in enumerate((pa.float32(), pa.float64())):
        y = [0, 1, 1, 0, 1]
        s = [0.25, 0.5, 0.75, 0.125, 0.875]
        path = tmp_path / f"part{i}.parquet"
        pq.write_table(pa.table({"y": y, "p": [0, 1, 0, 0, 1], "s": pa.array(s, typ)}), path)
        back = pq.read_table(path)
        rows.append({"y": back["y"].to_pylist(), "p": back["p"].to_pylist()})
    labels, table = _oracle(rows)
    cm, rep = cio.evaluate_file(str(tmp_path), "y", "p", score_cols="s", bins=8)
    assert cm.labels == labels and np.array_equal(cm.counts, table)
    assert rep.rows_read == 10
    # the scores' histogram: 0.125 * k lands in bin k of 8 whatever the float width
    hist = rep.curves
    expect = np.zeros((2, 8), dtype=np.int64)
    for label, score in [(0, 0.25), (1, 0.5), (1, 0.75), (0, 0.125), (1, 0.875)] * 2:
        expect[label, int(score * 8)] += 1
    assert np.array_equal(hist.counts[:, 0, :], expect)


MIXES = [
    (pa.array([0, 1], pa.int64()), pa.array([1.5, 2.0]), "BIGINT", "DOUBLE"),
    (pa.array([0, 1], pa.int64()), pa.array(["1", "01"]), "BIGINT", "VARCHAR"),
    (pa.array(["a", "1"]), pa.array([1, 1], pa.int64()), "VARCHAR", "BIGINT"),
    (pa.array([0, 1], pa.int64()), pa.array([True, False]), "BIGINT", "BOOLEAN"),
    (pa.array([0.5, 1.0]), pa.array(["x", "y"]), "DOUBLE", "VARCHAR"),
]


@pytest.mark.parametrize("first, second, t1, t2", MIXES)
def test_kinds_mixed_across_files_are_refused(tmp_path, first, second, t1, t2):
    """DuckDB alone reads the second file with the first one's type (1.5 rounded to 2, "01"
    cast to 1, True to 1); confmat refuses, naming the column, both types and both files."""
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    pq.write_table(pa.table({"y": first, "p": first}), a)
    pq.write_table(pa.table({"y": second, "p": second}), b)
    with pytest.raises(ValueError) as err:
        cio.evaluate_file(str(tmp_path), "y", "p")
    msg = str(err.value)
    assert "column 'y'" in msg and t1 in msg and t2 in msg
    assert str(a) in msg and str(b) in msg and "one type" in msg
    # each file alone is read as pyarrow reads it (the control)
    for path in (a, b):
        cm, _ = cio.evaluate_file(str(path), "y", "p")
        back = pq.read_table(path)
        labels, table = _oracle([{"y": back["y"].to_pylist(), "p": back["p"].to_pylist()}])
        assert cm.labels == labels and np.array_equal(cm.counts, table)


def test_mixed_column_not_read_is_no_error(tmp_path):
    """A column the evaluation does not read may differ between files."""
    rows = []
    for i, note in enumerate((pa.array([1, 2], pa.int64()), pa.array(["x", "y"]))):
        path = tmp_path / f"part{i}.parquet"
        pq.write_table(pa.table({"y": [0, 1], "p": [1, 1], "note": note}), path)
        back = pq.read_table(path)
        rows.append({"y": back["y"].to_pylist(), "p": back["p"].to_pylist()})
    cm, _ = cio.evaluate_file(str(tmp_path), "y", "p")
    labels, table = _oracle(rows)
    assert cm.labels == labels and np.array_equal(cm.counts, table)
    with pytest.raises(ValueError, match="column 'note' is BIGINT"):
        cio.read_columns(str(tmp_path), ["y", "note"])


def test_column_missing_from_a_file(tmp_path):
    pq.write_table(pa.table({"y": [0, 1], "p": [1, 1]}), tmp_path / "a.parquet")
    pq.write_table(pa.table({"y": [0, 1]}), tmp_path / "b.parquet")
    with pytest.raises(ValueError, match=r"column 'p' is missing from '.*b\.parquet'"):
        cio.evaluate_file(str(tmp_path), "y", "p")


def _csv_rows(paths) -> list[dict[str, list]]:
    out = []
    for path in paths:
        with open(path, newline="") as fh:
            rows = list(csv.DictReader(fh))
        out.append({"y": [r["y"] for r in rows], "p": [r["p"] for r in rows]})
    return out


def test_csv_types_sniffed_differently(tmp_path):
    """DuckDB's sniffer reads one file's labels as integers and another's as text; the union
    would turn the integers into text, so the number 1 of one file and the text "1" of the
    other become one class. Refused with a hint; read as text, every label is as written
    (Python's csv module)."""
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("y,p\n0,a\n1,b\n")
    b.write_text("y,p\nx,a\n1,b\n01,a\n")
    with pytest.raises(ValueError, match=r"column 'y' is BIGINT in .* but VARCHAR in .*column_types"):
        cio.evaluate_file(str(tmp_path / "*.csv"), "y", "p")
    cm, _ = cio.evaluate_file(str(tmp_path / "*.csv"), "y", "p",
                              column_types={"y": "string"})
    labels, table = _oracle(_csv_rows([a, b]))
    assert cm.labels == labels and np.array_equal(cm.counts, table)


def test_jsonl_integers_past_int64_unified(tmp_path):
    """JSON lines: one file's labels fit int64, another's need uint64; the union holds both
    exactly (Python's json module as the oracle). A float label in a third file is refused."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("".join(json.dumps({"y": v, "p": 1}) + "\n" for v in (0, 1, 2**63 - 1)))
    b.write_text("".join(json.dumps({"y": v, "p": 1}) + "\n" for v in (2**64 - 1, 1)))
    rows = []
    for path in (a, b):
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        rows.append({"y": [r["y"] for r in lines], "p": [r["p"] for r in lines]})
    cm, _ = cio.evaluate_file(str(tmp_path / "*.jsonl"), "y", "p")
    labels, table = _oracle(rows)
    assert [int(v) for v in cm.labels] == labels and np.array_equal(cm.counts, table)
    (tmp_path / "c.jsonl").write_text(json.dumps({"y": 1.5, "p": 1}) + "\n")
    with pytest.raises(ValueError, match=r"column 'y' is .* but DOUBLE in"):
        cio.evaluate_file(str(tmp_path / "*.jsonl"), "y", "p")


def test_arrow_ipc_files_of_mixed_types(tmp_path):
    """Arrow IPC: pyarrow's dataset reads every file with the first one's schema (text "01"
    would be parsed into the integer 1). Integer widths are unified (counted as pyarrow reads
    each file); text against integers is refused."""
    feather = pytest.importorskip("pyarrow.feather")
    files = {"a.arrow": (pa.array([0, 1, 1], pa.int8()), pa.array([1, 1, 0], pa.int8())),
             "b.arrow": (pa.array([300, 1], pa.int64()), pa.array([1, 300], pa.uint32()))}
    rows = []
    for fname, (y, p) in files.items():
        feather.write_feather(pa.table({"y": y, "p": p}), tmp_path / fname)
        back = feather.read_table(tmp_path / fname)
        rows.append({"y": back["y"].to_pylist(), "p": back["p"].to_pylist()})
    cm, rep = cio.evaluate_file(str(tmp_path), "y", "p")
    labels, table = _oracle(rows)
    assert cm.labels == labels and np.array_equal(cm.counts, table) and rep.rows_read == 5
    feather.write_feather(pa.table({"y": pa.array(["1", "01"]), "p": pa.array(["1", "1"])}),
                          tmp_path / "c.arrow")
    with pytest.raises(ValueError, match=r"column 'y' is TINYINT in .* but string in .*c\.arrow"):
        cio.evaluate_file(str(tmp_path), "y", "p")


def test_binary_label_columns_are_refused_by_name_and_decoded_ones_counted(tmp_path):
    """A Parquet column of bytes (BLOB to DuckDB): DuckDB hands its values over as mutable
    bytearrays, which gave "unhashable type: 'bytearray'". Refused naming the column and
    the type; the same bytes decoded in the query of evaluate_sql are counted as the text
    pyarrow reads back (scikit-learn's confusion_matrix on the decoded values)."""
    import duckdb
    import pyarrow as pa
    import pyarrow.parquet as pq
    from sklearn.metrics import confusion_matrix

    import confmat.io as cio

    y, p = [b"ham", b"spam", b"ham", b"ham"], [b"ham", b"ham", b"spam", b"ham"]
    path = tmp_path / "blob.parquet"
    pq.write_table(pa.table({"y": pa.array(y, pa.binary()), "p": pa.array(p, pa.binary())}),
                   path)
    with pytest.raises(ValueError, match=r"column 'y' holds binary values \(type BLOB\)"):
        cio.evaluate_file(path, "y", "p")
    back = pq.read_table(path).to_pydict()
    yt, pt = [v.decode() for v in back["y"]], [v.decode() for v in back["p"]]
    con = duckdb.connect()
    cm, _ = cio.evaluate_sql(con, f"SELECT decode(y) AS y, decode(p) AS p FROM "
                                  f"read_parquet('{path}')", true_col="y", pred_col="p")
    assert cm.labels == ["ham", "spam"]
    assert cm.counts.tolist() == confusion_matrix(yt, pt, labels=["ham", "spam"]).tolist()
